#!/bin/bash
# Process-creation shapes: a Bun-style vfork child, a 16x200 threaded
# fork+exec stress, static targets, parents that bypass libc (decided once
# in the child's constructor), and libuv's PATH probing (one event).
. "$HOOKSHIM_TOP/tests/lib.sh"
P=$HOOKSHIM_PROBES
FS=$HOOKSHIM_TOP/tests/integration/fake_supervisor.py
export HOOKSHIM_FAKEBIN=$P/exec_fakebin
if [ ! -f "$HOOKSHIM_LIB" ] || [ ! -x "$P/exec_vfork" ]; then
	skip "exec_parents: shim or probes not built"; exit 0
fi
PY=$(python3 -c 'import sys; print(sys.executable)')
sup() { rm -f "$TMP/log"; timeout 300 "$PY" "$FS" --log "$TMP/log" "$@"; }
events() { if [ -f "$TMP/log" ]; then wc -l <"$TMP/log"; else echo 0; fi; }
REASON="fake supervisor: denied (HS_DENY)"

# vfork + execve with the child writing to parent memory (Bun)
sup -- "$P/exec_vfork" 5 /bin/sh sh -c 'echo v' >out 2>err
expect_eq "vfork allow" "0 v v v v v shared=5 errno=0" "$? $(tr '\n' ' ' <out | sed 's/ $//')"
expect_eq "vfork allow: five events" 5 "$(events)"
touch sentinel
sup -- "$P/exec_vfork" 3 /bin/sh sh -c 'rm -f sentinel # HS_DENY' >out 2>err
expect_eq "vfork deny exit" 126 "$?"
expect_eq "vfork deny: parent memory written, parent intact" "shared=3 errno=0" "$(cat out)"
check "vfork deny leaves the sentinel" test -e sentinel
expect_contains "vfork deny reason" "$(cat err)" "$REASON"
expect_eq "vfork deny: every child decided" 3 "$(events)"

# 16 threads x 200 fork+exec, every exec a tool call
sup -- "$P/exec_stress" 16 200 /bin/sh sh -c ':' >out 2>err
rc=$?
expect_eq "stress: finished" 0 "$rc"
expect_eq "stress: no failure, zombie or fd leak" "ok=3200 bad=0 zombies=0" \
	"$(sed 's/ fds_before.*//' out)"
expect_eq "stress: fds" 1 "$(awk -F'[= ]' '{print ($8 == $10)}' out)"
expect_eq "stress: every exec decided" 3200 "$(events)"

# a static target of a dynamic parent is decided in the parent
sup --flags i=1,n=1 --role tool -- "$P/exec_execve" "$P/exec_static_target" t HS_DENY >out 2>err
expect_eq "static target denied in the parent" "126 1" "$? $(events)"
expect_contains "static target deny reason" "$(cat err)" "$REASON"
expect_eq "static target never ran" "" "$(cat out)"
sup --flags i=1,n=1 --role tool -- "$P/exec_posix_spawn" "$P/exec_static_target" t ok >out 2>err
expect_eq "static target allowed" "0 static target: ok 1" "$? $(cat out) $(events)"

# parents that bypass libc: the dynamic child decides in its constructor
for probe in exec_rawsyscall exec_static_rawexec; do
	touch sentinel
	sup -- "$P/$probe" /bin/bash bash -c 'rm -f sentinel # HS_DENY' >out 2>err
	expect_eq "$probe: denied in the child" "126 1" "$? $(events)"
	check "$probe: sentinel survives" test -e sentinel
	expect_contains "$probe: reason" "$(cat err)" "$REASON"
	sup -- "$P/$probe" /bin/bash bash -c 'echo "$HOOKSHIM_ROLE"; /bin/true' >out 2>err
	expect_eq "$probe: allowed once, child became a tool" "0 tool 1" "$? $(cat out) $(events)"
done
# raw exec in place by a process that was itself checked
sup -- "$P/exec_rawsyscall" -i /bin/bash bash -c 'echo x HS_DENY' >out 2>err
expect_eq "raw in-place exec decided by the new image" "126 1" "$? $(events)"
# a non-shell started by a raw parent is no tool call: no event
sup -- "$P/exec_rawsyscall" /bin/echo echo HS_DENY >out 2>err
expect_eq "raw parent, non-shell child: no event" "0 HS_DENY 0" "$? $(cat out) $(events)"
# normal parents: the child is not decided again
for probe in exec_execve exec_posix_spawn exec_vfork; do
	case $probe in exec_vfork) args=(1 /bin/bash);; *) args=(/bin/bash);; esac
	sup -- "$P/$probe" "${args[@]}" bash -c 'bash -c "echo nested"' >out 2>err
	expect_eq "$probe: decided once (nested shell not a tool call)" 1 "$(events)"
done
# ... also with nested execs enabled: each exec decided exactly once
sup --flags i=1,n=1 -- "$P/exec_execve" /bin/bash bash -c '/bin/true; /bin/echo x >/dev/null' >out 2>err
expect_eq "nested enabled: one event per exec" 3 "$(events)"
expect_eq "nested enabled: nested flags" "0 1 1" \
	"$(sed 's/.*"nested": "\([01]\)".*/\1/' "$TMP/log" | tr '\n' ' ' | sed 's/ $//')"

# libuv's PATH probe loop: one event for the candidate that exists
PATH=/nonexistent1:/nonexistent2:$TMP/nothing:/usr/bin:/bin \
	sup -- "$P/exec_uvpath" bash bash -c 'echo uv' >out 2>err
expect_eq "uv PATH loop: runs, one event" "0 uv 1" "$? $(cat out) $(events)"
expect_contains "uv PATH loop: probed every candidate" "$(cat err)" "tries=4"
