# Issue 13 item 4 / issue 15 row 9: the floor opens allowed files itself
# and hands the descriptor over (supervisor/floor_open.c), so the kernel
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
for f in follow plain; do
	printf '{"hookshim":{"floor":"require","writes":{"follow_symlinks":%s}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}]}}\n' \
		"$([ $f = follow ] && echo true || echo false)" > "$TMP/$f.json"
done
hsrun() { local c=$1; shift; ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- "$@" ) >"$TMP/out" 2>"$TMP/err"; }
if ! hsrun plain "$P" excl:probe-floor; then
	grep -q "floor" "$TMP/err" && { skip "floor open: $(head -1 "$TMP/err")"; exit 0; }
fi

for c in plain follow; do
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

# ---- the races: must land nothing ----
N=${FLOOR_RACE_N:-1500}
rm -f "$ROOT"/secret/* "$ROOT"/aaaaaa/*
hsrun plain "$P" race-mem:aaaaaa/x:secret/x:$N
note "memory swap: $(cat "$TMP/out"), $(cat "$ROOT/aaaaaa/x" 2>/dev/null | wc -c) landed in aaaaaa/"
expect_eq "floor race: a thread swapping the path bytes lands nothing in secret/ ($N opens)" \
	"0" "$(cat "$ROOT/secret/x" 2>/dev/null | wc -c | tr -d ' ')"
rm -f "$ROOT"/secret/* "$ROOT"/okdir/*
ln -sfn okdir "$ROOT/l"
( cd "$ROOT" && exec "$P" flip:l:okdir:secret:20000 ) 2>/dev/null &
flipper=$!
hsrun follow "$P" race-link:l:$N
kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
note "symlink flip: $(cat "$TMP/out"), $(cat "$ROOT/okdir/x" 2>/dev/null | wc -c) landed in okdir/"
expect_eq "floor race: a symlink flipped by another process lands nothing in secret/ (follow_symlinks, $N opens)" \
	"0" "$(cat "$ROOT/secret/x" 2>/dev/null | wc -c | tr -d ' ')"
check "floor race: the opens through the flipping link mostly work" \
	test "$(cat "$ROOT/okdir/x" 2>/dev/null | wc -c)" -gt $((N / 10))
