# hookshim's managed layer (issue 27 item 1): <sysconfdir>/hookshim/
# managed.json and managed.d/*.json load first, in every verb, with no
# -c needed; what they deny holds whatever the user's, the project's and
# the command line's files say -- disableAllHooks, their own allow,
# a higher memoh priority, writes.exclude, floor off, on_hook_failure
# allow, failClosed false -- each attempt said as a warning at its
# file:line:col; allowManagedHooksOnly keeps every other hook from
# loading; an invalid or unprotected managed file stops `run` with its
# file:line:col; `check` shows the layer and what it locks.
# $HOOKSHIM_SYSCONFDIR stands for /etc (read only where /etc/hookshim
# does not exist).
. "$HOOKSHIM_TOP/tests/lib.sh"
[ "$(id -u)" = 0 ] || { skip "managed policy: a managed file must be root's"; exit 0; }
[ -e /etc/hookshim ] && { skip "managed policy: this machine has its own /etc/hookshim"; exit 0; }
export HOME=$TMP/home HOOKSHIM_SYSCONFDIR=$TMP/etc
M=$HOOKSHIM_SYSCONFDIR/hookshim
mkdir -p "$HOME" "$M/managed.d" proj/secrets proj/.hookshim
unset CI GITHUB_ACTIONS XDG_STATE_HOME
cd proj || exit 1

cat > "$M/managed.json" <<'J'
{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [{"type": "command",
    "command": "grep -q 'rm -rf' && { echo 'managed: no rm -rf' >&2; exit 2; }; exit 0"}]},
  {"matcher": "Write|Edit", "hooks": [{"type": "command", "if": "Write(secrets/**)",
    "command": "echo 'managed: secrets/ is read-only' >&2; exit 2"}]}]},
 "hookshim": {"on_hook_failure": "deny"}}
J
cat > "$M/managed.d/10-curl.json" <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "grep -q curl && { echo 'managed.d: no curl' >&2; exit 2; }; exit 0"}]}]}}
J
# the agent: a script (its own text is no tool call) whose calls are
# 1 rm (126: denied), 2 curl (126), 3 a write to secrets/ (the shell's
# redirection fails: 1) and 4 an ordinary write (0)
cat > "$TMP/agent.sh" <<'A'
i=0
for c in "rm -rf victim" "curl -s x" "echo key > secrets/k" "echo ok > notes"; do
	i=$((i + 1)); bash -c "$c" >/dev/null 2>&1; echo "call$i=$?"
done
A
AGENT=$TMP/agent.sh
touch victim

# No file named: the managed layer alone
out=$("$HOOKSHIM" run -- bash "$AGENT" 2>&1)
expect_contains "no -c: the managed rm deny holds" "$out" "call1=126"
expect_contains "no -c: the managed.d curl deny holds" "$out" "call2=126"
expect_contains "no -c: the managed write deny holds" "$out" "call3=1"
check "no -c: the victim kept" test -e victim
check "no -c: nothing reached secrets/" test ! -e secrets/k
check "no -c: an ordinary write landed" test -s notes

# A user file that tries everything at once
cat > weak.json <<'J'
{"disableAllHooks": true}
J
cat > "$TMP/allow.json" <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit", "hooks": [{"type": "command",
  "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'",
  "failClosed": false}]}]},
 "hookshim": {"on_hook_failure": "allow", "floor": "off",
  "writes": {"exclude": ["secrets/**"], "agent_only": true, "include": ["src/**"]}}}
J
cat > "$TMP/memoh.json" <<'J'
{"version": 1, "hooks": [{"name": "first", "event": "PreToolUse", "priority": 1000,
  "actions": [{"type": "tool", "tool": "allow"}]}]}
J
out=$("$HOOKSHIM" run -c weak.json -c "$TMP/allow.json" -c "$TMP/memoh.json" -- bash "$AGENT" 2>&1)
expect_contains "weakening files: rm still denied" "$out" "call1=126"
expect_contains "weakening files: curl still denied" "$out" "call2=126"
expect_contains "weakening files: the secrets write still denied" "$out" "call3=1"
check "weakening files: nothing reached secrets/" test ! -e secrets/k
expect_contains "on_hook_failure: the override said at file:line:col" "$out" \
	"allow.json:4:15: hookshim.on_hook_failure is locked by the managed policy ($M/managed.json): ignored"
expect_contains "floor off: said and ignored" "$out" \
	'hookshim.floor would hide calls from the managed policy'
