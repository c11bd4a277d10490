# Issue 15: hooks never wedge the session. A PreToolUse hook that hangs
# (`bash -c 'sleep 1000'`, under the default 600 s timeout) and a SIGTERM
# to `hookshim run`: it exits within 2 s, the pending call is denied, and
# no process of the session is left (by /proc scan for a variable every
# process of the session inherits, and by the hook's process group).
# lane: alone -- SIGTERM ends a wedged session within 2 s
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
cat > hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo $$ > hook.pid; bash -c 'sleep 1000'"}]}]}}
J
mark=wedge-$$-$RANDOM
left() { # pids of processes still carrying our mark
	grep -lsa "HS_WEDGE_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/environ|\1|' | grep -vx "$$" || true
}

# The agent's tool call waits on the hook.
echo 'bash -c "echo ran > ran.txt"' >agent.sh
HS_WEDGE_MARK=$mark timeout 60 "$HOOKSHIM" run --no-notices -c hooks.json -- \
	bash agent.sh 2>err.txt &
run=$!
for _ in $(seq 100); do [ -s hook.pid ] && break; sleep 0.05; done
check "the hook is running" test -s hook.pid
hookpid=$(cat hook.pid 2>/dev/null)
t0=$(date +%s%N)
kill -TERM $run
wait $run
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
check "hookshim run exited within 2 s of SIGTERM (${ms} ms)" test "$ms" -lt 2000
check "the pending command never ran" test ! -e ran.txt
sleep 0.2
expect_eq "no process of the session left" "" "$(left)"
# (its members were SIGKILLed; give their reaper a moment)
gone() { for _ in $(seq 40); do kill -0 -- "-$1" 2>/dev/null || return 0; sleep 0.05; done; return 1; }
check "the hook's process group is gone" gone "${hookpid:-1}"

# SIGTERM while `hookshim run -- bash -c STR` itself is being judged (the
# hook runs before any agent exists).
rm -f hook.pid
HS_WEDGE_MARK=$mark timeout 60 "$HOOKSHIM" run --no-notices -c hooks.json -- \
	bash -c 'echo ran > ran3.txt' 2>err3.txt &
run=$!
for _ in $(seq 100); do [ -s hook.pid ] && break; sleep 0.05; done
t0=$(date +%s%N); kill -TERM $run; wait $run; t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
check "judging the command itself: exit within 2 s of SIGTERM (${ms} ms)" test "$ms" -lt 2000
check "judging the command itself: it never ran" test ! -e ran3.txt
sleep 0.2
expect_eq "judging the command itself: nothing left" "" "$(left)"

