# End to end: a real agent's commands' connections are WebFetch events
# (issue 28, docs/network.md). The model asks for two commands:
# `curl http://evil.test:B/secret.txt` and `curl http://allowed.test:A/ok.txt`
# (both names resolved to the loopback by a DNS server the test starts,
# the resolver pointed at it in a private mount namespace). A WebFetch
# hook denies evil.test with a reason: under hookshim the model's tool
# result is that reason, not the secret; the allowed fetch and the
# agent's own model traffic (its endpoint in its environment) are
# untouched, and the hook never sees the model's endpoint. A PostToolUse
# WebFetch hook sees the allowed connection's end with the bytes it
# carried, and nothing of the denied one or of the agent's own traffic.
# The plain agent runs first and must fetch both.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-network
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null && command -v curl >/dev/null ||
	{ skip "e2e-network: hookshim, jq or curl missing"; exit 0; }
[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null ||
	{ skip "e2e-network: a private /etc/resolv.conf needs root and unshare"; exit 0; }

mkdir -p www && echo ALLOWED-CONTENT > www/ok.txt && echo EVIL-CONTENT-7f3a > www/secret.txt
. "$HOOKSHIM_TOP/tests/netlab.sh"
netlab_start
REASON="NET-DENIED: evil.test is not an allowed destination"
cat > hook.sh <<SH
#!/bin/sh
in=\$(cat)
echo "\$in" | jq -r '[.tool_input.host, .tool_input.port] | join(" ")' >> "\$1"
[ "\$(echo "\$in" | jq -r .tool_input.host)" = evil.test ] && { echo "$REASON" >&2; exit 2; }
exit 0
SH
chmod +x hook.sh
cat > post.sh <<'SH'
#!/bin/sh
jq -r '[.hook_event_name, .tool_input.host, .tool_input.port, .tool_response.bytes_received] | join(" ")' >> "$1"
SH
chmod +x post.sh

for agent in ${E2E_NET_AGENTS:-claude qwen}; do
	case " $E2E_AGENTS " in *" $agent "*) ;; *) continue ;; esac
	t=network/$agent
	dir=$TMP/$agent; mkdir -p "$dir"
	e2e_script "$dir.script.json" \
		"{\"tool\":\"shell\",\"input\":{\"command\":\"curl -sS http://evil.test:$B/secret.txt\",\"description\":\"Fetch\"}}" \
		"{\"tool\":\"shell\",\"input\":{\"command\":\"curl -sS http://allowed.test:$A/ok.txt\",\"description\":\"Fetch\"}}" \
		'{"text":"NET-FINAL done"}'
	# plain first
	e2e_server_start "$dir.script.json" "$dir.plain.rec" || { fail "$t: model server"; continue; }
	AGENT_PREFIX=(bash "$TMP/ns.sh")
	out=$(cd "$dir" && e2e_agent "$agent" "Fetch the two files." 2>"$dir.plain.err")
	AGENT_PREFIX=()
	e2e_server_stop
	p0=$(e2e_result "$dir.plain.rec" 0); p1=$(e2e_result "$dir.plain.rec" 1)
	if [[ "$p0" != *EVIL-CONTENT-7f3a* || "$p1" != *ALLOWED-CONTENT* ]]; then
		skip "$t: the plain agent does not fetch both here ($(head -c 200 <<<"$p0$p1" | tr '\n' ' '))"
		continue
	fi
	# under hookshim
	printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s %s"}]}],"PostToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s %s"}]}]}}\n' \
		"$TMP/hook.sh" "$dir.net" "$TMP/post.sh" "$dir.post" > "$dir.hooks.json"
	rm -f "$dir.net" "$dir.post"
	e2e_server_start "$dir.script.json" "$dir.rec" || { fail "$t: model server"; continue; }
	model_port=$E2E_PORT
	AGENT_PREFIX=(bash "$TMP/ns.sh" "$HOOKSHIM" run --log "$dir.log.jsonl" -c "$dir.hooks.json" --root "$dir" --)
	out=$(cd "$dir" && e2e_agent "$agent" "Fetch the two files." 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	r0=$(e2e_result "$dir.rec" 0); r1=$(e2e_result "$dir.rec" 1)
	expect_eq "$t: exit status" 0 "$rc"
	expect_contains "$t: final text (the agent's own model traffic went through)" "$out" "NET-FINAL"
	expect_contains "$t: the denied fetch's tool result is the hook's reason" "$r0" \
		"connection to evil.test:$B denied: $REASON"
	expect_not_contains "$t: ... and not the secret" "$r0" "EVIL-CONTENT-7f3a"
	expect_contains "$t: the allowed fetch's result, as plain" "$r1" "ALLOWED-CONTENT"
	# (not the resolver's queries: the system's resolvers are left out)
	expect_eq "$t: the hook saw evil.test once and allowed.test once" \
		"$(printf 'allowed.test %s\nevil.test %s' "$A" "$B")" \
		"$(sort "$dir.net" 2>/dev/null)"
	check "$t: ... and never the agent's model endpoint (port $model_port)" \
		test -n "$model_port" -a -z "$(grep " $model_port\$" "$dir.net" 2>/dev/null)"
	post=$(cat "$dir.post" 2>/dev/null)
	expect_eq "$t: one PostToolUse, the allowed connection's end" "PostToolUse allowed.test $A" \
		"$(cut -d' ' -f1-3 <<<"$post")"
	got=$(cut -d' ' -f4 <<<"$post")
	check "$t: ... with the bytes it brought (the file and its headers: $got)" \
		test "${got:-0}" -gt "$(wc -c < www/ok.txt)"
	[[ "$r0" == *NET-DENIED* ]] || { note "stderr: $(head -c 1500 "$dir.err")"; note "r0: $(head -c 600 <<<"$r0")"; }
done
