# What a session tells people: `hookshim log` on a session's --log, CI
# mode's summary (--ci, or CI=true), $GITHUB_STEP_SUMMARY, --junit
# (validated against tests/fixtures/junit.xsd) and --fail-on-deny.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" secrets
XSD=$HOOKSHIM_TOP/tests/fixtures/junit.xsd

cat > hooks.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && { printf 'not in secrets <&>' >&2; exit 2; }; exit 0"}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"case $(jq -r .tool_input.command) in *crash*) echo broken >&2; exit 1;; esac; exit 0"}]}]}}
J
# The agent: four tool calls, two of them denied, one hook broken (exit 1:
# the dialects' non-blocking error, allowed even in CI mode; a crashed
# hook denies there: tests/security/hook_failure.sh).
cat > agent.sh <<'S'
bash -c 'rm -rf victim'
bash -c 'echo P > secrets/k'
bash -c 'echo ok > fine.txt'
bash -c 'echo crash test'
exit 0
S
touch victim

run_ci() { # extra args...
	"$HOOKSHIM" run -c hooks.json --log log.jsonl "$@" -- bash agent.sh
}

# ---- CI mode by CI=true: summary on stderr, markdown, junit --------------
rm -f log.jsonl j.xml md.txt
CI=true GITHUB_STEP_SUMMARY=$PWD/md.txt run_ci --junit j.xml >out.txt 2>err.txt
rc=$?
expect_eq "CI mode: the agent's exit status by default" 0 "$rc"
err=$(cat err.txt)
expect_contains "CI=true: summary counts (4 commands, 2 writes)" "$err" "6 tool events, 4 allowed, 2 denied"
expect_contains "CI=true: summary counts denials" "$err" "2 denied"
expect_contains "summary: the command denial and its reason" "$err" "rm -rf victim  — no rm -rf here"
expect_contains "summary: the write denial and its reason" "$err" "secrets/k  — not in secrets <&>"
expect_contains "summary: the broken hook" "$err" "hook failed"
check "denied rm did not run" test -e victim
check "denied write left nothing" test ! -e secrets/k
check "allowed write happened" test -s fine.txt
md=$(cat md.txt 2>/dev/null)
expect_contains "GITHUB_STEP_SUMMARY: heading" "$md" "### hookshim"
expect_contains "GITHUB_STEP_SUMMARY: the denial in a table row" "$md" "| denied | Bash | \`rm -rf victim\` | no rm -rf here |"
if xmllint --noout --schema "$XSD" j.xml 2>xsd.txt; then
	pass "junit: validates against the JUnit schema"
else
	fail "junit: validates against the JUnit schema"; note "$(cat xsd.txt)"
fi
ncase=$(xmllint --xpath 'count(//testcase)' j.xml 2>/dev/null)
nfail=$(xmllint --xpath 'count(//testcase/failure)' j.xml 2>/dev/null)
nerr=$(xmllint --xpath 'count(//testcase/error)' j.xml 2>/dev/null)
expect_eq "junit: one testcase per event that ran a hook" 6 "$ncase"
expect_eq "junit: each denial a failed testcase" 2 "$nfail"
expect_eq "junit: the broken hook an error" 1 "$nerr"
msg=$(xmllint --xpath 'string(//testcase[failure][1]/failure/@message)' j.xml 2>/dev/null)
expect_eq "junit: the failure carries the hook's reason" "no rm -rf here" "$msg"
msg=$(xmllint --xpath 'string(//testcase[failure][2]/failure/@message)' j.xml 2>/dev/null)
expect_eq "junit: markup in a reason survives escaping" "not in secrets <&>" "$msg"

# ---- GitHub Actions: annotations and a step summary that says who decided --
expect_contains "step summary: names the policy files" "$md" "Policy: \`hooks.json\`"
expect_contains "step summary: the hook that decided, its file and its exit status" "$md" \
	"| denied | Bash | \`rm -rf victim\` | no rm -rf here | inline hook (hooks.json): exit 2 |"
gh() { "$HOOKSHIM" run -c hooks.json --ci "$@" -- bash agent.sh 2>/dev/null; }
out=$(GITHUB_ACTIONS=true gh)
expect_contains "GITHUB_ACTIONS: a denial is an ::error annotation with file and title" "$out" \
	"::error file=hooks.json,title=hookshim%3A Bash denied::rm -rf victim — no rm -rf here [inline hook (hooks.json): exit 2]"
expect_contains "GITHUB_ACTIONS: the write denial too, its reason escaped" "$out" \
	"::error file=hooks.json,title=hookshim%3A Write denied::"
expect_contains "GITHUB_ACTIONS: the broken hook (exit 1) is a ::warning" "$out" \
	"::warning file=hooks.json,title=hookshim%3A Bash hook failed::echo crash test [inline hook (hooks.json): hook failed]"
expect_eq "GITHUB_ACTIONS: one workflow command per denial and failure" 3 \
	"$(grep -c '^::' <<<"$out")"
out=$(gh)
expect_not_contains "not on GitHub Actions: no workflow commands" "$out" "::error"
# a reason of two lines with a '%' stays one workflow command
cat > gh.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"printf 'first 100%%\n::error::forged' >&2; exit 2"}]}]}}
J
out=$(GITHUB_ACTIONS=true "$HOOKSHIM" run -c gh.json --ci -- bash -c 'true' 2>/dev/null)
expect_contains "GITHUB_ACTIONS: a reason's line break and % are escaped" "$out" \
	"::error file=gh.json,title=hookshim%3A Bash denied::true — first 100%25%0A::error::forged"
