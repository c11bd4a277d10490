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
# a HOME with a login profile of the user's, made well before any session
mkdir -p "$W/uhome0"; echo 'true' > "$W/uhome0/.bash_profile"; chmod -R a+rwX "$W/uhome0"
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
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
"failed-exec|$P failed \"\$RM_CMD\""
"failed-exec-moved|$P failedmm \"\$RM_CMD\""
"argv0-bash|$P argv0"
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
r=$(run_case --enforce "$P failedmm \"\$RM_CMD\"")
expect_eq "enforce, process_image allowed: a moved image alone does not pass" held "$r"
expect_contains "enforce, process_image allowed: ... the move was made" "$(cat "$TMP/err")" "prctl: ok"
cp "$W/policy-default.json" "$W/policy.json"
if as_user "enforce role"; then
	attacks " as a user" "${AS[@]}"
fi


# A judged command traced by a process of the session (its parent, which
# asked for it before the exec) can be made to run another exec than the
# one judged: not made a command's. Its text's own nested shell is then
# judged as a tool call (held), where untraced it is nested (landed,
# above); a tracer outside the session (strace of the whole session)
# changes nothing
r=$(run_case --enforce "$P traced 'bash -c \"rm -r\"\"f victim\"'")
expect_eq "enforce: a judged command traced from inside the session makes no command" held "$r"
expect_contains "enforce: ... its nested shell judged" "$(cat "$TMP/err")" "no rm -rf here"
r=$(run_case --guard "$P traced 'bash -c \"rm -r\"\"f victim\"'")
expect_eq "guard: ... believed (its trust model)" landed "$r"
if command -v strace >/dev/null; then
	r=$(run_case --enforce "bash -c 'bash -c \"rm -r\"\"f victim\"'" strace -f -qq -o /dev/null)
	expect_eq "enforce under strace -f: a real command's nested shell is still nested" landed "$r"
fi

