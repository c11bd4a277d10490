# What the floor keeps of a caller between its notifications
# (floor/floor_task.c): its thread group and its HOOKSHIM_ROLE, read from
# /proc once per task instead of once per call -- and forgotten when the
# task execs, so a role an exec changes is the one the next call is
# judged by.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/net_static_connect
BB=$(command -v busybox || true)
[ -x "$P" ] || { skip "floor task: probe not built"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "floor task: no syscall floor here"; exit 0; }

# --- a role changed by an exec of the same task (enforce) ---
# a listener, so that a connection allowed succeeds
python3 -c '
import socket, sys, os
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
os.close(1)
while True:
    c, _ = s.accept(); c.close()' > port.txt &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [ -s port.txt ] && break; sleep 0.1; done
PORT=$(cat port.txt)
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"echo no connections >&2; exit 2"}]}]}}\n' > net.json
plain=$("$P" "$PORT" reexec 2>/dev/null | tr '\n' ' ')
expect_eq "plain: the probe connects, execs itself, connects again" "connect=0 connect=0 " "$plain"
out=$("$HOOKSHIM" run --enforce -c net.json -- "$P" "$PORT" reexec 2>err.txt | tr '\n' ' ')
expect_eq "enforce: the agent's own connection is its own; after its exec as a tool's, the same task's is judged and refused" \
	"connect=0 connect=111 " "$out"
expect_contains "... with the hook's reason" "$(cat err.txt)" "no connections"
out=$("$HOOKSHIM" run --enforce -c net.json -- "$P" "$PORT" threadexec 2>/dev/null | tr '\n' ' ')
expect_eq "enforce: the same when a second thread makes the exec (it takes the leader's tid)" \
	"connect=0 connect=111 " "$out"
# more tasks than the floor keeps (32), each connecting then exec'ing as a
# tool: every tool's connection judged
out=$("$HOOKSHIM" run --enforce -c net.json -- bash -c "for i in \$(seq 40); do '$P' $PORT reexec & done; wait" 2>/dev/null | sort | uniq -c | awk '{printf "%s %s;", $1, $2}')
expect_eq "enforce: 40 tasks at once, each its own role before and after its exec" "40 connect=0;40 connect=111;" "$out"

# --- how often /proc is read: once per task, not per call ---
if [ -z "$BB" ] || ! file -L "$BB" | grep -q 'statically linked' || ! command -v strace >/dev/null; then
	skip "floor task: /proc reads counted with strace and a static busybox"
	exit 0
fi
mkdir -p src/tree/secrets
for i in $(seq 1000); do echo "$i" > "src/tree/f$i"; done
echo key > src/tree/secrets/key
(cd src && tar cf ../tree.tar tree)
printf '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(tree/secrets/**)","command":"echo not the secrets >&2; exit 2"}]}]}}\n' > w.json
mkdir x
(cd x && strace -f -qq -e trace=openat -o ../st.txt "$HOOKSHIM" run --enforce -c ../w.json --root "$TMP/x" -- "$BB" tar xf ../tree.tar 2>../tar.err)
check "enforce: the static tar wrote its 1,000 files" test -f x/tree/f1000
check "... but not the one a hook refused" test ! -e x/tree/secrets/key
# by path, or by name from a kept descriptor of /proc/PID
opened() { grep -cE "openat\([^\"]*\"(/proc/[0-9]+/)?($1)\"" "$2"; }
n_status=$(opened status st.txt)
n_env=$(opened environ st.txt)
note "/proc/PID/status opened $n_status times, /proc/PID/environ $n_env times, for 1,000 files"
check "the caller's thread group: read a few times, not per file ($n_status)" test "$n_status" -lt 20
check "the caller's role: read a few times, not per file ($n_env)" test "$n_env" -lt 20
# guard mode, the files outside the root: the agent's own writes there
# are judged by its name too (its own places), kept like the rest
mkdir -p y elsewhere
(cd y && strace -f -qq -e trace=openat -o ../st2.txt "$HOOKSHIM" run --guard -c ../w.json --root "$TMP/elsewhere" -- "$BB" tar xf ../tree.tar 2>../tar2.err)
check "guard, outside the root: the static tar wrote its files" test -f y/tree/f1000
n=$(opened 'status|environ|comm' st2.txt)
note "/proc/PID/status, environ and comm opened $n times for 1,000 files outside the root"
check "guard: the caller's group, role and name read a few times, not per file ($n)" test "$n" -lt 20
