# Issue 23 item 3: the floor's receiver never holds the session. One
# receiver took every notification, so a caller whose path it could not
# read -- a page of a userfaultfd nobody serves (allowed here with
# "floor_allow": ["userfaultfd"]; refused by default, root_calls.sh), a
# FUSE or hard NFS mount that stopped answering -- held every notified
# call of the session: another process's write waited for ever (on the
# build before). A watchdog now starts another receiver once every one
# is held (floor/floor.c), so the rest of the session goes on, its calls
# still judged by the hooks, in guard and in enforce mode. (SIGTERM
# still ends the session within 2 s, a held receiver left behind and
# another one serving by then: tests/security/root_calls.sh.)
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_rootcalls
W=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] && [ -x "$W" ] || { skip "receivers: probes not built"; exit 0; }
need_floor "receivers"
[ "$(id -u)" = 0 ] || { skip "receivers: a userfaultfd of kernel faults needs root"; exit 0; }
ROOT=$TMP/root
for mode in guard enforce; do
	cat >"$TMP/$mode.json" <<J
{"hookshim":{"mode":"$mode","floor":"require","floor_allow":["userfaultfd"]},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command",
  "if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
done

for mode in guard enforce; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets"
	# the staller holds the receiver in its open's path; then a static
	# writer (no shim: every one of its writes is the floor's) makes y,
	# and is refused secrets/k by the hook
	( cd "$ROOT" && timeout -s KILL 30 "$HOOKSHIM" run --no-notices -c "$TMP/$mode.json" --root "$ROOT" -- sh -c '
		"$1" uffdstall x >stall.out 2>&1 &
		staller=$!
		for i in 1 2 3 4 5 6 7 8 9 10; do grep -q stalling stall.out && break; sleep 0.1; done
		sleep 0.3
		"$2" excl:y excl:secrets/k
		kill -KILL $(sed -n "s/^holder //p" stall.out) $staller
		wait' sh "$P" "$W" ) >"$TMP/out" 2>"$TMP/err"
	rc=$?
	note "$mode: rc $rc: $(tr '\n' ' ' <"$TMP/out") $(tr '\n' ' ' <"$ROOT/stall.out" 2>/dev/null)"
	expect_contains "$mode: the staller's open was held" "$(cat "$ROOT/stall.out" 2>/dev/null)" "stalling"
	expect_contains "$mode: with a receiver held, another process's write is made" "$(cat "$TMP/out")" "excl: ok"
	expect_eq "$mode: ... y is there" "y" "$(cd "$ROOT" && ls y 2>/dev/null)"
	expect_contains "$mode: ... and a write the hook refuses is refused" "$(cat "$TMP/err")" "secrets are protected"
	expect_eq "$mode: ... secrets/ untouched" "" "$(ls -A "$ROOT/secrets")"
	check "$mode: the session ends (not killed by the test's timeout)" test "$rc" != 137
done
