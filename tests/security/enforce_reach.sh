# Issue 23: in enforce mode a judged command's process is out of reach of
# any process of the session that is not a command's itself
# (floor/floor_reach.c). What runs in a command is nested -- its execs no
# tool calls, its reads no Reads -- on the word of the hook that judged its
# text. The agent's own process attaching to it (ptrace) and making it
# exec `bash -c 'rm -rf victim'` in place of what it was doing ran that
# unjudged, and so did one that traced the command's exec from before it
# (PTRACE_TRACEME, PTRACE_SEIZE) and let go before the grant was settled;
# reading or writing its memory (process_vm_*, /proc/PID/mem, also
# through a symlink) or taking its descriptors (pidfd_getfd,
# /proc/PID/fd/N) gave the agent's process what the hook let the command
# alone have. Enforce mode refuses each, with why; guard mode, which
# trusts the session's processes, lets them be (shown, so that the
# attacks are seen to work). A command reaching into its own child (a
# debugger a tool call runs) goes on in both modes. Root and an
# unprivileged user. Every spelling of a command's /proc/PID/fd/N (from
# a descriptor of /proc/PID, "//", a symlink), a pidfd_getfd whose
# pidfd number another thread flips (to a command's, to the
# supervisor's: its seccomp listener), perf_event_open of a command.
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "enforce reach"
P=$HOOKSHIM_PROBES/reach_static_command
[ -x "$P" ] || { skip "enforce reach: probe not built"; exit 0; }
[ "$(uname -m)" = x86_64 ] || { skip "enforce reach: the probe's injection is x86_64's"; exit 0; }
# Yama's ptrace_scope 2 and 3 let no one without CAP_SYS_PTRACE attach
YAMA=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
[ "$YAMA" -le 1 ] || { skip "enforce reach: Yama's ptrace_scope is $YAMA here"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "enforce reach: enforce mode cannot run here"; exit 0; }

W=$TMP/w
mkdir -p "$W"
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
# the same with a Read hook: reads of files are judged, /proc/PID/mem's too
cat > "$W/read.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]},{"matcher":"Read","hooks":[{"type":"command","command":"exit 0"}]}]}}
J
# the agent's python, the parent of a tool call's shell, opening that
# shell's memory by its name and through symlinks to it and to its /proc
# directory, once the shell runs (its exec judged)
cat > "$W/mem.py" <<'PY'
import os, subprocess, sys, time
c = subprocess.Popen(["bash", "-c", "sleep 2; true"])
bash = os.path.realpath("/bin/bash")
for _ in range(500):
    try:
        if os.path.realpath("/proc/%d/exe" % c.pid) == bash:
            break
    except OSError:
        pass
    time.sleep(0.02)
os.symlink("/proc/%d/mem" % c.pid, "l")
os.symlink("/proc/%d" % c.pid, "d")
for n in ["/proc/%d/mem" % c.pid, "l", "d/mem"]:
    try:
        os.close(os.open(n, os.O_RDWR if sys.argv[1] == "w" else os.O_RDONLY))
        print(n, "ok")
    except OSError as e:
        print(n, e.strerror)
c.kill()
c.wait()
PY
echo 'read -rt 0.2 <> <(:); echo "rc=$?"' > "$W/rsleep.sh"
chmod -R a+rX "$W"
# what the injected exec runs: from the environment, so that no command
# line the hook is shown holds it
export RM_CMD='rm -rf victim'

# run_case MODE POLICY CMD [PREFIX...]: stdout to $TMP/out, stderr to $TMP/err
run_case() {
	local mode=$1 pol=$2 cmd=$3
	shift 3
	rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"
	chmod -R a+rwX "$W/root"
	(cd "$W/root" && timeout -k 5 60 "$@" "$HOOKSHIM" run "$mode" \
		--no-notices -c "$W/$pol" -- bash -c "exec $cmd") >"$TMP/out" 2>"$TMP/err"
}
victim() { if [ -e "$W/root/victim" ]; then echo held; else echo landed; fi; }