# A judged command whose environment carries code its hook never saw --
# BASH_ENV set inside the session, bash sourcing it before `true` -- is a
# hand-off: every program it starts is a tool call of its own, so the
# file's `rm -rf victim` is judged. From a static agent and from python's
# own exec (the shim's); guard mode believes the claim. A BASH_ENV the
# user started the session with is the user's: no hand-off.
# judged NAME CMD [both]: in enforce mode what the agent CMD hides in a
# tool call's environment is judged (the victim held, the hook's reason
# said); with "both", guard mode is seen to believe it
judged() {
	local r
	r=$(run_case --enforce "$2")
	expect_eq "enforce: $1: the rm judged" held "$r"
	expect_contains "enforce: $1: ... the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
	case ${3:-} in
	both)
		r=$(run_case --guard "$2")
		expect_eq "guard: $1: believed (its trust model)" landed "$r" ;;
	git) # what git starts is judged in guard mode too (shim/exec_decide.c)
		r=$(run_case --guard "$2")
		expect_eq "guard: $1: what git starts is judged there too" held "$r" ;;
	esac
}
# nested CMD NAME: a tool call whose environment carries nothing: its
# nested shell stays nested
nested() {
	expect_eq "enforce: $2 makes no hand-off (nested stays nested)" landed "$(run_case --enforce "$1")"
}
py() { printf '%s -c "%s"' "$(command -v python3)" "$1"; }
NESTED="['bash', '-c', 'bash -c \\\"rm -r\\\"\\\"f victim\\\"']"
printf 'rm -rf victim\n' > "$W/evil.sh"; : > "$W/benign.sh"; chmod 644 "$W/evil.sh" "$W/benign.sh"
judged "a static agent's BASH_ENV" "$P envcode $W/evil.sh" both
judged "python's exec with BASH_ENV" "$(py "import os; e = dict(os.environ, BASH_ENV='$W/evil.sh', HOOKSHIM_ROLE='tool'); os.execve('/bin/bash', ['bash', '-c', 'true'], e)")"
r=$( (export BASH_ENV=$W/benign.sh; run_case --enforce "bash -c 'bash -c \"rm -r\"\"f victim\"'") )
expect_eq "enforce: the user's own BASH_ENV makes no hand-off (nested stays nested)" landed "$r"
# read from the kernel's copy, whole: after 5,000 other entries too
judged "BASH_ENV after 5,000 entries" "$(py "import os; e = {'P%d' % i: 'x' for i in range(5000)}; e.update(os.environ, BASH_ENV='$W/evil.sh'); os.execve('/bin/bash', ['bash', '-c', 'true'], e)")"
# a login shell's profile, by a HOME the session chose
mkdir -p "$W/home"; printf 'rm -rf victim\n' > "$W/home/.bash_profile"; chmod -R a+rX "$W/home"
judged "bash -lc with a HOME of the session's" "$(py "import os; e = dict(os.environ, HOME='$W/home'); os.execve('/bin/bash', ['bash', '-lc', 'true'], e)")"
# a start-up file the session changed under the user's own HOME: Codex
# runs its commands as `bash -lc`, Claude Code as `bash -c -l`, and a line
# the agent appended to ~/.bash_profile ran in every later tool call (and
# a login shell a command started: judged too, once a start-up file
# changed every command is a hand-off)
mkdir -p "$W/uhome"; : > "$W/uhome/.bash_profile"; chmod -R a+rwX "$W/uhome"
PROFILE="import os; open(os.environ['HOME'] + '/.bash_profile', 'w').write(os.environ['RM_CMD'] + '\\n'); os.execv('/bin/bash', ['bash', '-c', '-l', 'true'])"
HOME=$W/uhome judged "a ~/.bash_profile the session wrote, then bash -c -l" "$(py "$PROFILE")" both
PROFILE="import os; open(os.environ['HOME'] + '/.bash_profile', 'w').write(os.environ['RM_CMD'] + '\\n'); os.execv('/bin/bash', ['bash', '-c', 'bash -lc true'])"
HOME=$W/uhome judged "a ~/.bash_profile the session wrote, then a command's bash -lc" "$(py "$PROFILE")"
r=$( (export HOME=$W/uhome; run_case --enforce "$(py "$PROFILE")"; cat "$TMP/err") )
expect_contains "enforce: ... said once" "$r" "hookshim: a start-up file changed during the session (.bash_profile)"
# a profile that is a symlink (a dotfiles checkout): its file written
# where it is, not through HOME
mkdir -p "$W/uhome3" "$W/dots"; : > "$W/dots/profile"; ln -sfn "$W/dots/profile" "$W/uhome3/.bash_profile"
chmod -R a+rwX "$W/uhome3" "$W/dots"
PROFILE="import os; open('$W/dots/profile', 'w').write(os.environ['RM_CMD'] + '\\n'); os.execv('/bin/bash', ['bash', '-c', '-l', 'true'])"
HOME=$W/uhome3 judged "a ~/.bash_profile symlink's file the session wrote, then bash -c -l" "$(py "$PROFILE")"
# A hand-off's process is one whatever it later claims: a python whose
# program the hook never saw (fed on an expanding here-document, so its
# tool call is a hand-off and python, judged beneath it, one too) forks a
# child that rewrites HOOKSHIM_ROLE out of its own environment block and
# execs `rm -rf victim` directly (a raw execve: no shim asks) -- at once
# ("strip"), once python has ended and it is an orphan, given to the
# supervisor ("orphan"; floor/floor_orphans.c), or once python has exec'd
# twice, allowed (`sh -c 'exec sleep 1'`), its image no longer the
# child's ("pexec"), or forked by another thread while that exec is
# judged ("prace"). Enforce mode knows each as a hand-off's from what it
# saw (floor/floor_lineage.c): the rm is judged. Plainly the script
# removes the victim; guard mode believes what the process says.
cat > "$W/strip.py" <<'PY'
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
environ = ctypes.POINTER(ctypes.c_char_p).in_dll(libc, "environ")
addrs = ctypes.cast(environ, ctypes.POINTER(ctypes.c_void_p))
parent = os.getpid()
mode = os.environ.get("MODE")

def strip_and_rm():
    i = 0
    while environ[i]:
        if environ[i].startswith(b"HOOKSHIM_ROLE="):
            ctypes.memmove(addrs[i], b"X", 1)
        i += 1
    argv = [a.encode() for a in os.environ["RM_CMD"].split()]
    args = (ctypes.c_char_p * (len(argv) + 1))(*argv, None)
    libc.syscall(59, b"/bin/rm", args, environ)
    os._exit(127)

if mode == "prace":
    # another thread forks while python's exec is judged: its children
    # are copies of the image the exec ends
    import threading
    def forks():
        while os.fork() != 0:
            time.sleep(0.02)
        time.sleep(0.7)
        strip_and_rm()
    threading.Thread(target=forks, daemon=True).start()
    time.sleep(0.1)
    # through ctypes, which lets go of python's lock: the thread forks
    # on while the exec waits
    sh = (ctypes.c_char_p * 4)(b"sh", b"-c", b"exec sleep 1", None)
    libc.syscall(59, b"/bin/sh", sh, environ)
if os.fork() == 0:
    while mode == "orphan" and os.getppid() == parent:
        time.sleep(0.01)
    if mode == "pexec":
        time.sleep(0.5)
    strip_and_rm()
if mode == "pexec":
    os.execv("/bin/sh", ["sh", "-c", "exec sleep 1"])
if mode != "orphan":
    os.wait()
