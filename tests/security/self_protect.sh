# Issue 15 rows 4 and 12: the policy's own files (hook scripts, config
# files, the --log) cannot be changed by the agent during its session,
# whatever tool tries, and the root cannot be renamed away; writes
# elsewhere are unaffected. A Bash-only policy: the rule holds with no
# write hook at all.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" hooks
printf '#!/bin/sh\njq -r .tool_input.command | grep -q "rm -rf" && { echo no rm >&2; exit 2; }\nexit 0\n' > hooks/guard.sh
chmod +x hooks/guard.sh
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]}]}}' > policy.json
touch victim
tree() { cat hooks/guard.sh policy.json | sha256sum; ls -i hooks/guard.sh policy.json; }
before=$(tree)

out=$("$HOOKSHIM" check -c policy.json)
expect_contains "check lists the hook script" "$out" "protect $PWD/hooks/guard.sh  (hook script of PreToolUse[Bash]#1)"
expect_contains "check lists the config file" "$out" "protect $PWD/policy.json  (config file)"

cat > agent.sh <<'S'
printf '#!/bin/sh\nexit 0\n' > hooks/guard.sh; echo "redir=$?"
: > hooks.jsonl; echo "trunc=$?"
python3 -c 'import os; os.open("hooks/guard.sh", os.O_WRONLY | os.O_TRUNC)' 2>/dev/null; echo "pyopen=$?"
mv hooks hooks2 2>/dev/null; echo "mvdir=$?"
echo x > new; mv new hooks/guard.sh 2>/dev/null; echo "mvonto=$?"
mv policy.json p2 2>/dev/null; echo "mvaway=$?"
ln hooks/guard.sh h 2>/dev/null; echo "ln=$?"
sed -i 's/exit/true; exit/' hooks/guard.sh 2>/dev/null; echo "sed=$?"
rm -f hooks/guard.sh 2>/dev/null; echo "rm=$?"
busybox sh -c 'echo x > hooks/guard.sh' 2>/dev/null; echo "bb=$?"
busybox sh -c ': > hooks.jsonl' 2>/dev/null; echo "bbtrunc=$?"
busybox mv hooks hooks3 2>/dev/null; echo "bbmv=$?"
busybox ln hooks/guard.sh h3 2>/dev/null; echo "bbln=$?"
(cd .. && mv "$OLDPWD" "$OLDPWD.moved" 2>/dev/null); echo "root=$?"
echo ok > benign.txt; echo "benign=$?"
mkdir -p sub && echo ok > sub/b.txt && mv sub/b.txt sub/c.txt; echo "benign2=$?"
bash -c 'rm -rf victim'; echo "rmrf=$?"
S
out=$("$HOOKSHIM" run --no-notices -c policy.json --log hooks.jsonl -- bash agent.sh 2>err.txt)
each_denied "" "$out" redir trunc pyopen mvdir mvonto mvaway ln sed rm bb bbtrunc bbmv bbln root
expect_contains "benign write unaffected" "$out" "benign=0"
expect_contains "benign rename unaffected" "$out" "benign2=0"
check "the policy still holds: rm -rf denied" test -e victim
expect_eq "protected files unchanged (content, inode)" "$before" "$(tree)"
check "the log was not truncated" test -s hooks.jsonl
check "no second name of the hook script" test ! -e h -a ! -e h3
expect_contains "the reason names the file and why" "$(cat err.txt)" \
	"$PWD/hooks/guard.sh is part of this session's policy (hook script of PreToolUse[Bash]#1); it cannot be changed during the session"
expect_contains "the log records the denial" "$(cat hooks.jsonl)" "part of this session's policy"

