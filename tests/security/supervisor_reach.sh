# Issue 23: the supervisor and its hooks are out of the session's reach.
# From inside a session (a policy with a write hook: the floor is
# installed), as root and as an unprivileged user, the agent tries to
# ptrace, read or write the memory of, take a descriptor from, set a
# limit on, stop and kill the supervisor and a running hook (which
# sleeps, so the agent can find it), and to signal the hook's process
# group and the supervisor's. Every call is refused (EPERM, the reason
# on stderr and in the log), the hook runs to its verdict, the tool call
# it decides is allowed, and the session ends in bounded time with no
# process left behind. Signals among the agent's own processes still
# work, and a `kill 0` with a signal the supervisor catches still ends
# the session as before. Without the floor an unprivileged agent still
# cannot ptrace or write into the supervisor (it is not dumpable).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
chmod 755 "$TMP"
W=$TMP/w; mkdir -p "$W/hooks"; chmod 777 "$W"

# The hook: on `touch slow`, says who it is and sleeps, then allows.
cat > "$W/hooks/guard.sh" <<'S'
#!/bin/sh
in=$(cat)
case $in in *"touch slow"*)
	echo "$$ $(ps -o pgid= -p $$ | tr -d ' ')" > "$CLAUDE_PROJECT_DIR/hook.pid.tmp"
	mv "$CLAUDE_PROJECT_DIR/hook.pid.tmp" "$CLAUDE_PROJECT_DIR/hook.pid"
	sleep 3;;
esac
exit 0
S
chmod 755 "$W/hooks/guard.sh"
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash|Write","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]}]}}
J

# reach.py PID NAME [nosignals]: every way into PID; one line each, "NAME
# call=errno" (0: it went through). mem: open(2) through the shim, which
# leaves another process's /proc entry to the floor; rawmem and memlink
# (a symlink to it): raw openat, never seen by the shim.
cat > "$W/reach.py" <<'S'
import ctypes, os, signal, socket, sys
pid, name = int(sys.argv[1]), sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
def say(call, r):
    print("%s %s=%d" % (name, call, 0 if r >= 0 else ctypes.get_errno()), flush=True)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(8)
loc = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)
rem = iovec(0x10000, 8)
r = libc.ptrace(16, pid, 0, 0)                      # PTRACE_ATTACH
say("ptrace", r)
if r == 0:
    os.waitpid(pid, 0x40000000)                    # __WALL
    libc.ptrace(17, pid, 0, 0)                     # PTRACE_DETACH
say("process_vm_writev", libc.process_vm_writev(pid, ctypes.byref(loc), 1, ctypes.byref(rem), 1, 0))
say("process_vm_readv", libc.process_vm_readv(pid, ctypes.byref(loc), 1, ctypes.byref(rem), 1, 0))
try:
    os.close(os.open("/proc/%d/mem" % pid, os.O_RDWR)); print(name, "mem=0", flush=True)
except OSError as e:
    print(name, "mem=%d" % e.errno, flush=True)
# through a symlink of our own, and by a raw openat (no shim)
say("rawmem", libc.syscall(257, -100, ("/proc/%d/mem" % pid).encode(), os.O_RDWR, 0))
os.symlink("/proc/%d/mem" % pid, "memlink")
say("memlink", libc.syscall(257, -100, b"memlink", os.O_WRONLY, 0))
os.unlink("memlink")
try:
    pfd = os.pidfd_open(pid)
except OSError:
    pfd = os.pidfd_open(pid, 0x80)                 # PIDFD_THREAD: a thread's
say("pidfd_getfd", libc.syscall(438, pfd, 0, 0))
# perf_event_open of its CPU time (PERF_TYPE_SOFTWARE, TASK_CLOCK,
# disabled, user only): a sampling event of it would read its stack
attr = (ctypes.c_uint64 * 16)()
attr[0] = 1 | (128 << 32)                         # type, size
attr[1] = 1                                        # config
attr[5] = 1 | (1 << 5) | (1 << 6)                  # disabled, excl. kernel, hv
say("perf", libc.syscall(298, ctypes.byref(attr), pid, -1, -1, 0))
if len(sys.argv) > 3:
    sys.exit(0)   # no signals
