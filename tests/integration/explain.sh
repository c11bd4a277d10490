# The agent's own shells are logged as such, and `hookshim explain` reads a
# recorded session back: a fake agent that runs Claude Code's start-up and
# IDE-probe shells and one model command in its wrapper (issue 14).
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"

cat > hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"jq -r .tool_input.command >> seen.txt; exit 0"}]}]}}
J
snap=$HOME/.claude/shell-snapshots/snapshot-bash-1-abc.sh
mkdir -p "${snap%/*}"; : > "$snap"
cat > agent.sh <<A
/bin/bash -c env >/dev/null
/bin/bash -c -l 'SNAPSHOT_FILE=$snap
true'
/bin/sh -c 'ps aux | grep -E "code|cursor|windsurf|idea|pycharm" | grep -v grep' >/dev/null
/bin/bash -c -l "source $snap 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'echo '\"'\"'it'\"'\"'\"'\"'\"'\"'\"'\"'s'\"'\"' && true' < /dev/null && pwd -P >| $TMP/claude-1a2b-cwd"
A
# an agent's own shells count only when that agent starts them: the fake
# agent runs as `claude` (docs/agents.md)
ln -sf "$(command -v bash)" claude
hs run -c hooks.json --log s.log -- ./claude agent.sh >/dev/null 2>&1
expect_eq "the hook saw only the model's command, once" "echo 'it'\"'\"'s' && true" "$(cat seen.txt)"
expect_eq "three shells logged as the agent's own" 3 \
	"$(jq -r 'select(.decision == "agent_internal") | .reason' s.log | wc -l)"
expect_eq "the tool call's wrapper is in the log" "claude-code eval-chain" \
	"$(jq -r 'select(.wrapper) | "\(.wrapper.agent) \(.wrapper.shape)"' s.log)"
# enforce mode: the shim asks about each exec and the floor sees it too;
# an own shell is still decided and logged once (it was twice)
if hs run --enforce -c hooks.json -- true 2>/dev/null; then
	rm -f seen.txt
	hs run --enforce -c hooks.json --log e.log -- ./claude agent.sh >/dev/null 2>&1
	expect_eq "enforce: the hook saw only the model's command, once" "echo 'it'\"'\"'s' && true" "$(cat seen.txt)"
	expect_eq "enforce: three shells logged as the agent's own, each once" 3 \
		"$(jq -r 'select(.decision == "agent_internal") | .reason' e.log | wc -l)"
else
	skip "explain: no syscall floor here: enforce mode's own shells not run"
fi
out=$(hs explain s.log); rc=$?
expect_eq "explain exits 0" 0 "$rc"
expect_contains "explain names the IDE probe" "$out" "not a tool call: Claude Code's IDE probe"
expect_contains "explain names the snapshot shell" "$out" "not a tool call: Claude Code's shell-snapshot login shell"
expect_contains "explain names the env capture" "$out" "not a tool call: Claude Code's environment capture"
expect_contains "explain says where the text came from" "$out" "out of claude-code's wrapper (eval-chain)"
# an agent no profile names: explain says what that costs and what to do
printf '%s\n' '{"ts":"x","event":"pre","op":"exec","pid":1,"argv":["/bin/bash","-c","ls"],"command":"ls","decision":"allow","hooks":[]}' > noprofile.log
expect_contains "explain: without a profile, the script whole, and learn" \
	"$(hs explain noprofile.log)" "hookshim learn\` drafts a profile"
expect_contains "explain shows the text the hook received" "$out" "the hook received: echo 'it'\"'\"'s' && true"
hs explain 2>/dev/null; expect_eq "explain without a log is a usage error" 64 "$?"

# Issue 26 item 5: explain names the mechanism that judged each call (the
# log's "via"): hookshim run's own command, a PATH wrapper (it used to say
# "every exec counts"), the shim in the process, the syscall floor.
hs wrap "$TMP/wr" git >/dev/null 2>&1
PATH=$TMP/wr:$PATH hs run -c hooks.json --log via.log -- busybox sh -c 'git --version; true' >/dev/null 2>&1
out=$(hs explain via.log)
expect_contains "explain: a wrapped tool is one" "$out" "a tool call: a wrapped tool (hookshim wrap) ran"
expect_contains "explain: ...judged by the wrapper" "$out" "judged by a PATH wrapper (hookshim wrap)"
expect_not_contains "explain: ...not 'every exec counts'" "$out" "every exec counts"
hs run -c hooks.json --log via2.log -- bash -c 'true' >/dev/null 2>&1
expect_contains "explain: hookshim run's own command" "$(hs explain via2.log)" "judged by hookshim run, before starting it"
hs run -c hooks.json --log via3.log -- busybox sh -c '/bin/bash -c "echo hi"; true' >/dev/null 2>&1
expect_contains "explain: the shim in the process" "$(hs explain via3.log)" "judged by the shim, in the process that made the call"
RAW=$HOOKSHIM_PROBES/exec_static_rawexec
if [ -x "$RAW" ] && hs run --enforce -c hooks.json -- true 2>/dev/null; then
	hs run -c hooks.json --log via4.log -- "$RAW" /bin/busybox sh -c 'echo x' >/dev/null 2>&1
	expect_contains "explain: the syscall floor" "$(hs explain via4.log)" "judged by the syscall floor"
	expect_eq "the log says who asked" "floor" "$(jq -r 'select(.event == "pre") | .via' via4.log)"
else
	skip "explain via the floor: no floor or no static probe"
fi
