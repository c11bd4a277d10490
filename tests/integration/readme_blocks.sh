# The README's runnable code blocks (issue 26: "every command in it run by
# a test"): each ```sh block after a "<!-- runnable" comment runs, in the
# README's order, in one fresh git project with hookshim on PATH; every
# line must run (no "command not found", no usage error) and what the
# README says each shows is checked.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" "$TMP/bin"
unset CI GITHUB_ACTIONS XDG_STATE_HOME
command -v jq >/dev/null && command -v git >/dev/null ||
	{ skip "readme blocks: jq or git missing"; exit 0; }
ln -s "$HOOKSHIM" "$TMP/bin/hookshim"
export PATH=$TMP/bin:$PATH
mkdir proj && cd proj || exit 1
git init -q -b main && git config user.email t@hookshim.test &&
	git config user.name t && git commit -q --allow-empty -m one
awk '/^<!-- runnable/ { want = 1; next }
     want && /^```sh/ { inside = 1; n++; next }
     inside && /^```/ { inside = 0; want = 0; next }
     inside { print n "\t" $0 }' "$HOOKSHIM_TOP/README.md" > "$TMP/blocks"
expect_eq "the README has runnable blocks" 2 "$(cut -f1 "$TMP/blocks" | sort -u | grep -c .)"
for b in $(cut -f1 "$TMP/blocks" | sort -u); do
	sed -n "s/^$b\t//p" "$TMP/blocks" > "$TMP/block$b.sh"
	bash "$TMP/block$b.sh" > "$TMP/out$b" 2>&1
	out=$(cat "$TMP/out$b")
	expect_not_contains "block $b: every command exists" "$out" "command not found"
	expect_not_contains "block $b: no usage error" "$out" "usage: hookshim"
done
# what the blocks say they show
expect_contains "block 1: init wrote the policy" "$(cat "$TMP/out1")" "wrote .hookshim/hooks.json"
expect_contains "block 1: check is clean" "$(cat "$TMP/out1")" "0 errors, 0 warnings"
expect_contains "block 1: the test is denied (exit 2)" "$(cat "$TMP/out1")" "exit 2"
expect_contains "block 1: ...with the preset's reason" "$(cat "$TMP/out1")" "force-push is blocked by policy"
expect_contains "block 2: the log shows the denial" "$(cat "$TMP/out2")" "force-push is blocked by policy"
expect_contains "block 2: explain names the call" "$(cat "$TMP/out2")" "git push --force origin main"
