# The reason of a read or write the floor denied in an agent that HAS the
# shim (Claude Code 2.1.332: Bun's file I/O is raw syscalls, so its shim
# never sees the denial), handed to the agent's next tool call
# (floor/floor_pending.c, shim/reason.c): the shell's exec wrapper
# asks the floor (hs_floor_take), which writes the kept lines to that
# shell's stderr when the exec is a tool call -- once; not to one of the
# agent's own shells (`sh -c 'which bash'`, config/agents.json), nor to a
# program that is no shell. The agent here is python3 under `hookshim
# run`, reading and writing with ctypes' syscall(SYS_openat) past every
# interposer, from its main thread and from a worker thread; its
# subprocess children fork (vfork) before the exec and ask from there; an
# exec of the agent itself asks as the agent.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor shim reasons: no hookshim build"; exit 0; }
command -v jq >/dev/null && command -v python3 >/dev/null ||
	{ skip "floor shim reasons: jq or python3 missing"; exit 0; }
need_floor "floor shim reasons"
ROOT=$TMP/root
mkdir -p "$ROOT/secrets"
echo KEY-0123 >"$ROOT/secrets/k"
echo KEY-4567 >"$ROOT/secrets/t"
cat >"$TMP/guard.sh" <<'SH'
#!/bin/sh
case $(jq -r '.tool_input.file_path // ""') in
*/secrets/*) echo "BLOCKED: secrets/ is off limits" >&2; exit 2 ;;
esac
exit 0
SH
chmod +x "$TMP/guard.sh"
jq -n --arg c "$TMP/guard.sh" '{hooks: {PreToolUse: [{matcher: "Read|Write|Edit", hooks: [{type: "command", command: $c}]}]}}' >"$TMP/rw.json"
jq -n --arg c "$TMP/guard.sh" '{hooks: {PreToolUse: [{matcher: "Read", hooks: [{type: "command", command: $c}]}]}}' >"$TMP/r.json"
said() { echo "hookshim: the agent's $1 $ROOT/secrets/$2 was denied by a hook: BLOCKED: secrets/ is off limits"; }

# agent CONFIG: the python3 "agent"; each step prints "NAME: <stderr of
# the command>" as JSON
agent() {
	(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/$1.json" --root "$ROOT" -- python3 -c '
import ctypes, json, os, subprocess, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
SYS_openat, AT_FDCWD = 257, -100
def raw_open(path, flags):
    fd = libc.syscall(SYS_openat, AT_FDCWD, path.encode(), flags, 0o644, 0, 0)
    if fd < 0:
        return "errno %d" % ctypes.get_errno()
    data = os.read(fd, 100).decode() if flags == os.O_RDONLY else ""
    os.close(fd)
    return "ok " + data.strip()
def run(name, *a):
    r = subprocess.run(a, capture_output=True, text=True)
    print(name + ":", json.dumps(r.stderr), flush=True)
print("read:", raw_open("secrets/k", os.O_RDONLY), flush=True)
print("again:", raw_open("secrets/k", os.O_RDONLY), flush=True)
run("program", "/bin/true")
run("internal", "/bin/sh", "-c", "which bash")
run("tool", "/bin/bash", "-c", "true")
run("after", "/bin/bash", "-c", "true")
out = []
th = threading.Thread(target=lambda: out.append(raw_open("secrets/t", os.O_RDONLY)))
th.start(); th.join()
print("thread read:", out[0], flush=True)
if "w" in sys.argv[1]:
    print("write:", raw_open("secrets/w", os.O_WRONLY | os.O_CREAT), flush=True)
run("two", "/bin/bash", "-c", "true")
if "w" in sys.argv[1]:
    run("tool role", "env", "HOOKSHIM_ROLE=tool", sys.executable, "-c",
        "import ctypes, os; ctypes.CDLL(None).syscall(257, -100, b\"secrets/x\", os.O_WRONLY | os.O_CREAT, 0o644, 0, 0)")
    run("after tool role", "/bin/bash", "-c", "true")
raw_open("secrets/k", os.O_RDONLY)
sys.stdout.flush()
os.execv("/bin/bash", ["bash", "-c", "echo exec: done"])
' "$1") 2>"$TMP/agent.err"
}
line() { grep "^$1: " <<<"$out" | sed "s/^$1: //"; }
js() { jq -Rn --arg s "$1" '$s'; }

for conf in rw r; do
	out=$(agent $conf)
	expect_eq "$conf: the raw read is refused (EACCES)" "errno 13" "$(line read)"
	expect_eq "$conf: ... again" "errno 13" "$(line again)"
	check "$conf: the key never reached the agent" bash -c "! grep -q KEY- <<<\"\$1\"" _ "$out"
	expect_contains "$conf: the floor's message is on the agent's stderr" "$(cat "$TMP/agent.err")" \
		"hookshim: read of $ROOT/secrets/k denied: BLOCKED: secrets/ is off limits"
	expect_eq "$conf: a program that is no shell does not take it" '""' "$(line program)"
	expect_eq "$conf: the agent's own shell (which bash) does not take it" '""' "$(line internal)"
	expect_eq "$conf: the next tool call takes it, the same denial once" \
		"$(js "$(said 'read of' k)
")" "$(line tool)"
	expect_eq "$conf: once" '""' "$(line after)"
	expect_eq "$conf: a worker thread's raw read is refused" "errno 13" "$(line 'thread read')"
	if [ $conf = rw ]; then
		expect_eq "$conf: the raw write is refused" "errno 13" "$(line write)"
		expect_eq "$conf: the thread's read and the write, both said" \
			"$(js "$(said 'read of' t)
$(said 'write to' w)
")" "$(line two)"
		expect_contains "$conf: a tool-role process's denied write is on its own stderr" \
			"$(line 'tool role')" "hookshim: write to $ROOT/secrets/x denied"
		expect_eq "$conf: ... and not kept for the next tool call" '""' "$(line 'after tool role')"
	else
		expect_eq "$conf: the thread's read is said" "$(js "$(said 'read of' t)
")" "$(line two)"
	fi
	expect_eq "$conf: the agent's own exec of a tool call takes it (asked as the agent)" "done" "$(line exec)"
	expect_contains "$conf: ... on its stderr" "$(cat "$TMP/agent.err")" "$(said 'read of' k)"
	check "$conf: nothing was written under secrets/" test ! -e "$ROOT/secrets/w" -a ! -e "$ROOT/secrets/x"
done
