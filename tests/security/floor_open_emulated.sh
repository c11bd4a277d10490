# Issue 13 item 4 / issue 15 row 9: the floor opens allowed files itself
# and hands the descriptor over (floor/floor_open.c), so the kernel
# never reads the path again. A static program (no shim) checks that the
# emulated open is the kernel's own -- mode under umask, O_EXCL, O_APPEND,
# O_TRUNC, a dirfd, openat2, O_CLOEXEC across exec, the lowest free fd,
# errnos -- and that neither a thread swapping the path bytes nor a
# symlink flipped by another process lands a write the hook denied.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "floor open: probe not built"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secret" "$ROOT/aaaaaa" "$ROOT/okdir" "$ROOT/d"
# plain, follow: the default floor_opens ("judged": the opens a hook was
# asked about are done by the supervisor); *-all: every notified open;
# *-decoy: the default, with a hook that allows writes in the race's decoy
# directories, so that their opens are judged too.
cfg() { # NAME FOLLOW FLOOR_OPENS EXTRA_HOOK
	printf '{"hookshim":{"floor":"require","floor_opens":"%s","writes":{"follow_symlinks":%s}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}%s]}]}}\n' \
		"$3" "$2" "$4" > "$TMP/$1.json"
}
DECOY=',{"type":"command","if":"Write(aaaaaa/**)","command":"exit 0"},{"type":"command","if":"Write(okdir/**)","command":"exit 0"}'
cfg plain false judged ""; cfg follow true judged ""
cfg plain-all false all ""; cfg follow-all true all ""
cfg plain-decoy false judged "$DECOY"; cfg follow-decoy true judged "$DECOY"
hsrun() { local c=$1; shift; ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- "$@" ) >"$TMP/out" 2>"$TMP/err"; }
if ! hsrun plain "$P" excl:probe-floor; then
	grep -q "floor" "$TMP/err" && { skip "floor open: $(head -1 "$TMP/err")"; exit 0; }
fi

for c in plain follow plain-all; do
	rm -f "$ROOT"/m* "$ROOT"/e "$ROOT"/a "$ROOT"/t "$ROOT"/d/at "$ROOT"/two "$ROOT"/cx "$ROOT"/low
	echo old > "$ROOT/e"; printf 'one\n' > "$ROOT/a"; echo longcontent > "$ROOT/t"
	hsrun $c "$P" mode:m640:0640:027 mode:m666:0666:0 excl:e append:a:two trunc:t:T \
		openat:"$ROOT/d":at openat2:two lowest:low \
		err:nodir/x:0101 err:d:01 err:secret/x:0101 err:secret/../e:0301 cloexec:cx
	out=$(cat "$TMP/out")
	expect_contains "floor open ($c): created with 0640 under umask 027" "$out" "mode: 0640"
	expect_contains "floor open ($c): 0666 under umask 0" "$out" "mode: 0666"
	check "floor open ($c): the file really has mode 0640" test "$(stat -c %a "$ROOT/m640")" = 640
	expect_contains "floor open ($c): O_EXCL on an existing file is EEXIST" "$out" "excl: EEXIST"
	expect_eq "floor open ($c): O_APPEND appends" "$(printf 'one\ntwo')" "$(cat "$ROOT/a")"
	expect_eq "floor open ($c): O_TRUNC truncates" "T" "$(cat "$ROOT/t")"
	expect_eq "floor open ($c): openat with a dirfd (after chdir away)" "at" "$(cat "$ROOT/d/at" 2>/dev/null)"
	expect_eq "floor open ($c): openat2" "two" "$(cat "$ROOT/two" 2>/dev/null)"
	expect_contains "floor open ($c): O_CLOEXEC is the descriptor's flag" "$out" "cloexec: flags ok"
	expect_contains "floor open ($c): O_CLOEXEC closes at exec, a plain fd stays" "$out" "after exec: cloexec closed, plain open"
	expect_contains "floor open ($c): the lowest free fd" "$out" "lowest: fd 4"
	expect_contains "floor open ($c): a missing directory is ENOENT" "$out" "err nodir/x: ENOENT"
	expect_contains "floor open ($c): a directory for writing is EISDIR" "$out" "err d: EISDIR"
	expect_contains "floor open ($c): a denied open is still EACCES" "$out" "err secret/x: EACCES"
	expect_contains "floor open ($c): O_CREAT|O_EXCL through .. is EEXIST" "$out" "err secret/../e: EEXIST"
	check "floor open ($c): nothing in secret/" test -z "$(ls -A "$ROOT/secret")"