say("pidfd_send_signal", libc.syscall(424, pfd, signal.SIGTERM, None, 0))
class rlimit(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
old = rlimit()
if libc.prlimit(pid, 7, None, ctypes.byref(old)) == 0:    # RLIMIT_NOFILE
    new = rlimit(3, old.max)
    r = libc.prlimit(pid, 7, ctypes.byref(new), None)
    say("prlimit", r)
    if r == 0:
        libc.prlimit(pid, 7, ctypes.byref(old), None)
for sig, what in ((signal.SIGSTOP, "stop"), (signal.SIGKILL, "kill")):
    r = libc.kill(pid, sig)
    say(what, r)
    if r == 0 and sig == signal.SIGSTOP:
        os.kill(pid, signal.SIGCONT)
say("tgkill", libc.syscall(234, int(os.environ.get("TGID", pid)), pid, signal.SIGKILL))
# a descriptor's owner, whom its I/O would signal with what F_SETSIG
# picks (SIGSTOP stopped the supervisor, which then ended at no SIGTERM);
# set only to be refused: nothing is written after
r, w = os.pipe()
say("setown", libc.fcntl(r, 8, pid))                       # F_SETOWN
ex = (ctypes.c_int * 2)(1, pid)                            # F_OWNER_PID
say("setown_ex", libc.fcntl(r, 15, ctypes.byref(ex)))      # F_SETOWN_EX
a, b = socket.socketpair()
v = ctypes.c_int(pid)
say("fiosetown", libc.ioctl(a.fileno(), 0x8901, ctypes.byref(v)))  # FIOSETOWN
say("siocspgrp", libc.ioctl(a.fileno(), 0x8902, ctypes.byref(v)))  # SIOCSPGRP
say("setown_group", libc.fcntl(r, 8, -os.getpgid(pid)))     # its process group
S

# The agent: the supervisor ($PPID of the agent's shell), then a hook
# deciding a tool call in the background, then its process group and
# the supervisor's; last, its own child, which must still be killable.
cat > "$W/agent.sh" <<'S'
cd "$(dirname "$0")"
sup=$PPID
python3 reach.py "$sup" sup
# one of its threads (a receiver): the kernel takes a thread's id for
# its process in kill and prlimit64 (`kill -USR2` of one ended the
# session until session 28)
th=$(ls "/proc/$sup/task" | grep -vx "$sup" | head -1)
TGID=$sup python3 reach.py "${th:-$sup}" supthread
bash -c 'touch slow' &
slow=$!
for i in $(seq 100); do [ -s hook.pid ] && break; sleep 0.05; done
read hp hg < hook.pid
python3 reach.py "$hp" hook
kill -KILL -- "-$hg"; echo "hookgroup kill=$?"
kill -STOP 0; echo "owngroup stop=$?"
wait $slow; echo "slow=$?"
sleep 30 & kid=$!
kill -KILL $kid; wait $kid; echo "own kid=$?"
echo "end"
S

# refused NAME OUTPUT "TARGET CALL": the call was refused (EPERM from
# the floor or the kernel, EACCES from the kernel for what is not
# dumpable); any other errno (EFAULT: the address we name is no mapping
# of theirs) means it got past every check
refused() {
	if grep -qE "^$3=(1|13)\$" <<<"$2"; then pass "$1"; else
		fail "$1"; note "got: $(grep "^$3=" <<<"$2")"; fi
}

# session AS: root, or a uid of its own (nothing else runs as it, so
# what is left behind is ours to find and end)
session() { # as mode [env...]
	local as=$1 mode=$2; shift 2
	rm -f "$W/hook.pid" "$W/slow" "$W/log.jsonl"
	if [ "$as" = root ]; then
		(cd "$W" && env "$@" timeout -k 5 60 "$HOOKSHIM" run --$mode --no-notices \
			-c policy.json --log log.jsonl -- bash agent.sh >out.txt 2>err.txt)
	else
		(cd "$W" && env "$@" timeout -k 5 60 setpriv --reuid="$as" --regid="$as" \
			--clear-groups "$HOOKSHIM" run --$mode --no-notices -c policy.json \
			--log log.jsonl -- bash agent.sh >out.txt 2>err.txt)
	fi
	echo $?
}

# The session's processes still there after it ended: those working in
# $W (the agent, its children, the hooks), and as the unprivileged uid
# anything of that uid. Ended, by their pids, if any.
mine() {
	local d c
	for d in /proc/[0-9]*; do
		c=$(readlink "$d/cwd" 2>/dev/null) || continue
		[ "$c" = "$W" ] && echo "${d#/proc/}"
	done
	[ "$1" != root ] && pgrep -u "$1"
}
leftovers() { # as
	local p
	for i in $(seq 50); do
		p=$(mine "$1")
		[ -z "$p" ] && return 0
		sleep 0.1
	done
	ps -o pid,uid,cmd -p "$(echo $p | tr ' ' ,)"
	for x in $p; do kill -KILL "$x" 2>/dev/null; done
	return 1
}

UNPRIV=$(( 61000 + RANDOM % 1000 ))
while pgrep -u "$UNPRIV" >/dev/null; do UNPRIV=$((UNPRIV + 1)); done
for as in root "$UNPRIV"; do
	who=$([ $as = root ] && echo root || echo unprivileged)
	for mode in guard enforce; do
		t0=$SECONDS
		rc=$(session $as $mode)
		out=$(cat "$W/out.txt"); err=$(cat "$W/err.txt"); log=$(cat "$W/log.jsonl" 2>/dev/null)
		for target in sup supthread hook; do
			for call in ptrace process_vm_writev process_vm_readv mem memlink rawmem \
				    pidfd_getfd perf pidfd_send_signal prlimit stop kill tgkill \
				    setown setown_ex fiosetown siocspgrp setown_group; do
				refused "$who $mode: $call of the $target is refused" "$out" "$target $call"
			done
		done
		expect_contains "$who $mode: SIGKILL to the hook's group is refused" "$out" "hookgroup kill=1"
		expect_contains "$who $mode: SIGSTOP to the supervisor's group is refused" "$out" "owngroup stop=1"
		expect_contains "$who $mode: the hook ran to its verdict: the call was allowed" "$out" "slow=0"
		check "$who $mode: the allowed call ran" test -e "$W/slow"
		expect_contains "$who $mode: the agent's own child can still be killed" "$out" "own kid=137"
		expect_contains "$who $mode: the agent ran to its end" "$out" "end"
		expect_contains "$who $mode: the reason is on stderr" "$err" \
			"hookshim: kill of signal 9 to the hookshim supervisor (pid "
		expect_contains "$who $mode: a hook's refusal says so" "$err" "of a hook of the session (pid $(cut -d' ' -f1 "$W/hook.pid" 2>/dev/null))"
		expect_contains "$who $mode: the log records the refusal" "$log" '"operation":"ptrace","decision":"deny"'
		expect_not_contains "$who $mode: the supervisor still answers as itself" "$err" "supervisor"" unreachable"
		expect_eq "$who $mode: hookshim run exits as the agent did" 0 "$rc"
		check "$who $mode: ended in bounded time ($((SECONDS - t0)) s)" test $((SECONDS - t0)) -lt 30
		if left=$(leftovers $as); then pass "$who $mode: nothing left behind"
		else fail "$who $mode: nothing left behind"; note "$left"; fi
	done
done

# `kill 0` with SIGTERM (caught by the supervisor) still ends the session
# as it always did: the agent gets the SIGTERM passed on.
cat > "$W/term.sh" <<'S'
trap 'echo got-term; exit 143' TERM
kill -TERM 0
sleep 5; echo not-ended
S
out=$(cd "$W" && timeout 30 "$HOOKSHIM" run --no-notices -c policy.json -- bash term.sh 2>&1)
expect_contains "kill 0 with SIGTERM still reaches the agent" "$out" "got-term"
expect_not_contains "kill 0 with SIGTERM is not refused" "$out" "refused"

# kill(-1): every process of the user, the supervisor among them. Only
# as a uid of our own (as root it would reach the host).
cat > "$W/all.sh" <<'S'
kill -KILL -1; echo "all=$?"
S
out=$(cd "$W" && timeout -k 5 30 setpriv --reuid="$UNPRIV" --regid="$UNPRIV" --clear-groups \
	"$HOOKSHIM" run --no-notices -c policy.json -- bash all.sh 2>&1)
expect_contains "kill -1 from the session is refused" "$out" "all=1"
expect_contains "kill -1: the reason" "$out" "to every process (-1) refused"
leftovers "$UNPRIV" >/dev/null

# Without the floor, an unprivileged agent still cannot ptrace, read or
# write the supervisor: it is not dumpable (signals need the floor).
cat > "$W/nofloor.sh" <<'S'
python3 reach.py $PPID sup nosignals
S
out=$(cd "$W" && HOOKSHIM_TEST_NO_FLOOR=1 timeout -k 5 30 setpriv --reuid="$UNPRIV" \
	--regid="$UNPRIV" --clear-groups "$HOOKSHIM" run --no-notices -c policy.json \
	-- bash nofloor.sh 2>&1)
for call in ptrace process_vm_writev process_vm_readv mem rawmem memlink pidfd_getfd; do
	refused "no floor, unprivileged: $call of the supervisor fails" "$out" "sup $call"
done
leftovers "$UNPRIV" >/dev/null

# The bare session's supervisor (`LD_PRELOAD=libhookshim.so CMD`, no
# floor: `hookshim __supervise`, named by HOOKSHIM_FLAGS p=) is not
# dumpable either.
cat > "$W/bare.sh" <<'S'
p=$(echo "$HOOKSHIM_FLAGS" | sed -n 's/.*,p=\([0-9]*\).*/\1/p')
echo "bare supervisor: $(cat /proc/$p/comm 2>/dev/null)"
python3 reach.py "$p" sup nosignals
S
out=$(cd "$W" && HOME=$W timeout -k 5 30 setpriv --reuid="$UNPRIV" --regid="$UNPRIV" \
	--clear-groups env LD_PRELOAD="$HOOKSHIM_LIB" HOOKSHIM_CONFIG="$W/policy.json" \
	bash bare.sh 2>&1)
expect_contains "bare session: its supervisor found" "$out" "bare supervisor: hookshim"
for call in ptrace process_vm_writev process_vm_readv mem rawmem pidfd_getfd; do
	refused "bare session, unprivileged: $call of the supervisor fails" "$out" "sup $call"
done
if left=$(leftovers "$UNPRIV"); then pass "bare session: nothing left behind"
else fail "bare session: nothing left behind"; note "$left"; fi

# A hook's payload cannot be read away: its stdin is a sealed file, so
# the agent opening /proc/<hook>/fd/0 reads a copy (before: a pipe, which
# it drained, and the hook judged an empty payload and allowed).
cat > "$W/hooks/late.sh" <<'S'
#!/bin/sh
echo "$$" > "$CLAUDE_PROJECT_DIR/late.pid.tmp"
mv "$CLAUDE_PROJECT_DIR/late.pid.tmp" "$CLAUDE_PROJECT_DIR/late.pid"
sleep 1
case $(cat) in *"touch late"*) echo "late: denied" >&2; exit 2;; esac
exit 0
S
chmod 755 "$W/hooks/late.sh"
cat > "$W/late.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash|Write","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/late.sh"}]}]}}
J
cat > "$W/late_agent.sh" <<'S'
cd "$(dirname "$0")"
bash -c 'touch late' & bg=$!
for i in $(seq 100); do [ -s late.pid ] && break; sleep 0.05; done
python3 -c '
import os
p = open("late.pid").read().strip()
try:
    fd = os.open("/proc/%s/fd/0" % p, os.O_RDONLY)
