# Edit vs Write (issue 17 item 5): the agent's own in-place change of a
# non-empty existing file is Edit; a new file is Write; a tool call's
# shell redirection stays Write. A hook matching only Write still fires
# for an agent's edit (from outside, Claude's Write over an existing file
# and its Edit are the same calls: no Write guard may lose one). python3
# and node are the agent here.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
cat > c.json <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Edit","hooks":[{"type":"command","command":"jq -r '[.tool_name, .tool_input.operation, (.tool_input.file_path|split(\"/\")|last)] | @tsv' >> $TMP/edit.txt"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"jq -r '[.tool_name, .tool_input.operation, (.tool_input.file_path|split(\"/\")|last)] | @tsv' >> $TMP/write.txt"}]}]}}
J
echo old > existing.txt; : > empty.txt; echo old > saved.txt
cat > agent.py <<'PY'
import os, subprocess
open("existing.txt", "w").write("new\n")          # in place: Edit
open("fresh.txt", "w").write("x\n")               # new file: Write
open("empty.txt", "w").write("x\n")               # empty replaced: Write
with open("saved.txt.tmp.1", "w") as f: f.write("y\n")
os.rename("saved.txt.tmp.1", "saved.txt")          # atomic save: Edit
subprocess.run(["bash", "-c", "echo z > existing.txt"])  # a tool call's shell: Write
PY
"$HOOKSHIM" run -c c.json -- python3 agent.py
expect_eq "python agent: in-place change and atomic save are Edit" \
	"$(printf 'Edit\tedit\texisting.txt\nEdit\tedit\tsaved.txt')" "$(cat edit.txt 2>/dev/null)"
expect_eq "python agent: new file, empty file, tool-call redirection are Write; a Write hook sees the edits too" \
	"$(printf 'Edit\tedit\texisting.txt\nWrite\tcreate\tfresh.txt\nWrite\toverwrite\tempty.txt\nEdit\tedit\tsaved.txt\nWrite\toverwrite\texisting.txt')" "$(cat write.txt 2>/dev/null)"
rm -f edit.txt write.txt
"$HOOKSHIM" run -c c.json -- bash -c 'echo q > existing.txt'
expect_eq "a shell started as the agent: its redirection is Write" \
	"$(printf 'Write\toverwrite\texisting.txt')" "$(cat write.txt 2>/dev/null)"
check "  ... and no Edit" test ! -e edit.txt
if command -v node >/dev/null; then
	rm -f edit.txt write.txt
	# what pi's edit and write tools do: fs.promises.writeFile
	UV_USE_IO_URING=0 "$HOOKSHIM" run -c c.json -- node -e '
	  const fs = require("fs/promises");
	  (async () => { await fs.writeFile("existing.txt", "edited\n");
	                 await fs.writeFile("node-new.txt", "n\n"); })();'
	expect_eq "node agent (pi's writeFile): existing file is Edit" \
		"$(printf 'Edit\tedit\texisting.txt')" "$(cat edit.txt 2>/dev/null)"
	expect_eq "node agent: new file is Write; a Write hook sees the edit too" \
		"$(printf 'Edit\tedit\texisting.txt\nWrite\tcreate\tnode-new.txt')" "$(cat write.txt 2>/dev/null)"
else
	skip "node agent: node missing"
fi
