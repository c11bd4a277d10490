# An open that creates its file unless the name is there (O_CREAT without
# O_EXCL: python's open(..., "w"), a shell's ">", creat) is made O_EXCL
# first in guard mode when no rule can fire for its name (shim/write.c,
# EXCL_FIRST): a name that is there fails EEXIST and is judged again with
# the look for a protected file behind it, then opened as asked. What the
# program sees must be what it sees without hookshim, case by case: the
# file made or truncated, a dangling symlink's target made, a directory's
# EISDIR, a fifo without a reader's ENXIO, a loop's ELOOP, the mode under
# the umask, a user's EACCES -- as root and as a user, each name new and
# there, in guard and enforce mode; a pre-session symlink to the policy,
# opened for writing, still denied; a fortified open with O_CREAT and no
# mode aborting as glibc's does.
. "$HOOKSHIM_TOP/tests/lib.sh"
unset CI GITHUB_ACTIONS
# (tests/lib.sh makes python3 one a user may run too)
PY=python3
command -v $PY >/dev/null || { skip "open_create: no python3"; exit 0; }

cat > "$TMP/opens.py" <<'P'
import os, stat, sys
os.umask(0o027)
W, C, T, A, N = os.O_WRONLY, os.O_CREAT, os.O_TRUNC, os.O_APPEND, os.O_NONBLOCK
cases = [
    ("new", W | C | T), ("exist", W | C | T), ("exist2", os.O_RDWR | C),
    ("exist3", W | C | A), ("dang", W | C | T), ("dir", W | C | T),
    ("fifo", W | C | N), ("loop", W | C | T), ("nodir/x", W | C | T),
    ("exist/x", W | C | T), ("ro/x", W | C | T), ("rofile", W | C | T),
    ("new2", os.O_RDONLY | C), ("new3", os.O_RDWR | C | os.O_CLOEXEC),
]
for name, fl in cases:
    try:
        fd = os.open(name, fl, 0o666)
        if fl & (W | os.O_RDWR):
            os.write(fd, b"N")
        os.close(fd)
        r = "ok"
    except OSError as e:
        r = os.strerror(e.errno)
    try:
        st = os.stat(name)
        kind = "fifo" if stat.S_ISFIFO(st.st_mode) else "dir" if stat.S_ISDIR(st.st_mode) else "file"
        what = "%s %o" % (kind, stat.S_IMODE(st.st_mode))
        if kind == "file":
            what += " " + open(name, "rb").read().decode()
    except OSError as e:
        what = os.strerror(e.errno)
    print("%s: %s; %s" % (name, r, what))
# the dangling symlink's target, made through it
print("target:", open("target").read() if os.path.exists("target") else "none")
P

fresh() { # DIR: the names the cases open, as they were
	rm -rf "$1"; mkdir -p "$1/dir" "$1/ro"
	(cd "$1" && printf 'old' > exist && printf 'old' > exist2 && printf 'old' > exist3 &&
		printf 'old' > rofile && chmod 444 rofile && chmod 555 ro &&
		ln -s target dang && ln -s loop loop && mkfifo fifo)
	printf '{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 0","if":"Write(secrets/**)"}]}]}}\n' > "$1/policy.json"
	ln -s policy.json "$1/pol"
}

