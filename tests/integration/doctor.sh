# hookshim doctor: one row per piece hookshim uses, faked absences seen
# in the right row with their fix, agents classified by what they are.
. "$HOOKSHIM_TOP/tests/lib.sh"
mkdir -p bin
ln -s "$HOOKSHIM_PROBES/exec_static_target" bin/codex
printf '#!/usr/bin/env node\nconsole.log(1)\n' >bin/pi; chmod +x bin/pi
ln -s /bin/bash bin/aider

out=$(PATH=$PWD/bin:$PATH "$HOOKSHIM" doctor 2>&1); rc=$?
note "$out"
expect_contains "preload library found" "$out" "ok  preload library            $HOOKSHIM_LIB"
expect_contains "a static agent is named static" "$out" "codex"
expect_contains "... as static" "$(grep ' codex ' <<<"$out")" "static (only the floor sees its own calls)"
expect_contains "a node script agent" "$(grep ' pi ' <<<"$out")" "script (/usr/bin/env node)"
expect_contains "a dynamic agent" "$(grep ' aider ' <<<"$out")" "dynamic (the shim enters it)"
expect_contains "the floor row" "$out" "seccomp floor"
expect_contains "io_uring row" "$out" "io_uring"
expect_contains "no_new_privs row" "$out" "no_new_privs"
expect_contains "Landlock row" "$out" "Landlock"
expect_contains "bare preload has no floor, said" "$out" "a bare LD_PRELOAD has no floor"
if grep -q 'ok  seccomp floor' <<<"$out"; then
	expect_eq "all present: exit 0" 0 "$rc"
else
	expect_eq "floor missing on this host: exit 1" 1 "$rc"
fi

out=$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" doctor 2>&1); rc=$?
expect_contains "faked: the floor row says unavailable" "$out" "--  seccomp floor              unavailable"
expect_contains "faked: and gives the fix" "$out" "fix: Linux >= 5.9 with seccomp"
expect_eq "faked: exit 1" 1 "$rc"
expect_contains "faked: the summary says so" "$out" "some pieces are missing"

out=$(HOOKSHIM_LIB=$PWD/nope.so "$HOOKSHIM" doctor 2>&1); rc=$?
expect_contains "no preload library: its row" "$out" "--  preload library            not found"
expect_contains "no preload library: the fix" "$out" "fix: make install"
expect_eq "no preload library: exit 1" 1 "$rc"

out=$("$HOOKSHIM" doctor no-such-agent 2>&1)
expect_contains "a named agent not on PATH" "$out" "--  no-such-agent              not found on PATH"
