# End to end: an http hook (Claude Code's type: "http") to a Cedar policy
# service (tests/integration/policy-service) under `hookshim run`, on real
# agents: the model asks for `rm -f victim.txt`, the service's Cedar
# forbid denies it, and the model's tool result carries Cedar's reason
# while the file stays; the model's next command, which no policy
# forbids, runs. The plain agent runs the same script first and must
# delete the file, or the case is skipped with its own words.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-http-hooks
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-http-hooks: hookshim or jq missing"; exit 0; }
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
. "$HOOKSHIM_TOP/tests/integration/policy-service/service.sh"
AGENTS=${E2E_HTTP_AGENTS:-claude gemini}

trap 'policy_service_stop; e2e_server_stop; rm -rf "$TMP"' EXIT
policy_service_start "$PS_DIR/team.cedar" "$TMP/service.jsonl" ||
	{ skip "e2e-http-hooks: $PS_SKIP"; exit 0; }
jq -n --arg url "$PS_BASE/hook" '{hooks: {PreToolUse: [{matcher: "Bash",
	hooks: [{type: "http", url: $url, timeout: 30}]}]}}' >"$TMP/hooks.json"
e2e_script "$TMP/script.json" \
	'{"tool":"shell","input":{"command":"rm -f victim.txt","description":"Delete"}}' \
	'{"tool":"shell","input":{"command":"echo HTTP-NEXT-RAN","description":"Echo"}}' \
	'{"text":"HTTP-FINAL done"}'

# one AGENT DIR PREFIX...: a session; sets rc, res0 and res1 (the tool
# results the model received)
one() {
	local agent=$1 dir=$2; shift 2
	mkdir -p "$dir" && echo keep >"$dir/victim.txt"
	e2e_server_start "$TMP/script.json" "$dir.rec" || { rc=125; res0=; res1=; return; }
	AGENT_PREFIX=("$@")
	(cd "$dir" && e2e_agent "$agent" "Clean up." >/dev/null 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	res0=$(e2e_result "$dir.rec" 0)
	res1=$(e2e_result "$dir.rec" 1)
}

for agent in $AGENTS; do
	t=http-hooks/$agent
	one "$agent" "$TMP/$agent-plain"
	if [ "$rc" != 0 ] || [ -e "$TMP/$agent-plain/victim.txt" ]; then
		skip "$t: the plain agent did not delete the file here (rc=$rc): $(head -c 300 "$TMP/$agent-plain.err" | tr '\n' ' ')"
		continue
	fi
	one "$agent" "$TMP/$agent-hs" "$HOOKSHIM" run --log "$TMP/$agent.jsonl" -c "$TMP/hooks.json" --
	expect_eq "$t: the agent exits as without hookshim" 0 "$rc"
	check "$t: the file the policy protects is kept" test -e "$TMP/$agent-hs/victim.txt"
	expect_contains "$t: the model reads Cedar's reason" "$res0" \
		"Cedar policy no-rm: deleting files is not allowed by the team policy"
	expect_contains "$t: the next command ran" "$res1" "HTTP-NEXT-RAN"
	expect_contains "$t: the service decided the model's command" \
		"$(jq -r '.body | fromjson | .tool_input.command' "$TMP/service.jsonl")" "rm -f victim.txt"
	if [[ "$res0" != *Cedar* ]]; then
		note "stderr: $(head -c 1500 "$TMP/$agent-hs.err")"
		note "result: ${res0:0:600}"
	fi
done