PY
chmod 644 "$W/strip.py"
export STRIP_TXT="python3 - <<EOF
\$(cat $W/strip.py)
EOF
sleep 2"
for name in strip orphan pexec prace; do
	rm -rf "$W/plain"; mkdir -p "$W/plain"; echo v > "$W/plain/victim"
	(cd "$W/plain" && MODE=$name timeout 30 bash -c "$STRIP_TXT") >/dev/null 2>&1
	[ -e "$W/plain/victim" ] && r=held || r=landed
	expect_eq "plain: a hand-off's python's child ($name) removes the victim" landed "$r"
	r=$(MODE=$name run_case --enforce 'bash -c "$STRIP_TXT"')
	expect_eq "enforce: a hand-off's python's child ($name) that drops its role is still a hand-off's" held "$r"
	expect_contains "enforce: ... ($name) the rm judged, the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
	r=$(MODE=$name run_case --guard 'bash -c "$STRIP_TXT"')
	expect_eq "guard: ... ($name) believed (its trust model)" landed "$r"
done

# A hand-off's python that reaches into the agent's own shell -- ptrace,
# its registers set to an execve of `rm` -- would run it as the agent's
# program, no event: refused, said (floor/floor_reach.c). And one that
# fills its lineage set with live processes of the session (a helper's
# forks whose pid falls in python's slot, recorded at the helper's exec)
# before its child drops its role and execs: python's record stays
# (floor/floor_lineage.c grows a set rather than drop a live process's
# record), the child is a hand-off's.
cat > "$W/inject.py" <<'PY'
import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
def ppid(p):
    s = open("/proc/%d/stat" % p).read()
    return int(s[s.rindex(")") + 2:].split()[1])
agent = ppid(ppid(os.getpid()))   # python <- its tool call's bash <- the agent
class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in (
        "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax "
        "rip cs eflags rsp ss fs_base gs_base ds es fs gs").split()]
if libc.ptrace(16, agent, None, None) != 0:   # PTRACE_ATTACH
    raise SystemExit("attach: errno %d" % ctypes.get_errno())
os.waitpid(agent, 0x40000000)
regs = Regs()
libc.ptrace(12, agent, None, ctypes.byref(regs))
base = (regs.rsp - 8192) & ~15
blob, at = b"", []
for s in (b"/bin/rm\0", b"rm\0", b"-rf\0", b"victim\0"):
    at.append(base + len(blob)); blob += s
blob += b"\0" * (-len(blob) % 8)
argv = base + len(blob)
blob += struct.pack("<QQQQQ", at[1], at[2], at[3], 0, 0)
for i in range(0, len(blob), 8):
    libc.ptrace(5, agent, ctypes.c_void_p(base + i),
                ctypes.c_void_p(struct.unpack("<Q", blob[i:i + 8])[0]))
regs.rax, regs.rdi, regs.rsi, regs.rdx = 59, at[0], argv, argv + 32
regs.orig_rax, regs.rip = (1 << 64) - 1, regs.rip - 2
libc.ptrace(13, agent, None, ctypes.byref(regs))
libc.ptrace(17, agent, None, None)
PY
cat > "$W/evict.py" <<'PY'
import os, time
exec(open(os.environ["STRIP_PY"]).read().split("\nif mode ==")[0])
target = os.getpid() % 512
if os.fork() == 0:
    kids = 0
    while kids < 6:
        pid = os.fork()
        if pid == 0:
            if os.getpid() % 512 == target:
                time.sleep(20)
            os._exit(0)
        if pid % 512 == target:
            kids += 1
        else:
            os.waitpid(pid, 0)
    os.execv("/bin/sleep", ["sleep", "8"])
time.sleep(4)
if os.fork() == 0:
    strip_and_rm()
os.wait()
PY
chmod 644 "$W/inject.py" "$W/evict.py"
export STRIP_PY=$W/strip.py
for name in inject evict; do
	export ATTACK_TXT="python3 - <<EOF
\$(cat $W/$name.py)
EOF
sleep 5"
	for m in --enforce --guard; do
		rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"; chmod -R a+rwX "$W/root"
		(cd "$W/root" && timeout -k 5 60 "$HOOKSHIM" run $m --no-notices -c "$W/policy.json" -- \
			bash -c 'bash -c "$ATTACK_TXT"; sleep 1') >"$TMP/out" 2>"$TMP/err"
		[ -e "$W/root/victim" ] && r=held || r=landed
		if [ $m = --enforce ]; then
			expect_eq "enforce: a hand-off's python ($name) gains nothing" held "$r"
			[ $name = inject ] && expect_contains "enforce: ... (inject) the ptrace refused, said" \
				"$(cat "$TMP/err")" \
				"it is the agent's, whose programs are not judged, which a hand-off may not reach into"
		else
			expect_eq "guard: ... ($name) works there (its trust model)" landed "$r"
		fi
	done
done

