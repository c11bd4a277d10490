# Issue 23, enforce mode: nothing the session can write takes part in a
# decision -- its own memory included. A path call the floor lets go on
# (rename, link, symlink, mkdir, unlink, ...) used to continue in the
# kernel, which reads the path from the caller's memory again: another
# thread swapping a harmless name for a watched one in between got a
# file renamed, linked, made or deleted under secret/ that the Write hook
# never saw. In enforce mode the supervisor now makes the call itself
# with the string it judged (floor/floor_pathop.c), and every notified
# open is done by it too ("floor_opens": "all" by enforce mode's
# default). Shown here with a static program (no shim), as root and as
# an unprivileged user; the calls' results and the tree they leave are
# the kernel's own (the same run plain and under the floor); guard mode
# still has the race (a stated limit, shown where it lands).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "path call race: probe not built"; exit 0; }
need_floor "path call race"
ROOT=$TMP/root; mkdir -p "$ROOT"
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
echo "{\"hookshim\":{\"mode\":\"guard\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/guard.json"
# with follow_symlinks the names judged are the resolved ones, and the
# directory the supervisor reaches is held to them
echo "{\"hookshim\":{\"mode\":\"enforce\",\"writes\":{\"follow_symlinks\":true}},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/follow.json"
N=${FLOOR_RACE_N:-1500}

# ---- the calls are the kernel's own ----
mkdir -p "$TMP/plain"
"$P" paths:"$TMP/plain" >"$TMP/plain.out" 2>&1
tree() { (cd "$1" && find . -printf '%p %M %s %l %n\n' | LC_ALL=C sort); }
for c in enforce follow; do
	rm -rf "$TMP/floor"; mkdir -p "$TMP/floor"
	"$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- "$P" paths:"$TMP/floor" \
		>"$TMP/floor.out" 2>"$TMP/err"
	expect_eq "path calls under enforce ($c): every result (0 or errno) as the kernel's own" \
		"$(cat "$TMP/plain.out")" "$(cat "$TMP/floor.out")"
	expect_eq "path calls under enforce ($c): the same tree, modes (umask), sizes and links" \
		"$(tree "$TMP/plain")" "$(tree "$TMP/floor")"
	check "path calls under enforce ($c): the run has 48 results" test "$(wc -l <"$TMP/floor.out")" -ge 48
done

