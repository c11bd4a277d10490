# Issue 15 row 9 (first half): writes.follow_symlinks resolves a path the
# way the kernel walks it, component by component: "l/../f" with
# l -> secrets/sub is secrets/f (".." of the symlink's target), not ./f.
# The shim (bash, python) and the floor (a static busybox) both.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "follow ..: jq missing"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secrets/sub"; echo keep > "$ROOT/secrets/old"
ln -s secrets/sub "$ROOT/l"
ln -s secrets/sub/gone "$ROOT/dangling"     # O_CREAT through it creates secrets/sub/gone
ln -s ../../secrets/sub "$ROOT/secrets/sub/up" 2>/dev/null
cat > "$TMP/hooks.json" <<J
{"hookshim":{"writes":{"follow_symlinks":true}},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %Y' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
hsrun() { ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/hooks.json" "$@" ) >"$TMP/out" 2>"$TMP/err"; }

before=$(tree_hash)
hsrun -- bash -c 'echo P > l/../f; echo P > "$PWD/l/../old"; echo P > dangling; echo P >> l/../../secrets/old; echo ok > l/../../benign'
expect_eq "shim: l/../f and friends change nothing in secrets/" "$before" "$(tree_hash)"
expect_contains "shim: the denial names secrets/f" "$(cat "$TMP/err")" "$ROOT/secrets/f denied"
expect_contains "shim: the dangling symlink is judged at its target" "$(cat "$TMP/err")" "$ROOT/secrets/sub/gone denied"
expect_eq "shim: a benign write through the same symlink lands" ok "$(cat "$ROOT/benign" 2>/dev/null)"
check "shim: no ./f appeared either (the lexical reading)" test ! -e "$ROOT/f"

hsrun -- python3 -c 'import os
for p in ("l/../f", "l/../sub/x"):
    try: os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)
    except PermissionError: pass'
expect_eq "shim: python's os.open the same" "$before" "$(tree_hash)"

BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	hsrun -- "$BB" sh -c 'echo P > l/../f; echo P > dangling; echo P >> l/../old; echo ok > l/../../bb'
	if grep -q "no syscall floor" "$TMP/err"; then
		skip "follow .., floor: $(grep 'no syscall floor' "$TMP/err")"
	else
		expect_eq "floor: a static busybox's l/../f changes nothing" "$before" "$(tree_hash)"
		expect_contains "floor: the reason names secrets/f" "$(cat "$TMP/err")" "$ROOT/secrets/f denied"
		expect_eq "floor: the benign write lands" ok "$(cat "$ROOT/bb" 2>/dev/null)"
	fi
else
	skip "follow .., floor: busybox-static not installed"
fi
