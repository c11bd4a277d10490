#!/bin/bash
# Environment repair: a child started with `env -i`, an explicit envp or
# forged HOOKSHIM_* variables still runs with the shim and the session's
# own values.
. "$HOOKSHIM_TOP/tests/lib.sh"
P=$HOOKSHIM_PROBES
FS=$HOOKSHIM_TOP/tests/integration/fake_supervisor.py
export HOOKSHIM_FAKEBIN=$P/exec_fakebin
if [ ! -f "$HOOKSHIM_LIB" ] || [ ! -x "$P/exec_envp" ]; then
	skip "exec_env: shim or probes not built"; exit 0
fi
PY=$(python3 -c 'import sys; print(sys.executable)')
sup() { rm -f "$TMP/log"; timeout 60 "$PY" "$FS" --log "$TMP/log" "$@"; }
events() { if [ -f "$TMP/log" ]; then wc -l <"$TMP/log"; else echo 0; fi; }
REASON="fake supervisor: denied (HS_DENY)"
SHOW='echo "$LD_PRELOAD|$HOOKSHIM_ROLE|${HOOKSHIM_SOCK:+sock}|$UV_USE_IO_URING|$FOO|${HOOKSHIM_INERT-}|${HOOKSHIM_CHECKED-}"'

# env -i by the agent: the shell it starts is still a decided tool call
sup -- env -i /bin/bash -c "$SHOW" >out 2>err
expect_eq "env -i: shim and session restored" "$HOOKSHIM_LIB|tool|sock|0|||" "$(cat out)"
expect_eq "env -i: decided" 1 "$(events)"
touch sentinel
sup -- env -i bash -c 'rm -f sentinel # HS_DENY' >out 2>err
expect_eq "env -i: deny exit" 126 "$?"
check "env -i: sentinel survives" test -e sentinel
expect_contains "env -i: reason" "$(cat err)" "$REASON"
# with nested execs on: what the tool call under env -i starts is seen
# (bash -> env: not a tool call; env -> bash -c: tool call; -> true: nested)
sup --flags i=1,n=1 -- bash -c 'env -i bash -c "/bin/true; /bin/true"' >out 2>err
expect_eq "env -i nested: every exec seen" "0 1 1" \
	"$(sed 's/.*"nested": "\([01]\)".*/\1/' "$TMP/log" | tr '\n' ' ' | sed 's/ $//')"

# explicit envp without LD_PRELOAD: given back, FOO kept
sup -- "$P/exec_envp" /bin/bash bash -c "$SHOW" >out 2>err
expect_eq "explicit envp: repaired" "$HOOKSHIM_LIB|tool|sock|0|1||" "$(cat out)"
# forged variables cannot switch the shim off or fake a role
other=$(ldconfig -p | awk '/libm.so.6 .*x86-64/ {print $NF; exit}')
EXEC_ENVP_EXTRA="HOOKSHIM_INERT=1 HOOKSHIM_ROLE=tool HOOKSHIM_SOCK=bogus HOOKSHIM_FLAGS=i=0 LD_PRELOAD=$other UV_USE_IO_URING=1" \
	sup -- "$P/exec_envp" /bin/bash bash -c "$SHOW" >out 2>err
expect_eq "forged envp: session values win, other preload kept" \
	"$HOOKSHIM_LIB:$other|tool|sock|0|1||" "$(cat out)"
expect_eq "forged envp: still decided" 1 "$(events)"
touch sentinel
EXEC_ENVP_EXTRA="HOOKSHIM_INERT=1 HOOKSHIM_ROLE=tool" \
	sup -- "$P/exec_envp" /bin/bash bash -c 'rm -f sentinel # HS_DENY' >out 2>err
expect_eq "forged envp: still denied" 126 "$?"
check "forged envp: sentinel survives" test -e sentinel
# an agent that unsets LD_PRELOAD for its children
sup -- bash -c 'unset LD_PRELOAD HOOKSHIM_SOCK; exec env bash -c "$1"' bash "$SHOW" >out 2>err
expect_eq "unset LD_PRELOAD: repaired" "$HOOKSHIM_LIB|tool|sock|0|||" "$(cat out)"

# hooks run with HOOKSHIM_INERT=1: the shim does nothing at all there
HOOKSHIM_INERT=1 LD_PRELOAD=$HOOKSHIM_LIB HOOKSHIM_SOCK=nowhere HOOKSHIM_FLAGS=i=1,s=1 \
	HOOKSHIM_CHECKED=none bash -c 'sh -c "echo inert HS_DENY"' >out 2>err
expect_eq "inert: untouched" "0 inert HS_DENY" "$? $(cat out)"
# inside the hookshim binary (HOOKSHIM_BIN) the shim is inert too
sup --flags i=1,s=1,n=1 --no-server --role tool -- "$P/exec_fakebin" __exec --id x -- /bin/echo echo bin >out 2>err
expect_eq "hookshim binary: inert" "0 bin" "$? $(cat out)"
# no session at all: plain LD_PRELOAD changes nothing
env -u HOOKSHIM_SOCK LD_PRELOAD=$HOOKSHIM_LIB bash -c 'sh -c "echo no session"' >out 2>err
expect_eq "no session: untouched" "0 no session" "$? $(cat out)$(cat err)"
