# End to end: a PreToolUse hook that rewrites the model's command
# (Claude Code's updatedInput, issue 24 item 6) under `hookshim run`, on
# every agent: the model asks for `echo UI-ORIGINAL`, the hook answers
# allow with updatedInput.command `echo UI-REWRITTEN`, and what the
# model receives as the tool result is the rewritten command's output.
# The plain agent runs the same script first: its result must be the
# original's, or the case is skipped with its own words.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-updated-input
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-updated-input: hookshim or jq missing"; exit 0; }

jq -n '{hooks: {PreToolUse: [{matcher: "Bash", hooks: [{type: "command", command:
  "c=$(jq -r .tool_input.command); case \"$c\" in *UI-ORIGINAL*) printf \"%s\" \"{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PreToolUse\\\",\\\"permissionDecision\\\":\\\"allow\\\",\\\"updatedInput\\\":{\\\"command\\\":\\\"echo UI-REWRITTEN\\\"}}}\";; esac; exit 0"}]}]}}' \
	>"$TMP/hooks.json"
e2e_script "$TMP/script.json" \
	'{"tool":"shell","input":{"command":"echo UI-ORIGINAL","description":"Echo"}}' \
	'{"text":"UI-FINAL done"}'

# one AGENT DIR PREFIX...: a session; sets rc, res (the tool result)
one() {
	local agent=$1 dir=$2; shift 2
	mkdir -p "$dir"
	e2e_server_start "$TMP/script.json" "$dir.rec" || { rc=125; res=; return; }
	AGENT_PREFIX=("$@")
	(cd "$dir" && e2e_agent "$agent" "Echo something." >/dev/null 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	res=$(e2e_result "$dir.rec" 0)
}

for agent in $E2E_AGENTS; do
	t=updated-input/$agent
	one "$agent" "$TMP/$agent-plain"
	if [ "$rc" != 0 ] || [[ "$res" != *UI-ORIGINAL* ]]; then
		skip "$t: the plain agent did not run the command here (rc=$rc): $(head -c 300 "$TMP/$agent-plain.err" | tr '\n' ' ')"
		continue
	fi
	one "$agent" "$TMP/$agent-hs" "$HOOKSHIM" run --log "$TMP/$agent.jsonl" -c "$TMP/hooks.json" --
	expect_eq "$t: the agent exits as without hookshim" 0 "$rc"
	expect_contains "$t: the model receives the rewritten command's output" "$res" "UI-REWRITTEN"
	# the original command text may be echoed back by the agent; its
	# output line may not
	expect_not_contains "$t: the original never ran" \
		"$(grep -v 'echo UI-ORIGINAL' <<<"$res")" "UI-ORIGINAL"
	rec=$(jq -c 'select(.updated_command)' "$TMP/$agent.jsonl" 2>/dev/null | head -1)
	expect_contains "$t: the log has the model's command" "$rec" '"command":"echo UI-ORIGINAL"'
	expect_contains "$t: ... and the one that ran" "$rec" '"updated_command":"echo UI-REWRITTEN"'
	if [[ "$res" != *UI-REWRITTEN* ]]; then
		note "stderr: $(head -c 1500 "$TMP/$agent-hs.err")"
		note "result: ${res:0:600}"
	fi
done
