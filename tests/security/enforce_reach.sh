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
# unprivileged user.
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
	local tag=$1 c m r
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
	# each call into a judged command's process, from the agent's
	for c in ptrace readv writev mem fd getfd; do
		run_case --enforce policy.json "$P reach $c" "$@"
		expect_contains "enforce$tag: $c into a judged command refused" \
			"$(cat "$TMP/err")" "$c: Operation not permitted"
		expect_contains "enforce$tag: ... said" "$(cat "$TMP/err")" \
			"runs a judged command, which no process of the session but a command's may reach into"
		run_case --guard policy.json "$P reach $c" "$@"
		expect_contains "guard$tag: $c into a command goes on" "$(cat "$TMP/err")" "$c: ok"
	done
	# reading its memory where reads are judged (without a Read hook no
	# read is, and a command's memory holds nothing a read could not)
	run_case --enforce read.json "$P reach memr" "$@"
	expect_contains "enforce$tag: /proc/PID/mem read from a judged command refused (a Read hook)" \
		"$(cat "$TMP/err")" "memr: Operation not permitted"
	run_case --guard read.json "$P reach memr" "$@"
	expect_contains "guard$tag: ... goes on" "$(cat "$TMP/err")" "memr: ok"
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
		for c in ptrace writev mem getfd; do
			run_case $m policy.json "bash -c '$P reach $c'" "$@"
			expect_contains "${m#--}$tag: a command's $c into its own child goes on" \
				"$(cat "$TMP/err")" "$c: ok"
		done
		run_case $m policy.json "bash -c '$P inject \"\$RM_CMD\"'" "$@"
		expect_eq "${m#--}$tag: a command's debugger has its child run what it likes" landed "$(victim)"
	done
}

rows ""
if as_user "enforce reach"; then
	rows " as a user" "${AS[@]}"
fi
