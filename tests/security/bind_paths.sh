# A unix socket bound to a path makes a file-system entry there: bind(2)
# is a mknod of a socket to every write rule, judged by the shim (its
# libc bind) and by the floor (a static program's, a raw syscall's), in
# guard and enforce mode, as root and as a user. A Write hook on
# secrets/** denies a socket there (EACCES, the reason on stderr, the
# denial logged as "mknod"); so does self-protection in a hook script's
# directory. Elsewhere a bind behaves as plain: bound, listened on and
# reached by its name; an abstract name, 127.0.0.1, a name already there
# (EADDRINUSE), a missing directory (ENOENT). In enforce mode the
# supervisor binds the caller's socket itself (pidfd_getfd) with the name
# it judged and the caller's own string (the address the socket keeps,
# getsockname's): a thread flipping the address between a harmless name
# and a protected one, or between a magic link itself (/proc/self/fd/0,
# which a bind, mkdir or unlink makes or removes nothing at: answered as
# the kernel does) and a protected one, or swapping the name's directory
# for a symlink, lands nothing; what the kernel takes from the binding
# process is the caller's (a netlink port: its pid, in a pid namespace of
# its own too). Each case is first made plainly: it lands without
# hookshim (and, on the build before, under it).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
S=$HOOKSHIM_PROBES/floor_static_writes
D=$HOOKSHIM_PROBES/floor_dynamic_writes
[ -x "$HOOKSHIM" ] || { skip "bind paths: no hookshim build"; exit 0; }
[ -x "$S" ] && [ -x "$D" ] || { skip "bind paths: probes not built"; exit 0; }
command -v jq >/dev/null || { skip "bind paths: jq missing"; exit 0; }
need_floor "bind paths"
ROOT=$TMP/root
mkdir -p "$ROOT/secrets" "$ROOT/ok" "$ROOT/hooks"
printf '#!/bin/sh\nexit 0\n' >"$ROOT/hooks/ok.sh"
chmod 755 "$ROOT/hooks/ok.sh"
chmod -R a+rwX "$ROOT"
chmod 755 "$ROOT/hooks"
for m in guard enforce; do
	cat >"$TMP/$m.json" <<J
{"hookshim":{"floor":"require","mode":"$m"},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'no sockets in secrets' >&2; exit 2"}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"$ROOT/hooks/ok.sh"}]}]}}
J
	chmod 644 "$TMP/$m.json"
done
fresh() { rm -rf "$ROOT/secrets/"* "$ROOT/ok/"* "$ROOT/hooks/"*.sock; : >"$TMP/log.jsonl"; chmod 666 "$TMP/log.jsonl"; }

# plainly, the probe's socket lands where the policy would deny it
fresh
(cd "$ROOT" && "$S" bind:secrets/s) >"$TMP/out" 2>&1
expect_eq "plain: a static bind makes secrets/s" "bind secrets/s: ok" "$(cat "$TMP/out")"
check "plain: ... a socket" test -S "$ROOT/secrets/s"

ARGS="bind:secrets/s bind:hooks/evil.sock bind:ok/s bindabs:hs-bind-$$ bindinet bind:ok/s bind:nodir/s
bindfile:secrets/f bindinetunix:secrets/i bindbadfd bindnetlink
bind:/proc/self/fd/0 bind:/proc/self/cwd mkdir:/proc/self/fd/0 unlink:/proc/self/fd/0
rmdir:/proc/self/fd/0 unlink:/proc/self/cwd/ rmdir:/proc/self/cwd/ bind:/proc/self/fd/0/
symlink:x:/proc/self/fd/2 link:/proc/self/fd/0:/proc/self/fd/2 rename:/proc/self/fd/0:/proc/self/fd/2"
WANT="bind secrets/s: EACCES
bind hooks/evil.sock: EACCES
bind ok/s: ok
bindabs hs-bind-$$: ok
bindinet : ok
bind ok/s: EADDRINUSE
bind nodir/s: ENOENT
bindfile secrets/f: ENOTSOCK
bindinetunix secrets/i: EAFNOSUPPORT
bindbadfd : EBADF
bindnetlink : ok
bind /proc/self/fd/0: EADDRINUSE
bind /proc/self/cwd: EADDRINUSE
mkdir /proc/self/fd/0: EEXIST
unlink /proc/self/fd/0: EPERM
rmdir /proc/self/fd/0: Not a directory
unlink /proc/self/cwd/: Not a directory
rmdir /proc/self/cwd/: EPERM
bind /proc/self/fd/0/: EADDRINUSE
symlink x: EEXIST
link /proc/self/fd/0: EEXIST
rename /proc/self/fd/0: EPERM"
fresh
(cd "$ROOT" && "$S" $ARGS) >"$TMP/out" 2>&1
expect_eq "plain: the kernel's answers (a netlink socket's port its process's id)" \
	"$(echo "$WANT" | sed 's/^\(bind secrets\/s\|bind hooks\/evil.sock\): EACCES/\1: ok/')" "$(cat "$TMP/out")"

# run_as WHO PREFIX...: every case as WHO
run_as() {
	local who=$1 m p pn
	shift
	for m in guard enforce; do
		for p in "$S" "$D"; do
			pn=static; [ "$p" = "$D" ] && pn=dynamic
			fresh
			(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" \
				--log "$TMP/log.jsonl" -- "$p" $ARGS) >"$TMP/out" 2>"$TMP/err"
			expect_eq "$who, $m, $pn: each bind answered as plain, the protected ones EACCES" "$WANT" "$(cat "$TMP/out")"
			expect_eq "$who, $m, $pn: nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
			check "$who, $m, $pn: no socket in the hook's directory" test ! -e "$ROOT/hooks/evil.sock"
			check "$who, $m, $pn: ok/s is a socket" test -S "$ROOT/ok/s"
			expect_contains "$who, $m, $pn: the hook's reason on stderr" "$(cat "$TMP/err")" \
				"hookshim: write to $ROOT/secrets/s denied: no sockets in secrets"
			# (a file's descriptor and an inet socket given a unix
			# name make nothing on disk: no event)
			expect_eq "$who, $m, $pn: the denials logged as mknods, those alone" \
				"mknod $ROOT/hooks/evil.sock
mknod $ROOT/secrets/s" \
				"$(jq -r 'select(.op == "write" and .decision == "deny") | "\(.operation) \(.path)"' "$TMP/log.jsonl" | sort -u)"
		done
		# python's socket module, by the shim's bind
		fresh
		(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- python3 -c '
import os, socket
s = socket.socket(socket.AF_UNIX)
try:
    s.bind("secrets/py")
    print("bound")
except OSError as e:
    print(e.strerror)
s = socket.socket(socket.AF_UNIX)
s.bind("ok/py"); s.listen(1)
c = socket.socket(socket.AF_UNIX); c.connect("ok/py")
print("ok/py reached")
# the address a socket keeps is the string it was bound with
for p in ["ok/rel.sock", os.path.abspath("ok/abs.sock"), "top.sock"]:
    s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(1)
    c = socket.socket(socket.AF_UNIX); c.connect(p)
    print(s.getsockname() == p, c.getpeername() == p)
    os.unlink(p)
# a netlink socket asking for a port gets its process id, a second one
# another, and a bound one asked again EINVAL, as plainly
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); s.bind((0, 0))
t = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); t.bind((0, 0))
print(s.getsockname()[0] == os.getpid(), t.getsockname()[0] != os.getpid())
try:
    s.bind((0, 0)); print("rebound")
except OSError as e:
    print(e.strerror)
# an inet socket given an address at 8: the kernel'"'"'s EFAULT
import ctypes
l = ctypes.CDLL(None, use_errno=True)
t = socket.socket(socket.AF_INET)
print(l.bind(t.fileno(), ctypes.c_void_p(8), 16), os.strerror(ctypes.get_errno()))') >"$TMP/out" 2>"$TMP/err"
		expect_eq "$who, $m, python: secrets/py denied with the reason, ok/py bound and reached, each address as bound" \
			"Permission denied by hookshim: no sockets in secrets
ok/py reached
True True
True True
True True
True True
Invalid argument
-1 Bad address" "$(cat "$TMP/out")"
		expect_eq "$who, $m, python: nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
	done
	# enforce: the address flipped by another thread between the judged
	# name and the kernel's reading of it (which the supervisor's own
	# bind never does)
	fresh
	(cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$S" bindrace:ok/aaaaaaa:secrets/x) >"$TMP/out" 2>"$TMP/err"
	expect_contains "$who, enforce: 2,000 binds raced" "$(cat "$TMP/err")" "bindrace: "
	expect_eq "$who, enforce: a flipped address lands nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
	check "$who, enforce: ... some of its binds were judged at the protected name (the race ran)" \
		grep -q "denied: no sockets in secrets" "$TMP/err"
	# enforce: the address flipped between a magic link (which no bind
	# makes: EADDRINUSE) and secrets/x
	fresh
	(cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$S" bindrace:/proc/self/fd/0:secrets/x) >"$TMP/out" 2>"$TMP/err"
	expect_contains "$who, enforce: 2,000 binds raced with a magic link" "$(cat "$TMP/err")" "bindrace: "
	expect_eq "$who, enforce: ... land nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
	# enforce: the directory of the name swapped for a symlink to
	# secrets/ and back by another thread (plainly, some land there)
	fresh
	rm -rf "$ROOT/d" "$ROOT/d.real"; mkdir "$ROOT/d"; chmod 777 "$ROOT/d"
	(cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$S" bindswap:d:"$ROOT/secrets") >"$TMP/out" 2>"$TMP/err"
	expect_contains "$who, enforce: 2,000 binds under a swapping directory" "$(cat "$TMP/err")" "bindswap: "
	expect_eq "$who, enforce: ... land nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
}
run_as root
as_user "bind paths" && run_as user "${AS[@]}"

# a netlink socket's port in a pid namespace of the caller's own: its pid
# there, as plainly (the supervisor's numbering would be another). Enforce
# mode refuses a PID namespace unless "namespaces" is allowed (its first
# process would take the orphans made in it: floor/floor_orphans.c)
sed 's/"mode":"enforce"}/"mode":"enforce","floor_allow":["namespaces"]}/' "$TMP/enforce.json" >"$TMP/enforce-ns.json"
if unshare -p -f true 2>/dev/null; then
	(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		unshare -p -f true) >"$TMP/out" 2>&1
	expect_contains "enforce: a pid namespace is refused, said" "$(cat "$TMP/out")" \
		"hookshim: unshare denied: a mount, user, cgroup or PID namespace"
	for m in guard enforce-ns; do
		(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- \
			unshare -p -f python3 -c '
import os, socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); s.bind((0, 0))
print(s.getsockname()[0] == os.getpid(), os.getpid())') >"$TMP/out" 2>&1
		expect_eq "$m: a netlink port in a nested pid namespace is the caller's pid there" "True 1" "$(cat "$TMP/out")"
	done
else
	skip "bind paths: no pid namespace here for the netlink row"
fi

if as_user "bind paths, a root session"; then
	# a root session whose caller became a user: the supervisor takes
	# the caller's socket with its own credentials (pidfd_getfd checks
	# the real ids), then binds as the caller; the race lands nothing
	fresh
	(cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"${AS[@]}" "$S" bindrace:ok/aaaaaaa:secrets/x) >"$TMP/out" 2>"$TMP/err"
	expect_contains "root session, a user's 2,000 raced binds" "$(cat "$TMP/err")" "bindrace: "
	expect_eq "root session, a user's raced binds land nothing in secrets/" "" "$(ls -A "$ROOT/secrets")"
fi

# the supervisor keeps no descriptor per bind: 2,000 named binds, each
# decided by a hook on a thread of its own, then its descriptors counted
cat >"$TMP/hooked.json" <<J
{"hookshim":{"floor":"require","mode":"enforce"},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(ok/**)","command":"exit 0"}]}]}}
J
fresh
rm -f "$TMP/bound"
(cd "$ROOT" && exec timeout 300 "$HOOKSHIM" run --no-notices -c "$TMP/hooked.json" -- \
	sh -c "'$S' bindrace:ok/aaaaaaa:ok/aaaaaaa 2>'$TMP/err' >/dev/null; touch '$TMP/bound'; sleep 30") &
hp=$!
for _ in $(seq 600); do [ -e "$TMP/bound" ] && break; sleep 0.2; done
sup=$(pgrep -P "$hp" -x hookshim || echo "$hp")
nfd=$(ls "/proc/$sup/fd" 2>/dev/null | wc -l)
kill -TERM "$hp" 2>/dev/null; wait "$hp" 2>/dev/null
expect_contains "2,000 hook-decided binds ran" "$(cat "$TMP/err")" "bindrace: 2000 bound"
check "... and the supervisor holds few descriptors after ($nfd)" test "$nfd" -gt 0 -a "$nfd" -lt 100
