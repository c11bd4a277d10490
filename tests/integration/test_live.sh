# hookshim test decides as the live path does (issue 17 item 7): it
# builds the requests the shim would send and decides them with
# hs_session_decide (cli/test_call.c). Per dialect: a content scanner has its writes staged live (it reads
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
expect_contains "content false: test says why content is left out" "$(cat err.txt)" "not supplied live: tool_input.content"
# A post event carries the file live (the hook asked for it): test keeps it.
echo '{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","content":true,"command":"jq -r .tool_input.content > '$TMP'/post.txt"}]}]}}' > post.json
"$HOOKSHIM" test -c post.json PostToolUse --tool Write --input '{"file_path":"x","content":"AKIA1"}' >/dev/null 2>err.txt
expect_eq "post: content kept" AKIA1 "$(cat post.txt)"
expect_not_contains "post: no warning" "$(cat err.txt)" "not supplied live"

# ---- One builder: the payload a hook gets from `hookshim test` is the
# payload it gets live, byte for byte once jq has removed what names the
# session and the asking process: session_id (random per session),
# transcript_path (each session's own file), tool_use_id (one per call)
# and tool_input.pid (the process that asked: `hookshim test` itself, or
# the agent's shell). cwd is not removed: both run in $TMP. Live is an
# agent-role process (python3 under `hookshim run`) running bash -c X,
# writing, editing and reading for real, and `hookshim run -- bash -c X`.
FX=$HOOKSHIM_TOP/tests/fixtures/seeds
export LOG=$TMP/payloads.jsonl
norm() {
	tail -n 1 "$LOG" | jq -c 'del(.session_id, .transcript_path, .tool_use_id)
		| if (.tool_input|type) == "object" then del(.tool_input.pid) else . end
		| if (.input|type) == "object" then del(.input.pid) else . end
		| if (.tool|type) == "object" then del(.tool.input.pid) else . end'
}
cat > claude-log.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit|Read","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]}]}}
J
cat > memcode-log.json <<'J'
{"hooks":{"pre_tool_use":[{"matcher":"bash|edit_file|read_file","command":"cat >> \"$LOG\""}]}}
J
# (mnemoai matchers are globs: one entry per tool)
cat > mnemoai-log.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"execute_bash","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]},
 {"matcher":"fs_write","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]},
 {"matcher":"fs_read","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]}]}}
J
cat > memoh-log.json <<'J'
{"version":1,"hooks":[{"name":"log","event":"PreToolUse","matcher":"^(exec|write_file|read_file)$","actions":[{"type":"command","command":"cat >> \"$LOG\""}]}]}
J
seed() { case $1 in claude) echo claude-equivalent;; memcode) echo memcode-force-push;;
	mnemoai) echo mnemoai-secrets;; memoh) echo memoh-actions;; esac; }
