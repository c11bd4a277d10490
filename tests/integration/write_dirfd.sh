# Writes relative to a directory descriptor with a hook narrowed to
# secrets/: the shim keeps a verdict per descriptor instead of a readlink
# per call, so a number closed (close, syscall, closedir, close_range,
# closefrom) or replaced (dup2) and reused for secrets/ must be judged
# again; and `tar x -C` outside secrets/ costs no readlink per file.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "write dirfd: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "write dirfd: jq missing"; exit 0; }
ROOT=$TMP/root
LOG=$TMP/log
cat > "$TMP/c.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"jq -r .tool_input.file_path >> $LOG"}]}]}}
J
hsrun() { (cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/c.json" --root "$ROOT" -- "$@"); }

# reuse HOW: open pub/ as fd, write through it (no event), end fd HOW,
# open secrets/ as the same number, write through it: one event.
py='import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
how = sys.argv[1]
def touch(fd, name):
    os.close(os.open(name, os.O_WRONLY | os.O_CREAT, dir_fd=fd))
fd = os.open("pub", os.O_RDONLY | os.O_DIRECTORY)
touch(fd, "a-" + how)
touch(fd, "b-" + how)
if how == "dup2":
    s = os.open("secrets", os.O_RDONLY | os.O_DIRECTORY)
    os.dup2(s, fd); os.close(s)
else:
    if how == "close": os.close(fd)
    elif how == "syscall": libc.syscall(3, fd)
    elif how == "closedir":
        libc.fdopendir.restype = ctypes.c_void_p
        libc.closedir.argtypes = [ctypes.c_void_p]
        libc.closedir(libc.fdopendir(fd))
    elif how == "close_range": libc.close_range(fd, fd, 0)
    elif how == "closefrom": libc.closefrom(fd)
    s = os.open("secrets", os.O_RDONLY | os.O_DIRECTORY)
    assert s == fd, (s, fd)
touch(fd, "c-" + how)
os.mkdir("d-" + how, dir_fd=fd)
os.symlink("x", "l-" + how, dir_fd=fd)
os.rename("pub/a-" + how, "e-" + how, dst_dir_fd=fd)
os.unlink("c-" + how, dir_fd=fd)
print("ok")'
for how in close syscall closedir close_range closefrom dup2; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/pub" "$ROOT/secrets"; : > "$LOG"
	out=$(hsrun python3 -c "$py" "$how" 2>&1)
	expect_eq "$how: the probe ran" ok "$out"
	expect_eq "$how: the reused number is judged again" \
		"c-$how d-$how l-$how e-$how c-$how" \
		"$(sed "s|^$ROOT/secrets/||" "$LOG" | tr '\n' ' ' | sed 's/ $//')"
done

# tar -C: extraction outside secrets/ through a directory descriptor;
# into secrets/, every file is seen.
rm -rf "$ROOT"; mkdir -p "$ROOT/pub" "$ROOT/secrets" "$TMP/src/t"
for i in $(seq 50); do echo $i > "$TMP/src/t/f$i"; done
(cd "$TMP/src" && tar cf "$TMP/t.tar" t)
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	: > "$LOG"
	hsrun strace -f -o "$TMP/st" tar xf "$TMP/t.tar" -C pub
	expect_eq "tar -C outside the hook's paths: no event" "" "$(cat "$LOG")"
	# readlink or readlinkat, whichever libc uses: the directory
	# descriptor's name once, and t/'s chown and chmod by name (3), none
	# for tar's fchown/fchmod of each of the 50 files it created (100)
	n=$(grep -cE 'readlink(at)?\((AT_FDCWD, )?"/proc/self/fd/' "$TMP/st")
	if [ "$n" -le 5 ]; then pass "tar -C: no readlink per file ($n)"; else fail "tar -C: no readlink per file"; note "$n readlinks"; fi
	# tar sets a directory's mode last, fchmodat(..., AT_SYMLINK_NOFOLLOW):
	# forwarded as the fchmodat2 syscall with the cookie, not as glibc's
	# emulation (chmod of /proc/self/fd/N), which the floor would be told
	# of again, a round trip per directory
	# (without a floor the shim has no cookie to give, and leaves the
	# call to glibc; the probe changes nothing: EBADF, or ENOSYS)
	if python3 -c 'import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(452, -1, b"", 0, 0)
sys.exit(ctypes.get_errno() == 38)' &&
		"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null; then
		expect_eq "tar -C: a directory's mode set with no chmod of /proc/self/fd" 0 \
			"$(grep -cE '(^| )chmod\("/proc/self/fd/' "$TMP/st")"
		expect_eq "tar -C: ... and set" "$(stat -c %a "$TMP/src/t")" "$(stat -c %a "$ROOT/pub/t")"
		# a container's profile refusing fchmodat2 with EPERM: glibc's
		# way then, and tar sets the mode all the same
		if [ -x "$HOOKSHIM_PROBES/seccomp_eperm_exec" ]; then
			rm -rf "$ROOT/pub/t"
			hsrun "$HOOKSHIM_PROBES/seccomp_eperm_exec" 452 tar xf "$TMP/t.tar" -C pub 2>"$TMP/eperm.err"
			rc=$?
			expect_eq "fchmodat2 refused (EPERM): tar ends well" "0 " "$rc $(grep -i 'change mode' "$TMP/eperm.err")"
			expect_eq "fchmodat2 refused (EPERM): the mode set" "$(stat -c %a "$TMP/src/t")" "$(stat -c %a "$ROOT/pub/t")"
		fi
	else
		skip "tar -C modes: no fchmodat2 in this kernel, or no floor"
	fi
	# the same under /dev/shm, a tmpfs where unpacking is common: /dev
	# itself may lead anywhere (/dev/fd/N/...), its shm/ does not
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		shm=$(mktemp -d /dev/shm/hookshim-t.XXXXXX)
		hsrun strace -f -o "$TMP/st" tar xf "$TMP/t.tar" -C "$shm"
		n=$(grep -cE 'readlink(at)?\((AT_FDCWD, )?"/proc/self/fd/' "$TMP/st")
		if [ "$n" -le 5 ]; then pass "tar -C /dev/shm: no readlink per file ($n)"; else fail "tar -C /dev/shm: no readlink per file"; note "$n readlinks"; fi
		expect_eq "tar -C /dev/shm: extracted" "1 50" "$(cat "$shm/t/f1") $(cat "$shm/t/f50")"
		rm -rf "$shm"
	fi
else
	skip "tar -C readlinks: no strace"
fi
: > "$LOG"
hsrun tar xf "$TMP/t.tar" -C secrets
expect_eq "tar -C secrets: every write seen" "50" "$(grep -c "^$ROOT/secrets/t/f" "$LOG")"

# A descriptor its open created (O_CREAT|O_EXCL) changes mode and owner
# without a name; the number closed or replaced and reused for a
# protected file is judged again: the hook script keeps its mode.
printf '#!/bin/sh\nexit 0\n' > "$TMP/guard.sh"; chmod 755 "$TMP/guard.sh"
cat > "$TMP/p.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"$TMP/guard.sh"}]}]}}
J
fresh='import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.fdopen.restype = libc.freopen.restype = ctypes.c_void_p
libc.freopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
g = sys.argv[1]
fd = os.open("fresh", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.fchmod(fd, 0o644); os.fchown(fd, os.getuid(), os.getgid())
print("fresh ok")
how = sys.argv[2]
if how == "close":
    os.close(fd)
    p = os.open(g, os.O_RDONLY)
    assert p == fd, (p, fd)
elif how == "dup2":
    p = os.open(g, os.O_RDONLY)
    os.dup2(p, fd)
elif how == "syscall-dup3":
    p = os.open(g, os.O_RDONLY)
    assert libc.syscall(292, p, fd, 0) == fd  # SYS_dup3 (x86_64)
elif how == "freopen":
    # glibc keeps the descriptor number of the stream for the new file
    f = libc.fdopen(fd, b"w")
    assert libc.freopen(g.encode(), b"r", f)
try:
    os.fchmod(fd, 0o600); print("chmod went through")
except PermissionError:
    print("chmod denied")'
for how in close dup2 syscall-dup3 freopen; do
	rm -rf "$ROOT"; mkdir -p "$ROOT"
	out=$( (cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/p.json" -- python3 -c "$fresh" "$TMP/guard.sh" $how) 2>/dev/null)
	expect_eq "fresh descriptor, then $how: the new file's fchmod ran, the hook script's was denied" "fresh ok
chmod denied" "$out"
	expect_eq "fresh descriptor, then $how: the hook script's mode kept" 755 "$(stat -c %a "$TMP/guard.sh")"
	expect_eq "fresh descriptor, then $how: the new file's mode set" 644 "$(stat -c %a "$ROOT/fresh")"
done

# A directory descriptor no process can hold (INT_MIN: the floor reads a
# call's dirfd as an int): the kernel's EBADF, no hook asked, after
# calls that named relative paths (the supervisor reads a call's
# directory once for all its names, floor_event.c relative())
if "$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null; then
	mkdir -p "$ROOT/secrets"; : > "$ROOT/secrets/x"; : > "$LOG"
	out=$(cd "$ROOT" && "$HOOKSHIM" run --enforce --no-notices -c "$TMP/c.json" --root "$ROOT" -- python3 -c '
import ctypes, os
l = ctypes.CDLL(None, use_errno=True)
for i in range(20):
    open("plain%d" % i, "w").close()
    os.unlink("plain%d" % i)
    r = l.unlinkat(-2**31, b"secrets/x", 0)
    print("unlinkat", r, os.strerror(ctypes.get_errno()))
    r = l.renameat(-100, b"secrets/x", -2**31, b"secrets/y")
    print("renameat", r, os.strerror(ctypes.get_errno()))' | sort | uniq -c | awk '{$1=$1; print}')
	expect_eq "a dirfd of INT_MIN: EBADF, every time" "20 renameat -1 Bad file descriptor
20 unlinkat -1 Bad file descriptor" "$out"
	check "a dirfd of INT_MIN: the file there" test -e "$ROOT/secrets/x"
	expect_eq "a dirfd of INT_MIN: no hook asked" "" "$(cat "$LOG")"
else
	skip "write dirfd: INT_MIN dirfd: no floor"
fi
