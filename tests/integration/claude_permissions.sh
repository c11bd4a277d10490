# Claude Code's settings "permissions" hold under hookshim (issue 24,
# item 7): "deny" and "ask" rules for Bash(...), Write(...), Edit(...) and
# Read(...) judge every call hookshim sees -- bash, python, a static
# busybox -- as a pre hook with that "if" rule would, with the rule as the
# reason; a WebFetch rule judges connections (docs/network.md);
# disableAllHooks leaves them; `hookshim test` agrees with live.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME/.claude" proj/.claude proj/secrets
unset CI GITHUB_ACTIONS XDG_STATE_HOME
cd proj || exit 1
echo S > secrets/k; echo TOKEN=1 > .env
cat > .claude/settings.json <<'J'
{"permissions": {
   "allow": ["Bash(ls *)"],
   "deny": ["Bash(rm -rf *)", "Edit(secrets/**)", "Read(./.env)",
            "WebFetch(domain:example.com)"],
   "ask": ["Bash(git push *)"]},
 "disableAllHooks": true,
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
   {"type": "command", "command": "echo 'a hook ran' >&2; exit 2"}]}]}}
J
"$HOOKSHIM" trust >/dev/null

out=$("$HOOKSHIM" check --import claude 2>&1)
expect_contains "check lists the deny rule as a built-in" "$out" \
	"permissions.deny Bash(rm -rf *)"
# WebFetch rules judge the commands' connections (docs/network.md)
expect_not_contains "a WebFetch rule is no dead rule: connections are calls" "$out" \
	'WebFetch(...) names a tool none'
out=$("$HOOKSHIM" test --import claude PreToolUse --tool WebFetch \
	--input '{"url":"https://example.com/"}' 2>&1)
expect_eq "test: WebFetch(domain:example.com) denies a connection to it" 2 "$?"
expect_contains "... with the rule as the reason" "$out" "WebFetch(domain:example.com)"
expect_contains "disableAllHooks is said" "$out" "disableAllHooks is true: no hooks loaded from it"
expect_not_contains "allow rules are not hooks" "$out" "permissions.allow"

cat > agent.sh <<'A'
bash -c 'rm -rf secrets'; echo "rm=$?"
bash -c 'echo x > secrets/k'; echo "write=$?"
busybox sh -c 'echo x > secrets/k2'; echo "static=$?"
python3 -c 'open(".env").read()' 2>/dev/null; echo "read=$?"
bash -c 'git push origin main 2>/dev/null'; echo "push=$?"
bash -c 'echo fine > ok.txt'; echo "ok=$?"
A
out=$("$HOOKSHIM" run --import claude -- bash agent.sh 2>err.txt)
expect_contains "deny Bash(rm -rf *): the command is denied (126)" "$out" "rm=126"
check "deny Bash(rm -rf *): nothing was removed" test -e secrets/k
expect_contains "deny Edit(secrets/**): a shell write is denied" "$out" "write=1"
expect_contains "deny Edit(secrets/**): a static busybox too (the floor)" "$out" "static=1"
expect_eq "the protected file is intact" "S" "$(cat secrets/k)"
check "nothing new under secrets/" test ! -e secrets/k2
expect_contains "deny Read(./.env): python's read is denied" "$out" "read=1"
expect_contains "ask Bash(git push *): nobody to ask, ask_default denies" "$out" "push=126"
expect_contains "what no rule names runs" "$out" "ok=0"
expect_contains "the reason names the rule and its file" "$(cat err.txt)" \
	"denied by the permissions.deny rule Bash(rm -rf *) ($TMP/proj/.claude/settings.json)"
expect_not_contains "disableAllHooks: the file's hook did not run" "$(cat err.txt)" "a hook ran"

"$HOOKSHIM" test --import claude PreToolUse --tool Bash --command 'rm -rf /tmp/x' >t.txt 2>&1
expect_eq "test: the deny rule denies as live" 2 "$?"
expect_contains "test: with the rule as the reason" "$(cat t.txt)" "permissions.deny rule Bash(rm -rf *)"
"$HOOKSHIM" test --import claude PreToolUse --tool Bash --command 'ls -l' >/dev/null 2>&1
expect_eq "test: a command no rule names is allowed" 0 "$?"

# a rule that is not one is an error at its line:col
cat > bad.json <<'J'
{"permissions": {"deny": ["Bash(rm", 7]}}
J
out=$("$HOOKSHIM" check -c bad.json 2>&1)
expect_contains "a malformed rule: error at its place" "$out" \
	'bad.json:1:27: permissions.deny[0] must look like Tool(pattern)'
expect_contains "a non-string rule: error at its place" "$out" \
	'bad.json:1:38: permissions.deny[1] must look like Tool(pattern)'