except OSError as e:
    print("open=%d" % e.errno)
    raise SystemExit(0)
got = b""
while True:
    b = os.read(fd, 65536)
    if not b: break
    got += b
print("read away: %d bytes" % len(got))
try:
    os.write(os.open("/proc/%s/fd/0" % p, os.O_WRONLY), b"{}")
    print("payload written")
except OSError as e:
    print("payload write=%d" % e.errno)
'
wait $bg; echo "late=$?"
S
sed 's/^{/{"hookshim":{"floor_userns":"off"},/' "$W/late.json" > "$W/late-off.json"
# unprivileged twice: in enforce mode's user namespace, and without it
# (the floor's own refusal of the write, below)
for run in root "$UNPRIV" "$UNPRIV:off"; do
	as=${run%:off}; pol=late; [ "$run" != "$as" ] && pol=late-off
	who=$([ $as = root ] && echo root || echo unprivileged)
	[ $pol = late-off ] && who="$who, no user namespace"
	rm -f "$W/late.pid" "$W/late"
	if [ $as = root ]; then
		out=$(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices \
			-c late.json -- bash late_agent.sh 2>&1)
	else
		out=$(cd "$W" && timeout -k 5 60 setpriv --reuid="$as" --regid="$as" \
			--clear-groups "$HOOKSHIM" run --enforce --no-notices -c $pol.json \
			-- bash late_agent.sh 2>&1)
	fi
	# not root, in enforce mode the agent has a user namespace of its
	# own (floor/floor_userns.c): nothing outside it may be ptraced, so
	# the hook's /proc/PID/fd is closed to it altogether
	if [ $as != root ] && [ $pol = late ] &&
		setpriv --reuid="$as" --regid="$as" --clear-groups \
		unshare -U --map-current-user true 2>/dev/null; then
		expect_contains "$who: in its user namespace the agent cannot open the hook's stdin" \
			"$out" "open=13"
	else
		expect_contains "$who: the agent read the hook's stdin" "$out" "read away: "
		expect_contains "$who: the payload cannot be written" "$out" "payload write="
	fi
	expect_contains "$who: the hook still got its payload and denied" "$out" "late: denied"
	check "$who: the denied command did not run" test ! -e "$W/late"
	leftovers "$as" >/dev/null
