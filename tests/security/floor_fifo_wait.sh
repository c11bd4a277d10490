# Enforce mode opens a fifo for the caller even where that open waits for
# the other end (floor/floor_fifo.c): on a thread of its own, so that no
# fifo nobody reads becomes a decoy whose name the kernel walks again
# later (floor_pathop_race.sh shows the swap). What must hold: the fifo
# works as it does plain -- a writer waiting for its reader, a reader
# waiting for its writer, from a static program and from bash, as root
# and as a user -- a caller killed while it waits leaves no waiting
# thread behind, a signal the caller handles interrupts its wait as it
# does plain (the handler runs; the open fails EINTR or starts again, as
# SA_RESTART says), a stop signal stops it, and SIGTERM ends a session
# whose agent waits in such an open within 2 s, leaving nothing.
# lane: alone -- SIGTERM ends a session waiting on a fifo within 2 s
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
need_floor "fifo waits"
BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
[ -n "$BB" ] || { skip "fifo waits: busybox-static not installed"; exit 0; }
echo '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"exit 2"}]}]}}' >"$TMP/enforce.json"
chmod 644 "$TMP/enforce.json"
# (the threads of process $1 waiting in a fifo's open, by their wchan:
# the kernel's wait_for_partner, or fifo_open where that is inlined)
waiting() { grep -lsxE 'wait_for_partner|fifo_open' /proc/"$1"/task/*/wchan 2>/dev/null | wc -l; }

meet() { # TAG PREFIX...: writer first, then reader first; static and bash
	local tag=$1 d
	shift
	d=$TMP/m-$tag; rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
	(cd "$d" && timeout 30 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$BB" sh -c '
		B='"$BB"'
		$B mkfifo p q
		(echo static-writer > p; echo "w=$?") &
		$B sleep 0.3; $B cat p; wait
		($B cat q; echo "r=$?") &
		$B sleep 0.3; echo static-reader > q; wait
		bash -c "echo bash-writer > p" &
		$B sleep 0.3; $B cat p; wait') >"$TMP/out" 2>"$TMP/err"
	expect_eq "$tag: a writer waits for its reader, a reader for its writer (static, bash)" \
		"$(printf 'bash-writer\nr=0\nstatic-reader\nstatic-writer\nw=0')" "$(LC_ALL=C sort "$TMP/out")"
}
meet root env
as_user "fifo waits" && meet user "${AS[@]}"

# a caller killed while it waits gives its call up: the thread goes too
# (the supervisor is the agent's parent: $PPID)
d=$TMP/k; mkdir -p "$d"
export -f waiting
(cd "$d" && timeout 30 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- bash -c '
	B='"$BB"'
	$B mkfifo p
	$B sh -c "echo x > p" & w=$!
	for i in $(seq 100); do [ "$(waiting $PPID)" = 1 ] && break; $B sleep 0.05; done
	waiting $PPID
	kill -9 $w; wait $w
	for i in $(seq 100); do [ "$(waiting $PPID)" = 0 ] && break; $B sleep 0.05; done
	waiting $PPID') >"$TMP/out" 2>"$TMP/err"
expect_eq "a thread waits in the caller's fifo open, and is gone once the caller is killed" \
	"$(printf '1\n0')" "$(cat "$TMP/out")"

# Signals: the caller's wait is the supervisor's now, and the kernel lets
# only a fatal signal end a wait the supervisor holds; a handled one must
# still interrupt it, as plain. SIGALRM at 1 s, a reader at 2 s: a
# handler that raises ends the open; one that returns runs at 1 s and the
# open (EINTR, retried by python) succeeds at 2 s; with SA_RESTART
# (siginterrupt False) the kernel restarts it and python's handler runs
# after it. The same plain and under enforce, as root and as a user.
cat > "$TMP/sig.py" <<'P'
import os, signal, sys, time, subprocess
mode, fifo = sys.argv[1], sys.argv[2]
t0 = time.time()
ran = []
def h(s, f):
    ran.append(round(time.time() - t0))
    if mode == "raise":
        raise TimeoutError("alarm")
signal.signal(signal.SIGALRM, h)
if mode == "restart":
    signal.siginterrupt(signal.SIGALRM, False)
signal.alarm(1)
r = subprocess.Popen(["sh", "-c", "sleep 2; cat %s > /dev/null" % fifo])
try:
    fd = os.open(fifo, os.O_WRONLY)
    print(mode, "opened at", round(time.time() - t0), "handler at", ran)
    os.close(fd)
except Exception as e:
    print(mode, type(e).__name__, "at", round(time.time() - t0), "handler at", ran)
    os.close(os.open(fifo, os.O_WRONLY))
r.wait()
P
chmod 644 "$TMP/sig.py"
sigs() { # PREFIX...: the three runs, each with a fifo of its own
	local m d=$TMP/sig; rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
	for m in raise flag restart; do
		"$@" mkfifo "$d/$m"
		(cd "$d" && "$@" timeout 30 $RUN python3 "$TMP/sig.py" $m $m) 2>&1
	done
}
RUN= plain=$(sigs env)
check "signals plain: raise ends the open, the others open at 2 s" test "$(echo "$plain" | grep -c 'opened at 2')" = 2
RUN="$HOOKSHIM run --no-notices -c $TMP/enforce.json --" floored=$(sigs env)
expect_eq "signals under enforce, as plain: $(echo $plain)" "$plain" "$floored"
if as_user "fifo signals"; then
	RUN="$HOOKSHIM run --no-notices -c $TMP/enforce.json --" floored=$(sigs "${AS[@]}")
	expect_eq "signals under enforce, as a user, as plain" "$plain" "$floored"
fi
# ... and in a process with a second thread, the alarm (a signal to the
# process) taken by its main thread, which waits
sed 's/^signal.alarm(1)$/import threading; threading.Thread(target=time.sleep, args=(4,), daemon=True).start(); signal.alarm(1)/' \
	"$TMP/sig.py" > "$TMP/sig2.py"
grep -q threading "$TMP/sig2.py" || fail "sig2.py: no thread put in"
mv "$TMP/sig2.py" "$TMP/sig.py"; chmod 644 "$TMP/sig.py"
RUN= plain=$(sigs env)
RUN="$HOOKSHIM run --no-notices -c $TMP/enforce.json --" floored=$(sigs env)
expect_eq "signals to a process of two threads under enforce, as plain: $(echo $plain)" "$plain" "$floored"

# a stop signal stops a caller waiting in the supervisor's open; once
# continued it waits again, and its reader finds it -- a process of one
# thread (busybox), and one of two (python) stopped by the process's
# SIGSTOP as a whole
d=$TMP/st; mkdir -p "$d"
(cd "$d" && timeout 30 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$BB" sh -c '
	B='"$BB"'
	$B mkfifo p q
	$B sh -c "echo after-stop > p" & w=$!
	python3 -c "import threading, time; threading.Thread(target=time.sleep, args=(9,), daemon=True).start(); open(\"q\", \"w\").write(\"threads-after-stop\n\")" & t=$!
	$B sleep 0.3; kill -STOP $w $t
	for i in $($B seq 100); do
		[ "$($B cut -d" " -f3 /proc/$w/stat)$($B cut -d" " -f3 /proc/$t/stat)" = TT ] && break; $B sleep 0.05
	done
	echo "state=$($B cut -d" " -f3 /proc/$w/stat)$($B cut -d" " -f3 /proc/$t/stat)"
	kill -CONT $w $t; $B sleep 0.2; $B cat p; $B cat q; wait $w; echo "w=$?"; wait $t; echo "t=$?"') >"$TMP/out" 2>"$TMP/err"
expect_eq "a waiting caller stops on SIGSTOP (one thread, two), and opens once continued" \
	"$(printf 'state=TT\nafter-stop\nthreads-after-stop\nw=0\nt=0')" "$(cat "$TMP/out")"

# SIGTERM to hookshim run while its agent waits in a fifo's open: the
# session ends within 2 s, and nothing of it is left
mark=fifo-$$-$RANDOM
left() { grep -lsa "HS_FIFO_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null |
	sed 's|/proc/\([0-9]*\)/environ|\1|' | grep -vx "$$" || true; }
d=$TMP/t; mkdir -p "$d"; mkfifo "$d/p"
(cd "$d" && HS_FIFO_MARK=$mark exec "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	"$BB" sh -c 'echo x > p') 2>"$TMP/err" &
run=$!
n=0
for _ in $(seq 100); do
	n=$(waiting "$run")
	[ "$n" -gt 0 ] && break; sleep 0.05
done
check "the agent waits in the fifo's open, on the supervisor's thread" test "$n" -gt 0
t0=$(date +%s%N); kill -TERM $run; wait $run; t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
check "hookshim run exited within 2 s of SIGTERM (${ms} ms)" test "$ms" -lt 2000
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "no process of the session left" "" "$(left)"

# The session ends (its agent exits) while a process it left behind, out
# of its process group, waits in a fifo's open: the end cancels the wait
# (the session's stop, not the caller's death), hookshim run returns, and
# the process's open fails (nobody listens: ENOSYS) and it ends -- it is
# not left waiting on a supervisor that is gone
rm -f "$d/p"; mkfifo "$d/p"
(cd "$d" && HS_FIFO_MARK=$mark exec "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	"$BB" sh -c '"'"$BB"'" setsid "'"$BB"'" sh -c "echo x > p" & "'"$BB"'" sleep 0.5') 2>"$TMP/err" &
run=$!
t0=$(date +%s%N); wait $run; t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
check "hookshim run returned once its agent did (${ms} ms)" test "$ms" -lt 2500
for _ in $(seq 20); do [ -z "$(left)" ] && break; sleep 0.1; done
expect_eq "the process left behind is gone: its open failed, it waits on no supervisor" "" "$(left)"
