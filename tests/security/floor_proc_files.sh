# Issue 23, enforce mode: a file of /proc was left to the kernel (the
# supervisor's walk of /proc/self/comm reaches its own), so it was a
# decoy: a thread swapping secret/x in under the name of /proc/self/comm
# landed writes there (a few hundred of 1,500 on the build before). The
# supervisor now walks the caller's /proc/self/... and /proc/thread-self/
# ... from the caller's /proc/<tgid> (floor/floor_start.c) and opens
# what it reaches for the caller; only a file of its own /proc (a symlink
# the agent made to /proc/self/..., which in its walk is its own) is
# never handed over nor continued. What the opens do is the kernel's own:
# the same results plain and under enforce, as root and as a user.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "/proc files: probe not built"; exit 0; }
need_floor "/proc files"
PY=/usr/bin/python3 # not a shim in a home another user cannot read
[ -x $PY ] || { skip "/proc files: no $PY"; exit 0; }
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
N=${FLOOR_RACE_N:-1500}
ROOT=$TMP/root

# ---- decoys ----
decoys() { # LABEL [as user...]
	local label=$1 d
	shift
	for d in /proc/self/comm /proc/thread-self/comm; do
		rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; chown -R "${OWNER:-0}" "$ROOT"
		( cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
			"$P" race-mem:$d:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
		note "$label $d: $(cat "$TMP/out")"
		expect_contains "$label: enforce, decoy $d: the opens ran" "$(cat "$TMP/out")" "race-mem: "
		expect_eq "$label: enforce, a decoy $d swapped for secret/x lands nothing ($N opens)" \
			"" "$(ls -A "$ROOT/secret")"
	done
}
decoys "as root"
if as_user "/proc decoys"; then
	OWNER=$AS_ID decoys "as a user" "${AS[@]}"
fi

# ---- the kernel's own results ----
{ echo "$TRY_PY"; cat <<'PY'; } >"$TMP/proc.py"
import ctypes, os, sys, threading
def w(path, data, mode="w"):
    with open(path, mode) as f:
        f.write(data)
try_("comm", lambda: (w("/proc/self/comm", "abc"), open("/proc/self/comm").read().strip())[1])
try_("comm spelled", lambda: (w("/proc//self/./comm", "abd"), open("/proc/self/comm").read().strip())[1])
try_("status", lambda: open("/proc/self/status").readline().split()[1])
got = []
def t():
    w("/proc/thread-self/comm", "thr")
    got.append(open("/proc/thread-self/comm").read().strip())
th = threading.Thread(target=t); th.start(); th.join()
print("thread comm", got[0] if got else "-", open("/proc/self/comm").read().strip())
buf = ctypes.create_string_buffer(b"before", 16)
def mem():
    with open("/proc/self/mem", "r+b", buffering=0) as f:
        f.seek(ctypes.addressof(buf)); f.write(b"after!")
    return buf.value.decode()
try_("mem", mem)
try_("oom up", lambda: (w("/proc/self/oom_score_adj", "500"), open("/proc/self/oom_score_adj").read().strip())[1])
try_("oom down", lambda: w("/proc/self/oom_score_adj", "-1000"))
try_("clear_refs", lambda: w("/proc/self/clear_refs", "1"))
try_("attr", lambda: w("/proc/self/attr/current", "x"))
pid = os.fork()
if pid == 0:
    import time; time.sleep(5); os._exit(0)
try_("child oom", lambda: (w("/proc/%d/oom_score_adj" % pid, "300"), open("/proc/%d/oom_score_adj" % pid).read().strip())[1])
try_("child comm", lambda: w("/proc/%d/comm" % pid, "kid"))
os.kill(pid, 9); os.waitpid(pid, 0)
try_("init oom", lambda: w("/proc/1/oom_score_adj", "0"))
PY
run_py() { # LABEL [as user...]
	local label=$1
	shift
	rm -rf "$ROOT"; mkdir -p "$ROOT"; chown "${OWNER:-0}" "$ROOT"
	( cd "$ROOT" && "$@" $PY "$TMP/proc.py" ) >"$TMP/plain.out" 2>&1
	( cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- $PY "$TMP/proc.py" ) \
		>"$TMP/floor.out" 2>"$TMP/err"
	check "$label: the /proc run has its 12 results" test "$(wc -l <"$TMP/floor.out")" -ge 12
	expect_eq "$label: writes and reads of /proc files under enforce: the kernel's own results" \
		"$(cat "$TMP/plain.out")" "$(cat "$TMP/floor.out")"
	expect_contains "$label: ... a write through /proc/self/mem reaches the caller's own memory" \
		"$(cat "$TMP/floor.out")" "mem after!"
}
run_py "as root"
if as_user "/proc files"; then
	OWNER=$AS_ID run_py "as a user" "${AS[@]}"
fi

# ---- walks through "self" (review of the change above) ----
# /proc/mounts, /proc/net and /etc/mtab are symlinks through "self",
# which in the supervisor's own walk is the supervisor: with a Read hook
# (reads are opened by the supervisor too) they failed ELOOP. A read
# that lands in its own /proc is the caller's own file, by number; the
# caller's "self/..." from /proc is its own; a write there too.
echo '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","if":"Read(secret/**)","command":"exit 2"}]}]}}' >"$TMP/read.json"
reads='head -1 /proc/mounts; head -1 /etc/mtab; head -1 /proc/net/dev; cd /proc && head -1 self/status && head -1 thread-self/status; ls /proc/self/ | grep -c "^comm$"; ls /proc/self | grep -c "^comm$"'
plain=$(bash -c "$reads" 2>&1)
under=$("$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- bash -c "$reads" 2>&1)
expect_eq "with a Read hook: /proc/mounts, /etc/mtab, /proc/net, self/ from /proc, /proc/self as the kernel's own (bash)" \
	"$plain" "$under"
BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	plain=$("$BB" sh -c "$reads" 2>&1)
	under=$("$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- "$BB" sh -c "$reads" 2>&1)
	expect_eq "  ... and from a static busybox sh" "$plain" "$under"
	under=$("$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$BB" sh -c \
		'cd /proc && echo renamed > self/comm && echo "rc=$?" && echo again > thread-self/comm && echo "rc=$?"' 2>&1)
	expect_eq "enforce: writes to self/comm and thread-self/comm from /proc (static busybox)" \
		"$(printf 'rc=0\nrc=0')" "$under"
else
	skip "/proc walks from a static shell: busybox-static not installed"
fi

# The supervisor's own /proc by number (ps, pgrep): what anyone may read
# of it, not what only it may (its environment, its maps); before, the
# caller's own file was given instead of the supervisor's comm
cat >"$TMP/sup.sh" <<'SH'
S=$PPID
while [ "$(cat /proc/$S/comm)" != hookshim ] && [ "$S" -gt 1 ]; do S=$(awk '/PPid/{print $2}' /proc/$S/status); done
T=$(ls /proc/$S/task | grep -v "^$S$" | head -1)
for f in comm stat cmdline environ maps task/$T/environ; do
	if head -c 1 /proc/$S/$f >/dev/null 2>&1; then echo "$f read"; else echo "$f refused"; fi
done
SH
under=$(timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- bash "$TMP/sup.sh" 2>&1)
expect_eq "with a Read hook: the supervisor's comm, stat, cmdline read; its environ, maps, a thread's environ not" \
	"$(printf 'comm read\nstat read\ncmdline read\nenviron refused\nmaps refused\ntask/N/environ refused')" \
	"$(echo "$under" | sed 's#task/[0-9]*/#task/N/#')"

# /proc mounted a second time (a chroot's): its names are not /proc/...,
# so what the supervisor's walk of <mount>/self reaches is never handed
# over (it was its own maps, before)
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	mkdir -p "$TMP/p2"
	out=$(unshare -m sh -c 'mount --bind /proc "$1" && shift && exec "$@"' sh "$TMP/p2" \
		"$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- cat "$TMP/p2/self/maps" 2>&1)
	check "with a Read hook: <second /proc mount>/self/maps is not the supervisor's" \
		test -n "$out" -a "$(echo "$out" | grep -c 'bin/hookshim')" = 0
	note "$(echo "$out" | head -2)"
else
	skip "a second /proc mount: no unshare -m here"
fi

# magic links opened whole (a running program, directories) are the
# supervisor's to open now, with the kernel's own answers
links='import os
for p, f in (("/proc/self/exe", os.O_WRONLY), ("/proc/self/cwd", os.O_WRONLY),
             ("/proc/self/cwd", os.O_RDONLY), ("/proc/self/exe", os.O_RDONLY),
             ("/proc/self/root", os.O_RDONLY | os.O_DIRECTORY),
             ("/proc/self/exe", os.O_WRONLY | os.O_CREAT | os.O_EXCL),
             ("/proc/self/exe", os.O_RDONLY | os.O_NOFOLLOW)):
    try:
        os.close(os.open(p, f)); print(p, f, "ok")
    except OSError as e:
        print(p, f, e.strerror)'
plain=$($PY -c "$links" 2>&1)
under=$("$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- $PY -c "$links" 2>&1)
expect_eq "enforce: /proc/self/exe, cwd and root opened whole: the kernel's own results" "$plain" "$under"

# ... and with an openat2's resolve flags, which the kernel answers
# before any walk (EXDEV, ELOOP): those were continued, so a decoy
# /proc/self/exe opened with RESOLVE_NO_XDEV read the swapped name; and a
# descriptor of no kind by its name (an eventfd's) is ENXIO, as the
# kernel's reopen answers
how='import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
def oa2(p, fl, res):
    how = struct.pack("QQQ", fl, 0, res)
    r = libc.syscall(437, -100, p.encode(), how, 24)
    return "ok" if r >= 0 else os.strerror(ctypes.get_errno())
for res in (0x01, 0x02, 0x04, 0x08, 0x10, 0x20):
    print(hex(res), oa2("/proc/self/exe", os.O_RDONLY, res), oa2("/proc/self/cwd/.", os.O_RDONLY, res))
e = os.eventfd(0)
try:
    os.open("/proc/self/fd/%d" % e, os.O_RDWR); print("eventfd ok")
except OSError as x:
    print("eventfd", x.strerror)'
plain=$($PY -c "$how" 2>&1)
under=$("$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- $PY -c "$how" 2>&1)
expect_eq "enforce: openat2 resolve flags on /proc/self/exe and through /proc/self/cwd, an eventfd by name: the kernel's own" \
	"$plain" "$under"