done

# A process outside the session (session 38's attack run: root attached
# to the shell that started `hookshim run`, had it run `rm -rf` and write
# secrets/, no hook asked): attaching to it, its memory read or written,
# a descriptor of it taken are refused in both modes, as root and as a
# user, unless "floor_allow" names "outside_processes"; the agent's own
# child stays the agent's to trace.
cat > "$W/outside_agent.sh" <<'S'
cd "$(dirname "$0")"
python3 reach.py "$OUTSIDE" out nosignals
sleep 30 & kid=$!
python3 reach.py "$kid" kid nosignals
kill $kid
# a tool call's background process, its shell gone: in guard mode init's
# (the session's orphans are not taken there), still the session's
o=$(mktemp)
( sleep 31 & echo $! > "$o" )
python3 reach.py "$(cat "$o")" orph nosignals
kill "$(cat "$o")"; rm -f "$o"
S
echo '{"hookshim":{"floor_allow":["outside_processes"]},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 0"}]}]}}' > "$W/outside-ok.json"
for as in root "$UNPRIV"; do
	who=$([ $as = root ] && echo root || echo unprivileged)
	if [ $as = root ]; then AS=(); else AS=(setpriv --reuid="$as" --regid="$as" --clear-groups); fi
	"${AS[@]}" sleep 60 & outside=$!
	sleep 0.1 # (it started before the sessions: a clock tick apart)
	for mode in guard enforce; do
		out=$(cd "$W" && OUTSIDE=$outside timeout -k 5 60 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices \
			-c policy.json -- bash outside_agent.sh 2>&1)
		for call in ptrace process_vm_writev process_vm_readv mem rawmem pidfd_getfd; do
			refused "$who $mode: $call of a process outside the session is refused" "$out" "out $call"
		done
		expect_contains "$who $mode: ... said, with the setting that allows it" "$out" \
			"ptrace of pid $outside refused: it runs outside the session"
		expect_contains "$who $mode: its own child is the agent's to trace" "$out" "kid ptrace=0"
		[ $mode = guard ] &&
			expect_contains "$who guard: ... and its own orphan, init's now (the review)" "$out" "orph ptrace=0"
		out=$(cd "$W" && OUTSIDE=$outside timeout -k 5 60 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices \
			-c outside-ok.json -- bash outside_agent.sh 2>&1)
		# allowed, the kernel's own answer: an unprivileged agent in a
		# user namespace of its own (enforce mode) may not attach to a
		# process outside it, nor open its memory -- not even through
		# the supervisor's open of it, which is not in that namespace
		if [ $as != root ] && [ $mode = enforce ] &&
			"${AS[@]}" unshare -U --map-current-user true 2>/dev/null; then
			expect_contains "$who $mode: \"outside_processes\" allowed: the kernel refuses ptrace (its user namespace)" \
				"$out" "out ptrace=1"
			expect_contains "$who $mode: ... and the supervisor opens it no memory the kernel would not" \
				"$out" "out rawmem=13"
		else
			expect_contains "$who $mode: \"outside_processes\" allowed: it is let through" "$out" "out ptrace=0"
			expect_contains "$who $mode: ... its memory too" "$out" "out rawmem=0"
		fi
	done
	kill $outside 2>/dev/null; wait $outside 2>/dev/null || :
