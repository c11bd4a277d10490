# Project files need trust (issue 24, item 4; config/trust.h): a cloned
# repository's hook files run nothing until the user trusts them as they
# are; a change needs trust again; CI mode refuses to start without trust
# (or --trust-project); the agent can change neither the trusted files
# nor the records during a session, with a shell or a static binary.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
unset XDG_STATE_HOME CI GITHUB_ACTIONS
records=$HOME/.local/state/hookshim/trusted

# A "cloned" repository whose hook file writes a marker at session start
# and denies every Bash command.
mkdir -p repo/.hookshim && cd repo || exit 1
cat > .hookshim/hooks.json <<'J'
{"hooks": {
  "SessionStart": [{"hooks": [{"type": "command", "command": "echo ran >> \"$CLAUDE_PROJECT_DIR/../marker\""}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'repo policy: no commands' >&2; exit 2"}]}]}}
J
file=$PWD/.hookshim/hooks.json

# --- untrusted: nothing runs, and every verb says so -------------------------
err=$(hs run -- bash -c 'echo command ran' 2>&1 >out.txt); rc=$?
expect_eq "untrusted: the session starts (only this file is lost)" 0 "$rc"
expect_eq "untrusted: the SessionStart hook did not run" "" "$(cat ../marker 2>/dev/null)"
expect_eq "untrusted: its PreToolUse hook did not deny" "command ran" "$(cat out.txt)"
expect_contains "untrusted: run says which file and how to trust it" "$err" \
	"hookshim: error: $file: came with the project and is not trusted yet: not loaded (read it, then \`hookshim trust $file\`, or --trust-project for one run)"
out=$(hs check 2>&1); rc=$?
expect_eq "untrusted: check exits 1" 1 "$rc"
expect_eq "untrusted: check and run print the same line" \
	"$(grep '^hookshim: error' <<<"$err")" "$(grep '^hookshim: error' <<<"$out")"
out=$(hs test PreToolUse --tool Bash --command 'ls' 2>&1); rc=$?
expect_eq "untrusted: test decides without the file (allow)" 0 "$rc"
expect_contains "untrusted: test says so too" "$out" "not trusted yet"
check "untrusted: no record was written" test ! -e "$records"

# --- CI mode refuses; --trust-project loads for one run ----------------------
err=$(hs run --ci -- bash -c 'echo command ran' 2>&1 >out.txt); rc=$?
expect_eq "CI mode: refuses to start with an untrusted project file" 1 "$rc"
expect_eq "CI mode: nothing ran" "" "$(cat out.txt)"
expect_contains "CI mode: says why" "$err" "not trusted yet"
err=$(CI=true hs run -- true 2>&1); rc=$?
expect_eq "CI=true: refuses too" 1 "$rc"
err=$(hs run --ci --trust-project -- bash -c 'echo command ran' 2>&1 >out.txt); rc=$?
expect_eq "--trust-project: the repository's policy holds (denied: 126)" 126 "$rc"
expect_contains "--trust-project: with its reason" "$err" "repo policy: no commands"
expect_eq "--trust-project: its SessionStart ran" "ran" "$(cat ../marker)"
check "--trust-project: records nothing" test ! -e "$records"
rm -f ../marker

# --- hookshim trust ---------------------------------------------------------
out=$(hs trust); rc=$?
expect_eq "trust: exits 0" 0 "$rc"
expect_contains "trust: names the file" "$out" "trusted $file (sha256 "
expect_contains "trust: shows what it will run" "$out" \
	"SessionStart: echo ran >> \"\$CLAUDE_PROJECT_DIR/../marker\""
check "trust: the record is the file's sha256 and path" \
	grep -qx "$(sha256sum < "$file" | cut -d' ' -f1) $file" "$records"
err=$(hs run -- bash -c 'echo command ran' 2>&1 >out.txt); rc=$?
expect_eq "trusted: the SessionStart hook ran" "ran" "$(cat ../marker)"
expect_eq "trusted: the policy denies (126)" 126 "$rc"
expect_not_contains "trusted: no trust error" "$err" "not trusted"
hs check >/dev/null 2>&1; expect_eq "trusted: check exits 0" 0 "$?"
rm -f ../marker

# --- during a session: neither the file nor the records can change -----------
# (with a policy that denies nothing, so what denies is self-protection:
# the shim for bash and mv, the floor for the static busybox)
cp "$file" ../saved.json
cat > .hookshim/hooks.json <<'J'
{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "true"}]}]}}
J
hs trust >/dev/null
cat > ../agent.sh <<'A'
echo '{}' > .hookshim/hooks.json; echo "shell rc=$?"
echo 'x /tmp/evil' >> "$1"; echo "records rc=$?"
mv "$1" "$1.old"; echo "rename rc=$?"
busybox sh -c 'echo "{}" > .hookshim/hooks.json'; echo "static rc=$?"
busybox sh -c "echo x >> '$1'"; echo "static records rc=$?"
A
out=$(hs run -- bash ../agent.sh "$records" 2>/dev/null)
expect_contains "in session: the trusted file cannot be rewritten" "$out" "shell rc=1"
expect_contains "in session: the records cannot be appended to" "$out" "records rc=1"
expect_contains "in session: the records cannot be renamed away" "$out" "rename rc=1"
expect_contains "in session: a static shell cannot rewrite the file (the floor)" "$out" "static rc=1"
expect_contains "in session: a static shell cannot touch the records" "$out" "static records rc=1"
check "in session: the records are as they were" \
	grep -qx "$(sha256sum < "$file" | cut -d' ' -f1) $file" "$records"
