# One diagnosis, two places (issue 16): for every fixture of the broken
# corpus, `check` and `run` print the same diagnostic lines, `check` exits
# 1, and each message sits at the line:column tests/fixtures/broken/EXPECT
# names. Then what `run` does with a broken file: the rest still loads,
# unless strict_config (or CI mode) refuses to start.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
CORPUS=$HOOKSHIM_TOP/tests/fixtures/broken
cp "$CORPUS"/*.json .
diag_lines() { grep -E '^hookshim: (error|warning): ' || true; }

for f in *.json; do
	d=${f%%-*}
	out=$(hs check --root "$TMP" --dialect "$d" -c "$f" 2>&1); rc=$?
	expect_eq "$f: check exits 1" 1 "$rc"
	want=$(grep -v '^#' "$CORPUS/EXPECT" | grep "^$f:")
	got=$(diag_lines <<<"$out" |
		sed -E 's/^hookshim: (error|warning): ([^ ]+:[0-9]+:[0-9]+): .*/\2 \1/')
	expect_eq "$f: every message at its line:col and level" "$want" "$got"
	run_err=$(hs run --root "$TMP" --dialect "$d" -c "$f" -- true 2>&1 >/dev/null)
	rrc=$?
	expect_eq "$f: run prints exactly check's diagnostics" \
		"$(diag_lines <<<"$out")" "$(diag_lines <<<"$run_err")"
	expect_eq "$f: run starts anyway (only this file is lost)" 0 "$rrc"
done
# Nothing in EXPECT without a fixture (a renamed file would pass silently).
for f in $(grep -v '^#' "$CORPUS/EXPECT" | cut -d: -f1 | sort -u); do
	check "EXPECT names an existing fixture: $f" test -f "$f"
done

out=$(hs check --dialect claude -c claude-hooks.json)
expect_contains "check ends with the counts" "$out" "18 errors, 1 warning"
out=$(hs check --dialect mnemoai -c mnemoai-entries.json)
expect_contains "a capped timeout is a warning" "$out" "7 errors, 1 warning"

# --- a malformed file costs only that file ---------------------------------
cat > good.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
  {"type":"command","command":"echo 'no bash today' >&2; exit 2"}]}]}}
J
out=$(hs check -c claude-truncated.json -c good.json 2>&1); rc=$?
expect_eq "check: one malformed file among two still fails" 1 "$rc"
expect_contains "check: the good file's hook is listed" "$out" "from good.json"
err=$(hs run -c claude-truncated.json -c good.json -- bash -c 'echo ran' 2>&1 >out.txt)
rc=$?
expect_eq "run: the good file's hook still denies" 126 "$rc"
expect_contains "run: with its reason" "$err" "no bash today"
expect_eq "run: the denied command did not run" "" "$(cat out.txt)"
expect_eq "run: same diagnostics as check" "$(diag_lines <<<"$out")" "$(diag_lines <<<"$err")"
expect_contains "run: says it goes on without what is broken" "$err" \
	"1 error, 0 warnings in the config; starting without what is broken"
hs run -c claude-truncated.json -c good.json -- touch started 2>/dev/null
check "run: the session starts" test -e started
rm -f started

# --- strict_config, --ci and CI=true refuse ----------------------------------
printf '{"hookshim":{"strict_config":true}}\n' > strict.json
err=$(hs run -c strict.json -c claude-truncated.json -c good.json -- touch started 2>&1); rc=$?
expect_eq "strict_config: run refuses on a config error" 1 "$rc"
check "strict_config: nothing started" test ! -e started
expect_contains "strict_config: says why" "$err" "not starting: 1 error, 0 warnings in the config (strict_config)"
expect_contains "strict_config: the diagnostic is still printed" "$err" "claude-truncated.json:"
err=$(hs run --ci -c claude-truncated.json -c good.json -- touch started 2>&1); rc=$?
expect_eq "--ci: run refuses on a config error" 1 "$rc"
check "--ci: nothing started" test ! -e started
expect_contains "--ci: says CI mode implies it" "$err" "implied by CI mode"
CI=true hs run -c claude-truncated.json -c good.json -- touch started 2>/dev/null; rc=$?
expect_eq "CI=true: run refuses on a config error" 1 "$rc"
check "CI=true: nothing started" test ! -e started
CI=true hs run --no-ci -c claude-truncated.json -c good.json -- touch started 2>/dev/null
check "--no-ci under CI=true: starts again" test -e started
rm -f started
# Warnings alone never refuse, strict or not.
printf '{"hookshim":{"strict_config":true},"hooks":{"Stop":[]}}\n' > warn.json
out=$(hs check -c warn.json); rc=$?
expect_eq "check: warnings alone exit 0" 0 "$rc"
expect_contains "check: counts the warning" "$out" "0 errors, 1 warning"
hs run -c warn.json -- touch started 2>/dev/null
check "strict_config: a warning does not refuse" test -e started

# --- a glob longer than common/glob.h's HS_GLOB_MAX ---------------------------
# The matcher keeps two bits per pattern byte on the stack; a longer
# pattern would never match, so each place that takes one says so.
long=$(printf 'a%.0s' $(seq 17000))
cat > long.json <<J
{"hookshim": {"writes": {"include": ["$long/**"]}},
 "hooks": {"PreToolUse": [
  {"matcher": "Write", "hooks": [
   {"type": "command", "command": "exit 2", "if": "Write($long)"}]}]}}