rows() { # TAG PREFIX...
	local tag=$1 c m r got why
	shift
	# the attack: the agent (a static program) attaches to its tool
	# call's shell and has it exec what no hook saw
	run_case --enforce policy.json "$P inject \"\$RM_CMD\"" "$@"
	expect_eq "enforce$tag: the agent attaching to a judged command runs nothing in it" held "$(victim)"
	expect_contains "enforce$tag: ... refused, said" "$(cat "$TMP/err")" \
		"hookshim: ptrace of pid"
	run_case --guard policy.json "$P inject \"\$RM_CMD\"" "$@"
	expect_eq "guard$tag: ... the attack works (guard's trust model)" landed "$(victim)"
	# held from before its exec and let go after it: no command made
	for c in traceme seize; do
		run_case --enforce policy.json "$P $c \"\$RM_CMD\"" "$@"
		expect_eq "enforce$tag: a judged exec traced from before it ($c), let go after: no command made" \
			held "$(victim)"
		expect_contains "enforce$tag: ... what it then runs judged" "$(cat "$TMP/err")" "no rm -rf here"
		run_case --guard policy.json "$P $c \"\$RM_CMD\"" "$@"
		expect_eq "guard$tag: ... the attack works (guard's trust model)" landed "$(victim)"
	done
	# each call into a judged command's process, from the agent's; its
	# descriptor by every spelling of /proc/PID/fd/N: relative to a
	# descriptor of /proc/PID or from it as the working directory, up
	# from /proc/self, with "//" or "./.." in it, through task/TID, by a
	# symlink to it; its stdin pipe opened to read or O_PATH (neither
	# notified without a Read hook), then reopened for writing; a perf
	# event of it
	for c in ptrace readv writev mem fd getfd fdat fdcwd fdup fdslash fddot fdtask fdlink \
		 fdro fdpath perf; do
		case $c in
		fdro|fdpath) why="a read-only open of a judged command's pipe is not seen" ;;
		perf) why="that is not a judged command's opens no performance events" ;;
		*) why="runs a judged command, which no process of the session but a command's may reach into" ;;
		esac
		run_case --enforce policy.json "$P reach $c" "$@"
		expect_contains "enforce$tag: $c into a judged command refused" \
			"$(cat "$TMP/err")" "$c: Operation not permitted"
		expect_contains "enforce$tag: ... said" "$(cat "$TMP/err")" "$why"
		run_case --guard policy.json "$P reach $c" "$@"
		expect_contains "guard$tag: $c into a command goes on" "$(cat "$TMP/err")" "$c: ok"
	done
	# pidfd_getfd by the number of a pidfd of the agent's own that a
	# second thread flips to the shell's and back: the look at the
	# number came before the kernel's take of it (a take of 1 in 3 on
	# the build before); now the take is the supervisor's, through the
	# pidfd it looked at
	run_case --enforce policy.json "$P race 2000" "$@"
	expect_contains "enforce$tag: pidfd_getfd by a number flipped to a judged command's: nothing of the command's taken" \
		"$(cat "$TMP/err")" "race: got 0 of the shell's"
	run_case --guard policy.json "$P race 2000" "$@"
	got=$(sed -n 's/^race: got \([0-9]*\) .*/\1/p' "$TMP/err")
	expect_eq "guard$tag: ... the command's taken, the flip seen (guard's trust model)" \
		yes "$([ "${got:-0}" -gt 0 ] && echo yes || echo "no: ${got:-no race line}")"
	# a command's own pipe reopened for reading and writing (bash's
	# sleep without a program, `read -t` from `<> <(:)`): its own, so
	# it goes on, and times out
	run_case --enforce policy.json "bash -c 'bash $W/rsleep.sh'" "$@"
	expect_contains "enforce$tag: a command's read -t <> <(:) times out as without hookshim" \
		"$(cat "$TMP/out")" "rc=142"
	# through a symlink to its /proc/PID directory: the floor's walk
	# takes no magic link on the way (ELOOP), nothing opened
	run_case --enforce policy.json "$P reach fddir" "$@"
	expect_not_contains "enforce$tag: its descriptor through a symlink to its /proc/PID: not opened" \
		"$(cat "$TMP/err")" "fddir: ok"
	expect_contains "enforce$tag: ... said by the call" "$(cat "$TMP/err")" "fddir: "
	run_case --guard policy.json "$P reach fddir" "$@"
	expect_contains "guard$tag: ... opened" "$(cat "$TMP/err")" "fddir: ok"
	# reading its memory where reads are judged (without a Read hook no
	# read is, and a command's memory holds nothing a read could not)
	run_case --enforce read.json "$P reach memr" "$@"
	expect_contains "enforce$tag: /proc/PID/mem read from a judged command refused (a Read hook)" \
		"$(cat "$TMP/err")" "memr: Operation not permitted"
	run_case --guard read.json "$P reach memr" "$@"
	expect_contains "guard$tag: ... goes on" "$(cat "$TMP/err")" "memr: ok"
	# its stdin pipe opened to read where reads are judged: its script's
	# bytes cannot be read away before it reads them
	run_case --enforce read.json "$P reach fdr" "$@"
	expect_contains "enforce$tag: a judged command's pipe opened to read refused (a Read hook)" \
		"$(cat "$TMP/err")" "fdr: Operation not permitted"
	run_case --guard read.json "$P reach fdr" "$@"
	expect_contains "guard$tag: ... goes on" "$(cat "$TMP/err")" "fdr: ok"
	# by name and through symlinks, from the agent's python
	run_case --enforce policy.json "python3 $W/mem.py w" "$@"
	expect_eq "enforce$tag: a judged command's /proc/PID/mem, by name and by symlinks, refused for writing" \
		"3" "$(grep -c 'Operation not permitted' "$TMP/out")"
	# for reading by its name (floor_read.c); through a symlink where
	# the supervisor makes the open itself, which it may leave to the
	# kernel (docs/floor.md: "left to the kernel")
	run_case --enforce read.json "python3 $W/mem.py r" "$@"
	expect_contains "enforce$tag: ... and for reading by its name (a Read hook)" \
		"$(head -n 1 "$TMP/out")" "Operation not permitted"
	run_case --guard policy.json "python3 $W/mem.py w" "$@"
	expect_eq "guard$tag: ... opened" "3" "$(grep -c ' ok$' "$TMP/out")"
	# a command reaching into its own child: its own code, let be
	for m in --enforce --guard; do
		for c in ptrace writev mem getfd perf; do
			run_case $m policy.json "bash -c '$P reach $c'" "$@"
			expect_contains "${m#--}$tag: a command's $c into its own child goes on" \
				"$(cat "$TMP/err")" "$c: ok"
		done
		run_case $m policy.json "bash -c '$P inject \"\$RM_CMD\"'" "$@"
		expect_eq "${m#--}$tag: a command's debugger has its child run what it likes" landed "$(victim)"
	done
}

