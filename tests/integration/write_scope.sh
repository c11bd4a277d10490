# A hook's path filter that names a place outside the root makes that
# place watched (issue 24, items 1 and 2): Write(~/.ssh/**) and
# Write(//etc-like/**) rules fire for bash redirections, python and a
# static busybox outside the root, `hookshim test` agrees with live, and
# `check` prints the effective write scope. A place no rule names stays
# outside (no hook asked), as before.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME/.ssh" proj elsewhere/etc-like
unset CI GITHUB_ACTIONS
cd proj || exit 1
abs=$TMP/elsewhere/etc-like
cat > p.json <<J
{"hooks": {"PreToolUse": [
  {"matcher": "Write|Edit", "hooks": [
    {"type": "command", "command": "echo 'no ssh keys' >&2; exit 2", "if": "Write(~/.ssh/**)"},
    {"type": "command", "command": "echo 'no system files' >&2; exit 2", "if": "Edit(/$abs/**)"}]}]}}
J

out=$("$HOOKSHIM" check -c p.json 2>&1)
expect_contains "check: the write scope names the home rule" "$out" \
	"writes judged: under the root, $TMP/proj; ~/.ssh/** (\"if\" of p.json's PreToolUse hook); /$abs/** (\"if\" of p.json's PreToolUse hook)"
expect_contains "check: no warning for these rules" "$out" "0 errors, 0 warnings"

cat > agent.sh <<A
echo key >> ~/.ssh/authorized_keys; echo "bash=\$?"
python3 -c 'open("$HOME/.ssh/config", "a").write("Host *\n")' 2>/dev/null; echo "python=\$?"
busybox sh -c 'echo k > $HOME/.ssh/id_x'; echo "static=\$?"
echo x > $abs/passwd; echo "abs=\$?"
echo fine > $TMP/elsewhere/other.txt; echo "other=\$?"
echo fine > inside.txt; echo "inside=\$?"
A
out=$("$HOOKSHIM" run -c p.json -- bash agent.sh 2>err.txt)
expect_contains "bash >> ~/.ssh/authorized_keys: denied" "$out" "bash=1"
expect_contains "python's open() under ~/.ssh: denied" "$out" "python=1"
expect_contains "a static busybox under ~/.ssh: denied (the floor)" "$out" "static=1"
expect_contains "an absolute Edit(//...) rule: denied" "$out" "abs=1"
expect_contains "a place no rule names: still outside, written" "$out" "other=0"
expect_contains "inside the root: no rule matches, written" "$out" "inside=0"
check "nothing reached ~/.ssh" test -z "$(ls -A "$HOME/.ssh")"
check "nothing reached the absolute place" test ! -e "$abs/passwd"
expect_contains "the reason reaches the program" "$(cat err.txt)" "no ssh keys"
expect_contains "the absolute rule's reason" "$(cat err.txt)" "no system files"

# hookshim test decides as live: the same calls are asked now
"$HOOKSHIM" test -c p.json PreToolUse --tool Write \
	--input "{\"file_path\":\"$HOME/.ssh/authorized_keys\"}" >out.txt 2>&1
expect_eq "test: a write under ~/.ssh is denied as live" 2 "$?"
expect_not_contains "test: not 'no request live' any more" "$(cat out.txt)" "no request live"
"$HOOKSHIM" test -c p.json PreToolUse --tool Write \
	--input "{\"file_path\":\"$TMP/elsewhere/other.txt\"}" >out.txt 2>&1
expect_eq "test: a place no rule names is allowed" 0 "$?"
expect_contains "test: and says no request is live for it" "$(cat out.txt)" "no request live"