# With nested execs judged, a command's python (a file the hook saw
# named) that reaches into the agent's own shell the same way would run
# its rm as the agent's program, no event, where its own rm is judged:
# refused too. Without them, what a command runs is its own anyway.
sed 's/^{/{"hookshim":{"nested_exec":true},/' "$W/policy-default.json" >"$W/policy-nested.json"
for m in --enforce --guard; do
	rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"; chmod -R a+rwX "$W/root"
	(cd "$W/root" && timeout -k 5 60 "$HOOKSHIM" run $m --no-notices -c "$W/policy-nested.json" -- \
		bash -c "bash -c 'python3 $W/inject.py; sleep 1'; sleep 1") >"$TMP/out" 2>"$TMP/err"
	[ -e "$W/root/victim" ] && r=held || r=landed
	if [ $m = --enforce ]; then
		expect_eq "enforce, nested execs judged: a command's python (inject) gains nothing" held "$r"
		expect_contains "  ... the ptrace refused, said" "$(cat "$TMP/err")" \
			"which a command may not reach into (enforce mode, nested execs judged)"
	else
		expect_eq "guard, nested execs judged: ... (inject) works there (its trust model)" landed "$r"
	fi
done

# ... and a command's debugger on a process outside the session (one the
# user started elsewhere) is not the agent's business: it goes on where
# "floor_allow" names "outside_processes"; by default it is refused in
# both modes, as any reach outside (session 38: root attached to the shell
# that started `hookshim run` and ran what no hook saw there).
sleep 300 &
outside=$!
cat > "$W/seize.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = int(sys.argv[1])
r = libc.ptrace(0x4206, pid, 0, 0)                 # PTRACE_SEIZE
print("seize", 0 if r == 0 else ctypes.get_errno())
if r == 0:
    libc.ptrace(17, pid, 0, 0)                     # PTRACE_DETACH
PY
chmod 644 "$W/seize.py"
sed 's/^{"hookshim":{/{"hookshim":{"floor_allow":["outside_processes"],/' "$W/policy-nested.json" >"$W/policy-nested-out.json"
sed 's/^{/{"hookshim":{"floor_allow":["outside_processes"]},/' "$W/policy-default.json" >"$W/policy-default-out.json"
out=$(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices -c "$W/policy-nested.json" -- \
	bash -c "bash -c 'python3 $W/seize.py $outside; true'" 2>"$TMP/err")
expect_eq "enforce, nested execs judged: a command's debugger on a process outside the session is refused" \
	"seize 1" "$out"
expect_contains "  ... said, with the setting that allows it" "$(cat "$TMP/err")" \
	"\"floor_allow\": [\"outside_processes\"]"
out=$(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices -c "$W/policy-nested-out.json" -- \
	bash -c "bash -c 'python3 $W/seize.py $outside; true'" 2>"$TMP/err")
expect_eq "enforce, nested execs judged, \"outside_processes\": it goes on" "seize 0" "$out"
export SEIZE_TXT="python3 - $outside <<EOF
\$(cat $W/seize.py)
EOF"
out=$(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices -c "$W/policy-default-out.json" -- \
	bash -c 'bash -c "$SEIZE_TXT"' 2>"$TMP/err")
expect_eq "enforce, \"outside_processes\": ... and a hand-off's (its code unseen) too" "seize 0" "$out"
kill $outside 2>/dev/null; wait $outside 2>/dev/null

# A PATH of the agent's that finds a program of the session's writing by
# a system program's name: the hook judged `ls`, the `ls` that ran was
# the agent's script. In enforce mode its programs are judged, as a
# hand-off's (floor/floor_exec.c, shadows_system); guard mode runs it.
cat > "$W/shadow-script.sh" <<'A'
bash -c 'mkdir -p bin; printf "#!/bin/sh\nexec /bin/r%s -rf victim\n" m > bin/ls; chmod +x bin/ls'
PATH=$PWD/bin:$PATH bash -c 'ls'
A
# ... a symlink made in the session to an older program of another name
# (bash, run as `ls x`), and a directory reached by `..` after a symlink
# (`l/../../usr/bin` is not /usr/bin)
cat > "$W/shadow-link.sh" <<'A'
bash -c 'mkdir -p bin; ln -s /bin/bash bin/ls; printf "/bin/r%s -rf victim\n" m > x'
PATH=$PWD/bin:$PATH bash -c 'ls x'
A
cat > "$W/shadow-dotdot.sh" <<'A'
bash -c 'mkdir -p a/b/c a/usr/bin; ln -s $PWD/a/b/c l; printf "#!/bin/sh\nexec /bin/r%s -rf victim\n" m > a/usr/bin/ls; chmod +x a/usr/bin/ls'
PATH=$PWD/l/../../usr/bin:$PATH bash -c 'ls'
A
chmod 644 "$W"/shadow-*.sh
for v in script link dotdot; do
	for m in plain --enforce --guard; do
		rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"; chmod -R a+rwX "$W/root"
		if [ $m = plain ]; then
			(cd "$W/root" && timeout -k 5 60 bash "$W/shadow-$v.sh") >"$TMP/out" 2>"$TMP/err"
		else
			(cd "$W/root" && timeout -k 5 60 "$HOOKSHIM" run $m --no-notices -c "$W/policy-default.json" -- \
				bash "$W/shadow-$v.sh") >"$TMP/out" 2>"$TMP/err"
		fi
		[ -e "$W/root/victim" ] && r=held || r=landed
		case $m in
		plain) expect_eq "plain: the agent's own ls on its PATH ($v) removes the victim" landed "$r" ;;
		--enforce)
			expect_eq "enforce: the agent's own ls on its PATH ($v) has its rm judged" held "$r"
			expect_contains "  ... the hook's reason is said" "$(cat "$TMP/err")" "no rm -rf here" ;;
		--guard) expect_eq "guard: ... ($v) runs it (docs/limits.md)" landed "$r" ;;
		esac
	done