# Issue 15 item 4: the mode, owner and extended attributes (ACLs) of a
# protected file. `chmod -x hooks/guard.sh` would make the hook fail to
# run (126), which allows; it is denied by the built-in rule, through
# whichever call makes it: coreutils (fchmodat), python's chmod and
# fchmod, chown to the same owner, setxattr, a symlink to the script, and
# under the floor a static busybox. A chmod of any other file is no event.
modes() { stat -c '%n %a %u:%g' hooks/guard.sh policy.json; cat hooks/guard.sh | sha256sum; }
before=$(modes)
touch plain; chmod 644 plain; ln -s hooks/guard.sh guard-link
cat > attrs.sh <<'S'
chmod -x hooks/guard.sh 2>/dev/null; echo "chmod=$?"
chmod -x guard-link 2>/dev/null; echo "chmodlink=$?"
chmod 600 policy.json 2>/dev/null; echo "chmodcfg=$?"
python3 -c 'import os; os.chmod("hooks/guard.sh", 0o644)' 2>/dev/null; echo "pychmod=$?"
python3 -c 'import os; os.fchmod(os.open("hooks/guard.sh", os.O_RDONLY), 0o644)' 2>/dev/null; echo "pyfchmod=$?"
python3 -c 'import os; os.chmod("hooks/guard.sh", 0o644, follow_symlinks=False)' 2>/dev/null; echo "pylchmod=$?"
chown "$(id -u):$(id -g)" hooks/guard.sh 2>/dev/null; echo "chown=$?"
python3 -c 'import os; os.chown("hooks/guard.sh", os.getuid(), os.getgid())' 2>/dev/null; echo "pychown=$?"
python3 -c '
import os
try: os.setxattr("hooks/guard.sh", "user.hookshim", b"1"); print("pyxattr=0")
except OSError as e: print("pyxattr=%d" % e.errno)'
[ -n "${SHIM_ONLY:-}" ] && exit 0  # a static program is the floor's alone
busybox chmod -x hooks/guard.sh 2>/dev/null; echo "bbchmod=$?"
busybox chown "$(id -u)" hooks/guard.sh 2>/dev/null; echo "bbchown=$?"
chmod 600 plain; echo "plain=$?"
python3 -c 'import os; os.chmod("plain", 0o604, follow_symlinks=False)'; echo "pylplain=$?"
busybox chmod 640 plain; echo "bbplain=$?"
S
out=$("$HOOKSHIM" run --no-notices -c policy.json --log attrs.jsonl -- bash attrs.sh 2>attrs-err.txt)
each_denied "" "$out" chmod chmodlink chmodcfg pychmod pyfchmod pylchmod chown pychown
expect_contains "setxattr denied (EACCES, not the file system's answer)" "$out" "pyxattr=13"
if grep -q "no syscall floor" attrs-err.txt; then
	skip "chmod under the floor: $(grep 'no syscall floor' attrs-err.txt)"
else
	each_denied "" "$out" bbchmod bbchown
fi
expect_eq "mode, owner and content of the protected files unchanged" "$before" "$(modes)"
expect_contains "the chmod's reason names the script and why" "$(cat attrs-err.txt)" \
	"$PWD/hooks/guard.sh is part of this session's policy (hook script of PreToolUse[Bash]#1); it cannot be changed during the session"
expect_contains "a chmod of another file works" "$out" "plain=0"
expect_contains "and one that does not follow a symlink (fchmodat2)" "$out" "pylplain=0"
expect_contains "and under the floor" "$out" "bbplain=0"
expect_eq "and it ends as busybox left it" 640 "$(stat -c %a plain)"
expect_eq "each denial is logged as a chmod, chown or setxattr" "chmod chown setxattr" \
	"$(jq -r 'select(.decision == "deny") | .operation' attrs.jsonl | sort -u | tr '\n' ' ' | sed 's/ $//')"
expect_eq "another file's chmod is no event" 0 "$(jq -c 'select(.path == "'"$PWD"'/plain")' attrs.jsonl | wc -l)"
# the shim's own interposers, not the floor behind them
out=$(SHIM_ONLY=1 HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" run --no-notices -c policy.json -- bash attrs.sh 2>/dev/null)
expect_eq "without the floor the shim denies every dynamic one" "chmod=1 chmodlink=1 chmodcfg=1 pychmod=1 pyfchmod=1 pylchmod=1 chown=1 pychown=1 pyxattr=13" \
	"$(echo "$out" | grep -E '^(chmod|chmodlink|chmodcfg|pychmod|pyfchmod|pylchmod|chown|pychown|pyxattr)=' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "protected files still unchanged" "$before" "$(modes)"

# As a user who owns the project (issue 23: as root and as an
# unprivileged user): the same attempts in guard and in enforce mode, and
# the mode and owner changes in guard mode (in enforce mode a hook that
# cannot run denies, so the floor does not watch chmod and chown).
if as_user self_protect; then
	rm -f h h3 guard-link; chown -R $AS_ID:$AS_ID .
	before=$(tree)
	for mode in guard enforce; do
		rm -f hooks.jsonl; touch victim
		out=$("${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json --log hooks.jsonl -- bash agent.sh 2>err.txt)
		each_denied "user $mode: " "$out" redir trunc pyopen mvdir mvonto mvaway ln sed rm bb bbtrunc bbmv bbln root
		expect_contains "user $mode: a benign write works" "$out" "benign=0"
		check "user $mode: the policy still holds: rm -rf denied" test -e victim
		expect_eq "user $mode: protected files unchanged (content, inode)" "$before" "$(tree)"
		check "user $mode: the log was not truncated" test -s hooks.jsonl
	done
	ln -s hooks/guard.sh guard-link
	before=$(modes)
	out=$("${AS[@]}" "$HOOKSHIM" run --guard --no-notices -c policy.json -- bash attrs.sh 2>attrs-err.txt)
	each_denied "user guard: " "$out" chmod chmodlink chmodcfg pychmod pyfchmod pylchmod chown pychown bbchmod bbchown
	expect_contains "user guard: setxattr denied" "$out" "pyxattr=13"
	expect_eq "user guard: mode, owner and content of the protected files unchanged" "$before" "$(modes)"
	expect_contains "user guard: a chmod of another file works" "$out" "bbplain=0"
fi
