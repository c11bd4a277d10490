#!/bin/bash
# The shim under the real `hookshim run` with a Claude-dialect hook file:
# a PreToolUse Bash hook that blocks commands containing HS_DENY, and a
# PostToolUse hook adding context. Real programs act as the agent.
. "$HOOKSHIM_TOP/tests/lib.sh"
if [ ! -x "$HOOKSHIM" ] || [ ! -f "$HOOKSHIM_LIB" ]; then
	skip "exec_session: hookshim or the shim not built"; exit 0
fi
export HOME=$TMP/home; mkdir -p "$HOME"
cat > pre.json <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"c=\$(jq -r .tool_input.command); printf '%s\\\\n' \"\$c\" >> $TMP/hook.log; case \"\$c\" in *HS_DENY*) echo 'blocked by policy' >&2; exit 2;; esac; exit 0"}]}]}}
J
cat > post.json <<J
{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_response.stdout > $TMP/post.out; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"CTX-POST\"}}'"}]}]}}
J
run() { rm -f "$TMP/hook.log"; timeout 120 "$HOOKSHIM" run -c pre.json "$@"; }
hooks() { if [ -f "$TMP/hook.log" ]; then wc -l <"$TMP/hook.log"; else echo 0; fi; }
PY=$(python3 -c 'import sys; print(sys.executable)')

# (the agent must not itself be "bash -c": that would be a tool call)
printf 'sh -c "$1"; echo rc=$?\n' >runner.sh
declare -A prog=(
	[bash]='bash runner.sh'
	[python]="$PY -c 'import subprocess,sys; print(\"rc=%d\" % subprocess.run(sys.argv[1], shell=True).returncode)'"
	[node]="node -e 'const c=require(\"child_process\").spawn(\"sh\",[\"-c\",process.argv[1]],{stdio:\"inherit\"}); c.on(\"exit\",s=>console.log(\"rc=\"+s))'"
)
for p in bash python node; do
	touch sentinel
	eval "run -- ${prog[$p]} 'rm -f sentinel # HS_DENY'" >out 2>err
	expect_eq "$p: denied command exits 126" "rc=126" "$(cat out)"
	expect_contains "$p: the hook's reason on stderr" "$(cat err)" "blocked by policy"
	check "$p: no side effect" test -e sentinel
	expect_eq "$p: the hook saw the command once" "rm -f sentinel # HS_DENY" "$(cat "$TMP/hook.log")"
	eval "${prog[$p]} 'echo out; echo err >&2; exit 3'" >want.out 2>want.err
	eval "run -- ${prog[$p]} 'echo out; echo err >&2; exit 3'" >got.out 2>got.err
	expect_eq "$p: allowed runs byte-for-byte" "$(cat want.out)|$(cat want.err)" "$(cat got.out)|$(cat got.err)"
	expect_eq "$p: one hook run" 1 "$(hooks)"
done
# the command hookshim run starts has no checked marker, so it decides for
# itself in its constructor: a shell with a command string is a tool call
touch sentinel
run -- bash -c 'rm -f sentinel # HS_DENY' >out 2>err
expect_eq "run's own bash -c is a tool call, decided once" "126 1" "$? $(hooks)"
check "run's own bash -c: no side effect" test -e sentinel
# ...and stays the agent: a shell it starts is a tool call of its own, and
# what that one starts is nested (not decided)
run -- bash -c 'echo top; sh -c "echo call; sh -c \"echo nested HS_\"\"DENY\""' >out 2>err
expect_eq "run's bash -c stays the agent; one level down is nested" \
	"0 top call nested HS_DENY 2" "$? $(tr '\n' ' ' <out)$(hooks)"
# env -i and a raw-syscall parent stay covered
if [ -x "$HOOKSHIM_PROBES/exec_static_rawexec" ]; then
	touch sentinel
	run -- "$HOOKSHIM_PROBES/exec_static_rawexec" /bin/bash bash -c 'rm -f sentinel # HS_DENY' >out 2>err
	expect_eq "static raw parent: denied in the child" "126 1" "$? $(hooks)"
	check "static raw parent: no side effect" test -e sentinel
fi
run -- env -i bash -c 'echo $HOOKSHIM_ROLE' >out 2>err
expect_eq "env -i: still a decided tool call" "tool 1" "$(cat out) $(hooks)"
# post hooks: output unchanged, context appended to stderr
printf 'sh -c "echo posted; echo e >&2"; echo rc=$?\n' >post.sh
timeout 60 "$HOOKSHIM" run -c post.json -- bash post.sh >out 2>err
expect_eq "post: stdout unchanged" "posted rc=0" "$(tr '\n' ' ' <out | sed 's/ $//')"
expect_contains "post: context on stderr" "$(cat err)" "CTX-POST"
expect_eq "post: hook got the output" "posted" "$(cat "$TMP/post.out" 2>/dev/null)"
