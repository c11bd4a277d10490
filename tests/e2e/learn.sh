# hookshim learn on real agents (issue 25, item 4): each e2e agent is told to
# run two known commands, first plain, then under `hookshim learn
# --command …`; the draft profile must load cleanly, list no command of
# the model's as the agent's own, and -- put in place of the agent's
# built-in profile -- keep every shell of the agent's own from firing a
# hook, so that each command a hook sees carries a command of the
# model's (exactly the model's commands for an agent that wraps nothing).
# What a draft cannot learn, an agent's wrapper shape, it lists for the
# user under "_wrapped_commands".
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require smoke
unset CI GITHUB_ACTIONS
cat > "$TMP/hooks.json" <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "jq -c .tool_input.command >> \"$SEEN\""}]}]}}
J
export SEEN=$TMP/seen
# the profile each draft is named as: the built-in one it replaces
# (opencode has none: an agent hookshim knows nothing of)
declare -A builtin=([claude-2.1.100]=claude-code [qwen]=qwen-code [codex]=codex
	[copilot]=copilot [opencode]=opencode [qwen-0.15.10]=qwen-code
	[claude]=claude-code [claude-2.0.0]=claude-code [gemini]=gemini-cli [pi]=pi)
declare -A exact=([qwen]=1 [copilot]=1 [opencode]=1 [qwen-0.15.10]=1 [pi]=1)
# agents whose shipped own-shell entries are learn's drafts, word for word
declare -A same=([copilot]=1)
for a in ${E2E_LEARN_AGENTS:-$E2E_AGENTS}; do
	e2e_script "$TMP/s.json" '{"tool":"shell","input":{"command":"echo learn-one"}}' \
		'{"tool":"shell","input":{"command":"echo learn-two"}}' '{"text":"done"}'
	# the plain agent first: it runs both and the model sees their output
	rm -f "$TMP"/rec-*.jsonl
	e2e_server_start "$TMP/s.json" "$TMP/rec-plain.jsonl"
	e2e_agent "$a" "run them" >/dev/null 2>&1
	plain=$(e2e_results "$TMP/rec-plain.jsonl" | grep -o 'learn-[a-z]*' | sort -u | tr '\n' ' ')
	e2e_server_stop
	if [[ $plain != *learn-one* || $plain != *learn-two* ]]; then
		skip "$a: the plain agent did not run both commands here"
		continue
	fi
	e2e_server_start "$TMP/s.json" "$TMP/rec-learn.jsonl"
	AGENT_PREFIX=("$HOOKSHIM" learn --command 'echo learn-one' --command 'echo learn-two'
		--name "${builtin[$a]}" -o "$TMP/$a.json" --force --)
	e2e_agent "$a" "run them" >/dev/null 2>"$TMP/learn.err"
	AGENT_PREFIX=()
	learned=$(e2e_results "$TMP/rec-learn.jsonl" | grep -o 'learn-[a-z]*' | sort -u | tr '\n' ' ')
	e2e_server_stop
	expect_eq "$a: under learn the model sees what it saw plain" "$plain" "$learned"
	check "$a: learn wrote a draft" test -s "$TMP/$a.json"
	expect_eq "$a: no command of the model's is called the agent's own" "" \
		"$(jq -r '.internal[]? | tostring | select(test("learn-"))' "$TMP/$a.json")"
	mkdir -p "$TMP/xdg-$a/hookshim/agents"
	cp "$TMP/$a.json" "$TMP/xdg-$a/hookshim/agents/"
	out=$(XDG_CONFIG_HOME=$TMP/xdg-$a "$HOOKSHIM" check -c "$TMP/hooks.json" 2>&1)
	if [ -n "${same[$a]:-}" ]; then
		expect_eq "$a: the draft's own shells are the shipped profile's" \
			"$(jq -c --arg n "${builtin[$a]}" '[.agents[] | select(.name == $n) | .internal[].argv]' \
				"$HOOKSHIM_TOP/config/agents.json")" \
			"$(jq -c '[.internal[]?.argv]' "$TMP/$a.json")"
	fi
	# Claude Code 2.0.0 sets its process title: the draft names it
	[ "$a" = claude-2.0.0 ] && expect_contains "$a: the draft names the process title too" \
		"$(jq -c .processes "$TMP/$a.json")" '"claude"'
	expect_contains "$a: the draft loads, by the built-in's name" "$out" \
		"  ${builtin[$a]} "
	expect_contains "$a: ... from its file" "$out" "xdg-$a/hookshim/agents/$a.json"
	expect_not_contains "$a: ... with no error" "$out" "agent profile:"
	# the draft in place of the built-in profile
	rm -f "$SEEN"
	e2e_server_start "$TMP/s.json" "$TMP/rec-run.jsonl"
	AGENT_ENV=(XDG_CONFIG_HOME="$TMP/xdg-$a" SEEN="$SEEN")
	AGENT_PREFIX=("$HOOKSHIM" run -c "$TMP/hooks.json" --)
	e2e_agent "$a" "run them" >/dev/null 2>&1
	AGENT_PREFIX=() AGENT_ENV=()
	e2e_server_stop
	expect_eq "$a: under the draft every command a hook saw carries the model's" "" \
		"$(grep -v 'learn-' "$SEEN" 2>/dev/null)"
	expect_eq "$a: ... and both were seen" 2 "$(grep -c 'learn-' "$SEEN" 2>/dev/null)"
	if [ -n "${exact[$a]:-}" ]; then
		expect_eq "$a: exactly the model's commands" \
			"$(printf '"echo learn-one"\n"echo learn-two"')" "$(cat "$SEEN")"
	fi
done