expect_eq "in session: one record only" 1 "$(wc -l < "$records")"

# --- a change needs trust again ----------------------------------------------
cp ../saved.json "$file"
err=$(hs run -- bash -c 'echo command ran' 2>&1 >out.txt); rc=$?
expect_contains "changed: says it changed since trusted" "$err" \
	"$file: changed since you trusted it: not loaded"
expect_eq "changed: its hooks did not run" "" "$(cat ../marker 2>/dev/null)"
expect_eq "changed: the command ran" "command ran" "$(cat out.txt)"
out=$(hs trust --list)
expect_contains "list: the file is shown as changed" "$out" "changed since trusted  $file"
hs trust "$file" >/dev/null
out=$(hs trust --list)
expect_contains "list: trusted again" "$out" "trusted                $file"
expect_eq "re-trust replaces the record" 1 "$(wc -l < "$records")"
hs trust --forget "$file" >/dev/null
hs run -- true 2>&1 | grep -q "not trusted yet"
expect_eq "forget: the file is untrusted again" 0 "$?"
# a record of a file that is gone can be forgotten too
mkdir -p "$TMP/gone/.hookshim" && echo '{}' > "$TMP/gone/.hookshim/hooks.json"
hs trust "$TMP/gone/.hookshim/hooks.json" >/dev/null
rm -r "$TMP/gone"
expect_contains "list: a gone file's record" "$(hs trust --list)" "missing or unreadable"
hs trust --forget "$TMP/gone/.hookshim/hooks.json" >/dev/null
expect_eq "forget: a gone file's record too" 0 "$?"
expect_not_contains "forget: the record is gone" "$(cat "$records")" "$TMP/gone"

# --- a file the agent adds is not loaded next time ---------------------------
cd "$TMP" && mkdir -p clean && cd clean || exit 1
hs run -- bash -c 'mkdir -p .hookshim && echo "{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"touch planted\"}]}]}}" > .hookshim/hooks.json'
err=$(hs run -- true 2>&1)
check "a hook file the agent wrote: its hook did not run next session" test ! -e planted
expect_contains "a hook file the agent wrote: the next session says so" "$err" "not trusted yet"

# --- --import claude: the project's settings files need trust; the user's not --
cd "$TMP" && mkdir -p imp/.claude "$HOME/.claude" && cd imp || exit 1
cat > .claude/settings.local.json <<'J'
{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch local-ran"}]}]}}
J
cat > "$HOME/.claude/settings.json" <<'J'
{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch user-ran"}]}]}}
J
err=$(hs run --import claude -- true 2>&1)
check "import: the user's own settings load without trust" test -e user-ran
check "import: the project's settings.local.json does not" test ! -e local-ran
expect_contains "import: and it is named" "$err" ".claude/settings.local.json: came with the project"
hs trust >/dev/null
rm -f user-ran
hs run --import claude -- true 2>/dev/null
check "import: trusted, the project's settings load" test -e local-ran

# --- XDG_STATE_HOME holds the records when set -------------------------------
export XDG_STATE_HOME=$TMP/state
rm -f local-ran
err=$(hs run --import claude -- true 2>&1)
check "XDG_STATE_HOME: another records file, so not trusted there" test ! -e local-ran
hs trust >/dev/null
check "XDG_STATE_HOME: the record lands there" test -s "$TMP/state/hookshim/trusted"
out=$(hs check --import claude 2>&1)
expect_contains "XDG_STATE_HOME: check lists the records' directory as protected" "$out" \
	"protect $TMP/state/hookshim/**  (trust records)"