expect_contains "writes.exclude: said and ignored" "$out" \
	'hookshim.writes.exclude would hide calls from the managed policy'
expect_contains "writes.agent_only: said and ignored" "$out" \
	'hookshim.writes.agent_only would hide calls from the managed policy'
expect_contains "failClosed false: said and ignored" "$out" \
	'"failClosed": false: on_hook_failure is locked by the managed policy'
# the control: the same policy as an ordinary -c file is weakened by
# the same files (the exclude hides secrets/ from its Write hook)
out=$(HOOKSHIM_SYSCONFDIR=$TMP/none "$HOOKSHIM" run -c "$M/managed.json" -c "$TMP/allow.json" -- bash "$AGENT" 2>&1)
expect_contains "control: not managed, the exclude does weaken it" "$out" "call3=0"
rm -f secrets/k
out=$("$HOOKSHIM" check -c "$TMP/allow.json" 2>&1)
expect_contains "writes.include only widens: the root stays in scope" "$out" "writes judged: **, src/**"

# A user hook that crashes: on_hook_failure deny is the administrator's
cat > "$TMP/crash.json" <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "kill -9 $$", "failClosed": false}]}]},
 "hookshim": {"on_hook_failure": "allow"}}
J
out=$("$HOOKSHIM" run -c "$TMP/crash.json" -- bash -c 'bash -c "echo ran > ran"; echo "exit=$?"' 2>&1)
check "a crashing user hook denies (locked on_hook_failure)" test ! -e ran
expect_contains "...saying why" "$out" "hook failed: "

# The project's own files: same
echo '{"hookshim": {"writes": {"exclude": ["secrets/**"]}}}' > .hookshim/hooks.json
"$HOOKSHIM" trust >/dev/null 2>&1
out=$("$HOOKSHIM" run -- bash -c 'echo k > secrets/p' 2>&1)
expect_contains "project exclude: the project's file loaded, its exclude said" "$out" \
	".hookshim/hooks.json:1:26: hookshim.writes.exclude would hide calls from the managed policy's hooks: ignored"
check "project exclude: the managed write deny holds" test ! -e secrets/p
expect_contains "project exclude: ...with the managed hook's reason" "$out" "managed: secrets/ is read-only"
rm -f .hookshim/hooks.json

# project_files never: a repository's own hook file never loads, trusted
# or not, --trust-project or not; no other file turns it back on
echo '{"hookshim": {"project_files": "never"}}' > "$M/managed.d/15-projects.json"
cat > .hookshim/hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "touch project-hook-ran; exit 0"}]}]}}
J
"$HOOKSHIM" trust >/dev/null 2>&1
echo '{"hookshim": {"project_files": "trusted"}}' > "$HOME/trusting.json"
mkdir -p "$HOME/.config/hookshim" && cp "$HOME/trusting.json" "$HOME/.config/hookshim/hooks.json"
out=$("$HOOKSHIM" run --trust-project -- bash -c 'bash -c "echo hi"' 2>&1)
check "project_files never: the trusted project hook did not run" test ! -e project-hook-ran
expect_contains "project_files never: said" "$out" \
	".hookshim/hooks.json: not loaded: a project's own hook files are off (project_files: never, $M/managed.d/15-projects.json)"
expect_contains "project_files never: the user's file cannot turn it back" "$out" \
	"hookshim.project_files is locked by the managed policy"
# init under it: says the project's file will not load, hints -c
out=$(cd "$TMP" && mkdir -p initproj && cd initproj && "$HOOKSHIM" init 2>&1)
expect_contains "project_files never: init says so" "$out" "keeps a project's own hook files out (project_files: never): name it with -c"
expect_contains "project_files never: init's hints name the file" "$out" "hookshim check -c .hookshim/hooks.json"
# the control: without it, the same trusted file's hook runs
rm -f "$M/managed.d/15-projects.json" "$HOME/.config/hookshim/hooks.json"
"$HOOKSHIM" run -- bash -c 'bash -c "echo hi"' >/dev/null 2>&1
check "control: without project_files never, the trusted project hook runs" test -e project-hook-ran
rm -f project-hook-ran .hookshim/hooks.json

