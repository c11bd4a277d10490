# A request that says it is a command a shell read on stdin (LINE, for
# shim/stdin_line.c) is answered without a hook when it only asks whether
# the text is whole (LINE 3, or LINE 1 on an unfinished text). A process
# of the session that forges one must get nothing out of it: in enforce
# mode no ticket is given for it, so its raw execve of that same command
# is still the floor's to judge, and the hook denies it.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "forged LINE: jq missing"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "forged LINE: no syscall floor on this machine"; exit 0; }
cat > hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
 "c=$(jq -r .tool_input.command); case $c in *victim*) echo 'victim is kept' >&2; exit 2;; esac; exit 0"}]}]}}
J
# forge.py LINE TEXT: asks the supervisor about `bash -c TEXT` as a stdin
# line, then execs exactly that with a raw syscall, no shim
cat > forge.py <<'P'
import ctypes, os, socket, struct, sys
line, cmd = sys.argv[1], sys.argv[2]
def f(tag, s):
    b = s.encode()
    return bytes([ord(tag)]) + struct.pack('<I', len(b)) + b
argv = ['bash', '-c', cmd]
req = f('o', 'exec') + f('p', 'pre') + f('e', '/usr/bin/bash')
for a in argv:
    req += f('a', a)
req += f('l', line) + bytes([0]) + struct.pack('<I', 0)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect('\0' + os.environ['HOOKSHIM_SOCK'].lstrip('@'))
s.sendall(req)
while s.recv(4096):
    pass
libc = ctypes.CDLL(None, use_errno=True)
A = (ctypes.c_char_p * 4)(*[a.encode() for a in argv], None)
env = [("%s=%s" % kv).encode() for kv in os.environ.items() if kv[0] != "LD_PRELOAD"]
E = (ctypes.c_char_p * (len(env) + 1))(*env, None)
libc.syscall(59, b'/usr/bin/bash', A, E)
print("execve failed", ctypes.get_errno())
P
for line in 3 1; do
	echo v > victim.txt
	text='rm -f victim.txt'
	[ $line = 1 ] && text=$'rm -f victim.txt\nif true; then'
	out=$("$HOOKSHIM" run --enforce -c hooks.json -- python3 forge.py $line "$text" 2>&1)
	check "enforce, forged LINE $line: the command it asked about is still judged" test -f victim.txt
	expect_contains "enforce, forged LINE $line: ... and denied with its reason" "$out" "victim is kept"
done
