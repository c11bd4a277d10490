# Claude Code's settings "env" (issue 17 item 3): hooks of Claude-dialect
# files and, under `hookshim run`, the agent get it, over the shell's
# values; `check` lists it, secrets masked. A hook reading its level from
# "env" blocks a real force push it allows at its default level.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
unset HOOK_SAFETY_LEVEL

# A public-style safety hook: the level comes from the environment, as its
# README says to set it in settings.json "env".
cat > safety.py <<'PY'
import json, os, re, sys
level = os.environ.get("HOOK_SAFETY_LEVEL", "standard")
cmd = json.load(sys.stdin).get("tool_input", {}).get("command", "")
force = re.search(r"\bgit\s+push\b.*(\s--force\b|\s-f\b)", cmd)
if force and (level == "strict" or re.search(r"\b(main|master)\b", cmd)):
    print(f"Blocked at level {level}: force push", file=sys.stderr)
    sys.exit(2)
PY
hooks='"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"python3 '$TMP'/safety.py"}]}]}'
echo "{$hooks}" > plain.json
echo "{\"env\":{\"HOOK_SAFETY_LEVEL\":\"strict\",\"DEPLOY_TOKEN\":\"tok-123456\"},$hooks}" > strict.json

git init -q --bare remote.git
git clone -q remote.git work 2>/dev/null
cd work || exit 1
echo 1 > f && git add f && git commit -qm one && git push -q origin HEAD:feature 2>/dev/null
echo 2 > f && git commit -qam two --amend
local_head=$(git rev-parse HEAD)
remote_head() { git -C "$TMP/remote.git" rev-parse feature; }
old_remote=$(remote_head)

hs run -c ../strict.json -- bash -c 'git push -q --force origin HEAD:feature' 2>../err.txt
rc=$?
check "strict from env: the force push is denied" test "$rc" != 0
expect_eq "strict from env: the remote is unchanged" "$old_remote" "$(remote_head)"
expect_contains "the hook's reason names its level" "$(cat ../err.txt)" "Blocked at level strict"

HOOK_SAFETY_LEVEL=lenient hs run -c ../strict.json -- bash -c 'echo "$HOOK_SAFETY_LEVEL"' >../agent.txt 2>/dev/null
expect_eq "the agent gets env, over the shell's value" strict "$(cat ../agent.txt)"

hs run -c ../plain.json -- bash -c 'git push -q --force origin HEAD:feature' 2>../err.txt
expect_eq "default level: the same force push goes through" "$local_head" "$(remote_head)"
cd "$TMP" || exit 1

# hookshim test sees the same environment as the live hook.
hs test -c strict.json PreToolUse --tool Bash \
	--input '{"command":"git push --force origin HEAD:feature"}' >/dev/null 2>err.txt
expect_eq "hookshim test: denied with env" 2 "$?"
hs test -c plain.json PreToolUse --tool Bash \
	--input '{"command":"git push --force origin HEAD:feature"}' >/dev/null 2>&1
expect_eq "hookshim test: allowed without" 0 "$?"

# Later files set a name again (user, project, local): the last one wins.
echo '{"env":{"HOOK_SAFETY_LEVEL":"standard"}}' > local.json
hs test -c strict.json -c local.json PreToolUse --tool Bash \
	--input '{"command":"git push --force origin HEAD:feature"}' >/dev/null 2>&1
expect_eq "a later file's env replaces an earlier one's" 0 "$?"

# Other dialects' hooks do not get it (their files did not ask for it).
echo "{\"hooks\":{\"pre_tool_use\":[{\"matcher\":\"bash\",\"command\":\"echo \${HOOK_SAFETY_LEVEL:-unset} > $TMP/mc.txt\"}]}}" > mc.json
hs test -c strict.json --dialect memcode -c mc.json PreToolUse --tool Bash --input '{"command":"true"}' >/dev/null 2>&1
expect_eq "memcode hooks: no Claude settings env" unset "$(cat mc.txt 2>/dev/null)"

# check: names and values, secrets masked, where each came from.
out=$(hs check -c strict.json 2>&1)
expect_contains "check lists env" "$out" "HOOK_SAFETY_LEVEL=strict"
expect_contains "check masks a token" "$out" "DEPLOY_TOKEN=****"
expect_not_contains "check never prints the token" "$out" "tok-123456"
expect_contains "check names the file" "$out" "from strict.json"

# A value that is no string: the same located error from check and run.
echo '{"env":{"OK":1,"BAD":["x"]}}' > bad.json
c=$(hs check -c bad.json 2>&1 | grep 'env.BAD')
r=$(hs run -c bad.json -- true 2>&1 | grep 'env.BAD')
expect_contains "check reports a non-string value" "$c" "bad.json:1:16: env.BAD must be a string"
expect_eq "run says the same" "$c" "$r"
out=$(hs run -c bad.json -- sh -c 'echo "$OK"' 2>/dev/null)
expect_eq "numbers become strings, as Claude Code coerces them" 1 "$out"
