# Issue 15 row 9 (second half), through the shim: with
# writes.follow_symlinks a dynamic program's write is made on what its
# judged name was resolved to (shim/write_pin.h), so a symlink flipped by
# another process between the check and the open lands nothing in the
# denied directory -- without the floor, and under it (where the shim's
# cookied calls are not judged again). Then the same opens, creates,
# truncates and mkdirs through symlinks, run plainly and under hookshim,
# must give the same results and the same files, byte for byte.
# lane: long -- a race run thousands of times
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/follow_race
FLIP=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] && [ -x "$FLIP" ] || { skip "follow race: probes not built"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secrets" "$ROOT/okdir"
# FLOOR: off or require; DECOY: a hook that allows writes in okdir/, so
# that the opens through the link are judged whichever way it points
cfg() { # NAME FLOOR DECOY
	local decoy=
	[ "$3" = 1 ] && decoy=',{"type":"command","if":"Write(okdir/**)","command":"exit 0"}'
	printf '{"hookshim":{"floor":"%s","writes":{"follow_symlinks":true}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo no >&2; exit 2"}%s]}]}}\n' \
		"$2" "$decoy" > "$TMP/$1.json"
}
cfg off off 0; cfg off-decoy off 1; cfg floor require 0; cfg floor-decoy require 1
hsrun() { local c=$1; shift; ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- "$@" ) >"$TMP/out" 2>"$TMP/err"; }

