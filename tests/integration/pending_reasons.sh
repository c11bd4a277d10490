# The reason of an agent's own denied write, handed to its next tool call
# (shim/reason.c): only a shell the supervisor calls a tool call takes it,
# not one of the agent's own shells (config/agents.json: Claude Code's
# `/bin/sh -c 'which bash'`) nor a program that is no shell (`git`); once,
# for the agent and all its children, whether they are forked (node) or
# vforked/posix_spawned (python3's subprocess); the same denial twice is
# said once, two different ones both.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "pending reasons: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "pending reasons: jq missing"; exit 0; }
ROOT=$TMP/root
mkdir -p "$ROOT/secrets"
cat >"$TMP/guard.sh" <<'SH'
#!/bin/sh
case $(jq -r '.tool_input.file_path // ""') in
*/secrets/*) echo "Blocked: nothing under secrets/" >&2; exit 2 ;;
esac
exit 0
SH
chmod +x "$TMP/guard.sh"
jq -n --arg c "$TMP/guard.sh" '{hooks: {PreToolUse: [{matcher: "Write|Edit", hooks: [{type: "command", command: $c}]}]}}' >"$TMP/w.json"
said() { echo "hookshim: the agent's write to $ROOT/secrets/$1 was denied by a hook: Blocked: nothing under secrets/\\n"; }

if command -v node >/dev/null; then
	out=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/w.json" --root "$ROOT" -- node -e '
const fs = require("fs"), cp = require("child_process");
const run = (f, a) => JSON.stringify(cp.spawnSync(f, a, { encoding: "utf8" }).stderr);
for (const f of ["a", "a"]) try { fs.writeFileSync("secrets/" + f, "k") } catch (e) {}
console.log("program:", run("/bin/true", []));
console.log("internal:", run("/bin/sh", ["-c", "which bash"]));
console.log("tool:", run("/bin/bash", ["-c", "true"]));
console.log("after:", run("/bin/bash", ["-c", "true"]));
for (const f of ["b", "c"]) try { fs.writeFileSync("secrets/" + f, "k") } catch (e) {}
console.log("two:", run("/bin/bash", ["-c", "true"]));
' 2>/dev/null)
	expect_contains "node: a program that is no shell leaves it" "$out" 'program: ""'
	expect_contains "node: the agent's own shell (which bash) leaves it" "$out" 'internal: ""'
	expect_contains "node: the next tool call takes it, the same denial once" "$out" \
		"tool: \"$(said a)\""
	expect_contains "node: taken for the parent too (fork)" "$out" 'after: ""'
	expect_contains "node: two denials, both said" "$out" "two: \"$(said b)$(said c)\""
else
	skip "pending reasons: node missing"
fi

if command -v python3 >/dev/null; then
	out=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/w.json" --root "$ROOT" -- python3 -c '
import json, subprocess
def run(*a): print(json.dumps(subprocess.run(a, capture_output=True, text=True).stderr))
try: open("secrets/d", "w")
except OSError: pass
print("internal:", end=" "); run("/bin/sh", "-c", "which bash")
print("tool:", end=" "); run("/bin/bash", "-c", "true")
print("after:", end=" "); run("/bin/bash", "-c", "true")
' 2>/dev/null)
	expect_contains "python3: the agent's own shell leaves it" "$out" 'internal: ""'
	expect_contains "python3: the next tool call takes it" "$out" "tool: \"$(said d)\""
	expect_contains "python3: once" "$out" 'after: ""'
else
	skip "pending reasons: python3 missing"
fi
check "nothing reached secrets/" test -z "$(ls -A "$ROOT/secrets")"