# allowManagedHooksOnly: no other file's hooks load
cat > "$M/managed.d/20-only.json" <<'J'
{"hookshim": {"allow_managed_hooks_only": true}}
J
echo '{"hookshim": {"allow_managed_hooks_only": true}}' > "$TMP/user-only.json"
cat > "$TMP/user.json" <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "touch user-hook-ran; exit 0"}]}]}}
J
out=$("$HOOKSHIM" run -c "$TMP/user.json" -- bash -c 'bash -c "echo hi"' 2>&1)
check "allowManagedHooksOnly: the user's hook did not run" test ! -e user-hook-ran
expect_contains "allowManagedHooksOnly: said" "$out" \
	"allowManagedHooksOnly / allowManagedPermissionRulesOnly in the managed policy ($M/managed.d/20-only.json): 1 hook(s) or rule(s) of the other files not loaded"
echo '{"allowManagedHooksOnly": true}' > "$M/managed.d/20-only.json"
rm -f user-hook-ran
"$HOOKSHIM" run -c "$TMP/user.json" -- bash -c 'bash -c "echo hi"' >/dev/null 2>&1
check "allowManagedHooksOnly (Claude Code's name): the same" test ! -e user-hook-ran
rm -f "$M/managed.d/20-only.json"
out=$("$HOOKSHIM" check -c "$TMP/user.json" -c "$TMP/user-only.json" 2>&1)

expect_contains "allow_managed_hooks_only elsewhere: an error" "$out" \
	"user-only.json:1:15: hookshim.allow_managed_hooks_only means something only in a managed file (ignored)"

# check: the layer, its files and its locks
out=$("$HOOKSHIM" check -c "$TMP/user.json" 2>&1)
expect_contains "check: the managed files are read first" "$out" "read $M/managed.json  (managed)"
expect_contains "check: the layer" "$out" "managed policy: 2 file(s), loaded first"
expect_contains "check: what it locks" "$out" "locked hookshim.on_hook_failure  ($M/managed.json)"
expect_contains "check: its hooks marked" "$out" "(managed: no other file removes or weakens it)"

# test and wrap decide with it too
out=$("$HOOKSHIM" test PreToolUse --tool Bash --command 'rm -rf build' 2>&1); rc=$?
expect_eq "test: the managed deny (exit 2)" 2 "$rc"

# An invalid managed file stops the session, at its file:line:col
printf '{"hooks": {"PreToolUse": [\n  {"matcher": "Bash", "hooks": [{"type": "command", "comand": "true"}]}]}}\n' \
	> "$M/managed.d/30-bad.json"
out=$("$HOOKSHIM" run -- bash -c 'echo started > started' 2>&1); rc=$?
check "invalid managed file: run refuses to start" test "$rc" -ne 0
check "invalid managed file: nothing ran" test ! -e started
expect_contains "invalid managed file: at file:line:col" "$out" "$M/managed.d/30-bad.json:2:"
expect_contains "invalid managed file: why it stops" "$out" \
	"error(s) in the managed policy (an administrator's file is used whole or not at all)"
out=$("$HOOKSHIM" check 2>&1); rc=$?
expect_eq "invalid managed file: check fails" 1 "$rc"
expect_contains "invalid managed file: check says run would not start" "$out" "HAS ERRORS: hookshim run refuses to start"
printf '{"hooks": {' > "$M/managed.d/30-bad.json"
out=$("$HOOKSHIM" run -- bash -c 'echo started > started' 2>&1); rc=$?
check "unparsable managed file: run refuses to start" test "$rc" -ne 0
expect_contains "unparsable managed file: at file:line:col" "$out" "$M/managed.d/30-bad.json:1:"
rm -f "$M/managed.d/30-bad.json"

# A managed file others can write is nobody's policy: refused, not used
chmod 666 "$M/managed.d/10-curl.json"
out=$("$HOOKSHIM" run -- bash -c 'echo started > started' 2>&1); rc=$?
check "writable managed file: run refuses to start" test "$rc" -ne 0
expect_contains "writable managed file: why" "$out" "must be root's and writable by no one else"
chmod 644 "$M/managed.d/10-curl.json"
out=$("$HOOKSHIM" run -- bash -c 'echo started > started' 2>&1); rc=$?
expect_eq "fixed: the session starts" 0 "$rc"

# A locked mode: --guard on the command line does not weaken it
echo '{"hookshim": {"mode": "enforce"}}' > "$M/managed.d/40-mode.json"
out=$("$HOOKSHIM" run --guard --log "$TMP/mode.jsonl" -- true 2>&1)
expect_contains "locked mode: --guard said and ignored" "$out" \
	"--guard: the mode is locked by the managed policy ($M/managed.d/40-mode.json): ignored"
expect_contains "locked mode: the session ran in enforce mode" \
	"$(jq -r 'select(.event == "session_start") | .mode // empty' "$TMP/mode.jsonl")" enforce