J
cat > long-mnemoai.json <<J
{"hooks": {"PreToolUse": [
  {"matcher": "$long*", "hooks": [{"type": "command", "command": "exit 2"}]}]}}
J
out=$(hs check -c long.json 2>&1); rc=$?
expect_eq "a too-long glob: check exits 1" 1 "$rc"
expect_contains "a too-long writes.include entry, at its line:col" "$out" \
	"long.json:1:38: hookshim.writes.include[0] is longer than 16383 bytes (ignored)"
expect_contains "a too-long if pattern, at its line:col" "$out" \
	"long.json:4:45: hooks.PreToolUse[0].hooks[0]: \"if\" pattern is longer than 16383 bytes (hook skipped)"
err=$(hs run -c long.json -- true 2>&1)
expect_eq "a too-long glob: run says what check says" \
	"$(diag_lines <<<"$out")" "$(diag_lines <<<"$err")"
out=$(hs check --dialect mnemoai -c long-mnemoai.json 2>&1)
expect_contains "a too-long mnemoai matcher glob is an error" "$out" \
	"glob longer than 16383 bytes (hook skipped)"

# --- rules that can never fire live (issue 24, item 2) -------------------------
# A matcher naming only tools decided inside the agent, a name of an exact
# list that is one, an "if" rule for a tool the matcher never lets through:
# one warning each at its line:col, the same from check and run; a
# matcher and rule that do fire (Write with Edit(...)) say nothing.
cp "$HOOKSHIM_TOP/tests/fixtures/dead-rules.json" .
out=$(hs check -c dead-rules.json 2>&1); rc=$?
expect_eq "dead rules: warnings only, check exits 0" 0 "$rc"
got=$(diag_lines <<<"$out" | sed -E 's/^hookshim: warning: dead-rules.json:([0-9]+:[0-9]+): .*/\1/' | sort -n)
expect_eq "dead rules: one warning each, at its line:col" \
	"$(printf '%s\n' 4:9 6:9 8:9 11:62 13:62 14:9 20:9 23:5 | sort -n)" "$got"
expect_contains "dead rules: a tool decided inside the agent is named as such" "$out" \
	'dead-rules.json:4:9: PreToolUse matcher "Task" names no tool call hookshim sees (its calls are Bash, Write, Edit, Read and WebFetch); other tools (WebSearch, Task, MCP tools...) are decided inside the agent, not seen from outside (loaded, never fires)'
expect_contains "dead rules: a dead name in an exact list" "$out" \
	'dead-rules.json:8:9: PreToolUse matcher "Task|Bash": Task is no tool call hookshim sees'
expect_contains "dead rules: an if rule its matcher never lets through" "$out" \
	'dead-rules.json:11:62: "if": Edit(...) names a tool none of the calls its matcher "Bash" lets through carries (Bash) (loaded, never fires)'
err=$(hs run -c dead-rules.json -- true 2>&1)
expect_eq "dead rules: run prints exactly check's warnings" \
	"$(diag_lines <<<"$out")" "$(diag_lines <<<"$err")"
out=$(hs test -c dead-rules.json PreToolUse --tool Bash --command ls 2>&1)
expect_contains "dead rules: test says them too" "$out" 'matcher "Task" names no tool call'
# a Write/Edit rule for a place whose writes are never events: an agent's
# own state directory, a writes.exclude entry or one "P/**" (another
# wildcard entry excludes only part of its place: no warning)
cat > unwatched.json <<'J'
{"hookshim": {"writes": {"exclude": ["vendor", "gen/*.c", "build/**", "out/*/**"]}},
 "hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
  {"type": "command", "command": "exit 2", "if": "Write(~/.claude/settings.json)"},
  {"type": "command", "command": "exit 2", "if": "Edit(vendor/lib/**)"},
  {"type": "command", "command": "exit 2", "if": "Edit(gen/x.c)"},
  {"type": "command", "command": "exit 2", "if": "Edit(src/**)"},
  {"type": "command", "command": "exit 2", "if": "Write(build/gen/x.h)"},
  {"type": "command", "command": "exit 2", "if": "Write(out/a.txt)"}]}]}}
J
out=$(hs check -c unwatched.json 2>&1)
expect_contains "unwatched: an agent's state directory" "$out" \
	'unwatched.json:3:44: "if": Write(~/.claude/settings.json) names a place whose writes are never events: ~/.claude is an agent'"'"'s own state, never a tool'"'"'s write (loaded, never fires)'
expect_contains "unwatched: a writes.exclude entry" "$out" \
	'unwatched.json:4:44: "if": Edit(vendor/lib/**) names a place whose writes are never events: writes.exclude has "vendor"'
expect_contains "unwatched: a writes.exclude entry P/** hides all below P" "$out" \
	'unwatched.json:7:44: "if": Write(build/gen/x.h) names a place whose writes are never events: writes.exclude has "build/**"'
expect_contains "unwatched: only those three (another wildcard hides part of its place)" "$out" "0 errors, 3 warnings"
expect_not_contains "unwatched: the scope does not list a place never watched" \
	"$(grep '^writes judged' <<<"$out")" ".claude"
err=$(hs run -c unwatched.json -- true 2>&1)
expect_eq "unwatched: run prints exactly check's warnings" \
	"$(diag_lines <<<"$out")" "$(diag_lines <<<"$err")"
