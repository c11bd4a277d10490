# Issue 15 row 2: the supervisor is killed and something else binds its
# abstract socket and answers "allow" (fresh, or a replay of an answer the
# real supervisor gave). The shim and hookshim's helpers believe only the
# process HOOKSHIM_FLAGS names (pid and start time, checked with
# SO_PEERCRED and /proc): a forged supervisor is a lost one. In deny mode
# the next exec and write fail with the configured errno and the tree is
# unchanged; in allow mode the user is told, once.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v python3 >/dev/null || { skip "forged_supervisor: no python3"; exit 0; }
export HOME=$TMP/home; mkdir -p "$HOME"
FORGE=$HOOKSHIM_TOP/tests/security/forged_supervisor.py
hooks='"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && { echo no >&2; exit 2; }; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && exit 2; exit 0"}]}]}'
echo "{\"hookshim\":{\"on_supervisor_loss\":\"deny\",\"deny_errno\":\"EPERM\"},$hooks}" >deny.json
echo "{$hooks}" >allow.json

# The agent: capture a real answer while the supervisor lives (asking it
# is fine), have it killed (from outside the session, run_killed: inside,
# the floor refuses it, tests/security/supervisor_reach.sh), put the
# forger in its place, then push.
cat > agent.sh <<S
python3 $FORGE capture $TMP/captured || echo capture-failed
/usr/bin/python3 $FORGE serve $TMP/forger.log \$REPLAY > $TMP/forger.out 2>&1 &
for i in \$(seq 200); do grep -q waiting $TMP/forger.out 2>/dev/null && break; sleep 0.05; done
echo \$PPID > $TMP/kill.req
while kill -0 \$PPID 2>/dev/null; do sleep 0.05; done
for i in \$(seq 200); do grep -q ready $TMP/forger.out 2>/dev/null && break; sleep 0.05; done
bash -c 'rm -rf victim'; echo "rm-rc=\$?"
echo P > secrets/k; echo "write-rc=\$?"
echo 1 > w1; echo 2 > w2; echo "own-rc=\$?"
for i in \$(seq 100); do test -s $TMP/forger.log && break; sleep 0.05; done
kill %1
touch $TMP/done
S

# hookshim run ARGS... in the background (the cwd proj), killed when its
# agent asks
run_killed() {
	rm -f "$TMP/kill.req"
	(cd proj && exec "$HOOKSHIM" run "$@") &
	local bg=$! i
	for i in $(seq 400); do
		if [ -s "$TMP/kill.req" ]; then
			kill -9 "$(cat "$TMP/kill.req")"; rm -f "$TMP/kill.req"; break
		fi
		kill -0 $bg 2>/dev/null || break
		sleep 0.05
	done
	wait $bg
}

# hookshim run dies with its agent still running: wait for the agent.
wait_agent() { for _ in $(seq 300); do [ -e "$TMP/done" ] && return; sleep 0.05; done; note "agent did not finish"; }
tree_hash() { (cd proj && find . -printf '%p %s %m\n' | sort; find . -type f -exec sha256sum {} + | sort) | sha256sum; }
# The forger outlives the agent when the agent's own `kill %1` does not
# reach it (its supervisor gone, the agent's calls may be denied): no
# process of this test may stay behind.
forgers_gone() { pkill -f "forged_supervisor.py serve $TMP/" 2>/dev/null; true; }
trap 'forgers_gone; rm -rf "$TMP"' EXIT
setup() {
	forgers_gone
	rm -rf proj "$TMP/done" "$TMP/forger.log" "$TMP/forger.out" "$TMP/captured"
	mkdir -p proj/secrets; echo S > proj/secrets/f; touch proj/victim
}

for mode in fresh replay; do
	setup
	before=$(tree_hash)
	if [ $mode = replay ]; then export REPLAY=$TMP/captured; else export REPLAY=; fi
	run_killed --no-notices -c ../deny.json -- bash ../agent.sh >out.txt 2>&1
	wait_agent
	out=$(cat out.txt)
	[ $mode = replay ] && check "replay: the real supervisor answered the capture" test -s "$TMP/captured"
	check "$mode, deny mode: the forger was asked" test -s "$TMP/forger.log"
	expect_eq "$mode, deny mode: the tree is unchanged" "$before" "$(tree_hash)"
	expect_contains "$mode, deny mode: the command is refused" "$out" "rm-rc=126"
	expect_contains "$mode, deny mode: the write fails with the configured errno" "$out" "secrets/k: Operation not permitted"
	expect_contains "$mode, deny mode: so does any write" "$out" "w1: Operation not permitted"
	expect_contains "$mode, deny mode: says why" "$out" "not the session's supervisor); denying (on_supervisor_loss: deny)"
done

# A PATH wrapper (hookshim itself, consulting the session; no shim at
# all here) believes the forger no more than the shim does.
cat > wagent.sh <<S
/usr/bin/python3 $FORGE serve $TMP/forger.log > $TMP/forger.out 2>&1 &
for i in \$(seq 200); do grep -q waiting $TMP/forger.out 2>/dev/null && break; sleep 0.05; done
echo \$PPID > $TMP/kill.req
while kill -0 \$PPID 2>/dev/null; do sleep 0.05; done
for i in \$(seq 200); do grep -q ready $TMP/forger.out 2>/dev/null && break; sleep 0.05; done
rm -rf victim; echo "wrapped-rc=\$?"
for i in \$(seq 100); do test -s $TMP/forger.log && break; sleep 0.05; done
kill %1
touch $TMP/done
S
setup
# The floor off: without it a lost supervisor's trapped syscalls fail
# (ENOSYS) whatever the wrapper says; the wrapper is what is tested here.
echo "{\"hookshim\":{\"on_supervisor_loss\":\"deny\",\"floor\":\"off\",\"wrap\":[\"rm\"]},$hooks}" >wrap.json
HOOKSHIM_LIB= run_killed --no-notices -c ../wrap.json -- bash ../wagent.sh >out.txt 2>&1
wait_agent
out=$(cat out.txt)
check "wrapper: the forger was asked" test -s "$TMP/forger.log"
check "wrapper, deny mode: rm did not run" test -e proj/victim
expect_contains "wrapper: names the forger" "$out" "is not the session's supervisor; ignored"
expect_contains "wrapper, deny mode: refused" "$out" "wrapped-rc=126"

# Allow mode: the forger's answers are ignored as a lost supervisor's,
# the calls proceed, and the user is told once per process.
setup
export REPLAY=
run_killed --no-notices -c ../allow.json -- bash ../agent.sh >out.txt 2>&1
wait_agent
out=$(cat out.txt)
check "allow mode: the forger was asked" test -s "$TMP/forger.log"
expect_contains "allow mode: told loudly" "$out" "WARNING: supervisor unreachable (not the session's supervisor)"
expect_contains "allow mode: the calls proceed" "$out" "own-rc=0"
# The agent's shell makes three writes after the rm: told once.
expect_eq "allow mode: a process is told once" 1 \
	"$(sed -n '/^rm-rc=/,/^own-rc=/p' out.txt | grep -c "ALLOWED unchecked")"
check "allow mode: the agent's writes happened" test -s proj/w2
