# Issue 23 items 0-2: in enforce mode nothing a process of the session
# sets or presents takes part in a decision. Each attack forges or strips
# what the shim trusts (HOOKSHIM_WRITE, _FLAGS, _ROLE, _CHECKED,
# LD_PRELOAD, the whole environment) or presents the floor's cookie, from
# a dynamic and from a static process. In guard mode (the fast path,
# which trusts the session's processes) several get through: that is the
# documented trust model, shown. In enforce mode none does: the protected
# tree is unchanged, the victim stays, the reason is printed. Root and,
# where setpriv can drop to nobody, an unprivileged user.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "enforce: jq missing"; exit 0; }
BB=$(command -v busybox) || { skip "enforce: busybox missing"; exit 0; }
file -L "$BB" 2>/dev/null | grep -q 'statically linked' || { skip "enforce: busybox is not static"; exit 0; }
RAW=$HOOKSHIM_PROBES/floor_rawsyscall
RAWS=$HOOKSHIM_PROBES/floor_static_rawsyscall
[ -x "$RAW" ] && [ -x "$RAWS" ] || { skip "enforce: probes not built"; exit 0; }
# The floor must be there: enforce is the floor deciding.
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "enforce: no syscall floor on this machine"; exit 0; }

# World-readable, so that nobody can run it too.
W=$(mktemp -d /tmp/hookshim-enforce.XXXXXX); chmod 755 "$W"
trap 'rm -rf "$TMP" "$W"' EXIT
mkdir -p "$W/hooks"
cat > "$W/hooks/guard.sh" <<'S'
#!/bin/sh
in=$(cat)
p=$(printf '%s' "$in" | jq -r '.tool_input.file_path // empty')
c=$(printf '%s' "$in" | jq -r '.tool_input.command // empty')
case "$p" in */secrets/*) echo "secrets are protected: $p" >&2; exit 2;; esac
case "$c" in *"rm -rf"*) echo "no rm -rf here" >&2; exit 2;; esac
exit 0
S
chmod 755 "$W/hooks/guard.sh"
cat > "$W/policy.json" <<J
{"hookshim":{"nested_exec":true},
 "hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit","hooks":[{"type":"command","command":"$W/hooks/guard.sh"}]}]}}
J
chmod 644 "$W/policy.json"

FORGED_FILTER=$(printf 'hsw1\n+/nonexistent/**\n')
# name | the agent's command line (bash -c), run in the root
cases=(
"filter|$BB env HOOKSHIM_WRITE='$FORGED_FILTER' bash -c 'echo P > secrets/f'"
"flags|$BB env HOOKSHIM_FLAGS=i=0 bash -c 'echo P > secrets/f'"
"role|$BB env HOOKSHIM_ROLE=tool bash -c 'echo P > secrets/f'"
"nopreload|$BB env -u LD_PRELOAD bash -c 'echo P > secrets/f'"
"env-i|$BB env -i PATH=/usr/bin:/bin bash -c 'echo P > secrets/f'"
"python|$BB env HOOKSHIM_WRITE='$FORGED_FILTER' python3 -c 'open(\"secrets/f\",\"w\").write(\"P\")'"
"static|$BB env HOOKSHIM_WRITE='$FORGED_FILTER' $BB sh -c 'echo P > secrets/f'"
"cookie|$RAW c:secrets/f"
"cookie-static|$RAWS c:secrets/f"
"checked|$BB sh -c 'a=rm; exec $BB env HOOKSHIM_CHECKED=exec:\$\$ bash -c \"\$a -rf victim\"'"
"mv-forged|$BB env HOOKSHIM_WRITE='$FORGED_FILTER' bash -c 'mv secrets/f gone'"
"execonly|mkdir x && cp $BB x/sh && chmod 111 x/sh && $BB sh -c 'a=rm; ./x/sh -c \"\$a -rf victim\"'"
)
# execonly: a static shell the session's user can run but not read (mode
# 0111), started by a static one: judged by the floor like any other (it
# once went by unjudged where the supervisor could not read the file to
# see whether a shim would load: as nobody).

fresh() {
	rm -rf "$W/root"; mkdir -p "$W/root/secrets"
	echo keep > "$W/root/secrets/f"; echo v > "$W/root/victim"
	chmod -R a+rwX "$W/root"
}
state() { (cd "$W/root" && ls secrets; cat secrets/f 2>/dev/null; ls victim 2>/dev/null); }

# run_case MODE NAME CMD [USER]: "held" or "landed"
run_case() {
	local mode=$1 name=$2 cmd=$3 as=${4:-} before after
	fresh; before=$(state)
	local pre=()
	[ -n "$as" ] && pre=(setpriv --reuid="$as" --regid="$as" --clear-groups)
	(cd "$W/root" && timeout -k 5 60 "${pre[@]}" "$HOOKSHIM" run "$mode" --no-notices \
		-c "$W/policy.json" -- bash -c "$cmd") >"$TMP/out" 2>"$TMP/err"
	after=$(state)
	if [ "$before" = "$after" ]; then echo held; else echo landed; fi
}

landed_guard=0
for c in "${cases[@]}"; do
	name=${c%%|*}; cmd=${c#*|}
	r=$(run_case --enforce "$name" "$cmd")
	expect_eq "enforce: $name: nothing lands" held "$r"
	[ "$r" = held ] || { note "stderr: $(head -c 400 "$TMP/err")"; }
	if [ "$name" != checked ] && [ "$name" != execonly ]; then
		expect_contains "enforce: $name: the hook's reason is said" "$(cat "$TMP/err")" "secrets are protected"
	else
		expect_contains "enforce: $name: the hook's reason is said" "$(cat "$TMP/err")" "no rm -rf here"
	fi
	r=$(run_case --guard "$name" "$cmd")
	note "guard: $name: $r"
	[ "$r" = landed ] && landed_guard=$((landed_guard + 1))
done
# The trust model, shown: guard trusts what the session's processes say.
check "guard: forged session state gets through (the documented trust model)" test "$landed_guard" -ge 3
r=$(run_case --guard static "$BB sh -c 'echo P > secrets/f'")
expect_eq "guard: a static program is still judged by the floor" held "$r"

# A command's process that drops its role from its environment (env -i;
# a raw execve with an empty envp, no shim to put it back) is a command's
# still, its programs judged with nested_exec on: it was taken for the
# agent, whose programs are no events. The agent runs the tool call
# (a file the text names, its `rm` never in the text the hook saw).
echo 'a=rm; echo "/bin/$a -rf victim" > cmdfile' >"$W/mkcmd"
nested=(
"envi|. $W/mkcmd; $BB env -i /bin/sh cmdfile"
"rawenv|. $W/mkcmd; python3 -c 'import ctypes; a=(ctypes.c_char_p*3)(b\"sh\",b\"cmdfile\",None); e=(ctypes.c_char_p*1)(None); ctypes.CDLL(None).syscall(59,b\"/bin/sh\",a,e)'"
"plain|. $W/mkcmd; sh cmdfile"
"forkexec|. $W/mkcmd; python3 $W/forkexec.py"
)
# forkexec: its python forks, then execs sleep (a nested exec, judged,
# allowed); the child, an image no longer its parent's, waits for that
# and makes the raw execve of sh: it was taken for the agent's
cat > "$W/forkexec.py" <<'PY'
import ctypes, os, time
if os.fork() == 0:
    time.sleep(1.0)
    a = (ctypes.c_char_p * 3)(b"sh", b"cmdfile", None)
    e = (ctypes.c_char_p * 1)(None)
    ctypes.CDLL(None).syscall(59, b"/bin/sh", a, e)
    os._exit(1)
os.execv("/bin/sleep", ["sleep", "2"])
PY
chmod 644 "$W/forkexec.py"
for c in "${nested[@]}"; do
	name=${c%%|*}; printf '%s\n' "${c#*|}" >"$W/tool.sh"
	for as in "" "$AS_ID"; do
		[ -n "$as" ] && { command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] || continue; }
		r=$(run_case --enforce "nested-$name" "bash -c 'bash $W/tool.sh'" "$as")
		expect_eq "enforce${as:+ as a user}: nested-$name: the command's rm is judged" held "$r"
		expect_contains "  ... the hook's reason is said" "$(cat "$TMP/err")" "no rm -rf here"
	done
done

# What is allowed still works, byte for byte, in enforce mode.
fresh
(cd "$W/root" && "$HOOKSHIM" run --enforce --no-notices -c "$W/policy.json" -- bash -c \
	'echo a > ok1; python3 -c "open(\"ok2\",\"w\").write(\"b\")"; '"$BB"' sh -c "echo c > ok3"; '"$RAW"' ok4 >/dev/null; mv ok1 ok5; cat ok5 ok2 ok3') >"$TMP/out" 2>"$TMP/err"
expect_eq "enforce: allowed writes land as plain" "$(printf 'a\nbc')" "$(cat "$TMP/out")"
check "enforce: the raw open elsewhere is allowed" test -f "$W/root/ok4"

# ---- the same attacks as an unprivileged user ----
if id nobody >/dev/null 2>&1 && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	uid=$(id -u nobody)
	for c in "${cases[@]}"; do
		name=${c%%|*}; cmd=${c#*|}
		r=$(run_case --enforce "$name" "$cmd" "$uid")
		expect_eq "enforce as nobody: $name: nothing lands" held "$r"
		[ "$r" = held ] || note "stderr: $(head -c 400 "$TMP/err")"
	done
else
	skip "enforce as nobody: setpriv cannot drop to nobody here"
fi

# ---- --ci implies enforce ----
fresh
(cd "$W/root" && "$HOOKSHIM" run --ci --no-notices -c "$W/policy.json" -- bash -c "$BB env HOOKSHIM_WRITE='$FORGED_FILTER' bash -c 'echo P > secrets/f'") >"$TMP/out" 2>"$TMP/err"
expect_eq "--ci: enforce is implied: the forged filter gains nothing" keep "$(cat "$W/root/secrets/f")"
expect_contains "--ci: the denial is in the summary" "$(cat "$TMP/err")" "1 denied"

# ---- a forged request buys a ticket for what it names, nothing else ----
# The process asks the supervisor itself (the shim's wire) about a benign
# `bash -c`, then execs another command line by a raw syscall: the
# ticket is for the argv the hooks judged, so the raw exec is judged.
cat > "$W/forge.py" <<'PY'
import ctypes, os, socket, struct
def field(tag, s):
    b = s.encode()
    return bytes([ord(tag)]) + struct.pack('<I', len(b)) + b
argv = ["bash", "-c", "echo benign"]
msg = field('o', 'exec') + field('p', 'pre') + field('n', '0') + \
      field('i', str(os.getpid())) + field('c', os.getcwd()) + field('e', '/usr/bin/bash')
for a in argv:
    msg += field('a', a)
msg += bytes([0]) + struct.pack('<I', 0)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect('\0' + os.environ['HOOKSHIM_SOCK'])
s.sendall(msg)
s.recv(4096)
s.close()
libc = ctypes.CDLL(None, use_errno=True)
args = [b"bash", b"-c", b"rm -rf victim"]
arr = (ctypes.c_char_p * 4)(*args, None)
# no shim in the new image: only the floor judges it
env = [("%s=%s" % kv).encode() for kv in os.environ.items() if kv[0] != "LD_PRELOAD"]
envp = (ctypes.c_char_p * (len(env) + 1))(*env, None)
libc.syscall(59, b"/usr/bin/bash", arr, envp)
print("exec errno", ctypes.get_errno())
PY
fresh
(cd "$W/root" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices -c "$W/policy.json" -- \
	bash -c "python3 $W/forge.py") >"$TMP/out" 2>"$TMP/err"
check "enforce: a forged request's ticket does not cover another argv (victim kept)" test -e "$W/root/victim"
expect_contains "enforce: ... the raw exec was judged" "$(cat "$TMP/err")" "no rm -rf here"
