#!/bin/bash
# Post hooks on commands: with HS_INTEREST_EXEC_POST a tool call runs as
# `$HOOKSHIM_BIN __exec --id ID [--nested] -- EXE ARGV...` (here the
# exec_fakebin stand-in, which logs and execs the command), with the same
# id as the pre request; a denied command is not run at all.
. "$HOOKSHIM_TOP/tests/lib.sh"
P=$HOOKSHIM_PROBES
FS=$HOOKSHIM_TOP/tests/integration/fake_supervisor.py
export HOOKSHIM_FAKEBIN=$P/exec_fakebin HS_FAKEBIN_LOG=$TMP/fakebin.log
if [ ! -f "$HOOKSHIM_LIB" ] || [ ! -x "$P/exec_fakebin" ]; then
	skip "exec_post: shim or probes not built"; exit 0
fi
PY=$(python3 -c 'import sys; print(sys.executable)')
sup() { rm -f "$TMP/log" "$HS_FAKEBIN_LOG"; timeout 60 "$PY" "$FS" --log "$TMP/log" "$@"; }
events() { if [ -f "$TMP/log" ]; then wc -l <"$TMP/log"; else echo 0; fi; }
req_id() { sed -n 's/.*"id": "\([^"]*\)".*/\1/p' "$TMP/log" | head -1; }

for probe in exec_execve exec_posix_spawn exec_vfork exec_rawsyscall; do
	case $probe in exec_vfork) a=(1 /bin/sh);; *) a=(/bin/sh);; esac
	sup --flags i=3 -- "$P/$probe" "${a[@]}" sh -c 'echo out; echo err >&2; exit 4' >out 2>err
	expect_eq "$probe post: command output and status unchanged" "4 out err" \
		"$? $(grep -v shared= out) $(cat err)"
	# the constructor path names the executable as /proc/self/exe does
	exe=/bin/sh; [ $probe = exec_rawsyscall ] && exe=$(readlink -f /bin/sh)
	expect_eq "$probe post: ran under __exec with the pre id" "$(req_id) $exe" "$(cat "$HS_FAKEBIN_LOG" 2>/dev/null)"
	expect_eq "$probe post: decided once" 1 "$(events)"
done
# post hooks only: no pre request, still wrapped
sup --flags i=2 -- "$P/exec_execve" /bin/sh sh -c 'echo only' >out 2>err
expect_eq "post only: no request, wrapped" "0 only 0 1" \
	"$? $(cat out) $(events) $(wc -l <"$HS_FAKEBIN_LOG")"
# nested execs with post hooks carry --nested
sup --flags i=3,n=1 --role tool -- "$P/exec_execve" /bin/echo echo n >out 2>err
expect_contains "nested post: --nested" "$(cat "$HS_FAKEBIN_LOG")" " /bin/echo nested"
# denied: neither run nor wrapped
touch sentinel
sup --flags i=3 -- "$P/exec_execve" /bin/sh sh -c 'rm -f sentinel # HS_DENY' >out 2>err
expect_eq "post deny: 126, not wrapped" "126 0" "$? $(cat "$HS_FAKEBIN_LOG" 2>/dev/null | wc -l)"
check "post deny: sentinel survives" test -e sentinel
# system/popen go the same way
sup --flags i=3 -- "$P/exec_system" 'echo sys' >out 2>err
expect_eq "system post" "0 sys 1" "$? $(cat out) $(wc -l <"$HS_FAKEBIN_LOG")"
sup --flags i=3 -- "$P/exec_popen" 'echo pop; exit 5' >out 2>err
expect_eq "popen post" "5 pop 1" "$? $(cat out) $(wc -l <"$HS_FAKEBIN_LOG")"