rows ""
# the same flip to a pidfd of the supervisor, whose seccomp listener a
# root agent took so (1 in 6 on the build before, in both modes): with
# it, every decision of the session is the agent's. As a user the
# kernel refuses it already (the supervisor is not dumpable).
for m in --enforce --guard; do
	run_case $m policy.json "$P racesup 2000"
	expect_contains "${m#--}: pidfd_getfd by a number flipped to the supervisor's: its listener never taken" \
		"$(cat "$TMP/err")" "race: got 0 of the supervisor's"
	expect_contains "${m#--}: ... refused, said" "$(cat "$TMP/err")" \
		"pidfd_getfd of the hookshim supervisor"
done
# every process's events on a CPU (root's: the kernel refuses a user
# where perf_event_paranoid is above 0) would sample judged commands'
# and the supervisor's stacks too: refused in enforce mode
run_case --enforce policy.json "$P reach perfall"
expect_contains "enforce: perf_event_open of every process on a CPU refused, said" \
	"$(cat "$TMP/err")" "opens no performance events"
expect_contains "enforce: ... refused" "$(cat "$TMP/err")" "perfall: Operation not permitted"
run_case --guard policy.json "$P reach perfall"
expect_contains "guard: ... opened (guard's trust model)" "$(cat "$TMP/err")" "perfall: ok"
# the take is the supervisor's, the right to it the caller's: a process
# that became another user takes nothing of root's (the kernel's EPERM)
# nor of its own child once that is not dumpable, and goes on taking
# from its own child and from itself (the script on its stdin: $TMP is
# root's alone)
cat > "$W/take.py" <<'PY'
import ctypes, os, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
def take(pid):
    fd = libc.syscall(438, os.pidfd_open(pid), 1, 0)
    print("take:", "ok" if fd >= 0 else os.strerror(ctypes.get_errno()), flush=True)
if sys.argv[1] == "nodump":
    # a child of its own user that is not dumpable: the kernel's EPERM;
    # then itself, not dumpable: its own, taken
    c = subprocess.Popen([sys.executable, "-c",
        "import ctypes,time; ctypes.CDLL(None).prctl(4, 0); print(flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE)
    c.stdout.readline()
    take(c.pid)
    c.kill()
    libc.prctl(4, 0)
    take(os.getpid())
else:
    take(int(sys.argv[1]))
PY
# (from its own child, by a file the user may read: a program on its
# stdin would make the python a hand-off's, which reaches into no
# command's process, its own child judged as one)
TK=$(mktemp -d /tmp/hs-take.XXXXXX); chmod 755 "$TK"; cp "$W/take.py" "$TK/"; chmod 644 "$TK/take.py"
cat > "$W/takes.sh" <<S
sleep 30 & s=\$!
setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 - \$s <$W/take.py
setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'sleep 30 & /usr/bin/python3 $TK/take.py \$!; kill \$!'
setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 - nodump <$W/take.py
kill \$s
S
chmod a+r "$W/take.py" "$W/takes.sh"
for m in --enforce --guard; do
	run_case $m policy.json "bash $W/takes.sh"
	expect_eq "${m#--}: pidfd_getfd as another user: of a root process, the kernel's EPERM; of its own child, taken; of a child not dumpable, EPERM; of itself not dumpable, taken" \
		"take: Operation not permitted|take: ok|take: Operation not permitted|take: ok" \
		"$(grep '^take:' "$TMP/out" | paste -sd'|')"
done
rm -rf "$TK"
if as_user "enforce reach"; then
	rows " as a user" "${AS[@]}"
fi
