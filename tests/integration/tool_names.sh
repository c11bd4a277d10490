# A tool name given to `hookshim test` reaches the hook as given; the
# operation hookshim derives from it never replaces it (issue 14).
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"

cat > nb.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Notebook.*","hooks":[{"type":"command","command":"cat > nb.payload; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"echo write-hook >&2; exit 0"}]}
]}}
J
out=$(hs test -c nb.json PreToolUse --tool NotebookEdit --input '{}' 2>&1); rc=$?
expect_eq "NotebookEdit: allowed" 0 "$rc"
check "a Notebook.* matcher fires for NotebookEdit" test -s nb.payload
expect_eq "the hook's tool_name is NotebookEdit" '"NotebookEdit"' "$(jq -c .tool_name nb.payload)"
expect_not_contains "the Write hook does not fire for NotebookEdit" "$out" "write-hook"
rm -f nb.payload
hs test -c nb.json PreToolUse --tool MultiEdit --input '{"file_path":"/x"}' >/dev/null 2>&1
check "no Notebook.* for MultiEdit" test ! -e nb.payload
out=$(hs test -c nb.json PreToolUse --tool MultiEdit --input '{"file_path":"/x"}' --json)
expect_eq "MultiEdit reaches the hooks as MultiEdit" '[]' "$(echo "$out" | jq -c '[.hooks[] | select(.tool_name != "MultiEdit")]')"