expect_eq "GITHUB_ACTIONS: a reason cannot forge a second command" 1 "$(grep -c '^::' <<<"$out")"

# ---- --fail-on-deny; --no-ci; no CI: no summary ---------------------------
run_ci --ci --fail-on-deny >/dev/null 2>err.txt
expect_eq "--fail-on-deny: a successful agent with denials exits 1" 1 "$?"
expect_contains "--fail-on-deny: says why" "$(cat err.txt)" "2 calls denied (--fail-on-deny)"
CI=true run_ci --no-ci >/dev/null 2>err.txt
expect_not_contains "--no-ci: no summary under CI=true" "$(cat err.txt)" "tool events"
run_ci >/dev/null 2>err.txt
expect_not_contains "outside CI: no summary" "$(cat err.txt)" "tool events"

# ---- hookshim log ---------------------------------------------------------
out=$("$HOOKSHIM" log log.jsonl)
expect_eq "log: exit 0" 0 "$?"
expect_contains "log: a command denial, its reason and hook" "$out" "Bash       DENY  rm -rf victim  — no rm -rf here  [inline hook exit 2"
expect_contains "log: the allowed write" "$out" "Write      allow create $PWD/fine.txt"
expect_contains "log: the broken hook" "$out" "inline hook exit 1"
n=$("$HOOKSHIM" log log.jsonl --denied | wc -l)
# four sessions wrote to this log (CI, --fail-on-deny, --no-ci, plain):
expect_eq "log --denied: only the denials (2 per session, 4 sessions)" 8 "$n"
out=$("$HOOKSHIM" log log.jsonl --denied --tool write)
expect_not_contains "log --tool Write: no Bash lines" "$out" "Bash"
expect_contains "log --tool Write: the write denial" "$out" "secrets/k"
expect_eq "log --since the future: nothing" "" "$("$HOOKSHIM" log log.jsonl --since 2999-01-01)"
n=$("$HOOKSHIM" log log.jsonl --since 1h | wc -l)
expect_eq "log --since 1h: everything" "$(wc -l <log.jsonl)" "$n"
"$HOOKSHIM" log log.jsonl --json --denied >j.txt
check "log --json: lines pass through unchanged" grep -qxF "$(grep -m1 '"decision":"deny"' log.jsonl)" j.txt
expect_eq "log --json: every line parses" 8 "$(jq -c . j.txt | wc -l)"
out=$("$HOOKSHIM" log log.jsonl --summary)
expect_contains "log --summary: the counts of all sessions" "$out" "24 tool events, 16 allowed, 8 denied"
"$HOOKSHIM" log log.jsonl --junit j2.xml >/dev/null
check "log --junit: validates" xmllint --noout --schema "$XSD" j2.xml
expect_eq "log --junit: the same failures as the sessions'" 8 "$(xmllint --xpath 'count(//failure)' j2.xml)"

# A torn or foreign line is named and skipped, the rest kept.
{ head -3 log.jsonl; echo '{"ts": "torn'; tail -2 log.jsonl; } >torn.jsonl
"$HOOKSHIM" log torn.jsonl >out.txt 2>err.txt
expect_eq "log: a bad line is not fatal" 0 "$?"
expect_contains "log: the bad line by number" "$(cat err.txt)" "torn.jsonl:4: not a log record"
expect_eq "log: the other lines kept" 5 "$(wc -l <out.txt)"
# A file name with a newline cannot forge a line of the timeline.
printf '%s\n' '{"ts":"2026-12-02T00:00:00.000Z","event":"pre","op":"write","path":"/r/a\n01:00:00.000  pre  Bash  allow forged","decision":"deny","reason":"x\ny"}' >nl.jsonl
expect_eq "log: newlines in paths and reasons stay on one line" 1 "$("$HOOKSHIM" log nl.jsonl | wc -l)"
"$HOOKSHIM" log missing.jsonl 2>err.txt
expect_eq "log: a missing file fails" 1 "$?"
expect_contains "log: says which file" "$(cat err.txt)" "missing.jsonl"

# ---- who decided, as reports name it (issue 26, item 5) ---------------------
# The script a hook runs names it, however it is quoted or started; a JSON
# deny is shown as one, not as "exit 0".
mkdir -p .claude/hooks
printf '#!/bin/sh\ngrep -q one && { echo "guarded" >&2; exit 2; }; exit 0\n' > .claude/hooks/guard.sh
printf '#!/bin/sh\necho "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"deny\\",\\"permissionDecisionReason\\":\\"by json\\"}}"\n' > .claude/hooks/json.sh
chmod +x .claude/hooks/guard.sh .claude/hooks/json.sh
cat > who.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"bash .claude/hooks/json.sh"}]}]}}
J
printf '%s\n' "bash -c 'echo one'" "bash -c 'echo x > w.txt'" > who.sh
"$HOOKSHIM" run -c who.json --log who.jsonl -- bash who.sh >/dev/null 2>&1
out=$("$HOOKSHIM" log who.jsonl)
expect_contains "log: a quoted \$CLAUDE_PROJECT_DIR script is named by its file" "$out" "guard.sh exit 2"
expect_contains "log: an interpreter's script is named by its file, a JSON deny as such" "$out" "json.sh JSON deny"
