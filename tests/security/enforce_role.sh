# Issue 23 item 1: in enforce mode a process's claim to be a command's
# (HOOKSHIM_ROLE=tool in its environment) decides nothing unless the
# supervisor saw it become one (floor/floor_lineage.c). A command's execs
# are nested, not tool calls: with nested execs off (the default) a
# claimed role would run `bash -c 'rm -rf victim'` past the Bash hook.
# Each way to claim it: an environment given at an exec by a static
# program (no shim to rewrite it), an environment block rewritten in
# memory by a static and by a dynamic program, a claim after an allowed
# tool call's exec failed in the kernel (and after moving what /proc shows
# of the image, as an exec would: prctl PR_SET_MM_MAP, which any process
# may make and the floor refuses), and one by the fork of a process from
# before its allowed tool call. Enforce mode judges each (the victim
# stays, the hook's reason is said); guard mode, which trusts the
# session's processes, lets them through (its documented model, shown so
# that the attacks are seen to work). And a real command's own nested
# shell is still nested in enforce mode, as in guard mode. Root and an
# unprivileged user.
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "enforce role"
P=$HOOKSHIM_PROBES/role_static_claim
[ -x "$P" ] || { skip "enforce role: probe not built"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "enforce role: enforce mode cannot run here"; exit 0; }

W=$TMP/w
mkdir -p "$W"
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
# a shell that cannot be run: its exec is judged and allowed, then the
# kernel refuses it (no execute bit, for root too)
cp /bin/bash "$W/nx-bash" && chmod 644 "$W/nx-bash"
cat > "$W/rewrite.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
environ = ctypes.POINTER(ctypes.c_char_p).in_dll(libc, "environ")
addrs = ctypes.cast(environ, ctypes.POINTER(ctypes.c_void_p))
pid = os.fork()
if pid == 0:
    i = 0
    while environ[i]:
        s = environ[i]
        if s.startswith(b"PAD=") and len(s) >= 18:
            ctypes.memset(addrs[i], 0, len(s))
            ctypes.memmove(addrs[i], b"HOOKSHIM_ROLE=tool", 18)
            break
        i += 1
    else:
        os._exit(2)
    args = (ctypes.c_char_p * 4)(b"bash", b"-c", sys.argv[1].encode(), None)
    libc.syscall(59, b"/bin/bash", args, environ)
    os._exit(127)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PY
chmod -R a+rX "$W"
# The command a claim would run unjudged, and python's exec of it: in
# the environment, so that the agent's own command line (itself judged
# as a tool call) does not show it
export RM_CMD='rm -rf victim'
export PYX="import os; os.execv('/bin/bash', ['bash', '-c', os.environ['RM_CMD']])"
# name | the agent: a program hookshim run starts itself
cases=(
"envp|$P envp $(command -v python3) -c \"\$PYX\""
"rewrite|$P rewrite \"\$RM_CMD\""
"rewrite-dynamic|python3 $W/rewrite.py \"\$RM_CMD\""
"failed-exec|$P failed $W/nx-bash \"\$RM_CMD\""
"failed-exec-moved|$P failedmm $W/nx-bash \"\$RM_CMD\""
"fork-before|$P sibling \"\$RM_CMD\""
)

# run_case MODE CMD [PREFIX...]: "held" or "landed"
run_case() {
	local mode=$1 cmd=$2
	shift 2
	rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"
	chmod -R a+rwX "$W/root"
	(cd "$W/root" && PAD=padpadpadpadpadpadpadpad timeout -k 5 60 "$@" "$HOOKSHIM" run "$mode" \
		--no-notices -c "$W/policy.json" -- bash -c "exec $cmd") >"$TMP/out" 2>"$TMP/err"
	if [ -e "$W/root/victim" ]; then echo held; else echo landed; fi
}

attacks() { # TAG PREFIX...
	local tag=$1 c name cmd r
	shift
	for c in "${cases[@]}"; do
		name=${c%%|*}; cmd=${c#*|}
		r=$(run_case --enforce "$cmd" "$@")
		expect_eq "enforce$tag: $name: the claimed role gains nothing" held "$r"
		[ "$r" = held ] || note "stderr: $(head -c 400 "$TMP/err")"
		expect_contains "enforce$tag: $name: judged as a tool call (the hook's reason)" \
			"$(cat "$TMP/err")" "no rm -rf here"
		# an image's places moved as an exec would: refused, said
		[ "$name" = failed-exec-moved ] &&
			expect_contains "enforce$tag: $name: prctl PR_SET_MM refused, said" \
				"$(cat "$TMP/err")" "hookshim: prctl denied: moves what the kernel shows"
		r=$(run_case --guard "$cmd" "$@")
		expect_eq "guard$tag: $name: the claim is believed (guard's trust model)" landed "$r"
	done
	# A command's own shell: nested, as in guard mode, not a tool call
	# (the hook's grep does not see `rm -r""f`, allows it, and the inner
	# shell is the command's)
	for m in --enforce --guard; do
		r=$(run_case $m "bash -c 'bash -c \"rm -r\"\"f victim\"'" "$@")
		expect_eq "${m#--}$tag: a real command's nested shell is still nested" landed "$r"
	done
}

attacks ""
# With "process_image" allowed a process may move its image's places as
# an exec would; that alone does not make it the image of its allowed
# exec that failed: the program (/proc/PID/exe) and the arguments must be
# the ones judged too (docs/limits.md says who can forge those)
sed 's/^{/{"hookshim":{"floor_allow":["process_image"]},/' "$W/policy.json" >"$W/policy-pi.json"
cp "$W/policy.json" "$W/policy-default.json"
cp "$W/policy-pi.json" "$W/policy.json"
r=$(run_case --enforce "$P failedmm $W/nx-bash \"\$RM_CMD\"")
expect_eq "enforce, process_image allowed: a moved image alone does not pass" held "$r"
expect_contains "enforce, process_image allowed: ... the move was made" "$(cat "$TMP/err")" "prctl: ok"
cp "$W/policy-default.json" "$W/policy.json"
if as_user "enforce role"; then
	attacks " as a user" "${AS[@]}"
fi

