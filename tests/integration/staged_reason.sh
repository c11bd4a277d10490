# A staged write denied at its close (a content hook said no,
# docs/staged-writes.md) carries the hook's reason as a denial at open
# does (docs/how-it-works.md, "what carries the reason to the model"): python3's
# OSError text from strerror, and for node, whose libuv has its own errno
# table, the stderr of the agent's next tool call, once. Found by
# tests/e2e/public_hooks.sh: pi's own Write of a file holding a key was
# refused, and the model saw only "EACCES: permission denied, close".
. "$HOOKSHIM_TOP/tests/lib.sh"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "staged-reason: no build"; exit 0; }
mkdir -p "$TMP/p" && cd "$TMP/p" || exit 1
cat >../scan.py <<'P'
import json, sys
c = json.load(sys.stdin).get("tool_input", {}).get("content", "")
if "AKIA" in c:
    print("SCAN: AWS key in content", file=sys.stderr)
    sys.exit(2)
P
echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Write|Edit\",\"hooks\":[{\"type\":\"command\",\"command\":\"python3 $TMP/scan.py\"}]}]}}" >../s.json

out=$("$HOOKSHIM" run -c ../s.json -- python3 -c '
f = open("py.txt", "w"); f.write("key AKIAIOSFODNN7EXAMPLE")
try:
    f.close()
except OSError as e:
    print("close:", e)' 2>/dev/null)
expect_contains "python3: the close's OSError carries the reason" "$out" \
	"close: [Errno 13] Permission denied by hookshim: SCAN: AWS key in content"
check "python3: py.txt never appears" [ ! -e py.txt ]

if command -v node >/dev/null; then
	out=$("$HOOKSHIM" run -c ../s.json -- node -e '
const fs = require("fs"), cp = require("child_process");
const sh = c => cp.spawnSync("/bin/sh", ["-c", c], { encoding: "utf8" }).stderr;
try { fs.writeFileSync("node.txt", "AKIAIOSFODNN7EXAMPLE") } catch (e) { console.log("write:", e.message) }
console.log("next:", JSON.stringify(sh("true")));
console.log("after:", JSON.stringify(sh("true")));
' 2>/dev/null)
	expect_contains "node: the write fails at close with libuv's text" "$out" "write: EACCES: permission denied, close"
	expect_contains "node: the next tool call's stderr carries the reason" "$out" \
		"next: \"hookshim: the agent's write to $PWD/node.txt was denied by a hook: SCAN: AWS key in content\\n\""
	expect_contains "node: only once" "$out" 'after: ""'
	check "node: node.txt never appears" [ ! -e node.txt ]

	# A program the agent starts between (not a tool call: Claude Code
	# 2.0 runs git after each tool) leaves the reason for the next shell.
	out=$("$HOOKSHIM" run -c ../s.json -- node -e '
const fs = require("fs"), cp = require("child_process");
const sh = c => cp.spawnSync("/bin/sh", ["-c", c], { encoding: "utf8" }).stderr;
try { fs.writeFileSync("node2.txt", "AKIAIOSFODNN7EXAMPLE") } catch (e) {}
cp.spawnSync("/usr/bin/env", ["true"]); cp.execFileSync("/usr/bin/env", ["true"]);
console.log("next:", JSON.stringify(sh("true")));
console.log("after:", JSON.stringify(sh("true")));
' 2>/dev/null)
	expect_contains "node: a program started in between leaves the reason to the next tool call" "$out" \
		"next: \"hookshim: the agent's write to $PWD/node2.txt was denied by a hook: SCAN: AWS key in content\\n\""
	expect_contains "node: ... still once" "$out" 'after: ""'
else
	skip "staged-reason: node missing"
fi
