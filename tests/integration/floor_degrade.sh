# The floor degrades honestly: "auto" without kernel support runs with the
# shim alone after one clear line, "require" refuses to start, "off" is
# silent; `hookshim check` says what hookshim run would get; and a session
# whose supervisor died fails the calls the floor would have decided
# (ENOSYS) rather than letting them through.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor degrade: no hookshim build"; exit 0; }
SW=$HOOKSHIM_PROBES/floor_static_writes
[ -x "$SW" ] || { skip "floor degrade: probes not built"; exit 0; }
ROOT=$TMP/root

conf() { # mode
	cat > "$TMP/$1.json" <<J
{"hookshim":{"floor":"$1"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
}
for m in auto require off; do conf $m; done
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT/secrets"; }
hsrun() { # mode, command...
	local m=$1; shift
	( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/$m.json" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"
}

# auto, kernel support faked away: one notice, then the shim alone
fresh
HOOKSHIM_TEST_NO_FLOOR=1 hsrun auto "$SW" open:secrets/a; rc=$?
expect_eq "floor auto without support: the command runs (exit 0)" "0" "$rc"
expect_eq "floor auto without support: exactly one notice line" "1" "$(grep -c 'no syscall floor' "$TMP/err")"
expect_contains "floor auto without support: the notice says why" "$(cat "$TMP/err")" "HOOKSHIM_TEST_NO_FLOOR"
expect_eq "floor auto without support: a static write is not seen (shim alone)" "open secrets/a: ok" "$(cat "$TMP/out")"

# require, faked away: refuses, runs nothing
fresh
HOOKSHIM_TEST_NO_FLOOR=1 hsrun require "$SW" open:secrets/a; rc=$?
check "floor require without support: refuses to start (non-zero exit)" test "$rc" != 0
expect_contains "floor require without support: says why" "$(cat "$TMP/err")" '"floor": "require", but the syscall floor is not available'
expect_eq "floor require without support: the command never ran" "" "$(cat "$TMP/out")"
check "floor require without support: nothing written" test ! -e "$ROOT/secrets/a"

# the probe passed but the agent's own install failed (a race the test
# switch makes happen): guard mode runs on with the shim alone and says
# so; enforce mode and "require" never run the agent without the floor
fresh
HOOKSHIM_TEST_NO_FLOOR=install hsrun auto "$SW" open:secrets/a; rc=$?
expect_eq "floor install failed, guard: the command runs (exit 0)" "0" "$rc"
expect_contains "floor install failed, guard: says the shim runs alone" "$(cat "$TMP/err")" \
	"could not be installed (Function not implemented); running with the shim alone"
fresh
( cd "$ROOT" && HOOKSHIM_TEST_NO_FLOOR=install "$HOOKSHIM" run --enforce -c "$TMP/auto.json" \
	--root "$ROOT" -- "$SW" open:secrets/a ) >"$TMP/out" 2>"$TMP/err"; rc=$?
expect_eq "floor install failed, enforce: the agent is not started (126)" "126" "$rc"
expect_contains "floor install failed, enforce: says why" "$(cat "$TMP/err")" \
	"enforce mode needs it: the agent was not started"
expect_eq "floor install failed, enforce: the command never ran" "" "$(cat "$TMP/out")"
check "floor install failed, enforce: nothing written" test ! -e "$ROOT/secrets/a"
fresh
HOOKSHIM_TEST_NO_FLOOR=install hsrun require "$SW" open:secrets/a; rc=$?
expect_eq "floor install failed, require: the agent is not started (126)" "126" "$rc"
expect_eq "floor install failed, require: the command never ran" "" "$(cat "$TMP/out")"
check "floor install failed, require: nothing written" test ! -e "$ROOT/secrets/a"

# require with support: runs under the floor
fresh
hsrun require "$SW" open:secrets/a
expect_eq "floor require with support: the static write is denied" "open secrets/a: EACCES" "$(cat "$TMP/out")"

# off: silent, no floor
fresh
hsrun off "$SW" open:secrets/a
expect_eq "floor off: no notice" "" "$(cat "$TMP/err")"
expect_eq "floor off: a static write is not judged" "open secrets/a: ok" "$(cat "$TMP/out")"

# no pre hook on writes or commands: the policy's own files are still
# protected (engine/protect.h), which static writes could reach, so the
# missing floor is said
cat > "$TMP/none.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"true"}]}]}}
J
fresh
(cd "$ROOT" && HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" run -c "$TMP/none.json" --root "$ROOT" -- true) 2>"$TMP/err"
expect_contains "floor: only protected files to watch: the notice still says so" "$(cat "$TMP/err")" "no syscall floor"

# hookshim check says what run would get, and that a bare preload has none
out=$("$HOOKSHIM" check -c "$TMP/auto.json" 2>&1)
expect_contains "check: floor available" "$out" "syscall floor (auto): available"
expect_contains "check: a bare LD_PRELOAD has no floor" "$out" "a bare LD_PRELOAD has no floor"
out=$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" check -c "$TMP/require.json" 2>&1)
expect_contains "check: floor unavailable, require would refuse" "$out" "hookshim run would refuse to start"

# the supervisor killed: the floor's calls fail (ENOSYS), nothing slips by
if [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; then
	fresh
	( cd "$ROOT" && exec "$HOOKSHIM" run -c "$TMP/auto.json" --root "$ROOT" -- /bin/busybox sh -c \
		'sleep 1; echo x > secrets/a; echo x > outside; echo done >&2' ) 2>"$TMP/err" &
	hs=$!
	sleep 0.4
	kill -9 "$hs"; wait "$hs" 2>/dev/null
	for _ in $(seq 30); do grep -q done "$TMP/err" && break; sleep 0.1; done
	check "floor, supervisor gone: the protected write did not happen" test ! -e "$ROOT/secrets/a"
	expect_contains "floor, supervisor gone: notified calls fail with ENOSYS" "$(cat "$TMP/err")" \
		"secrets/a: Function not implemented"
else
	skip "floor degrade: busybox-static not installed (apt-get install busybox-static)"
fi