# A fifo is the kernel's to open: the supervisor's own open would wake its
# other end (a reader waiting in cat) and close it again.
BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	rm -rf "$TMP/fifo"; mkdir -p "$TMP/fifo"
	( cd "$TMP/fifo" && timeout 20 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$BB" sh -c \
		'mkfifo p; "'"$BB"'" cat p > got & echo through > p; wait; "'"$BB"'" cat got' ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "enforce: a static shell's pipe through a fifo works" "through" "$(cat "$TMP/out")"
	# with a Read hook, reads are the supervisor's to do too: a writer
	# already waiting in its open must not be woken by the supervisor's
	# look at the fifo (it would write to no reader and die of SIGPIPE,
	# and the reader then wait for ever)
	echo '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","if":"Read(secret/**)","command":"exit 2"}]}]}}' >"$TMP/read.json"
	rm -rf "$TMP/fifo"; mkdir -p "$TMP/fifo"
	( cd "$TMP/fifo" && timeout 20 "$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- "$BB" sh -c \
		'mkfifo p; (echo through > p; echo "writer=$?") & "'"$BB"'" sleep 0.3; "'"$BB"'" cat p; wait' ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "enforce with a Read hook: a fifo's waiting writer and its reader meet" \
		"$(printf 'through\nwriter=0')" "$(LC_ALL=C sort "$TMP/out")"
else
	skip "enforce fifo: busybox-static not installed"
fi

# ---- the races ----
race() { # MODE OP [as user...]   (FIRST: a check to run before, own-filter)
	local mode=$1 op=$2
	shift 2
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret" "$ROOT/aaaaaa"
	echo keep >"$ROOT/secret/x"
	[ "$op" = unlink ] || rm -f "$ROOT/secret/x"
	chown -R "${OWNER:-0}" "$ROOT" 2>/dev/null
	( cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$mode.json" -- \
		"$P" ${FIRST:-} race-call:"$op":aaaaaa/x:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
	if [ "$op" = unlink ]; then
		landed=$([ -e "$ROOT/secret/x" ] && echo 0 || echo 1)
	else
		landed=$(ls -A "$ROOT/secret" | wc -l)
	fi
	note "$mode $op ${*:+as user }: $(cat "$TMP/out"), landed in secret/: $landed"
}
run_races() { # LABEL [as user...]
	local label=$1 op
	shift
	for op in rename link symlink mkdir unlink; do
		race enforce $op "$@"
		expect_contains "$label: enforce, $op with the path swapped by a thread: the calls ran" \
			"$(cat "$TMP/out")" "race-call:"
		expect_eq "$label: enforce, $op with the path swapped by a thread: nothing lands in secret/ ($N calls)" \
			0 "$landed"
	done
}
run_races "as root"
for op in rename unlink; do
	race follow $op
	expect_eq "as root: enforce with follow_symlinks, $op with the path swapped: nothing lands in secret/ ($N calls)" \
		0 "$landed"
done
if as_user "path call race"; then
	OWNER=$AS_ID run_races "as a user" "${AS[@]}"
fi

# A process that stacks a seccomp filter of its own (a sandbox's, or one
# that allows everything) was once left to the kernel -- its identity
# "differed" -- so the swap landed again. A filter newer than the
# floor's can only refuse more, never less: the calls are still made by
# the supervisor.
for op in rename unlink; do
	FIRST=own-filter race enforce $op
	expect_contains "own seccomp filter: installed" "$(cat "$TMP/out")" "own-filter: ok"
	expect_eq "own seccomp filter: enforce, $op with the path swapped: nothing lands in secret/ ($N calls)" \
		0 "$landed"
done

# openat2 keeps its flags in the caller's memory: an open read as
# O_RDONLY (no hook to ask) and continued let the kernel read flags and
# path again -- O_WRONLY|O_CREAT on secret/x. In enforce mode reads the
# floor is given are opened by the supervisor too, with the flags it read.
rm -rf "$ROOT"; mkdir -p "$ROOT/secret" "$ROOT/aaaaaa"; echo a >"$ROOT/aaaaaa/x"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	"$P" race-how:aaaaaa/x:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
note "openat2 flags and path swapped: $(cat "$TMP/out"), in secret/: $(ls -A "$ROOT/secret" | wc -l)"
expect_contains "enforce, openat2 with its flags and path swapped by a thread: the calls ran" \
	"$(cat "$TMP/out")" "race-how:"
expect_eq "enforce, openat2 with its flags and path swapped by a thread: nothing lands in secret/ ($N calls)" \
	0 "$(ls -A "$ROOT/secret" | wc -l)"

# A Landlock domain cannot be seen from outside, so once a process enters
# one the supervisor lets every call go back to the kernel (its access
# must not stand in for a sandbox's) -- which any script could choose.
# Enforce mode refuses landlock_restrict_self unless "floor_allow" names
# "landlock"; guard mode lets it through.
cat >"$TMP/landlock.py" <<'PY'
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
class Attr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]
a = Attr(1 << 0)  # LANDLOCK_ACCESS_FS_EXECUTE: restricts nothing written
fd = libc.syscall(444, ctypes.byref(a), ctypes.sizeof(a), 0)
if fd < 0:
    print("landlock: no ruleset", ctypes.get_errno()); sys.exit(3)
r = libc.syscall(446, fd, 0)
print("restrict:", "ok" if r == 0 else "errno %d" % ctypes.get_errno())
PY
if command -v python3 >/dev/null; then
	( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- python3 "$TMP/landlock.py" ) >"$TMP/out" 2>"$TMP/err"
	if grep -q "no ruleset" "$TMP/out"; then
		skip "enforce, Landlock: no Landlock here ($(cat "$TMP/out"))"
	else
		expect_eq "enforce: landlock_restrict_self is refused (EPERM)" "restrict: errno 1" "$(cat "$TMP/out")"
		expect_contains "enforce: ... with the reason and the setting that allows it" "$(cat "$TMP/err")" \
			'"floor_allow": ["landlock"]'
		( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/guard.json" -- python3 "$TMP/landlock.py" ) >"$TMP/out" 2>"$TMP/err"
		expect_eq "guard: landlock_restrict_self is let through" "restrict: ok" "$(cat "$TMP/out")"
	fi
fi

# ... and one read as O_PATH could not be done for the caller (no O_PATH
# descriptor can be handed over) nor continued: ENOSYS, on which
# libraries fall back to openat. Guard mode leaves it to the kernel.
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$P" openat2-path:aaaaaa ) >"$TMP/out" 2>&1
expect_eq "enforce: openat2 with O_PATH is ENOSYS" "openat2-path: ENOSYS" "$(cat "$TMP/out")"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/guard.json" -- "$P" openat2-path:aaaaaa ) >"$TMP/out" 2>&1
expect_eq "guard: openat2 with O_PATH is the kernel's" "openat2-path: ok" "$(cat "$TMP/out")"

# openat2 answers the kernel gives before it walks or creates anything,
# which the supervisor's open, making its own struct, did not: a create
# or truncate with RESOLVE_CACHED (EAGAIN; emulated, an existing file was
# truncated and handed over), O_CREAT with a trailing slash (EISDIR, once
# the directory part is walked; emulated: EEXIST, ENOTDIR, or the
# directory opened), a mode without O_CREAT (EINVAL). The same run of
# opens plain and under enforce, and the existing file kept.
rm -rf "$ROOT"; mkdir -p "$ROOT/d"; echo keep >"$ROOT/ex"
HOWS="how:ex:301:20 how:ex:1101:20 how:ex:1:20 how:d/:101:0 how:d/:301:0 how:ex/:101:0 how:nd/:101:0 how:nd/x/:101:0 how:d/./:101:0 how:ex:100000000001:0 how:d:20200002:0 how:lf:100101:0 how:d:20000002:0"
( cd "$ROOT" && "$P" $HOWS ) >"$TMP/hows.plain" 2>&1
echo keep >"$ROOT/ex"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$P" $HOWS ) >"$TMP/out" 2>&1
expect_eq "enforce: openat2's struct answered as the kernel answers it (RESOLVE_CACHED, trailing slashes, flags)" \
	"$(cat "$TMP/hows.plain")" "$(cat "$TMP/out")"
expect_eq "enforce: ... and O_CREAT|O_EXCL|O_TRUNC with RESOLVE_CACHED truncated nothing" "keep" "$(cat "$ROOT/ex")"

# Names the supervisor opens though the kernel's own walk of them would
# take a magic link or reach no file: a device (/dev/null), one of the
# caller's descriptors by name (/dev/stdout, here /dev/null behind it) --
# decoys a script could pick, whose open the kernel used to do, reading
# the swapped name (before this change: a few of 1,500 landed each run).
# What the kernel still does (docs/limits.md, "Under the floor"): a
# terminal other than a pty, a file of /proc that is no descriptor.
# /dev/tty is the caller's controlling terminal, opened by the
# supervisor as the pty it is (here: none, ENXIO; below, under script(1),
# a pty).
# A magic link opened whole (/proc/self/exe, a running program's, and
# /proc/self/cwd, a directory: no write opens either) was the kernel's,
# which read the swapped name: the supervisor opens it through the link
# now, as it does a descriptor's.
# A socket's open fails ENXIO, answered so; a session leader's /dev/null
# is no terminal it could take. A fifo whose reader comes and goes (a
# loop of cat outside the session): an open for writing while no reader
# is there waits for one, and used to go to the kernel, which read the
# swapped name whenever the reader came; the supervisor now waits in
# that open itself (floor/floor_fifo.c).
for decoy in /dev/null /dev/stdout sock setsid fifo /dev/tty /proc/self/exe /proc/self/cwd; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"
	pre=; name=$decoy; reader=
	case $decoy in
	sock) python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("'"$ROOT"'/sock")' ;;
	setsid) pre=setsid; name=/dev/null ;;
	fifo)
		mkfifo "$ROOT/fifo"
		( while [ -p "$ROOT/fifo" ]; do timeout 2 cat "$ROOT/fifo" >/dev/null; done ) &
		reader=$!
		;;
	esac
	( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		$pre "$P" race-mem:$name:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
	if [ -n "$reader" ]; then
		rm -f "$ROOT/fifo"; kill $reader 2>/dev/null; wait $reader 2>/dev/null
		expect_contains "enforce: the fifo decoy's run ends" "$(cat "$TMP/out")" " opened"
	fi
	expect_eq "enforce: a decoy $decoy swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
done

# A magic link opened whole with an openat2's resolve flags (which the
# kernel answers before any walk: RESOLVE_NO_XDEV's EXDEV here) was
# continued, so the kernel read the swapped name: answered now
rm -rf "$ROOT"; mkdir -p "$ROOT/secret"
( cd "$ROOT" && RACE_RESOLVE=8 timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	"$P" race-mem:/proc/self/exe:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
expect_contains "enforce: openat2 RESOLVE_NO_XDEV of a decoy /proc/self/exe: the opens ran" "$(cat "$TMP/out")" "race-mem: "
expect_eq "enforce: openat2 RESOLVE_NO_XDEV of a decoy /proc/self/exe swapped for secret/x lands nothing ($N opens)" \
	"" "$(ls -A "$ROOT/secret")"

# A symlink the agent made to its own descriptor by name (`ln -s
# /dev/stdout out.log`, as container images do for their logs): the
# supervisor's walk met a magic link and the open went to the kernel,
# which read the swapped name (landed on 41c17e1, stdout a file and a
# pipe; and with "follow_symlinks": false, where the symlink is judged by
# its own name). Now the symlink is followed by hand and the descriptor
# reopened as one named so is; a shell's `echo hi > out.log` still
# reaches stdout.
echo "{\"hookshim\":{\"mode\":\"enforce\",\"writes\":{\"follow_symlinks\":false}},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/nofollow.json"
for cfg in enforce nofollow; do
for out in file pipe; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; ln -s /dev/stdout "$ROOT/out.log"
	if [ $out = file ]; then
		( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- \
			"$P" race-mem:out.log:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
	else
		( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- \
			"$P" race-mem:out.log:secret/x:$N | cat >"$TMP/out" ) 2>"$TMP/err"
	fi
	expect_eq "$cfg: a decoy symlink to /dev/stdout ($out) swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
	if [ $out = file ]; then
		( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- sh -c 'echo hi > out.log' ) >"$TMP/out" 2>&1
	else
		( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- sh -c 'echo hi > out.log' 2>&1 | cat >"$TMP/out" )
	fi
	expect_eq "$cfg: ... and a shell's echo into that symlink reaches its stdout ($out)" "hi" "$(cat "$TMP/out")"
done
done

# The same descriptor by a relative name (`ln -s ../../proc/self/fd/1`,
# and a symlink to that symlink): its ".." walked in our view of /proc
# reached the supervisor's own descriptor, the call was judged again
# three times and failed ELOOP where the kernel opens it (until session
# 28). Now the target's leading ".." are taken from the symlink's
# directory's name and the descriptor is seen, as by its absolute name;
# and not following, a chain of symlinks to one (rel2.log) is held to the
# first one's name, the one judged (it failed ELOOP too).
up=$(printf '%s' "$ROOT" | sed 's|/[^/]*|../|g')
for cfg in enforce nofollow; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"
	ln -s "${up}proc/self/fd/1" "$ROOT/rel.log"; ln -s rel.log "$ROOT/rel2.log"
	for f in rel.log rel2.log; do
		( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- sh -c "echo hi > $f" ) >"$TMP/out" 2>&1
		expect_eq "$cfg: a shell's echo into $f (relative, to /proc/self/fd/1) reaches its stdout" "hi" "$(cat "$TMP/out")"
		( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- "$P" append:$f:hi 2>&1 | cat >"$TMP/out" )
		expect_eq "$cfg: ... and a static program's append (its stdout a pipe)" "hiappend: ok" "$(cat "$TMP/out")"
	done
	# with a trailing slash: a directory asked for, the kernel's ENOTDIR
	ln -s "${up}proc/self/fd/1/" "$ROOT/reldir.log"
	( cd "$ROOT" && "$P" append:reldir.log:hi ) >"$TMP/reldir.plain" 2>&1
	( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- "$P" append:reldir.log:hi ) >"$TMP/out" 2>&1
	expect_eq "$cfg: ... to /proc/self/fd/1/ (a file), as plain" "$(cat "$TMP/reldir.plain")" "$(cat "$TMP/out")"
	( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/$cfg.json" -- \
		"$P" race-mem:rel2.log:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "$cfg: a decoy symlink to a relative one to /proc/self/fd/1 swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
done

# A name judged as a regular file that a process outside the session
# (no receiver serializes it) flips into a symlink to the caller's own
# read-only descriptor of secret/k between the judging and the open: the
# open met a magic link the naming had not seen and went to the kernel,
# which followed it -- secret/k written (some 35 of 3,000 on 37e821e).
# Now judged again: the naming sees the symlink to secret/k, the hook
# denies; and where the open took the symlink's name for the judged one
# (a regression of 282b431, mended in 66dc89b) the descriptor is held to
# its own name.
rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; echo keep >"$ROOT/secret/k"; : >"$ROOT/f"
"$P" flip:"$ROOT/f":-:/proc/self/fd/3:60000 2>/dev/null &
flipper=$!
( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	"$P" race-fd:secret/k:f:3000 ) >"$TMP/out" 2>"$TMP/err"
kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
note "regular file flipped into a symlink to fd 3: $(cat "$TMP/out")"
expect_contains "enforce: opens of a name flipped between a file and a symlink to the caller's fd of secret/k ran" \
	"$(cat "$TMP/out")" "race-fd: "
expect_eq "enforce: ... secret/k is untouched (3000 opens)" "keep" "$(cat "$ROOT/secret/k")"

# A decoy that a process of the session keeps a lease on: the
# supervisor's O_NONBLOCK open of it fails EAGAIN while the lease is
# there, and such an open went to the kernel, which read the swapped
# name (landed on aa1bc1f). Now it waits for the lease's break on a
# thread of its own, as the caller's open would.
cat >"$TMP/lease.py" <<'PY'
import fcntl, os, signal, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
signal.signal(signal.SIGIO, lambda s, f: fcntl.fcntl(fd, 1024, fcntl.F_UNLCK))
end, n = time.time() + float(sys.argv[2]), 0
while time.time() < end:
    try:
        fcntl.fcntl(fd, 1024, fcntl.F_RDLCK)   # F_SETLEASE
        n += 1
    except OSError:
        pass
    time.sleep(0.0002)
print("leases", n)
PY
lease_race() { # LABEL [as user...]
	local label=$1
	shift
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; echo d >"$ROOT/decoy"; chown -R "${OWNER:-0}" "$ROOT"
	( cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- bash -c \
		"python3 $TMP/lease.py decoy 6 & sleep 0.3; $P race-mem:decoy:secret/x:$N; wait" ) >"$TMP/out" 2>"$TMP/err"
	note "$label: $(tr '\n' ' ' <"$TMP/out")"
	expect_contains "$label: enforce, a leased decoy: the opens ran while the lease was taken" \
		"$(cat "$TMP/out")" "race-mem: "
	expect_eq "$label: enforce, a decoy under a lease swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
}
lease_race "as root"
if as_user "lease race"; then
	OWNER=$AS_ID lease_race "as a user" "${AS[@]}"
fi

# /dev/tty with a controlling terminal (a pty of script's): a write
# through it reaches the terminal, from bash and a static busybox, and a
# decoy /dev/tty swapped for secret/x lands nothing
if command -v script >/dev/null; then
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"
	( cd "$ROOT" && timeout 120 script -qec "$HOOKSHIM run --no-notices -c $TMP/enforce.json -- bash -c 'echo via-bash > /dev/tty; $P race-mem:/dev/tty:secret/x:$N >/dev/null'" /dev/null ) \
		</dev/null >"$TMP/out" 2>"$TMP/err"
	expect_contains "enforce: a write to /dev/tty reaches the controlling terminal (a pty)" "$(cat "$TMP/out")" "via-bash"
	check "  ... as does the static probe's, through it" test "$(tr -cd x <"$TMP/out" | wc -c)" -gt 0
	expect_eq "enforce: with a controlling terminal, a decoy /dev/tty swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
else
	skip "/dev/tty with a controlling terminal: no script(1)"
fi

# Another process's descriptor by name: the kernel reopens
# /proc/<pid>/fd/N as whatever that process holds under N at its own
# walk, so a child that dup2s a protected file's read-only descriptor
# over a decoy's while its parent opens the name for writing landed
# writes in secret/x (tests/probes/race_fd_static.c: a few hundred of
# 1,500 on the build before). The supervisor reopens it itself now, held
# to the name judged; and what it opens is what the kernel would (an
# allowed file's descriptor of another process's reached, another
# user's refused).
R=$HOOKSHIM_PROBES/race_fd_static
race_fd() { # LABEL [as user...]
	local label=$1
	shift
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"
	echo keep >"$ROOT/secret/x"; echo d >"$ROOT/decoy"
	chown -R "${OWNER:-0}" "$ROOT"
	( cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$R" decoy secret/x $N ) >"$TMP/out" 2>"$TMP/err"
	note "$label: $(cat "$TMP/out")"
	expect_contains "$label: enforce, /proc/PID/fd/N of a process swapping it: the opens ran" \
		"$(cat "$TMP/out")" "race-fd: "
	expect_eq "$label: enforce, /proc/PID/fd/N swapped to a protected file lands nothing ($N opens)" \
		keep "$(cat "$ROOT/secret/x")"
}
race_fd "as root"
if as_user "descriptor race"; then
	OWNER=$AS_ID race_fd "as a user" "${AS[@]}"
fi
rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; echo keep >"$ROOT/secret/x"
( cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- bash -c '
	sleep 30 3>>out 4<secret/x & s=$!
	until [ -e /proc/$s/fd/4 ]; do sleep 0.05; done
	echo through >/proc/$s/fd/3; echo "allowed=$?"
	echo no >/proc/$s/fd/4; echo "protected=$?"
	kill $s' ) >"$TMP/out" 2>"$TMP/err"
expect_eq "enforce: another process's /proc/PID/fd/N: an allowed file written, a protected one not" \
	"$(printf 'allowed=0\nprotected=1')" "$(cat "$TMP/out")"
expect_eq "  ... the allowed file has the write, the protected one is unchanged" \
	"through keep" "$(cat "$ROOT/out") $(cat "$ROOT/secret/x")"
if as_user "another user's descriptor"; then
	sleep 30 </dev/null >"$ROOT/rootfile" & s=$!
	plain=$("${AS[@]}" bash -c "echo x >/proc/$s/fd/1" 2>&1)
	under=$("${AS[@]}" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- bash -c "echo x >/proc/$s/fd/1" 2>&1)
	kill $s; wait $s 2>/dev/null
	expect_contains "a user's open of root's /proc/PID/fd/N: refused plain" "$plain" "Permission denied"
	expect_contains "  ... and under enforce, as the kernel says" "$under" "Permission denied"
	expect_eq "  ... the file unchanged" "" "$(cat "$ROOT/rootfile")"
fi

# ... and what they open is what the kernel would: a fixed run of opens
# of devices, a fifo, a socket and descriptors by name gives the same
# results plain and under the floor, in both modes
mkdir -p "$TMP/sp"
"$P" specials:"$TMP/sp" >"$TMP/sp.out" 2>&1
check "the specials run has 38 results" test "$(wc -l <"$TMP/sp.out")" -ge 38
for c in enforce follow guard; do
	rm -rf "$TMP/sp"; mkdir -p "$TMP/sp"
	"$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- "$P" specials:"$TMP/sp" >"$TMP/sp2.out" 2>&1
	expect_eq "opens of devices, fifos, sockets, descriptors by name under $c: the kernel's own results" \
		"$(cat "$TMP/sp.out")" "$(cat "$TMP/sp2.out")"
done
if as_user "specials"; then
	rm -rf "$TMP/usp"; mkdir -p "$TMP/usp"; chown $AS_ID:$AS_ID "$TMP/usp"
	"${AS[@]}" "$P" specials:"$TMP/usp" >"$TMP/sp.out" 2>&1
	rm -rf "$TMP/usp"; mkdir -p "$TMP/usp"; chown $AS_ID:$AS_ID "$TMP/usp"
	"${AS[@]}" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$P" specials:"$TMP/usp" >"$TMP/sp2.out" 2>&1
	expect_eq "as a user: the same opens under enforce: the kernel's own results" \
		"$(cat "$TMP/sp.out")" "$(cat "$TMP/sp2.out")"
fi

# The guard-mode limit (docs/limits.md, "Under the floor"): its calls
# continue in the kernel. Shown when the swap lands (a race: a run that
# lands nothing proves nothing either way).
race guard rename
if [ "$landed" -gt 0 ]; then
	check "guard mode: a swapped rename can land (the stated limit)" true
else
	skip "guard mode: the swapped rename did not land this time"
fi