N=${FOLLOW_RACE_N:-1500}
# race CONFIG KIND: N writes through l/x while another process flips l
# between okdir and secrets; landed = bytes (or, for creat, truncate,
# fopen-w and rename, whether secrets/x changed at all; for unlink whether
# it was removed; for link, whether a link to src is there) that reached
# secrets/x
race() {
	rm -f "$ROOT"/secrets/* "$ROOT"/okdir/* "$ROOT/src"
	[ "$2" = link ] || echo keep > "$ROOT/secrets/x"
	[ "$2" = truncate ] && echo keep > "$ROOT/okdir/x"
	ln -sfn okdir "$ROOT/l"
	( cd "$ROOT" && exec "$FLIP" flip:l:okdir:secrets:60000 ) 2>/dev/null &
	local flipper=$!
	hsrun "$1" "$P" "$2:l:$N"
	kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
	if [ "$2" = link ]; then
		if [ -e "$ROOT/secrets/x" ]; then landed=linked; else landed=0; fi
	elif [ "$(cat "$ROOT/secrets/x" 2>/dev/null)" = keep ]; then landed=0
	elif [ ! -e "$ROOT/secrets/x" ]; then landed=removed
	else landed=$(($(wc -c < "$ROOT/secrets/x") + 0)); [ "$landed" = 0 ] && landed=truncated; fi
	note "flip ($1, $2): $(cat "$TMP/out"), secrets/x changed by: $landed, okdir/x: $(wc -c < "$ROOT/okdir/x" 2>/dev/null) bytes"
}
for c in off off-decoy; do
	for k in open openat fopen creat truncate fopen-w unlink rename link; do
		race $c $k
		expect_eq "follow race (no floor, $c): $k through a flipping l/x lands nothing in secrets/ ($N calls)" 0 "$landed"
		# how many land in okdir/ is the scheduler's (a flipper held on
		# "secrets" makes most opens fail), so the liveness checks are
		# not ratios: some opens through the flipping link work, and
		# with the link held on okdir every one does
		opened() { sed -n 's/^open: \([0-9]*\) opened/\1/p' "$TMP/out"; }
		[ $k = open ] || continue
		check "follow race (no floor, $c): some opens through the flipping link work" \
			test "$(opened)" -gt 0
		rm -f "$ROOT"/okdir/*; ln -sfn okdir "$ROOT/l"
		hsrun $c "$P" "open:l:$N"
		expect_eq "follow race (no floor, $c): through a still link every open works" "$N" "$(opened)"
	done
done

# under the floor: the shim's calls carry the cookie, so the floor lets
# them through without judging them again; it is the pin that holds
hsrun floor "$P" open:okdir:1
if grep -q "no syscall floor\|floor" "$TMP/err" && ! grep -q "opened" "$TMP/out"; then
	skip "follow race, floor: $(head -1 "$TMP/err")"
else
	for c in floor floor-decoy; do
		for k in open fopen creat truncate unlink rename link; do
			race $c $k
			expect_eq "follow race (floor, $c): $k through a flipping l/x lands nothing in secrets/ ($N calls)" 0 "$landed"
		done
	done
fi

# python3, a real program: os.open and open() through the flipping link
rm -f "$ROOT"/secrets/* "$ROOT"/okdir/*; echo keep > "$ROOT/secrets/x"; ln -sfn okdir "$ROOT/l"
( cd "$ROOT" && exec "$FLIP" flip:l:okdir:secrets:60000 ) 2>/dev/null &
flipper=$!
hsrun off python3 -c '
import os
ok = 0
for i in range('"$N"'):
    try:
        fd = os.open("l/x", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.write(fd, b"p"); os.close(fd); ok += 1
    except OSError: pass
    try:
        with open("l/x", "a") as f: f.write("q")
        ok += 1
    except OSError: pass
print("python:", ok, "opened")'
kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
note "flip (python3): $(cat "$TMP/out"); secrets/x: $(cat "$ROOT/secrets/x" | head -c 40)"
expect_eq "follow race (no floor): python3 through a flipping l/x lands nothing in secrets/ ($((2 * N)) opens)" keep "$(cat "$ROOT/secrets/x")"

# ---- no race needed: the hook itself flips the link while it judges ----
# Deterministic: a hook on okdir/ points l at secrets/ before it allows,
# so a call made by its name after the check would land in secrets/. A
# pinned call lands in okdir/, where it was judged; freopen, which libc
# opens by the name (docs/limits.md, "Writes around a filter"), shows the limit.
printf '{"hookshim":{"floor":"off","writes":{"follow_symlinks":true}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo no >&2; exit 2"},{"type":"command","if":"Write(okdir/**)","command":"ln -sfn secrets %s/l; exit 0"}]}]}}\n' \
	"$ROOT" > "$TMP/flip-hook.json"
flipped() { # python code writing through l/NAME; prints where it landed
	rm -f "$ROOT"/secrets/* "$ROOT"/okdir/*; ln -sfn okdir "$ROOT/l"
	( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/flip-hook.json" -- python3 -c "$1" ) >"$TMP/out" 2>"$TMP/err"
	echo "okdir: $(ls "$ROOT/okdir" | tr '\n' ' ')secrets: $(ls "$ROOT/secrets" | tr '\n' ' ')"
}
expect_eq "follow, a hook flipping l while it judges: open() lands where it was judged" \
	"okdir: x secrets: " "$(flipped 'open("l/x", "a").write("p")')"
expect_eq "... os.rename() too" "okdir: x secrets: " \
	"$(flipped 'import os; open("src", "w").write("r"); os.rename("src", "l/x")')"
expect_eq "... os.link() too" "okdir: x secrets: " \
	"$(flipped 'import os; open("src", "w").write("r"); os.link("src", "l/x")')"
rm -f "$ROOT/src"
# the limit: freopen opens inside libc, by the name, after the check
expect_eq "limit: freopen is made by its name: it lands in secrets/ (docs/limits.md, Writes around a filter)" \
	"okdir: secrets: y " \
	"$(flipped '
import ctypes
libc = ctypes.CDLL(None)
libc.fopen.restype = libc.freopen.restype = ctypes.c_void_p
libc.freopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
libc.fclose(ctypes.c_void_p(libc.freopen(b"l/y", b"w", libc.fopen(b"/dev/null", b"w"))))')"

# ---- the same calls as the kernel makes them ----
# Each line: one call through a symlink, its result (fd or errno name);
# then every file's content. Run plainly and under hookshim (no hook
# matches okdir/: the in-process filter's way; then with the decoy hook:
# each open judged), the output must be identical.
cat > "$TMP/calls.py" <<'PY'
import errno, os, sys
def fd(v):
    os.close(v)
    return "fd"
def r(name, f):
    try:
        v = f()
        print(name, "ok", v if v is not None else "")
    except OSError as e:
        print(name, errno.errorcode[e.errno])
W, C, A, X, NF = os.O_WRONLY, os.O_CREAT, os.O_APPEND, os.O_EXCL, os.O_NOFOLLOW
def wr(p, fl, data, mode=0o644):
    fd = os.open(p, fl, mode); os.write(fd, data); os.close(fd)
r("create via symlinked dir", lambda: wr("l/new", W | C, b"new\n"))
r("append via symlinked dir", lambda: wr("l/new", W | A, b"more\n"))
r("O_EXCL on an existing file", lambda: fd(os.open("l/new", W | C | X, 0o644)))
r("O_EXCL new", lambda: wr("l/excl", W | C | X, b"excl\n", 0o600))
r("O_NOFOLLOW on a symlink", lambda: fd(os.open("l/link", W | NF)))
r("O_NOFOLLOW|O_CREAT on a symlink", lambda: fd(os.open("l/link", W | C | NF, 0o644)))
r("O_NOFOLLOW on a file", lambda: wr("l/new", W | A | NF, b"nf\n"))
r("O_EXCL on a dangling symlink", lambda: fd(os.open("dangling", W | C | X, 0o644)))
r("O_CREAT through a dangling symlink", lambda: wr("dangling", W | C, b"dang\n"))
r("write through a file symlink", lambda: wr("l/link", W | os.O_TRUNC, b"via link\n"))
r("O_TRUNC via symlinked dir", lambda: wr("l/trunc", W | os.O_TRUNC, b"T"))
r("l/../ as the kernel walks it", lambda: wr("l/../okdir/dotdot", W | C, b"dd\n"))
r("missing directory", lambda: fd(os.open("l/nodir/x", W | C, 0o644)))
r("a directory for writing", lambda: fd(os.open("l/sub", W)))
r("O_DIRECTORY|O_CREAT", lambda: fd(os.open("l/sub", W | C | os.O_DIRECTORY, 0o644)))
r("read-only file", lambda: fd(os.open("l/ro", W)))
r("creat() mode under umask 027", lambda: (os.umask(0o27), wr("l/m640", W | C | os.O_TRUNC, b"m", 0o666))[1])
os.umask(0o22)
r("dirfd openat", lambda: os.close(os.open("new2", W | C, 0o644, dir_fd=os.open("l", os.O_RDONLY))))
r("fopen w", lambda: open("l/fw", "w").write("fw\n"))
r("fopen a", lambda: open("l/fw", "a").write("fa\n"))
r("fopen x on existing", lambda: open("l/fw", "x"))
r("fopen r+", lambda: open("l/fw", "r+").write("R"))
r("truncate via symlink", lambda: os.truncate("l/trunc2", 3))
r("truncate missing", lambda: os.truncate("l/none", 3))
r("mkdir via symlinked dir", lambda: os.mkdir("l/newdir", 0o750))
r("mkdir existing", lambda: os.mkdir("l/sub"))
r("mkdir on a dangling symlink", lambda: os.mkdir("dangling2"))
r("unlink via symlinked dir", lambda: os.unlink("l/del"))
r("unlink a symlink (the link goes)", lambda: os.unlink("l/link2"))
r("unlink missing", lambda: os.unlink("l/del"))
r("rmdir via symlinked dir", lambda: os.rmdir("l/emptydir"))
r("rmdir not empty", lambda: os.rmdir("l"))
r("rename within", lambda: os.rename("l/ren", "l/ren2"))
r("rename over a file", lambda: os.rename("l/ren_over", "l/ren_tgt"))
r("rename a symlink (the link moves)", lambda: os.rename("l/link3", "l/link4"))
r("rename into a missing dir", lambda: os.rename("l/ren2", "l/nodir/x"))
r("symlink via symlinked dir", lambda: os.symlink("tgt", "l/newlink"))
r("symlink over an existing name", lambda: os.symlink("tgt", "l/newlink"))
r("mkfifo via symlinked dir", lambda: os.mkfifo("l/fifo", 0o600))
r("hard link via symlinked dirs", lambda: os.link("l/new", "l/hard"))
r("cloexec", lambda: os.get_inheritable(os.open("l/new", W | A)))
fd = os.open("l/new", W | A)
print("fd flags", oct(os.get_blocking(fd)), os.get_inheritable(fd)); os.close(fd)
for d, _, fs in sorted(os.walk(".")):
    for f in sorted(fs):
        p = os.path.join(d, f)
        st = os.lstat(p)
        print(p, oct(st.st_mode), open(p, "rb").read() if os.path.isfile(p) and not os.path.islink(p) and st.st_mode & 0o400 else os.readlink(p) if os.path.islink(p) else "")
    print(d, oct(os.lstat(d).st_mode), "dirs", sorted(os.listdir(d)))
PY
setup() { # DIR
	rm -rf "$1"; mkdir -p "$1/okdir/sub" "$1/secrets"
	( cd "$1" && ln -s okdir l && ln -s new okdir/link && ln -s okdir/gone dangling && ln -s okdir/gone2 dangling2 &&
		printf 'longcontent' > okdir/trunc && printf 'abcdef' > okdir/trunc2 && echo ro > okdir/ro && chmod 444 okdir/ro &&
		echo del > okdir/del && mkdir okdir/emptydir && echo ren > okdir/ren && echo over > okdir/ren_over &&
		echo tgt > okdir/ren_tgt && ln -s new okdir/link2 && ln -s new okdir/link3 )
}
setup "$TMP/plain"; ( cd "$TMP/plain" && umask 022 && python3 "$TMP/calls.py" ) > "$TMP/plain.out" 2>&1
[ "$(id -u)" = 0 ] && sed -i 's/^read-only file .*/read-only file (root)/' "$TMP/plain.out"
for c in off off-decoy floor-decoy; do
	setup "$ROOT"
	( cd "$ROOT" && umask 022 && "$HOOKSHIM" run --no-notices -c "$TMP/$c.json" -- python3 "$TMP/calls.py" ) > "$TMP/$c.out" 2>"$TMP/err"
	[ "$(id -u)" = 0 ] && sed -i 's/^read-only file .*/read-only file (root)/' "$TMP/$c.out"
	if [ "$c" = floor-decoy ] && grep -q "no syscall floor" "$TMP/err"; then
		skip "follow calls (floor): no floor here"; continue
	fi
	if diff "$TMP/plain.out" "$TMP/$c.out" > "$TMP/diff"; then
		pass "follow calls ($c): $(grep -c . "$TMP/plain.out") lines of results and files identical to the plain run"
	else
		fail "follow calls ($c): results or files differ from the plain run"; sed 's/^/# /' "$TMP/diff" | head -20
	fi
done
note "$(head -3 "$TMP/plain.out" | tr '\n' ';')"
expect_contains "follow calls: O_NOFOLLOW on a symlink is ELOOP (plain too)" "$(cat "$TMP/off.out")" "O_NOFOLLOW on a symlink ELOOP"
expect_contains "follow calls: O_EXCL on an existing file is EEXIST" "$(cat "$TMP/off.out")" "O_EXCL on an existing file EEXIST"
expect_contains "follow calls: O_EXCL on a dangling symlink is EEXIST" "$(cat "$TMP/off.out")" "O_EXCL on a dangling symlink EEXIST"

# and a denied write through the same link is still denied, with the reason
setup "$ROOT"; ln -sfn secrets "$ROOT/l"
hsrun off bash -c 'echo P > l/k; echo rc=$?; python3 -c "import os
try: os.open(\"l/k\", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
except OSError as e: print(e.strerror)"'
expect_contains "follow: a write through l -> secrets is denied" "$(cat "$TMP/out")" "rc=1"
expect_contains "follow: ... O_EXCL too, EACCES" "$(cat "$TMP/out")" "Permission denied"
expect_contains "follow: ... with the hook's reason, at the resolved name" "$(cat "$TMP/err")" "$ROOT/secrets/k denied"
check "follow: ... and nothing in secrets/" test -z "$(ls -A "$ROOT/secrets")"

# the calls that do not follow their last component are named through
# their resolved directories too: `rm l/k` with l -> secrets removes
# secrets/k (before, judged as l/k: allowed, no race needed)
tree() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s' | sha1sum); }
for shell in bash busybox; do
	setup "$ROOT"; echo k > "$ROOT/secrets/k"; echo k > "$ROOT/secrets/k2"; echo m > "$ROOT/okdir/m"
	ln -sfn secrets "$ROOT/l"
	before=$(tree)
	run=(bash -c); cfgname=off
	if [ $shell = busybox ]; then
		BB=; for b in /bin/busybox /usr/bin/busybox; do [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break; done
		[ -n "$BB" ] || { skip "follow: names through directories, floor: no static busybox"; continue; }
		run=("$BB" sh -c); cfgname=floor
	fi
	hsrun $cfgname "${run[@]}" 'rm l/k; mv l/k2 okdir/; mv okdir/m l/; ln -s x l/s; mkfifo l/f; ln okdir/m l/h 2>/dev/null || ln okdir/k2 l/h; mkdir l/d; echo done'
	if [ $shell = busybox ] && grep -q "no syscall floor" "$TMP/err"; then skip "follow: names through directories, floor: no floor"; continue; fi
	expect_eq "follow ($shell$([ $shell = busybox ] && echo ', the floor')): rm, mv out, mv in, ln -s, mkfifo, ln, mkdir through l -> secrets change nothing" "$before" "$(tree)"
	expect_contains "follow ($shell): the denial names the resolved secrets/k" "$(cat "$TMP/err")" "$ROOT/secrets/k denied"
	expect_contains "follow ($shell): ... and the rename's target secrets/m" "$(cat "$TMP/err")" "$ROOT/secrets/m denied"
done
