# The floor writes a denial's or a refusal's reason to the caller's
# stderr, which the caller holds: a pipe whose reader has gone, or one
# no one reads, whose buffer is full (session 38's attack run). Before,
# the first killed `hookshim run` by SIGPIPE (an ordinary
# `static-prog 2>&1 | true`: no SessionEnd, every later call ENOSYS or,
# in guard mode, allowed unchecked) and the second held a receiver for
# good (nine such callers held all eight: every notified call of the
# session waited). Now the reason is dropped where it cannot be written
# at once: the caller gets its errno at once, the session goes on and
# ends at its end, in both modes, as root and as a user.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v busybox >/dev/null && file -L "$(command -v busybox)" | grep -q 'statically linked' ||
	{ skip "caller stderr: no static busybox"; exit 0; }
chmod 755 "$TMP"
W=$TMP/w; mkdir -p "$W"; chmod 777 "$W"; cd "$W" || exit 1
cat > policy.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"grep -q secret && { echo 'no secrets' >&2; exit 2; }; exit 0"}]}],
 "SessionEnd":[{"hooks":[{"type":"command","command":"echo ran > sessionend.txt"}]}]}}
J
cat > gone.sh <<'S'
busybox sh -c 'sleep 0.3; echo x > secret.txt' 2>&1 | true
sleep 0.5
echo y > allowed.txt; echo "allowed=$?"
S
cat > full.py <<'P'
import os, fcntl, sys, time, ctypes, pty
libc = ctypes.CDLL(None, use_errno=True)
what, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]; sup = os.getppid()
kids = []
for i in range(n):
    pid = os.fork()
    if pid == 0:
        if kind == "pipe":
            r, w = os.pipe()                   # a stderr no one reads, full
        else:
            m, w = pty.openpty()               # a terminal no one reads
        fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
        idle = 0
        while idle < 3:                        # full for good (a pty's flush done)
            try:
                while True: os.write(w, b"x" * 64)
            except BlockingIOError: pass
            if kind == "pipe": break
            time.sleep(0.2)
            try: os.write(w, b"x"); idle = 0
            except BlockingIOError: idle += 1
        fcntl.fcntl(w, fcntl.F_SETFL, 0)
        os.dup2(w, 2)
        if what == "write":                    # denied: EACCES
            rc = libc.syscall(257, -100, b"secret.txt", os.O_WRONLY | os.O_CREAT, 0o644)
        else:                                  # SIGSTOP to the supervisor: EPERM
            rc = libc.syscall(62, sup, 19)
        os.write(1, b"%s %d errno %d\n" % (what.encode(), rc, ctypes.get_errno()))
        os._exit(0)
    kids.append(pid)
for p in kids: os.waitpid(p, 0)
os.close(os.open("allowed.txt", os.O_WRONLY | os.O_CREAT, 0o644))
print("allowed write done", flush=True)
P
UNPRIV=$(( 62000 + RANDOM % 1000 ))
for as in root "$UNPRIV"; do
	who=$([ $as = root ] && echo root || echo unprivileged)
	AS=(); [ $as != root ] && AS=(setpriv --reuid="$as" --regid="$as" --clear-groups)
	for mode in guard enforce; do
		t="$who $mode"
		rm -f secret.txt allowed.txt sessionend.txt
		out=$(timeout -k 5 60 "${AS[@]}" env HOME="$W" "$HOOKSHIM" run --$mode --no-notices \
			-c policy.json -- bash gone.sh 2>/dev/null); rc=$?
		expect_eq "$t: a reason for a stderr whose reader is gone: the session lives to its end" 0 "$rc"
		expect_eq "$t: ... the write denied, the next allowed, SessionEnd ran" "absent allowed=0 ran" \
			"$([ -e secret.txt ] && echo present || echo absent) $out $(cat sessionend.txt 2>/dev/null)"
		# (a pty too, whose writes are no RWF_NOWAIT's: session 38's
		# review held the receivers so)
		for kind in pipe pty; do
			for c in "write 1" "refuse 9"; do
				rm -f secret.txt allowed.txt
				out=$(timeout -k 5 60 "${AS[@]}" env HOME="$W" "$HOOKSHIM" run --$mode --no-notices \
					-c policy.json -- python3 full.py $c $kind 2>/dev/null); rc=$?
				want=$([ "${c% *}" = write ] && echo "write -1 errno 13" || echo "refuse -1 errno 1")
				expect_eq "$t: ${c% *}, ${c#* } caller(s) with a full $kind for stderr: each answered" "${c#* }" \
					"$(grep -cx "$want" <<<"$out")"
				expect_contains "$t: ... the session's other calls go on" "$out" "allowed write done"
				expect_eq "$t: ... and it ends at its end" 0 "$rc"
			done
		done
	done
done