done
# a virtualenv made in the session, its python3 a symlink to python3.11:
# one program, no hand-off (its subprocess no tool call)
PY3=$(readlink -f "$(command -v python3)")
cat > "$W/venv.sh" <<A
bash -c 'mkdir -p ve/bin; ln -s $PY3 ve/bin/python3'
PATH=\$PWD/ve/bin:\$PATH bash -c 'python3 -c "import subprocess; subprocess.run([\\"true\\"])"'
A
chmod 644 "$W/venv.sh"
rm -rf "$W/root"; mkdir -p "$W/root"; chmod a+rwX "$W/root"
(cd "$W/root" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices --log "$TMP/venv.log" \
	-c "$W/policy-default.json" -- bash "$W/venv.sh") >"$TMP/out" 2>"$TMP/err"
expect_eq "enforce: a virtualenv's python3 made in the session is no hand-off (2 tool calls)" 2 \
	"$(grep -c '"event":"pre"' "$TMP/venv.log")"

# git's own configuration the session wrote (~/.gitconfig, ~/.config/git/
# config, made in the session): its core.fsmonitor runs in a `git status`
mkdir -p "$W/uhome4" "$W/uhome5/.config"; chmod -R a+rwX "$W/uhome4" "$W/uhome5"
GITCFG="import os, subprocess; p = os.environ['GITCFG']; os.makedirs(os.path.dirname(p), exist_ok=True); open(p, 'w').write('[core]\\n\\tfsmonitor = ' + os.environ['RM_CMD'] + '\\n'); os.execv('/bin/bash', ['bash', '-c', 'git init -q && git status'])"
HOME=$W/uhome4 GITCFG=$W/uhome4/.gitconfig judged "a ~/.gitconfig the session wrote, then git status" "$(py "$GITCFG")" git
HOME=$W/uhome5 GITCFG=$W/uhome5/.config/git/config judged "a ~/.config/git/config the session made, then git status" "$(py "$GITCFG")"
# with no ~/.config at all: git's made in it is seen, one an agent makes
# for its own files alone is no change (nested stays nested)
mkdir -p "$W/uhome7" "$W/uhome8"; chmod -R a+rwX "$W/uhome7" "$W/uhome8"
HOME=$W/uhome7 GITCFG=$W/uhome7/.config/git/config judged "a ~/.config/git/config made with ~/.config, then git status" "$(py "$GITCFG")"
r=$( (export HOME=$W/uhome8; run_case --enforce "$(py "import os; os.makedirs(os.environ['HOME'] + '/.config/someagent'); os.execv('/bin/bash', $NESTED)")") )
expect_eq "enforce: an agent's own ~/.config made makes no hand-off (nested stays nested)" landed "$r"
# less's key file the session wrote (~/.lesskey): its #env's LESSOPEN
# runs in a `less FILE`
mkdir -p "$W/uhome6"; chmod -R a+rwX "$W/uhome6"
LESSKEY="import os; open(os.environ['HOME'] + '/.lesskey', 'w').write('#env\\nLESSOPEN=|sh -c \\'' + os.environ['RM_CMD'] + '\\' %s\\n'); os.execv('/bin/bash', ['bash', '-c', 'less /etc/hostname'])"
HOME=$W/uhome6 judged "a ~/.lesskey the session wrote, then less" "$(py "$LESSKEY")"
# the user's own, unchanged in the session: no hand-off (the rm nested,
# not judged as \`rm -rf victim\`)
r=$( (export HOME=$W/uhome0; run_case --enforce "bash -lc 'rm -r\"\"f victim'") )
expect_eq "enforce: a login shell whose start-up files the session left alone makes no hand-off" landed "$r"
# nothing that carries code: no hand-off, however long the environment
nested "$(py "import os; e = dict(os.environ, BIG='x' * 5000); os.execve('/bin/bash', $NESTED, e)")" \
	"a long variable that carries no code"
# an interpreter's own variables: a PYTHONPATH that finds a
# sitecustomize.py, a NODE_OPTIONS that requires a file -- each runs code
# in a `python3 -c pass`, a `node -e 0` whose hook saw only that
mkdir -p "$W/pp"
printf 'import os\nos.system(os.environ["RM_CMD"])\n' > "$W/pp/sitecustomize.py"
printf 'require("child_process").spawnSync("/bin/sh", ["-c", process.env.RM_CMD], { stdio: "inherit" })\n' > "$W/evil.js"
chmod -R a+rX "$W/pp" "$W/evil.js"
judged "PYTHONPATH with a sitecustomize.py" "$(py "import os; e = dict(os.environ, PYTHONPATH='$W/pp'); os.execve('/bin/bash', ['bash', '-c', 'python3 -c pass'], e)")" both
if command -v node >/dev/null; then
	judged "NODE_OPTIONS --require" "$(py "import os; e = dict(os.environ, NODE_OPTIONS='--require $W/evil.js'); os.execve('/bin/bash', ['bash', '-c', 'node -e 0'], e)")" both
