# examples/demo.sh (`make demo`): runs it once (with pi) and checks
# its report against the project it leaves behind: the policy's denials
# held, and the report tells the truth about each of them.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require demo # installs the agents once, or SKIPs without npm

if ! [ -x "$HOOKSHIM" ]; then
	skip "demo: $HOOKSHIM missing"
	exit 0
fi
command -v jq >/dev/null || { skip "demo: jq not installed"; exit 0; }

W=$TMP/demo
out=$(HOOKSHIM="$HOOKSHIM" DEMO_AGENT=pi DEMO_DIR="$W" NO_COLOR=1 \
	timeout -k 10 300 "$HOOKSHIM_TOP/examples/demo.sh" 2>&1)
rc=$?
P=$W/project
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
	fail "demo: ran to its report (exit $rc)"
	printf '%s\n' "$out" | head -40 | sed 's/^/# /'
	exit 0
fi
pass "demo: ran to its report (exit $rc)"

# line N: the report's first line that starts (after blanks) with " N ".
call() { grep -E "^ $1 " <<<"$out" | head -1; }
# result_of LINE_PREFIX: the "model saw" line after a numbered call line.
saw() { awk -v n="$1" '$1 == n && /(ALLOWED|DENIED|UNSEEN)/ {f=1; next}
	f && /model saw:/ {print; exit}' <<<"$out"; }

# The session itself.
expect_contains "demo: agent exited 0" "$out" "agent exit status  0"
expect_contains "demo: agent reached the final answer" "$out" "DEMO-DONE"
expect_contains "demo: the model made all six tool calls" "$out" "6 asked, "

# (1) an allowed command: allowed, and its output reached the model.
expect_contains "demo: (1) ls allowed" "$(call 1)" "ALLOWED"
expect_contains "demo: (1) model saw the listing" "$(saw 1)" "README.md"

# (2) force push: denied by no-force-push.sh, reason to the model, remote
# history untouched.
expect_contains "demo: (2) force push denied" "$(call 2)" "DENIED"
expect_contains "demo: (2) report names the hook" "$out" "no-force-push.sh: force-push is blocked"
expect_contains "demo: (2) model saw the reason" "$(saw 2)" "force-push is blocked by policy"
check "demo: (2) remote main not rewritten" \
	test "$(git -C "$W/remote.git" log -1 --format=%s main 2>/dev/null)" = "initial commit"

# (3) rm -rf ../outside: denied, the sibling directory survived.
expect_contains "demo: (3) rm -rf ../outside denied" "$(call 3)" "DENIED"
expect_contains "demo: (3) model saw the reason" "$(saw 3)" "outside the project root"
check "demo: (3) ../outside/precious.txt survived" test -f "$W/outside/precious.txt"

# (4) echo token > secrets/api-key: the write into secrets/ refused.
check "demo: (4) secrets/api-key absent" test ! -e "$P/secrets/api-key"
expect_contains "demo: (4) reported denied" "$(call 4)" "DENIED"

# (5) the agent's own Write tool: written, then formatted by format.sh.
check "demo: (5) notes.md written" test -f "$P/notes.md"
check "demo: (5) notes.md has no trailing white space" \
	bash -c '! grep -q "[[:space:]]$" "$1"' _ "$P/notes.md"

# (6) rm -rf important/ inside the root: allowed.
expect_contains "demo: (6) rm -rf important/ allowed" "$(call 6)" "ALLOWED"
check "demo: (6) important/ removed" test ! -e "$P/important"

# events.log (log-event.sh) saw the session.
check "demo: events.log has SessionStart and SessionEnd" \
	bash -c 'grep -q "\"SessionStart\"" "$1" && grep -q "\"SessionEnd\"" "$1"' _ "$P/.hookshim/events.log"

# The report's "Afterwards" marks agree with the files.
mark() { grep -F "$1" <<<"$out" | head -1 | awk '{print $1}'; }
want() { if "$@"; then echo ✔; else echo ✘; fi; }
expect_eq "demo: report honest about ../outside" \
	"$(want test -f "$W/outside/precious.txt")" "$(mark "../outside/precious.txt still there")"
expect_eq "demo: report honest about secrets/api-key" \
	"$(want test ! -e "$P/secrets/api-key")" "$(mark "secrets/api-key does not exist")"
expect_eq "demo: report honest about important/" \
	"$(want test ! -e "$P/important")" "$(mark "important/ removed")"

# The report and `hookshim log` on the session's log say the same: each
# denial in the log is one the report names, with its reason, and the
# demo's closing section is that log's timeline.
nlog=$("$HOOKSHIM" log --denied "$W/hookshim.log" | wc -l)
expect_eq "demo: hookshim log lists the three denials" 3 "$nlog"
while IFS= read -r reason; do
	first=$(printf '%s' "$reason" | head -1 | cut -c1-40)
	expect_contains "demo: report names the log's denial '${first:0:30}'" "$out" "$first"
done < <("$HOOKSHIM" log --denied --json "$W/hookshim.log" | jq -r '.reason | split("\n")[0]')
expect_contains "demo: the report ends with the log's timeline" "$out" \
	"$("$HOOKSHIM" log --denied "$W/hookshim.log" | head -1 | cut -c1-60)"

# Exit status 0 exactly when the report says every check holds.
if grep -q "checks hold" <<<"$out" && ! grep -q "do not hold" <<<"$out"; then
	expect_eq "demo: exit status matches the verdict" 0 "$rc"
else
	expect_eq "demo: exit status matches the verdict" 1 "$rc"
fi
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