agent() { "$HOOKSHIM" run --dialect "$d" -c "$FX/$(seed "$d").json" -c "$d-log.json" -- python3 -c "$1" 2>/dev/null; }
tst() { "$HOOKSHIM" test --dialect "$d" -c "$FX/$(seed "$d").json" -c "$d-log.json" PreToolUse "$@"; }
for d in claude memcode mnemoai memoh; do
	# Bash: the test's payload, the shim's (python3 runs bash -c), run's
	: > "$LOG"; tst --tool Bash --command 'echo hi there' >/dev/null 2>&1; t=$(norm)
	: > "$LOG"; agent 'import subprocess; subprocess.run(["bash","-c","echo hi there"])' >/dev/null; l=$(norm)
	expect_eq "$d Bash: test's payload is the agent's exec's" "$l" "$t"
	check "$d Bash: a payload was logged" test -n "$l"
	: > "$LOG"; "$HOOKSHIM" run --dialect "$d" -c "$FX/$(seed "$d").json" -c "$d-log.json" -- bash -c 'echo hi there' >/dev/null 2>&1
	expect_eq "$d Bash: and hookshim run -- bash -c's" "$l" "$(norm)"
	check "$d Bash: the payload names the command" grep -q '"echo hi there"' <<<"$t"
	# Write: a new file
	rm -f "new-$d.txt"
	: > "$LOG"; tst --tool Write --file "new-$d.txt" >/dev/null 2>&1; t=$(norm)
	: > "$LOG"; agent "open('new-$d.txt','w').write('data')"; l=$(norm)
	expect_eq "$d Write: test's payload is the agent's write's" "$l" "$t"
	check "$d Write: a payload was logged" test -n "$l"
	# Edit: an existing non-empty file; the strings live cannot carry are said
	: > "$LOG"; tst --tool Edit --file "new-$d.txt" --input '{"old_string":"data","new_string":"more"}' >/dev/null 2>err.txt; t=$(norm)
	: > "$LOG"; agent "open('new-$d.txt','w').write('more')"; l=$(norm)
	expect_eq "$d Edit: test's payload is the agent's edit's" "$l" "$t"
	check "$d Edit: a payload was logged, as an edit" grep -q '"edit"' <<<"$l"
	expect_contains "$d Edit: old_string is not supplied live" "$(cat err.txt)" "not supplied live: tool_input.old_string"
	# Read: the agent's own read (the log hook names the read tool)
	: > "$LOG"; tst --tool Read --file "new-$d.txt" >/dev/null 2>&1; t=$(norm)
	: > "$LOG"; agent "open('new-$d.txt').read()"; l=$(norm)
	expect_eq "$d Read: test's payload is the agent's read's" "$l" "$t"
	check "$d Read: a payload was logged" test -n "$l"
done

# Post events: the command's output and the written file, as __exec and
# the shim report them (duration_ms removed too: a real command takes
# time, a test's takes none).
normp() { norm | jq -c 'if (.tool_response|type) == "object" then del(.tool_response.duration_ms) else . end'; }
sed 's/PreToolUse/PostToolUse/' claude-log.json > claude-post.json
sed 's/pre_tool_use/post_tool_use/' memcode-log.json > memcode-post.json
sed 's/PreToolUse/PostToolUse/' mnemoai-log.json > mnemoai-post.json
sed 's/PreToolUse/PostToolUse/' memoh-log.json > memoh-post.json
for d in claude memcode mnemoai memoh; do
	tp() { "$HOOKSHIM" test --dialect "$d" -c "$d-post.json" PostToolUse "$@"; }
	ap() { "$HOOKSHIM" run --dialect "$d" -c "$d-post.json" -- python3 -c "$1" >/dev/null 2>&1; }
	: > "$LOG"; tp --tool Bash --command 'echo out' --output 'out
' >/dev/null 2>&1; t=$(normp)
	: > "$LOG"; ap 'import subprocess; subprocess.run(["bash","-c","echo out"])'; l=$(normp)
	expect_eq "$d post Bash: test's payload is live's" "$l" "$t"
	check "$d post Bash: the output is in it" grep -q 'out\\n' <<<"$l"
	rm -f "post-$d.txt"
	: > "$LOG"; ap "open('post-$d.txt','w').write('x')"; l=$(normp)
	: > "$LOG"; tp --tool Write --file "post-$d.txt" --input '{"operation":"create"}' >/dev/null 2>&1; t=$(normp)
	expect_eq "$d post Write: test's payload is live's" "$l" "$t"
	check "$d post Write: a payload was logged" test -n "$l"
done

# A post hook that asks for the content: live reads the file as written,
# test carries --content in the request (wire CONTENT); both capped at
# 64 KiB and listed under _truncated.
cat > postc.json <<'J'
{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","content":true,"command":"cat >> \"$LOG\""}]}]}}
J
big=$(head -c 70000 /dev/zero | tr '\0' a); rm -f big.txt
: > "$LOG"; "$HOOKSHIM" run -c postc.json -- python3 -c 'open("big.txt","w").write("a"*70000)' 2>/dev/null; l=$(normp)
: > "$LOG"; "$HOOKSHIM" test -c postc.json PostToolUse --tool Write --file big.txt --content "$big" --input '{"operation":"create"}' >/dev/null 2>&1; t=$(normp)
expect_eq "post content: test's payload is live's" "$l" "$t"
expect_eq "post content: capped at 64 KiB, listed" "65536 [\"content\"]" "$(jq -c '.tool_input.content|length' <<<"$l") $(jq -c .tool_input._truncated <<<"$l")"

