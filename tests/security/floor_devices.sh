# Issue 23, enforce mode: a device other than the memory devices and ptys
# was left to the kernel, so any such device the agent may open was a
# decoy: a thread swapping secret/x in under the name of /dev/net/tun (a
# node of it here, 0666 as on most systems) landed writes there (on the
# build before). The supervisor now opens every device but a terminal a
# session leader could take as its own, on a thread that waits as the
# caller's open would (floor/floor_device.c, floor_fifo.c). What the
# opens give is the kernel's own: the same results plain and under
# enforce, as root and as a user (a tun device set up or refused by its
# ioctl, a fuse device, the loop control, a disk's node read).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "devices: probe not built"; exit 0; }
need_floor "devices"
[ "$(id -u)" = 0 ] || { skip "devices: nodes are made as root"; exit 0; }
PY=/usr/bin/python3
[ -x $PY ] || { skip "devices: no $PY"; exit 0; }
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
N=${FLOOR_RACE_N:-1500}
ROOT=$TMP/root
DEV=$TMP/dev; mkdir -p "$DEV"; chmod 755 "$TMP" "$DEV"
mknod -m 666 "$DEV/tun" c 10 200 && mknod -m 666 "$DEV/fuse" c 10 229 &&
	mknod -m 666 "$DEV/loopctl" c 10 237 && mknod -m 644 "$DEV/disk" b 7 0 ||
	{ skip "devices: mknod refused here"; exit 0; }
[ -e /sys/dev/char/10:200 ] || { skip "devices: no tun in this kernel"; exit 0; }

# ---- the decoy ----
decoy() { # LABEL [as user...]
	local label=$1
	shift
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; chown -R "${OWNER:-0}" "$ROOT"
	( cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$P" race-mem:$DEV/tun:secret/x:$N ) >"$TMP/out" 2>"$TMP/err"
	note "$label: $(cat "$TMP/out")"
	expect_contains "$label: enforce, a tun device as the decoy: the opens ran" "$(cat "$TMP/out")" "race-mem: "
	expect_eq "$label: enforce, a decoy tun device swapped for secret/x lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
}
decoy "as root"
if as_user "device decoy"; then
	OWNER=$AS_ID decoy "as a user" "${AS[@]}"
fi

# ---- the kernel's own results ----
{ echo "$TRY_PY"; cat <<PY; } >"$TMP/dev.py"
import fcntl, os, struct
def tun():
    fd = os.open("$DEV/tun", os.O_RDWR)
    fl = oct(fcntl.fcntl(fd, fcntl.F_GETFL))
    try:
        fcntl.ioctl(fd, 0x400454ca, struct.pack("16sH", b"hsdev%d", 0x0002 | 0x1000))
        r = "set up"
    except OSError as e:
        r = e.strerror
    os.close(fd)
    return "%s %s" % (fl, r)
try_("tun", tun)
try_("tun nonblock", lambda: oct(fcntl.fcntl(os.open("$DEV/tun", os.O_RDWR | os.O_NONBLOCK), fcntl.F_GETFL)))
try_("fuse", lambda: oct(fcntl.fcntl(os.open("$DEV/fuse", os.O_RDWR), fcntl.F_GETFL)))
try_("loop control", lambda: fcntl.ioctl(os.open("$DEV/loopctl", os.O_RDWR), 0x4C82) >= 0)
try_("disk read", lambda: os.close(os.open("$DEV/disk", os.O_RDONLY)))
try_("rdev", lambda: os.major(os.fstat(os.open("$DEV/fuse", os.O_RDWR)).st_rdev))
PY
run_py() { # LABEL [as user...]
	local label=$1
	shift
	( cd "$DEV" && "$@" $PY "$TMP/dev.py" ) >"$TMP/plain.out" 2>&1
	( cd "$DEV" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- $PY "$TMP/dev.py" ) \
		>"$TMP/floor.out" 2>"$TMP/err"
	check "$label: the devices run has its 6 results" test "$(wc -l <"$TMP/floor.out")" -ge 6
	expect_eq "$label: opens of devices under enforce: the kernel's own results" \
		"$(cat "$TMP/plain.out")" "$(cat "$TMP/floor.out")"
}
run_py "as root"
if as_user "devices"; then
	run_py "as a user" "${AS[@]}"
fi
