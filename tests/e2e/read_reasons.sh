# End to end with pi (node): a Read hook guarding .env and a Write hook
# guarding secrets/. pi's own `read` of .env is denied (its content never
# reaches the model) and pi's own `write` into secrets/ is denied; node
# takes its error text from libuv's own table, so each denial's reason
# reaches the model with the result of the agent's next tool call (shim/
# reason.c). Claude Code is not run here: its Read tool reads with raw
# syscalls, which the shim does not see (docs/how-it-works.md, "Read events").
# The plain agent reads .env and writes into secrets/ first (else: skipped).
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-read-reasons
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-read-reasons: hookshim or jq missing"; exit 0; }

# script DIR OUT: read DIR/.env, write into DIR/secrets/
script() {
	mkdir -p "$1/secrets"
	echo 'API_KEY=sk-e2e-secret' >"$1/.env"
	e2e_script "$2" \
		"{\"tool\":\"read\",\"input\":{\"file_path\":\"$1/.env\"}}" \
		'{"tool":"shell","input":{"command":"echo after-read","description":"Echo"}}' \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$1/secrets/k.txt\",\"content\":\"x\\n\"}}" \
		'{"tool":"shell","input":{"command":"echo after-write","description":"Echo"}}' \
		'{"text":"RR-FINAL done"}'
}
script "$TMP/plain" "$TMP/plain.json"
e2e_session "$TMP/plain.json" "$TMP/plain.rec" "$TMP/plain" pi "Check the config." >/dev/null
[ $? = 125 ] && { fail "e2e-read-reasons: model server"; exit 0; }
if [[ "$(e2e_result "$TMP/plain.rec" 0)" != *sk-e2e-secret* ]] || [ ! -e "$TMP/plain/secrets/k.txt" ]; then
	skip "read-reasons/pi: the plain agent does not read .env or write secrets/ here ($(head -c 200 "$TMP/plain.rec.err" | tr '\n' ' '))"
	exit 0
fi
dir=$TMP/proj
jq -n '{hooks: {PreToolUse: [
  {matcher: "Read", hooks: [{type: "command", command:
    "p=$(jq -r .tool_input.file_path); case \"$p\" in */.env) echo \"BLOCKED-READ: .env holds secrets\" >&2; exit 2;; esac; exit 0"}]},
  {matcher: "Write|Edit", hooks: [{type: "command", command:
    "p=$(jq -r .tool_input.file_path); case \"$p\" in */secrets/*) echo \"BLOCKED-WRITE: secrets/ is read-only\" >&2; exit 2;; esac; exit 0"}]}
]}}' >"$TMP/hooks.json"
script "$dir" "$TMP/script.json"
e2e_server_start "$TMP/script.json" "$TMP/rec.jsonl" || { fail "e2e-read-reasons: model server"; exit 0; }
AGENT_PREFIX=("$HOOKSHIM" run -c "$TMP/hooks.json" --root "$dir" --)
out=$(cd "$dir" && e2e_agent pi "Check the config." 2>"$TMP/pi.err")
rc=$?
AGENT_PREFIX=()
e2e_server_stop
t=read-reasons/pi
expect_eq "$t: exit status" 0 "$rc"
r0=$(e2e_result "$TMP/rec.jsonl" 0); r1=$(e2e_result "$TMP/rec.jsonl" 1)
r2=$(e2e_result "$TMP/rec.jsonl" 2); r3=$(e2e_result "$TMP/rec.jsonl" 3)
expect_contains "$t: the read tool's result is a permission error" "$r0" "EACCES"
expect_not_contains "$t: .env's content never reached the model" "$(e2e_results "$TMP/rec.jsonl")" "sk-e2e-secret"
expect_contains "$t: the next tool result carries the read's reason" "$r1" "BLOCKED-READ: .env holds secrets"
expect_contains "$t: ... and its own output" "$r1" "after-read"
expect_contains "$t: the write tool's result is a permission error" "$r2" "EACCES"
expect_contains "$t: the next tool result carries the write's reason" "$r3" "BLOCKED-WRITE: secrets/ is read-only"
check "$t: secrets/k.txt not written" [ ! -e "$dir/secrets/k.txt" ]
if [ "$rc" != 0 ] || [[ "$r1" != *BLOCKED-READ* ]]; then
	note "stderr: $(head -c 1500 "$TMP/pi.err")"
	e2e_results "$TMP/rec.jsonl" | head -c 3000 | sed 's/^/# /'
fi

# The reasons of denied own writes on every agent with a write tool,
# Claude Code included: tests/e2e/own_writes.sh.