# A staged write: a content hook gets the content from the staged file,
# in test (a memfd) as live (the agent's O_TMPFILE).
cat > staged-log.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","content":true,"command":"cat >> \"$LOG\""}]}]}}
J
rm -f staged.txt
: > "$LOG"; "$HOOKSHIM" test -c staged-log.json PreToolUse --tool Write --file staged.txt --content 'line one
line two' >/dev/null 2>&1; t=$(norm)
: > "$LOG"; "$HOOKSHIM" run -c staged-log.json -- python3 -c 'open("staged.txt","w").write("line one\nline two")' 2>/dev/null; l=$(norm)
expect_eq "staged Write: test's payload (with content) is live's" "$l" "$t"
check "staged Write: a payload was logged" test -n "$l"
check "staged Write: the content is in it" grep -q 'line one\\nline two' <<<"$t"

# Verdicts: deny, allow and ask hooks say the same in test and live.
# (live: 126 is a denied command, a python3 error a denied write)
verdict_live() { # CMD... -> deny|allow
	"$@" >/dev/null 2>&1 && echo allow || echo deny
}
verdict_test() { "$@" >/dev/null 2>&1; case $? in 0) echo allow;; 2) echo deny;; 3) echo ask;; *) echo "error $?";; esac; }
mkdir -p secrets
for d in claude memcode; do
	live=$(verdict_live "$HOOKSHIM" run --dialect $d -c "$FX/$(seed $d).json" -- bash -c 'git push --force origin x; exit 0')
	tv=$(verdict_test "$HOOKSHIM" test --dialect $d -c "$FX/$(seed $d).json" PreToolUse --tool Bash --command 'git push --force origin x; exit 0')
	expect_eq "$d: a force push: test and live deny" "deny deny" "$tv $live"
	live=$(verdict_live "$HOOKSHIM" run --dialect $d -c "$FX/$(seed $d).json" -- bash -c 'git --version')
	tv=$(verdict_test "$HOOKSHIM" test --dialect $d -c "$FX/$(seed $d).json" PreToolUse --tool Bash --command 'git --version')
	expect_eq "$d: git --version: test and live allow" "allow allow" "$tv $live"
done
for d in claude mnemoai; do
	tool=$([ $d = claude ] && echo Write || echo fs_write)
	rm -f secrets/k
	live=$(verdict_live "$HOOKSHIM" run --dialect $d -c "$FX/$(seed $d).json" -- python3 -c 'open("secrets/k","w").write("x")')
	tv=$(verdict_test "$HOOKSHIM" test --dialect $d -c "$FX/$(seed $d).json" PreToolUse --tool $tool --file secrets/k)
	expect_eq "$d: a write under secrets/: test and live deny" "deny deny" "$tv $live"
	check "$d: nothing written" test ! -e secrets/k
	live=$(verdict_live "$HOOKSHIM" run --dialect $d -c "$FX/$(seed $d).json" -- python3 -c 'open("ok.txt","w").write("x")')
	tv=$(verdict_test "$HOOKSHIM" test --dialect $d -c "$FX/$(seed $d).json" PreToolUse --tool $tool --file ok.txt)
	expect_eq "$d: a write elsewhere: test and live allow" "allow allow" "$tv $live"