done

# ---- what is left to the kernel still works as the kernel's ----
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$ROOT/pub"; chmod 1777 "$ROOT/pub"; rm -f "$ROOT/pub/n"
	hsrun plain "$P" asuser:65534:pub/n
	expect_eq "floor open: a caller with other credentials opens as itself (left to the kernel)" \
		"asuser: owner 65534" "$(cat "$TMP/out")"
else
	skip "floor open: credentials fallback needs root to change uid"
fi
BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	rm -f "$ROOT/p" "$ROOT/fifo.txt" "$ROOT/d/x" "$ROOT/d/y"
	out=$(cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/plain.json" -- "$BB" sh -c \
		'echo out > /dev/stdout; echo null > /dev/null; mkfifo p; ("'"$BB"'" cat p > fifo.txt &); echo viafifo > p; sleep 0.3; exec 7<d; echo viafd > /proc/self/fd/7/x; echo devfd > /dev/fd/7/y' 2>&1 | cat)
	expect_eq "floor open: /dev/stdout (a magic link: the kernel's) reaches the caller's stdout" "out" "$out"
	expect_eq "floor open: a fifo is written by the kernel's open (no wait in the supervisor)" "viafifo" "$(cat "$ROOT/fifo.txt" 2>/dev/null)"
	expect_eq "floor open: /proc/self/fd/N/x names the caller's N" "viafd devfd" "$(cat "$ROOT/d/x" "$ROOT/d/y" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
else
	skip "floor open: busybox-static not installed"
fi

# ---- the races ----
# A thread swapping the path bytes between the supervisor's read and the
# kernel's, and a symlink flipped by another process (follow_symlinks):
# an open the supervisor does itself lands nothing the hook denied.
N=${FLOOR_RACE_N:-1500}
race_mem() { # CONFIG
	rm -f "$ROOT"/secret/* "$ROOT"/aaaaaa/*
	hsrun "$1" "$P" race-mem:aaaaaa/x:secret/x:$N
	note "memory swap ($1): $(cat "$TMP/out"), $(cat "$ROOT/aaaaaa/x" 2>/dev/null | wc -c) landed in aaaaaa/"
	landed=$(cat "$ROOT/secret/x" 2>/dev/null | wc -c | tr -d ' ')
}
race_link() { # CONFIG
	rm -f "$ROOT"/secret/* "$ROOT"/okdir/*
	ln -sfn okdir "$ROOT/l"
	( cd "$ROOT" && exec "$P" flip:l:okdir:secret:20000 ) 2>/dev/null &
	flipper=$!
	hsrun "$1" "$P" race-link:l:$N
	kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
	note "symlink flip ($1): $(cat "$TMP/out"), $(cat "$ROOT/okdir/x" 2>/dev/null | wc -c) landed in okdir/"
	landed=$(cat "$ROOT/secret/x" 2>/dev/null | wc -c | tr -d ' ')
}
for c in plain-all plain-decoy; do
	race_mem $c
	expect_eq "floor race ($c): a thread swapping the path bytes lands nothing in secret/ ($N opens)" 0 "$landed"
done
for c in follow-all follow-decoy; do
	race_link $c
	expect_eq "floor race ($c): a symlink flipped by another process lands nothing in secret/ ($N opens)" 0 "$landed"
	# (with the decoy watched each open runs a hook, slower than the
	# flipper: how many got through then says nothing)
	[ $c = follow-all ] && check "floor race ($c): the opens through the flipping link mostly work" \
		test "$(cat "$ROOT/okdir/x" 2>/dev/null | wc -c)" -gt $((N / 10))
done
# The limit (docs/limits.md, "Under the floor"): by default an open no hook was
# asked about continues in the kernel, so a decoy name that no hook
# watches, swapped for a denied one, can still land. Shown, when it does
# (it is a race: a run that lands nothing proves nothing either way).
race_mem plain
if [ "$landed" -gt 0 ]; then
	check "floor race (default, unwatched decoy): the documented limit, $landed bytes landed" true
else
	skip "floor race (default, unwatched decoy): the swap did not land this time"
fi

# ---- a caller's own sandbox holds ----
# An open the supervisor does runs with the supervisor's rights: a process
# that entered a Landlock domain (which /proc does not show) must not get
# what its domain forbids. The floor is told of landlock_restrict_self and
# from then on lets every open continue in the kernel.
if [ -n "$BB" ]; then
	mkdir -p "$ROOT/okdir"; rm -f "$ROOT/okdir/"*
	cat >"$TMP/landlock.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
class Attr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]
# LANDLOCK_ACCESS_FS_WRITE_FILE | MAKE_REG: no file written or made anywhere
a = Attr((1 << 1) | (1 << 8))
fd = libc.syscall(444, ctypes.byref(a), ctypes.sizeof(a), 0)
if fd < 0 or libc.syscall(446, fd, 0) != 0:
    print("landlock: unavailable", ctypes.get_errno()); sys.exit(3)
os.execv(sys.argv[1], sys.argv[1:])
PY
	# (enforce mode -- "floor": "require" -- refuses Landlock unless
	# "floor_allow" names it: floor_pathop_race.sh)
	jq '.hookshim.floor_allow = ["landlock"]' "$TMP/follow-decoy.json" >"$TMP/landlock.json"
	( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/landlock.json" -- \
		python3 "$TMP/landlock.py" "$BB" sh -c 'echo x > okdir/f; echo rc=$?' ) >"$TMP/out" 2>"$TMP/err"
	if grep -q 'landlock: unavailable' "$TMP/out"; then
		skip "floor open: Landlock refused here ($(cat "$TMP/out"))"
	else
		expect_contains "floor open: inside its Landlock domain a static write fails (the kernel's open, not ours)" \
			"$(cat "$TMP/out")" "rc=1"
		check "floor open: ... and nothing was written past the domain" test ! -e "$ROOT/okdir/f"
	fi
else
	skip "floor open: Landlock or busybox-static not available"
fi

# ---- at the caller's descriptor limit ----
# The kernel fails an open EMFILE before it touches the file; the floor
# made the open, O_TRUNC included, then found no room in the caller's
# table: the file was emptied, the caller told EMFILE (session 38's
# attack run). The truncation is now made once the descriptor is in.
E=$HOOKSHIM_PROBES/emfile_static
if [ -x "$E" ]; then
	for c in plain follow plain-all; do
		hsrun $c "$E"
		expect_eq "floor open ($c): O_TRUNC at the descriptor limit: EMFILE, the file untouched" \
			"wronly Too many open files, rdonly Too many open files, size 14" "$(cat "$TMP/out")"
	done
fi

# ---- the setting ----
echo '{"hookshim":{"floor_opens":"sometimes"},"hooks":{}}' >"$TMP/bad.json"
"$HOOKSHIM" check -c "$TMP/bad.json" >"$TMP/out" 2>&1
expect_contains "floor_opens: a bad value is an error naming the choices" "$(cat "$TMP/out")" \
	'bad.json:1:14: hookshim.floor_opens must be "judged", "all" or "kernel"'
