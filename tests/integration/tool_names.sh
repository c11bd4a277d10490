# A tool name given to `hookshim test` that the live call never has is
# said on stderr ("not supplied live: tool_name ...") and the call is
# decided under its live name: live, hookshim names a call by what it
# does (a write of an existing non-empty file is Edit, whatever the
# agent called its tool), so a Notebook.* matcher never fires live and
# does not in `hookshim test` either (issue 17 item 7; this replaces
# issue 14's "as given").
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"

cat > nb.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Notebook.*","hooks":[{"type":"command","command":"cat > nb.payload; exit 0"}]},
 {"matcher":"Edit","hooks":[{"type":"command","command":"cat > edit.payload; exit 0"}]}
]}}
J
echo '{"cells":[]}' > nb.ipynb
out=$(hs test -c nb.json PreToolUse --tool NotebookEdit --input '{"notebook_path":"nb.ipynb","file_path":"nb.ipynb","new_source":"x"}' 2>&1); rc=$?
expect_eq "NotebookEdit: allowed" 0 "$rc"
check "no Notebook.* hook: live never names a call NotebookEdit" test ! -e nb.payload
expect_contains "the tool name is flagged" "$out" "not supplied live: tool_name NotebookEdit"
expect_contains "so is a field only the agent's tool has" "$out" "not supplied live: tool_input.new_source"
expect_eq "the Edit hook fires, as live, with the live tool name" '"Edit"' "$(jq -c .tool_name edit.payload)"
expect_eq "its input is what live carries" '{"file_path":"'"$TMP"'/nb.ipynb","operation":"edit"}' "$(jq -c .tool_input edit.payload)"
rm -f edit.payload
# live the agent's write of the notebook is that same Edit
"$HOOKSHIM" run -c nb.json -- python3 -c 'open("nb.ipynb","w").write("{}")' 2>/dev/null
expect_eq "live: the Edit hook, same input" '{"file_path":"'"$TMP"'/nb.ipynb","operation":"edit"}' "$(jq -c .tool_input edit.payload)"
check "live: no Notebook.* hook" test ! -e nb.payload
# A tool hookshim never sees: no request, no hook, said so.
out=$(hs test -c nb.json PreToolUse --tool WebSearch --input '{"query":"x"}' --json 2>/dev/null); rc=$?
expect_eq "WebSearch: allowed (no hook fires live)" 0 "$rc"
expect_contains "WebSearch: no request live, and why" "$(jq -r .no_request_live <<<"$out")" "not the tool WebSearch"