done
# memoh's seed adds context and allows
live=$(verdict_live "$HOOKSHIM" run -c "$FX/memoh-actions.json" -- bash -c 'true')
tv=$(verdict_test "$HOOKSHIM" test -c "$FX/memoh-actions.json" PreToolUse --tool exec --command true)
expect_eq "memoh: context hook: test and live allow" "allow allow" "$tv $live"
# An ask: test says ask (3); live, with nobody to ask, ask_default decides
cat > ask.json <<'J'
{"hookshim":{"ask_default":"deny"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}'"}]}]}}
J
live=$(verdict_live "$HOOKSHIM" run -c ask.json -- bash -c 'true' </dev/null)
tv=$(verdict_test "$HOOKSHIM" test -c ask.json PreToolUse --tool Bash --command true)
expect_eq "ask: test says ask, live (no terminal, ask_default deny) denies" "ask deny" "$tv $live"
sed -i 's/"ask_default":"deny"/"ask_default":"allow"/' ask.json
live=$(verdict_live "$HOOKSHIM" run -c ask.json -- bash -c 'true' </dev/null)
expect_eq "ask: with ask_default allow live allows" "allow" "$live"

# What live sends no request for runs no hook in test either, and says why.
out=$("$HOOKSHIM" test -c claude-log.json PreToolUse --tool Bash --command env 2>&1)
expect_contains "the agent's own shell (bash -c env): no request live" "$out" "no request live: an agent's own shell"
# the agent's own Write is an event anywhere (writes.agent_anywhere) but
# in its own places, such as the temp directories
: > "$LOG"; "$HOOKSHIM" test -c claude-log.json PreToolUse --tool Write --file /tmp/hookshim-test-live-x >/dev/null 2>&1
check "a write to the agent's own places (/tmp): no hook in test, as live" test ! -s "$LOG"
: > "$LOG"; "$HOOKSHIM" test -c claude-log.json PreToolUse --tool Write --file /etc/hostname-x >/dev/null 2>&1
check "the agent's write outside the root (/etc): its hook runs in test, as live" test -s "$LOG"
echo '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]}]}}' > star.json
: > "$LOG"; out=$("$HOOKSHIM" test -c star.json PreToolUse --tool Read --file new-claude.txt 2>&1)
check "a catch-all hook gets no Read in test, as live" test ! -s "$LOG"
expect_contains "and test says why" "$out" "no pre hook names the read tool"
# check and test say the same about bad input
echo '{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[{"type":"command","command":"true"}]}]}}' > bad.json
c=$("$HOOKSHIM" check -c bad.json 2>&1 | grep 'error:' | head -1)
t=$("$HOOKSHIM" test -c bad.json PreToolUse --tool Bash --command true 2>&1 >/dev/null | grep 'error:' | head -1)
expect_eq "check and test: the same diagnostic for a bad file" "$c" "$t"
check "the diagnostic is there" test -n "$c"
# A read outside the scope (writes.exclude applies to reads too): no
# event live, none in test.
mkdir -p ex && echo s > ex/f
echo '{"hookshim":{"writes":{"exclude":["ex"]}},"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"cat >> \"$LOG\""}]}]}}' > rx.json
: > "$LOG"; "$HOOKSHIM" run -c rx.json -- python3 -c 'open("ex/f").read()' 2>/dev/null
check "an excluded read: no hook live" test ! -s "$LOG"
out=$("$HOOKSHIM" test -c rx.json PreToolUse --tool Read --file ex/f 2>&1)
check "an excluded read: no hook in test" test ! -s "$LOG"
expect_contains "an excluded read: test says why" "$out" "outside the session's scope"
: > "$LOG"; "$HOOKSHIM" test -c rx.json PreToolUse --tool Read --file new-claude.txt >/dev/null 2>&1
check "a read in scope still fires in test" test -s "$LOG"
# transcript_path names a real transcript in test as live, holding the
# call (a transcript reader works the same under both), gone afterwards.
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"p=$(jq -r .transcript_path); echo \"$p\" > tp.txt; grep -c tool_use \"$p\" > tp.count"}]}]}}' > tr.json
"$HOOKSHIM" test -c tr.json PreToolUse --tool Bash --command 'echo t' >/dev/null 2>&1
expect_eq "test: the hook read its call in the transcript" 1 "$(cat tp.count)"
check "test: the transcript is removed after" test ! -e "$(cat tp.txt)"
"$HOOKSHIM" run -c tr.json -- bash -c 'echo t' >/dev/null 2>&1
expect_eq "live: the same" 1 "$(cat tp.count)"
