#!/bin/bash
# One probe per interposed exec-family symbol, under a test supervisor
# (fake_supervisor.py) that denies commands containing HS_DENY:
# denied -> no side effect, reason on stderr, exit 126 (errno in strict
# mode or in the agent's own process); allowed -> runs exactly as without
# the shim; a missing/non-executable target -> real errno, no event.
. "$HOOKSHIM_TOP/tests/lib.sh"
P=$HOOKSHIM_PROBES
FS=$HOOKSHIM_TOP/tests/integration/fake_supervisor.py
export HOOKSHIM_FAKEBIN=$P/exec_fakebin
if [ ! -f "$HOOKSHIM_LIB" ] || [ ! -x "$P/exec_execve" ]; then
	skip "exec_symbols: shim or probes not built"; exit 0
fi
PY=$(python3 -c 'import sys; print(sys.executable)') # skip pyenv's shim
sup() { rm -f "$TMP/log"; timeout 60 "$PY" "$FS" --log "$TMP/log" "$@"; }
events() { if [ -f "$TMP/log" ]; then wc -l <"$TMP/log"; else echo 0; fi; }
REASON="fake supervisor: denied (HS_DENY)"

EXECS="execve execv execvp execvpe execl execlp execle execveat fexecve"
SPAWNS="posix_spawn posix_spawnp"
prog_of() { case $1 in execvp|execvpe|execlp|posix_spawnp) echo sh;; *) echo /bin/sh;; esac; }
# run_probe SYM SCRIPT [sup options]: the probe runs `sh -c SCRIPT`
run_probe() {
	local sym=$1 script=$2; shift 2
	case $sym in
	system|popen) sup "$@" -- "$P/exec_$sym" "$script" ;;
	*) sup "$@" -- "$P/exec_$sym" $(prog_of "$sym") sh -c "$script" ;;
	esac
}
bare_probe() {
	local sym=$1 script=$2
	case $sym in
	system|popen) "$P/exec_$sym" "$script" ;;
	*) "$P/exec_$sym" $(prog_of "$sym") sh -c "$script" ;;
	esac
}

for sym in $EXECS $SPAWNS system popen; do
	# denied: the sentinel survives, the reason reaches stderr, exit 126
	touch sentinel
	run_probe "$sym" 'rm -f sentinel # HS_DENY' >out 2>err
	rc=$?
	expect_eq "$sym deny exit" 126 "$rc"
	check "$sym deny leaves the sentinel" test -e sentinel
	expect_contains "$sym deny reason on stderr" "$(cat err)" "$REASON"
	expect_eq "$sym deny one event" 1 "$(events)"

	# allowed: byte-for-byte what it does without the shim
	script='rm -f sentinel; echo "out $0"; echo "err $0" >&2; exit 3'
	bare_probe "$sym" "$script" >want.out 2>want.err
	want_rc=$?
	touch sentinel
	run_probe "$sym" "$script" >got.out 2>got.err
	rc=$?
	expect_eq "$sym allow exit" "$want_rc" "$rc"
	expect_eq "$sym allow stdout" "$(cat want.out)" "$(cat got.out)"
	expect_eq "$sym allow stderr" "$(cat want.err)" "$(cat got.err)"
	check "$sym allow ran" test ! -e sentinel
	expect_eq "$sym allow one event" 1 "$(events)"
	expect_contains "$sym event argv" "$(cat "$TMP/log")" '"-c", "rm -f sentinel; echo'

	# strict mode: the call itself fails with the errno (probe: 99)
	touch sentinel
	run_probe "$sym" 'rm -f sentinel # HS_DENY' --flags i=1,s=1,e=1 >out 2>err
	rc=$?
	expect_eq "$sym strict exit" 99 "$rc"
	expect_contains "$sym strict errno" "$(cat err)" "probe: errno=1"
	check "$sym strict leaves the sentinel" test -e sentinel

	# no supervisor: allowed, one warning line; strict: denied
	run_probe "$sym" 'echo alone' --no-server >out 2>err
	expect_eq "$sym unreachable allows" "0 alone" "$? $(cat out)"
	expect_contains "$sym unreachable warns" "$(cat err)" "supervisor unreachable"
	run_probe "$sym" 'echo alone' --no-server --flags i=1,s=1 >out 2>err
	expect_eq "$sym unreachable strict denies" 99 "$?"
done

# the agent's own process (not a fork child, not a shell): errno EACCES
for sym in $EXECS; do
	touch sentinel
	sup -- "$P/exec_$sym" -i $(prog_of "$sym") sh -c 'rm -f sentinel # HS_DENY' >out 2>err
	expect_eq "$sym in-place deny exit" 99 "$?"
	expect_contains "$sym in-place errno" "$(cat err)" "probe: errno=13"
	check "$sym in-place leaves the sentinel" test -e sentinel
	sup -- "$P/exec_$sym" -i $(prog_of "$sym") sh -c 'echo replaced' >out 2>err
	expect_eq "$sym in-place allow" "0 replaced" "$? $(cat out)"
done

# a target that is missing or not executable: the real errno, no event
printf 'echo hi\n' >noexec; chmod -x noexec
for sym in $EXECS $SPAWNS; do
	case $sym in execvp|execvpe|execlp|posix_spawnp) missing=no-such-cmd-hs;; *) missing=$TMP/nonexistent-sh;; esac
	sup -- "$P/exec_$sym" "$missing" sh -c 'echo HS_DENY' >out 2>err
	expect_eq "$sym missing target" "99 0" "$? $(events)"
	expect_contains "$sym missing errno" "$(cat err)" "probe: errno=2"
	case $sym in fexecve) continue;; esac # open(2) of it succeeds; EACCES comes from exec
	sup -- "$P/exec_$sym" ./noexec sh -c 'echo HS_DENY' >out 2>err
	expect_eq "$sym non-executable target" "99 0" "$? $(events)"
	expect_contains "$sym non-executable errno" "$(cat err)" "probe: errno=13"
done

# exec*p* search PATH by hand: first executable candidate, one event
mkdir -p d1 d2 d3
printf '#!/bin/sh\necho d2 "$@"\n' >d2/hstool; chmod +x d2/hstool
printf 'echo d1\n' >d1/hstool # not executable: skipped, like glibc
printf '#!/bin/sh\necho d3\n' >d3/hstool; chmod +x d3/hstool
for sym in execvp execvpe execlp posix_spawnp; do
	PATH=$TMP/d1:$TMP/d2:$TMP/d3:$PATH sup --flags i=1,n=1 --role tool -- \
		"$P/exec_$sym" hstool hstool x >out 2>err
	expect_eq "$sym PATH search" "0 d2 x 1" "$? $(cat out) $(events)"
done
# ENOEXEC: a script without #! runs through /bin/sh (execvp*, as glibc)
printf 'echo noshebang "$@"\n' >d1/hsscript; chmod +x d1/hsscript
for sym in execvp execvpe execlp; do
	PATH=$TMP/d1:$PATH sup --flags i=1,n=1 --role tool -- \
		"$P/exec_$sym" hsscript hsscript y >out 2>err
	expect_eq "$sym ENOEXEC script fallback" "0 noshebang y" "$? $(cat out)"
done
