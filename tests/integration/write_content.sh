# PostToolUse on a write carries the file's content when a hook asks for it
# (Claude "content": true; mnemoai always, as it documents), capped and
# marked under _truncated.
. "$HOOKSHIM_TOP/tests/lib.sh"
mkdir -p proj && cd proj || exit 1
cat > ../claude.json <<'J'
{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[
 {"type":"command","content":true,"command":"cat >> ../with.jsonl"},
 {"type":"command","command":"cat >> ../without.jsonl"}]}]}}
J
"$HOOKSHIM" run -c ../claude.json -- bash -c 'printf "hello\nworld\n" > note.txt; printf "%100000s" x > big.txt'
expect_eq "content of a written file in the post payload" "hello
world" "$(jq -r 'select(.tool_input.file_path|endswith("note.txt")).tool_input.content' ../with.jsonl)"
expect_eq "a hook that did not ask gets no content" "null" \
	"$(jq -r 'select(.tool_input.file_path|endswith("note.txt")).tool_input.content' ../without.jsonl)"
expect_eq "content capped at 64 KiB" 65536 \
	"$(jq -r 'select(.tool_input.file_path|endswith("big.txt")).tool_input.content|length' ../with.jsonl)"
expect_eq "cut content listed under _truncated" '["content"]' \
	"$(jq -c 'select(.tool_input.file_path|endswith("big.txt")).tool_input._truncated' ../with.jsonl)"

mkdir -p home/.mnemoai/hooks
cat > home/.mnemoai/hooks/hooks.json <<'J'
{"hooks":{"PostToolUse":[{"matcher":"fs_write","hooks":[{"type":"command","command":"cat >> $HOME/../../m.jsonl"}]}]}}
J
HOME=$PWD/home "$HOOKSHIM" run --import mnemoai -- bash -c 'echo mnemo > m.txt'
expect_eq "mnemoai post payload carries tool_input.content" "mnemo" \
	"$(jq -r 'select(.tool_input.path|endswith("m.txt")).tool_input.content' ../m.jsonl)"