done

# A character pushed into the terminal's input (ioctl TIOCSTI) is read
# by whoever reads that terminal -- the shell that started `hookshim run`,
# which ran it once the session ended (session 38's review: `touch
# PWNED` typed so ran outside the session, both modes). Refused unless
# "outside_processes" is allowed.
cat > "$W/sti.py" <<'P'
import fcntl, termios, sys
try:
    for c in ("touch %s/PWNED_OUTSIDE\n" % sys.argv[1]).encode():
        fcntl.ioctl(0, termios.TIOCSTI, bytes([c]))
    print("sti=0", flush=True)
except OSError as e:
    print("sti=%d" % e.errno, flush=True)
P
cat > "$W/drive.py" <<'P'
import os, pty, time, sys, select
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
def drain(t):
    end, out = time.time() + t, b""
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try: out += os.read(fd, 4096)
            except OSError: break
    return out
drain(1)
os.write(fd, ("cd %s; %s run --%s --no-notices -c %s -- python3 sti.py %s\n" % tuple(sys.argv[1:6])).encode())
out = drain(6)
os.write(fd, b"exit\n"); drain(1)
print(out.decode(errors="replace"))
P
for mode in guard enforce; do
	rm -f "$W/PWNED_OUTSIDE"
	out=$(timeout 30 python3 "$W/drive.py" "$W" "$HOOKSHIM" $mode "$W/policy.json" "$W" 2>&1)
	expect_contains "TIOCSTI, $mode: refused" "$out" "sti=1"
	check "TIOCSTI, $mode: nothing typed into the shell outside ran" test ! -e "$W/PWNED_OUTSIDE"
done
