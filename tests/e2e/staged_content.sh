# End to end: pi's own write tool under a content-scanning PreToolUse hook
# (docs/staged-writes.md). The write of content holding AKIA... to
# config.txt is denied at its close and the file never appears; a benign
# write succeeds. The plain agent writes both first (else: skipped).
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-staged
[ -x "$HOOKSHIM" ] || { skip "e2e-staged: no hookshim build"; exit 0; }
cat >"$TMP/scan.py" <<'P'
import json, sys
c = json.load(sys.stdin).get("tool_input", {}).get("content", "")
if "AKIA" in c:
    print("BLOCKED-CONTENT: AWS key in content", file=sys.stderr)
    sys.exit(2)
P
printf '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"python3 %s"}]}]}}\n' \
	"$TMP/scan.py" >"$TMP/hooks.json"
# script DIR OUT: the model writes both files into DIR
script() {
	mkdir -p "$1"
	e2e_script "$2" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$1/config.txt\",\"content\":\"aws_key=AKIAIOSFODNN7EXAMPLE\\n\"}}" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$1/notes.txt\",\"content\":\"benign\\n\"}}" \
		'{"text":"HS-FINAL-TEXT done"}'
}
# plain first
script "$TMP/plain" "$TMP/plain.json"
e2e_session "$TMP/plain.json" "$TMP/plain.rec" "$TMP/plain" pi "Write the files." >/dev/null
[ $? = 125 ] && { fail "e2e-staged: model server"; exit 0; }
if ! grep -q AKIA "$TMP/plain/config.txt" 2>/dev/null || [ "$(cat "$TMP/plain/notes.txt" 2>/dev/null)" != benign ]; then
	skip "e2e-staged/pi: the plain agent does not write the files here ($(head -c 200 "$TMP/plain.rec.err" | tr '\n' ' '))"
	exit 0
fi
dir=$TMP/proj
script "$dir" "$TMP/s.json"
e2e_server_start "$TMP/s.json" "$TMP/rec.jsonl" || { fail "e2e-staged: model server"; exit 0; }
AGENT_PREFIX=("$HOOKSHIM" run -c "$TMP/hooks.json" --)
out=$(cd "$dir" && e2e_agent pi "Write the files." 2>"$TMP/pi.err"); rc=$?
AGENT_PREFIX=()
e2e_server_stop
check "e2e-staged/pi: the session ends (rc=$rc)" test "$rc" = 0
check "e2e-staged/pi: config.txt with AKIA... never appears" test ! -e "$dir/config.txt"
expect_contains "e2e-staged/pi: the model sees the write fail" "$(e2e_result "$TMP/rec.jsonl" 0)" "EACCES"
expect_eq "e2e-staged/pi: the benign write succeeds" "benign" "$(cat "$dir/notes.txt" 2>/dev/null)"
