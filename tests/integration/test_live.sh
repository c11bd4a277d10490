# hookshim test decides as the live path does (issue 17 item 7), per
# dialect: a content scanner has its writes staged live (it reads
# tool_input.content: docs/staged-writes.md), so `test` keeps the content
# and both deny; a hook that says "content": false is asked at the open,
# before any byte exists, so `test` leaves the content out, with a
# warning, and both allow.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
cat > scan.py <<'PY'
import json, sys
p = json.load(sys.stdin)
inp = p.get("tool_input") or p.get("input") or {}
if "AKIA" in inp.get("content", ""):
    print("secret in content", file=sys.stderr); sys.exit(2)
PY
echo '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"python3 '$TMP'/scan.py"}]}]}}' > claude.json
echo '{"hooks":{"pre_tool_use":[{"matcher":"edit_file","command":"python3 '$TMP'/scan.py"}]}}' > memcode.json
echo '{"hooks":{"PreToolUse":[{"matcher":"fs_write","hooks":[{"type":"command","command":"python3 '$TMP'/scan.py"}]}]}}' > mnemoai.json
for d in claude memcode mnemoai; do
	tool=$(case $d in claude) echo Write;; memcode) echo edit_file;; mnemoai) echo fs_write;; esac)
	"$HOOKSHIM" test --dialect $d -c $d.json PreToolUse --tool $tool \
		--input '{"file_path":"'"$TMP"'/k-'$d'.txt","path":"'"$TMP"'/k-'$d'.txt","content":"AKIAABCDEFGH"}' >/dev/null 2>err.txt
	t=$?
	"$HOOKSHIM" run --dialect $d -c $d.json -- python3 -c 'open("k-'$d'.txt","w").write("AKIAABCDEFGH")' 2>/dev/null
	l=$([ -s k-$d.txt ] && echo 0 || echo 2)
	expect_eq "$d: test's verdict is the live verdict (the write is staged)" "2 2" "$l $t"
	expect_not_contains "$d: test keeps the content" "$(cat err.txt)" "tool_input.content left out"
done
echo '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","content":false,"command":"python3 '$TMP'/scan.py"}]}]}}' > noc.json
"$HOOKSHIM" test -c noc.json PreToolUse --tool Write \
	--input '{"file_path":"'"$TMP"'/k-noc.txt","content":"AKIAABCDEFGH"}' >/dev/null 2>err.txt
t=$?
"$HOOKSHIM" run -c noc.json -- python3 -c 'open("k-noc.txt","w").write("AKIAABCDEFGH")' 2>/dev/null
l=$([ -s k-noc.txt ] && echo 0 || echo 2)
expect_eq "content false: test's verdict is the live verdict (content not known at the open)" "0 0" "$l $t"
expect_contains "content false: test says why content is left out" "$(cat err.txt)" "tool_input.content left out"
# A post event carries the file live (the hook asked for it): test keeps it.
echo '{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","content":true,"command":"jq -r .tool_input.content > '$TMP'/post.txt"}]}]}}' > post.json
"$HOOKSHIM" test -c post.json PostToolUse --tool Write --input '{"file_path":"/x","content":"AKIA1"}' >/dev/null 2>err.txt
expect_eq "post: content kept" AKIA1 "$(cat post.txt)"
expect_not_contains "post: no warning" "$(cat err.txt)" "left out"
