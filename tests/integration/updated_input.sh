# updatedInput applied (issue 24, item 6): a PreToolUse hook that answers
# allow with updatedInput.command makes the call's shell run the new
# command instead, on every path a command starts by -- hookshim run's
# own CMD, execve, system(), popen(), posix_spawn, a process whose parent
# had no shim (it re-executes itself) -- and the log keeps both. Where
# only the floor sees the exec (a static parent in enforce mode) the
# rewrite cannot be applied, so the call is denied with that reason; a
# rewrite longer than the shim's buffer is denied, never cut; a write's
# updatedInput is said to be ignored.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset CI GITHUB_ACTIONS
long=$(printf 'x%.0s' $(seq 5000))
cat > hooks.json <<J
{"hooks": {"PreToolUse": [
 {"matcher": "Bash", "hooks": [{"type": "command", "command":
  "c=\$(jq -r .tool_input.command); case \"\$c\" in *UI-LONG*) printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo $long\"}}}';; *UI-ORIGINAL*) printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo UI-REWRITTEN\"}}}';; esac; exit 0"}]},
 {"matcher": "Write", "hooks": [{"type": "command", "command":
  "printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"file_path\":\"/tmp/elsewhere\"}}}'"}]}]}}
J
hs() { "$HOOKSHIM" run --log log.jsonl -c hooks.json "$@"; }

out=$(hs -- bash -c 'echo UI-ORIGINAL' 2>/dev/null)
expect_eq "hookshim run's own CMD runs the rewritten command" "UI-REWRITTEN" "$out"
out=$(hs -- bash -c 'bash -c "echo UI-ORIGINAL"; echo rc=$?' 2>/dev/null)
expect_contains "the agent's exec of a shell: rewritten" "$out" "UI-REWRITTEN"
cat > agent.py <<'P'
import os, subprocess
print("run:", subprocess.run(["bash", "-c", "echo UI-ORIGINAL"], capture_output=True, text=True).stdout.strip())
print("popen:", os.popen("echo UI-ORIGINAL").read().strip())
r, w = os.pipe()
pid = os.posix_spawn("/bin/sh", ["sh", "-c", "echo UI-ORIGINAL"], os.environ,
                     file_actions=[(os.POSIX_SPAWN_DUP2, w, 1)])
os.close(w); os.waitpid(pid, 0)
print("spawn:", os.read(r, 100).decode().strip())
os.system("echo system: UI-ORIGINAL")
P
out=$(hs -- python3 agent.py 2>/dev/null)
expect_contains "fork and exec (subprocess.run): rewritten" "$out" "run: UI-REWRITTEN"
expect_contains "popen(): rewritten" "$out" "popen: UI-REWRITTEN"
expect_contains "posix_spawn: rewritten" "$out" "spawn: UI-REWRITTEN"
expect_contains "system(): rewritten" "$out" "UI-REWRITTEN"
expect_not_contains "system(): not the original" "$out" "system: UI-ORIGINAL"

# a dynamic shell started by a static parent: no shim saw its start, it
# judges itself and re-executes as rewritten (guard mode)
cat > agent.sh <<'A'
busybox env bash -c 'echo UI-ORIGINAL'; echo "rc=$?"
A
out=$(hs --guard -- busybox sh agent.sh 2>/dev/null)
expect_contains "guard: a shell a static parent started is rewritten" "$out" "UI-REWRITTEN"
# enforce mode: the floor judges that exec and cannot rewrite it
out=$(hs --enforce -- busybox sh agent.sh 2>err.txt)
expect_not_contains "enforce: the original does not run through the floor" "$out" "UI-ORIGINAL"
# (busybox env, started by the agent busybox sh, makes it: a child of
# the agent's own program, ended in the exec so that the agent reads the
# reason as the command's output, tests/integration/floor_spawned.sh)
expect_contains "enforce: the exec is denied" "$out" "rc=137"
expect_contains "enforce: ... saying why" "$(cat err.txt)" \
	"a hook rewrote this command (updatedInput); only the shim can run a rewritten command"

# too long for the shim's reply buffer: denied, never cut
echo 'bash -c "echo UI-LONG"; echo "rc=$?"' > long.sh
out=$(hs -- bash long.sh 2>err.txt)
expect_contains "a rewrite past 4095 bytes is denied" "$out" "rc=126"
expect_contains "... with the reason" "$(cat err.txt)" "rewrote the command to more than 4095 bytes; not run"
expect_not_contains "... and no cut command ran" "$out" "xxxx"

# the log keeps both
rec=$(jq -c 'select(.updated_command == "echo UI-REWRITTEN")' log.jsonl | head -1)
expect_contains "the log has the model's command" "$rec" '"command":"echo UI-ORIGINAL"'
expect_contains "... and the one that ran" "$rec" '"decision":"allow"'

# a write's updatedInput cannot be applied from outside: said
hs -- bash -c 'echo x > f.txt' 2>/dev/null
expect_contains "a write's updatedInput is said (the log's warnings) to be ignored" \
	"$(jq -r '.warnings[]?' log.jsonl)" \
	"rewrites a command's \"command\", not a Write call's input (ignored)"
check "the write itself happened as asked" test -s f.txt

# hookshim test says the same as live
out=$("$HOOKSHIM" test -c hooks.json PreToolUse --tool Bash --command 'echo UI-ORIGINAL' 2>/dev/null)
expect_contains "test: says what runs instead" "$out" "runs instead (updatedInput): echo UI-REWRITTEN"
out=$("$HOOKSHIM" test -c hooks.json PreToolUse --tool Bash --command 'echo UI-ORIGINAL' --json 2>/dev/null)
expect_eq "test --json: updated_command" "echo UI-REWRITTEN" "$(jq -r .updated_command <<<"$out")"

# only a shell's -c command can be rewritten: a rewrite of any other
# command (every exec a tool call here) is not run, with the reason
cat > every.json <<'J'
{"hookshim": {"tool_calls": "every-exec"},
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
  "c=$(jq -r .tool_input.command); case \"$c\" in *UI-PLAIN*) printf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"echo UI-REWRITTEN\"}}}';; esac; exit 0"}]}]}}
J
echo '/bin/echo UI-PLAIN; echo "rc=$?"' > plain.sh
out=$("$HOOKSHIM" run -c every.json -- bash plain.sh 2>err.txt)
expect_not_contains "a non-shell command a hook rewrote does not run as it was" "$out" "UI-PLAIN"
expect_contains "... it is denied" "$out" "rc=126"
expect_contains "... saying why" "$(cat err.txt)" "only a shell's -c command can be rewritten: not run"
