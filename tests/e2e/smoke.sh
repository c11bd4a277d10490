# The harness itself, without hookshim: each real agent, driven by the fake
# model server, runs one shell tool call and ends with a final text.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-smoke

for agent in $E2E_AGENTS; do
	rec=$TMP/$agent-rec.jsonl
	e2e_script "$TMP/$agent-script.json" \
		'{"tool":"shell","input":{"command":"echo hello-from-tool","description":"Say hello"}}' \
		'{"text":"SMOKE-FINAL-TEXT done"}'
	if ! e2e_server_start "$TMP/$agent-script.json" "$rec"; then
		fail "smoke/$agent: model server"; continue
	fi
	out=$(e2e_agent "$agent" "Run: echo hello-from-tool" 2>"$TMP/$agent.err")
	rc=$?
	e2e_server_stop
	expect_eq "smoke/$agent: exit status" 0 "$rc"
	expect_contains "smoke/$agent: final text on stdout" "$out" "SMOKE-FINAL-TEXT done"
	expect_contains "smoke/$agent: tool result seen by the model" \
		"$(e2e_results "$rec")" "hello-from-tool"
	if [ "$rc" != 0 ]; then
		note "stderr: $(head -c 2000 "$TMP/$agent.err")"
		e2e_requests "$rec" | sed 's/^/# /'
	fi
done