fi
# a makefile make reads first, tar's options (a checkpoint's exec): each
# runs code in a `make` or a `tar` whose hook saw only that
printf '$(shell sh -c "$$RM_CMD")\n' > "$W/evil.mk"
chmod a+r "$W/evil.mk"
judged "MAKEFILES" "$(py "import os; e = dict(os.environ, MAKEFILES='$W/evil.mk'); os.execve('/bin/bash', ['bash', '-c', 'make -q -f /dev/null x'], e)")"
printf '#!/bin/sh\nsh -c "$RM_CMD"\n' > "$W/rm.sh"
chmod a+rx "$W/rm.sh"
judged "TAR_OPTIONS with a checkpoint's exec" "$(py "import os; e = dict(os.environ, TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=$W/rm.sh'); os.execve('/bin/bash', ['bash', '-c', 'tar -cf /dev/null victim'], e)")" both
# options that load nothing (a heap's size, as an agent may set for its
# commands) make no hand-off
nested "$(py "import os; e = dict(os.environ, NODE_OPTIONS='--max-old-space-size=4096 --no-warnings'); os.execve('/bin/bash', $NESTED, e)")" \
	"NODE_OPTIONS that loads no code"

# git's settings and the programs git and others run by a variable's
# name: git's core.fsmonitor set by GIT_CONFIG_* runs its command in a
# `git status`, GIT_EDITOR in a `git commit` -- each a tool call whose
# hook saw only git. What agents set for their commands runs nothing:
# Codex's pagers "cat", Claude Code's GIT_EDITOR "true", Gemini CLI's git
# settings that name no program (empty, or core.pager "cat")
printf '#!/bin/sh\nexec sh -c "$RM_CMD"\n' > "$W/editor.sh"; chmod 755 "$W/editor.sh"
GITC="git init -q && git -c user.name=a -c user.email=b"
judged "GIT_CONFIG_* core.fsmonitor" "$(py "import os; e = dict(os.environ, GIT_CONFIG_COUNT='1', GIT_CONFIG_KEY_0='core.fsmonitor', GIT_CONFIG_VALUE_0=os.environ['RM_CMD']); os.execve('/bin/bash', ['bash', '-c', 'git init -q && git status'], e)")" git
judged "GIT_EDITOR" "$(py "import os; e = dict(os.environ, GIT_EDITOR='$W/editor.sh'); os.execve('/bin/bash', ['bash', '-c', '$GITC commit -q --allow-empty'], e)")" both
# the user's own setting (color.ui = the value) with its key changed by
# the agent: the pair is what runs
r=$( (export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0="$RM_CMD"
	run_case --enforce "$(py "import os; e = dict(os.environ, GIT_CONFIG_KEY_0='core.fsmonitor'); os.execve('/bin/bash', ['bash', '-c', 'git init -q && git status'], e)")") )
expect_eq "enforce: GIT_CONFIG_* the user's value under a key the agent changed: the rm judged" held "$r"
expect_contains "enforce: ... the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
# the same name twice: a shell, and git under it, take the last -- an
# empty value first hid the one that runs
cat > "$W/dupenv.py" <<'PY'
import ctypes, os, sys
# (what runs from the environment: no command line the hook is shown
# holds it)
env = ["%s=%s" % kv for kv in os.environ.items()] + \
      [a.replace("@RM_CMD", os.environ["RM_CMD"]) for a in sys.argv[2:]]
arr = (ctypes.c_char_p * (len(env) + 1))(*[e.encode() for e in env], None)
argv = (ctypes.c_char_p * 4)(b"bash", b"-c", sys.argv[1].encode(), None)
ctypes.CDLL(None).execve(b"/bin/bash", argv, arr)
PY
chmod a+r "$W/dupenv.py"
judged "GIT_CONFIG_VALUE_0 twice, the first empty" "$(command -v python3) $W/dupenv.py 'git init -q && git status' GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0= GIT_CONFIG_VALUE_0=@RM_CMD"
# a pair beyond no count, that the command's own text makes live
# (`GIT_CONFIG_COUNT=2 ... git status`: the hook sees a colour setting);
# git's test fsmonitor, which release git still runs
judged "GIT_CONFIG_KEY_1 with no count, made live by the command" "$(py "import os; e = dict(os.environ, GIT_CONFIG_KEY_1='core.fsmonitor', GIT_CONFIG_VALUE_1=os.environ['RM_CMD']); os.execve('/bin/bash', ['bash', '-c', 'git init -q && GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=auto git status'], e)")"
judged "GIT_TEST_FSMONITOR" "$(py "import os; e = dict(os.environ, GIT_TEST_FSMONITOR=os.environ['RM_CMD']); os.execve('/bin/bash', ['bash', '-c', 'git init -q && git status'], e)")"
# an inert pager's name with an option that reads a lesskey file, whose
# #env sets LESSOPEN: a command less runs on what it opens
printf '#env\nLESSOPEN=|sh -c "%s" %%s\n' "$RM_CMD" > "$W/lesskey"; chmod a+r "$W/lesskey"
judged "GIT_EDITOR less --lesskey-src" "$(py "import os; e = dict(os.environ, GIT_EDITOR='less --lesskey-src=$W/lesskey'); os.execve('/bin/bash', ['bash', '-c', '$GITC commit -q --allow-empty'], e)")"
nested "$(py "import os; e = dict(os.environ, PAGER='cat', GIT_PAGER='cat', GH_PAGER='cat', GIT_EDITOR='true', EDITOR='/usr/bin/less -R'); os.execve('/bin/bash', $NESTED, e)")" \
	"the pagers and editors agents set (cat, true)"
nested "$(py "import os; keys = ['credential.helper', 'core.fsmonitor', 'core.hooksPath', 'core.sshCommand', 'core.pager', 'core.editor', 'sequence.editor', 'diff.external']; e = dict(os.environ, GIT_CONFIG_COUNT=str(len(keys)), GIT_CONFIG_GLOBAL='/dev/null', GIT_CONFIG_SYSTEM='/dev/null', GIT_CONFIG_NOSYSTEM='1', GIT_ASKPASS='', GIT_TERMINAL_PROMPT='0'); e.update({'GIT_CONFIG_KEY_%d' % i: k for i, k in enumerate(keys)}); e.update({'GIT_CONFIG_VALUE_%d' % i: 'cat' if k == 'core.pager' else '' for i, k in enumerate(keys)}); os.execve('/bin/bash', $NESTED, e)")" \
	"Gemini CLI's git settings (empty, core.pager cat)"

# A program by a shell's name in the system's directories that root does
# not alone control (here owned by another user) is no system shell: its
# `ksh -c true` is judged, but makes no command's process (root, which
# may write there, is trusted with the system's programs)
KSH=/usr/local/bin/ksh
if [ "$(id -u)" = 0 ] && [ -d /usr/local/bin ] && [ ! -e "$KSH" ] && [ ! -L "$KSH" ]; then
	trap 'rm -f "$KSH"; rm -rf "$TMP"' EXIT
	cp "$P" "$KSH" && chown 65534 "$KSH" && chmod 755 "$KSH"
	r=$(run_case --enforce "$P argv0 $KSH")
	rm -f "$KSH"
	trap 'rm -rf "$TMP"' EXIT
	expect_eq "enforce: a shell's name in a system directory, not root's: no command made" held "$r"
	expect_contains "enforce: ... the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
else
	skip "enforce role: /usr/local/bin/ksh cannot be made for a while here"
fi

# An enforce session started under `setarch -R`: images are told apart by
# where each exec placed them, at random, so its agent runs randomised
# again (guard mode leaves the personality as it was)
if setarch "$(uname -m)" -R true 2>/dev/null; then
	out=$(cd "$W" && setarch "$(uname -m)" -R "$HOOKSHIM" run --enforce --no-notices \
		-c "$W/policy.json" -- cat /proc/self/personality 2>&1)
	expect_eq "enforce: an agent started under setarch -R is randomised again" 00000000 "$out"
	out=$(cd "$W" && setarch "$(uname -m)" -R "$HOOKSHIM" run --guard --no-notices \
		-c "$W/policy.json" -- cat /proc/self/personality 2>&1)
	expect_eq "guard: ... left as it was" 00040000 "$out"
else
	skip "enforce role: setarch -R refused here"
fi

# ---- the role decides reads and writes too ----
# A Read hook judges the agent's reads, not its commands'; with
# writes.agent_only a Write hook judges the agent's writes alone. Neither
# policy has an exec hook, so no tool call is judged; the floor still
# sees which exec makes a command's process (floor_exec.c,
# grant_unjudged).
BB=$(command -v busybox)
if [ -n "$BB" ] && file -L "$BB" | grep -q 'statically linked'; then
	cat > "$W/read.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"grep -q '\\.env' && { echo 'no .env here' >&2; exit 2; }; exit 0"}]}]}}
J
	cat > "$W/only.json" <<'J'
{"hookshim":{"writes":{"agent_only":true}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"grep -q secrets && { echo 'secrets are protected' >&2; exit 2; }; exit 0"}]}]}}
J
	chmod 644 "$W/read.json" "$W/only.json"
	# rw_case MODE POLICY CMD [PREFIX...]: stdout to $TMP/out, stderr to $TMP/err
	rw_case() {
		local mode=$1 pol=$2 cmd=$3
		shift 3
		rm -rf "$W/root"; mkdir -p "$W/root/secrets"; echo 'KEY=sk-lineage' > "$W/root/.env"
		echo keep > "$W/root/secrets/f"; chmod -R a+rwX "$W/root"
		(cd "$W/root" && PAD=padpadpadpadpadpadpadpad timeout -k 5 60 "$@" "$HOOKSHIM" run "$mode" \
			--no-notices -c "$W/$pol" -- bash -c "exec $cmd") >"$TMP/out" 2>"$TMP/err"
	}
	rw_rows() { # TAG PREFIX...
		local tag=$1
		shift
		rw_case --enforce read.json "$P envp $BB cat .env" "$@"
		expect_eq "enforce$tag: a claimed role reads no .env past the Read hook" "" "$(cat "$TMP/out")"
		expect_contains "enforce$tag: ... the hook's reason" "$(cat "$TMP/err")" "no .env here"
		rw_case --guard read.json "$P envp $BB cat .env" "$@"
		expect_eq "guard$tag: ... the claim is believed (guard's trust model)" "KEY=sk-lineage" "$(cat "$TMP/out")"
		# a real command's read is its command's, no Read, in both modes
		for m in --enforce --guard; do
			rw_case $m read.json "bash -c '$BB cat .env'" "$@"
			expect_eq "${m#--}$tag: a real command's read is no Read event" "KEY=sk-lineage" "$(cat "$TMP/out")"
		done
		rw_case --enforce only.json "$P envp $(command -v python3) -c \"open('secrets/f','w').write('P')\"" "$@"
		expect_eq "enforce$tag: writes.agent_only: a claimed role writes nothing past the hook" keep \
			"$(cat "$W/root/secrets/f")"
		expect_contains "enforce$tag: ... the hook's reason" "$(cat "$TMP/err")" "secrets are protected"
		rw_case --guard only.json "$P envp $(command -v python3) -c \"open('secrets/f','w').write('P')\"" "$@"
		expect_eq "guard$tag: ... the claim is believed (guard's trust model)" P "$(cat "$W/root/secrets/f")"
		for m in --enforce --guard; do
			rw_case $m only.json "bash -c 'echo P > secrets/f'" "$@"
			expect_eq "${m#--}$tag: writes.agent_only: a real command's write is no event" P \
				"$(cat "$W/root/secrets/f")"
		done
	}
	rw_rows ""
	if as_user "enforce role reads"; then
		rw_rows " as a user" "${AS[@]}"
	fi