# SIGTERM at any moment of the start, 60 times at random delays: a hook
# spawned just after the session began to end (its decision started
# before) is killed too, so no run waits on it (it once hung until the
# hook's own 600 s timeout).
HS_WEDGE_MARK=$mark python3 - "$HOOKSHIM" >early.txt <<'PY'
import random, signal, subprocess, sys, time
hung = 0
for i in range(60):
    p = subprocess.Popen([sys.argv[1], "run", "--no-notices", "-c", "hooks.json",
                          "--", "bash", "-c", "echo ran > ran4.txt"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(random.random() * 0.03)
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        hung += 1
        p.kill()
        p.wait()
print("hung=%d" % hung)
PY
expect_eq "SIGTERM at random moments of the start: no run hangs" "hung=0" "$(cat early.txt)"
check "  ... and the judged command never ran" test ! -e ran4.txt
sleep 0.2
expect_eq "  ... and nothing is left" "" "$(left)"

# A hook past its timeout: killed with its group, the call proceeds.
cat > slow.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","timeout":1,"command":"echo $$ > hook2.pid; bash -c 'sleep 1000'"}]}]}}
J
echo 'bash -c "echo ran > ran2.txt"' >agent2.sh
HS_WEDGE_MARK=$mark timeout 60 "$HOOKSHIM" run --no-notices -c slow.json -- \
	bash agent2.sh 2>err2.txt
check "a timed-out hook does not block the call" test -s ran2.txt
sleep 0.2
expect_eq "the timed-out hook left nothing" "" "$(left)"

# start_agent ERR ARG...: hookshim run ARG... in the background, with the
# mark, until its agent wrote started.txt; its pid in $run
start_agent() {
	local err=$1
	shift
	rm -f started.txt
	HS_WEDGE_MARK=$mark "$HOOKSHIM" run --no-notices "$@" 2>"$err" &
	run=$!
	for _ in $(seq 100); do [ -s started.txt ] && break; sleep 0.05; done
}
# term_agent: SIGTERM to $run, and the ms until it ended in $ms
term_agent() {
	local t0 t1
	t0=$(date +%s%N); kill -TERM $run; wait $run; t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
}

# An agent that ignores SIGTERM (and takes its children with it: one in
# the background, one in a session of its own) must not hold the
# session: a second after the signal it and everything under it are
# killed, and hookshim run is gone within 2 s (it used to wait for the
# agent for as long as it ran).
start_agent err5.txt -c /dev/null -- bash -c \
	'trap "" TERM; sleep 300 & setsid sleep 301 & echo started > started.txt; sleep 302'
check "the agent that ignores SIGTERM started" test -s started.txt
term_agent
check "an agent ignoring SIGTERM: hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "  ... and nothing of its tree is left" "" "$(left)"

# Enforce mode takes the session's orphans (floor/floor_orphans.c): a
# process that left the agent's tree (a subshell's background sleep, the
# subshell gone) is the supervisor's, and a SIGTERM kills it with the
# agent; guard mode leaves such a process to init (docs/limits.md).
cat > allow.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}
J
start_agent err6.txt --enforce -c allow.json -- bash -c \
	'trap "" TERM; (sleep 303 &); echo started > started.txt; sleep 302'
check "enforce: the agent with an orphan started" test -s started.txt
orphan=
for p in $(left); do
	[ "$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)" = "sleep 303 " ] && orphan=$p
done
expect_eq "enforce: ... the orphan is the supervisor's" "$run" \
	"$( [ -n "$orphan" ] && ps -o ppid= -p "$orphan" | tr -d ' ')"
term_agent
check "enforce: hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "  ... and nothing is left, the orphan neither" "" "$(left)"

# ... and where the agent ends at the signal, the orphan it left is
# killed all the same, before hookshim run ends (nothing of the session
# is left)
start_agent err7.txt --enforce -c allow.json -- bash -c \
	'(sleep 313 &); echo started > started.txt; sleep 312'
check "enforce: an agent that ends at SIGTERM, with an orphan, started" test -s started.txt
term_agent
check "enforce: ... hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
expect_eq "  ... and its orphan is not left, once hookshim run has ended" "" "$(left)"

# ... however many there are: 600 orphans, all killed (a list of 1,024
# processes and 512 orphans left 89 of them running)
start_agent err8.txt --enforce -c allow.json -- bash -c \
	'python3 -c "
import os, time
for i in range(600):
    if os.fork() == 0:
        time.sleep(323)
        os._exit(0)
"; echo started > started.txt; sleep 322'
check "enforce: an agent with 600 orphans started" test -s started.txt
term_agent
check "enforce: ... hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "  ... and none of the 600 is left" "" "$(left | head -3)"

# ... and however they move: an orphan that forks its successor and
# ends, over and over, is killed all the same (the kills once came to
# each generation's pid after it had gone, its successor never listed)
: > mover.lock
start_agent err9.txt --enforce -c allow.json -- bash -c \
	"bash -c '$HOOKSHIM_PROBES/orphan_mover_static 20 1000 mover.lock &'; echo started > started.txt; sleep 324"
check "enforce: an agent with a moving orphan started" test -s started.txt
sleep 1.5
check "  ... it holds its lock" bash -c '! flock -n -x mover.lock true'
term_agent
check "enforce: ... hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
free_lock() { for _ in $(seq 20); do flock -n -x mover.lock true && return 0; sleep 0.1; done; return 1; }
check "  ... and the moving orphan is not left (its lock is free)" free_lock
# (one left ends by itself within 20 s)

# An agent that stops (its own SIGSTOP, a tool call's `kill -STOP
# $PPID`, SIGTSTP) where no terminal's job control is there to see it
# (here, CI): hookshim run stopped itself to mirror it, and then took
# no SIGTERM until a SIGCONT came, every call of the session waiting
# (session 38's attack run). The stop is mirrored only for the terminal
# whose foreground job hookshim run is; elsewhere the agent stays
# stopped and a SIGTERM ends the session, in both modes.
for mode in guard enforce; do
	for stop in "kill -STOP \$\$" "bash -c 'kill -TSTP \$PPID'"; do
		start_agent err10.txt --$mode -c allow.json -- bash -c \
			"sleep 305 & echo started > started.txt; $stop; sleep 306"
		check "$mode, \`$stop\`: the agent started" test -s started.txt
		sleep 0.5
		expect_eq "  ... hookshim run did not stop with it" "S" \
			"$(ps -o stat= -p $run | cut -c1 | tr R S)"
		term_agent
		check "  ... a SIGTERM ends it within 2 s (${ms} ms)" test "$ms" -lt 2000
		for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
		expect_eq "  ... and nothing is left" "" "$(left)"
		rm -f started.txt
	done
done

# ... a SessionStart hook's daemon too: the orphans were taken only at
# the agent's start, after SessionStart, and one outlived a SIGTERM
# (session 38's attack run)
cat > start-daemon.json <<'J'
{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"setsid sleep 331 >/dev/null 2>&1 </dev/null & exit 0"}]}],
 "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}
J
start_agent err11.txt --enforce -c start-daemon.json -- bash -c 'echo started > started.txt; sleep 332'
check "enforce: an agent after a SessionStart hook's daemon started" test -s started.txt
term_agent
check "  ... hookshim run exited within 2 s (${ms} ms)" test "$ms" -lt 2000
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "  ... and the daemon is not left" "" "$(left)"
