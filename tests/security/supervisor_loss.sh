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

# CI mode implies deny in the shim too where there is no floor: the
# session's flags were made before CI's settings (session 38's attack
# run: after the supervisor was killed, secrets/ was written under --ci
# with "floor": "off")
echo "{\"hookshim\":{\"floor\":\"off\"},$hooks}" >nofloor.json
touch victim; rm -f secrets/k
run_killed --no-notices --ci -c nofloor.json -- bash agent.sh >out.txt 2>&1
sleep 0.5
check "CI mode, no floor: the command did not run" test -e victim
check "CI mode, no floor: nothing written in secrets/" test ! -e secrets/k
expect_contains "CI mode, no floor: says why" "$(cat out.txt)" "denying (on_supervisor_loss: deny)"

# A process one descriptor short of its limit: the shim has none to ask
# with. It was taken for a lost supervisor, and a write the hook denies
# landed in guard mode (session 38's attack run). Under the floor the
# call goes to the floor; without one it fails EMFILE.
cat > fdlimit.py <<'P'
import os, resource, errno
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
fds = []
try:
    while True: fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError: pass
os.close(fds.pop())                              # one descriptor free
try:
    os.close(os.open("secrets/fd", os.O_WRONLY | os.O_CREAT)); print("fd: landed")
except OSError as e: print("fd:", errno.errorcode[e.errno])
P
rm -f secrets/fd
out=$("$HOOKSHIM" run --no-notices --guard -c allow.json -- python3 fdlimit.py 2>&1)
check "guard, one descriptor free: the denied write did not land" test ! -e secrets/fd
expect_contains "guard, one descriptor free: the floor denied it" "$out" "fd: EACCES"
expect_not_contains "guard, one descriptor free: no lost supervisor said" "$out" "unreachable"
rm -f secrets/fd
out=$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" run --no-notices --guard -c allow.json -- python3 fdlimit.py 2>&1)
check "guard, no floor, one descriptor free: the denied write did not land" test ! -e secrets/fd
expect_contains "guard, no floor, one descriptor free: it fails EMFILE" "$out" "fd: EMFILE"
expect_contains "  ... and says why" "$out" "no descriptor left to ask the supervisor with"