floor_here=1
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null || floor_here=0
for who in root user; do
	AS=()
	[ $who = user ] && { as_user open_create || break; }
	for mode in guard enforce; do
		if [ $mode = enforce ] && [ $floor_here = 0 ]; then
			skip "open_create $who enforce: no syscall floor here"; continue
		fi
		fresh "$TMP/plain"
		fresh "$TMP/$mode"
		[ $who = user ] && chown -R $AS_ID:$AS_ID "$TMP/plain" "$TMP/$mode"
		want=$(cd "$TMP/plain" && "${AS[@]}" $PY "$TMP/opens.py" 2>&1)
		check "$who: the plain run made a file" grep -q '^new: ok; file 640 N$' <<<"$want"
		got=$(cd "$TMP/$mode" && "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- $PY "$TMP/opens.py" 2>&1)
		expect_eq "$who $mode: each open answers and leaves what it does without hookshim" "$want" "$got"
		# twice: the names made by the first run are there now
		got=$(cd "$TMP/$mode" && "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- $PY "$TMP/opens.py" 2>&1)
		again=$(cd "$TMP/plain" && "${AS[@]}" $PY "$TMP/opens.py" 2>&1)
		expect_eq "$who $mode: and again, over the names the first run made" "$again" "$got"
		# a symlink made before the session to the policy: opened
		# for writing, its name there, judged with the look
		before=$(sha256sum < "$TMP/$mode/policy.json")
		(cd "$TMP/$mode" && "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- \
			$PY -c 'open("pol", "w").write("P")') >/dev/null 2>"$TMP/err"
		expect_eq "$who $mode: a write through a symlink to the policy leaves it" "$before" "$(sha256sum < "$TMP/$mode/policy.json")"
		expect_contains "$who $mode: with the reason" "$(cat "$TMP/err")" "part of this session's policy (config file)"
		# glibc's fortified open (__open_2, what open() of a program
		# built with _FORTIFY_SOURCE calls) given O_CREAT and no mode
		# aborts the program, creating nothing
		(cd "$TMP/$mode" && "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- \
			$PY -c 'import ctypes, os; ctypes.CDLL(None).__open_2(b"fort", os.O_WRONLY | os.O_CREAT)') >/dev/null 2>&1
		expect_eq "$who $mode: a fortified open with O_CREAT and no mode aborts" "134 absent" \
			"$? $(test -e "$TMP/$mode/fort" && echo made || echo absent)"
	done
done

# A name at NULL (a program's bug): the kernel's EFAULT, for every write
# call, as without hookshim -- the shim read it first and was killed by
# SIGSEGV (before session 30)
cat > "$TMP/null.py" <<'P'
import ctypes, os
l = ctypes.CDLL(None, use_errno=True)
l.fopen.restype = ctypes.c_void_p
calls = (
    ("open", lambda: l.open(None, os.O_WRONLY | os.O_CREAT, 0o644)),
    ("openat", lambda: l.openat(-100, None, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)),
    ("creat", lambda: l.creat(None, 0o644)),
    ("fopen", lambda: 0 if l.fopen(None, b"w") else -1),
    ("truncate", lambda: l.truncate(None, 0)),
    ("unlink", lambda: l.unlink(None)),
    ("mkdir", lambda: l.mkdir(None, 0o755)),
    ("rename", lambda: l.rename(b"a", None)),
    ("link", lambda: l.link(None, b"b")),
    ("symlink", lambda: l.symlink(None, b"c")),
    ("chmod", lambda: l.chmod(None, 0o644)),
)
for name, f in calls:
    ctypes.set_errno(0)
    r = f()
    print(name, r, os.strerror(ctypes.get_errno()))
P
want=$(cd "$TMP" && $PY "$TMP/null.py" 2>&1)
check "NULL names: the plain run says EFAULT" grep -q '^open -1 Bad address$' <<<"$want"
for mode in guard enforce; do
	[ $mode = enforce ] && [ $floor_here = 0 ] && continue
	got=$(cd "$TMP" && "$HOOKSHIM" run --$mode --no-notices -c "$TMP/plain/policy.json" -- $PY "$TMP/null.py" 2>&1)
	expect_eq "$mode: a name at NULL is the kernel's EFAULT, for every write call" "$want" "$got"
done

# freopen(NULL, mode, stream) reopens the stream's own file in the new
# mode, "w" truncating it: judged as a write to that file, by the shim
# too (without the floor it was never judged before session 30)
mkdir -p "$TMP/re/secrets"
deny='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"floor\":\"off\"},\"hooks\":{\"PreToolUse\":[$deny]}}" > "$TMP/re/off.json"
echo "{\"hooks\":{\"PreToolUse\":[$deny]}}" > "$TMP/re/on.json"
for how in "guard off" "guard on" "enforce on"; do
	set -- $how
	[ $2 = on ] && [ $floor_here = 0 ] && continue
	echo keep > "$TMP/re/secrets/k"; echo keep > "$TMP/re/other"
	out=$(cd "$TMP/re" && "$HOOKSHIM" run --$1 --no-notices -c "$TMP/re/$2.json" -- $PY -c '
import ctypes
l = ctypes.CDLL(None, use_errno=True)
l.fopen.restype = l.freopen.restype = ctypes.c_void_p
l.freopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
for name in (b"secrets/k", b"other"):
    g = l.freopen(None, b"w", l.fopen(name, b"r"))
    print(name.decode(), "reopened" if g else "refused")' 2>"$TMP/re/err")
	expect_eq "$1, floor $2: freopen(NULL, \"w\") of a file a hook protects refused, of another made" \
		"secrets/k refused
other reopened" "$out"
	expect_eq "$1, floor $2: ... the protected file kept, the other truncated" "keep " \
		"$(cat "$TMP/re/secrets/k") $(cat "$TMP/re/other")"
	expect_contains "$1, floor $2: ... with the hook's reason" "$(cat "$TMP/re/err")" "no"
done