else
	skip "enforce role reads: no static busybox"
fi

# ---- and connections ----
# A WebFetch hook judges the commands' connections, not the agent's own
# (docs/network.md). A static agent's tool call in a static shell sets no
# role at all: in enforce mode the floor knows it made a command's process
# and judges its connection; the agent's own fetch stays its own.
EXS=$HOOKSHIM_PROBES/exec_static_rawexec
if [ -n "$BB" ] && file -L "$BB" | grep -q 'statically linked' && [ -x "$EXS" ] &&
	"$BB" wget --help 2>&1 | grep -q wget; then
	mkdir -p "$W/www" && echo served > "$W/www/f"
	python3 -c '
import http.server, socketserver, os, sys, functools
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
s = socketserver.TCPServer(("127.0.0.1", 0), h)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()' "$W/www" "$W/port" 2>/dev/null &
	srv=$!
	for _ in $(seq 50); do [ -s "$W/port" ] && break; sleep 0.1; done
	PORT=$(cat "$W/port" 2>/dev/null)
	for _ in $(seq 50); do
		[ "$("$BB" wget -q -O - "http://127.0.0.1:$PORT/f" 2>/dev/null)" = served ] && break
		sleep 0.1
	done
	cat > "$W/net.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"echo 'no fetching' >&2; exit 2"}]}]}}
J
	chmod 644 "$W/net.json"
	net_case() { # MODE ARG... (the agent's argv, exec'd in place by the probe)
		local mode=$1
		shift
		(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run "$mode" --no-notices -c "$W/net.json" -- \
			"$EXS" -i "$BB" "$@") >"$TMP/out" 2>"$TMP/err"
	}
	URL=http://127.0.0.1:$PORT/f
	net_case --enforce sh -c "$BB wget -q -O - $URL"
	expect_eq "enforce: a static tool call's static fetch (no role set) is judged" "" "$(cat "$TMP/out")"
	expect_contains "enforce: ... the hook's reason" "$(cat "$TMP/err")" "no fetching"
	net_case --guard sh -c "$BB wget -q -O - $URL"
	expect_eq "guard: ... taken for the agent's own (its trust model)" served "$(cat "$TMP/out")"
	for m in --enforce --guard; do
		net_case $m wget -q -O - "$URL"
		expect_eq "${m#--}: the agent's own fetch is its own, no event" served "$(cat "$TMP/out")"
	done
	kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null || :
else
	skip "enforce role connections: no static busybox with wget, or no exec_static_rawexec"
fi
