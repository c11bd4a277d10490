# Issue 15 row 3: the supervisor killed mid-session. With
# "on_supervisor_loss": "deny" (and in CI mode) the next exec and write fail
# with the configured errno and a clear message; by default they proceed,
# and the process says so once, loudly.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" secrets
hooks='"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && { echo no >&2; exit 2; }; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && exit 2; exit 0"}]}]}'
echo "{\"hookshim\":{\"on_supervisor_loss\":\"deny\"},$hooks}" >deny.json
echo "{$hooks}" >allow.json
# The agent has its supervisor (hookshim run, its parent) killed, waits
# for it to be gone, then tries a denied-by-policy command and a write.
# The kill comes from outside the session (run_killed): inside, the
# floor refuses it (tests/security/supervisor_reach.sh).
cat > agent.sh <<'S'
echo $PPID > kill.req
while kill -0 $PPID 2>/dev/null; do sleep 0.05; done
bash -c 'rm -rf victim'; echo "rm-rc=$?"
bash -c 'echo P > secrets/k'; echo "write-rc=$?"
bash -c 'echo P > other'; echo "other-rc=$?"
echo P > own; echo "own-rc=$?"
S
# For the warning: one process, three writes after the loss.
cat > agent1.sh <<'S'
echo $PPID > kill.req
while kill -0 $PPID 2>/dev/null; do sleep 0.05; done
echo 1 > w1; echo 2 > w2; echo 3 > w3
S

# hookshim run ARGS... in the background, killed when its agent asks
run_killed() {
	rm -f kill.req
	"$HOOKSHIM" run "$@" &
	local bg=$! i
	for i in $(seq 400); do
		if [ -s kill.req ]; then kill -9 "$(cat kill.req)"; rm -f kill.req; break; fi
		kill -0 $bg 2>/dev/null || break
		sleep 0.05
	done
	wait $bg
}

touch victim
run_killed --no-notices -c deny.json -- bash agent.sh >out.txt 2>&1
sleep 0.5
out=$(cat out.txt)
check "deny mode: the command did not run" test -e victim
expect_contains "deny mode: the command fails as a denied one" "$out" "rm-rc=126"
expect_contains "deny mode: says why" "$out" "supervisor unreachable (connect); denying (on_supervisor_loss: deny)"
check "deny mode: nothing written in secrets/" test ! -e secrets/k
check "deny mode: no tool call at all" test ! -e other
expect_contains "deny mode: the agent's own write fails" "$out" "own: Permission denied"
check "deny mode: and leaves nothing" test ! -e own

rm -f other
run_killed --no-notices --ci -c allow.json -- bash agent.sh >out.txt 2>&1
sleep 0.5
check "CI mode implies deny" test -e victim
expect_contains "CI mode: the command is refused" "$(cat out.txt)" "rm-rc=126"

run_killed --no-notices -c allow.json -- bash agent.sh >out.txt 2>&1
sleep 0.5
out=$(cat out.txt)
check "allow mode (default): the command ran" test ! -e victim
expect_contains "allow mode: told loudly" "$out" "WARNING: supervisor unreachable"
expect_contains "allow mode: says how to fail closed" "$out" '"on_supervisor_loss": "deny"'
run_killed --no-notices -c allow.json -- bash agent1.sh >out.txt 2>&1
sleep 0.5
expect_eq "allow mode: one warning for a process's three unchecked writes" 1 "$(grep -c 'WARNING: supervisor unreachable' out.txt)"
check "allow mode: the writes happened" test -s w3
