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
for k in redir trunc pyopen mvdir mvonto mvaway ln sed rm bb bbtrunc bbmv bbln root; do
	case "$out" in *"$k=0"*) fail "$k went through";; *"$k="*) pass "$k denied";; *) fail "$k: no result";; esac
done
expect_contains "benign write unaffected" "$out" "benign=0"
expect_contains "benign rename unaffected" "$out" "benign2=0"
check "the policy still holds: rm -rf denied" test -e victim
expect_eq "protected files unchanged (content, inode)" "$before" "$(tree)"
check "the log was not truncated" test -s hooks.jsonl
check "no second name of the hook script" test ! -e h -a ! -e h3
expect_contains "the reason names the file and why" "$(cat err.txt)" \
	"$PWD/hooks/guard.sh is part of this session's policy (hook script of PreToolUse[Bash]#1); it cannot be changed during the session"
expect_contains "the log records the denial" "$(cat hooks.jsonl)" "part of this session's policy"
