# Claude Code's settings hierarchy under --import claude (issue 24,
# item 7): an administrator's managed-settings.json and
# managed-settings.d/*.json load (no trust needed, lexical order), their
# hooks hold whatever the other files say; allowManagedHooksOnly and
# allowManagedPermissionRulesOnly drop the other files' hooks and rules;
# disableAllHooks in a user or project file drops every hook but the
# managed ones, in a managed file every hook; what is dropped is said.
# $HOOKSHIM_SYSCONFDIR stands for /etc here.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home HOOKSHIM_SYSCONFDIR=$TMP/etc
M=$HOOKSHIM_SYSCONFDIR/claude-code
mkdir -p "$HOME/.claude" "$M/managed-settings.d" proj/.claude
unset CI GITHUB_ACTIONS XDG_STATE_HOME
cd proj || exit 1

hook() { # EVENT-MATCHER WORD: a PreToolUse hook that denies commands naming WORD
	printf '{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q %s && { echo \\"%s says no\\" >&2; exit 2; }; exit 0"}]}' "$1" "$2"
}
cat > "$M/managed-settings.json" <<J
{"hooks": {"PreToolUse": [$(hook curl managed)]}}
J
cat > "$M/managed-settings.d/10-first.json" <<J
{"hooks": {"PreToolUse": [$(hook wget dropin-10)]}}
J
cat > "$M/managed-settings.d/20-second.json" <<J
{"permissions": {"deny": ["Bash(nc *)"]}}
J
cat > "$HOME/.claude/settings.json" <<J
{"hooks": {"PreToolUse": [$(hook scp user)]}, "permissions": {"deny": ["Bash(ssh *)"]}}
J
cat > .claude/settings.json <<J
{"hooks": {"PreToolUse": [$(hook rsync project)]}}
J
"$HOOKSHIM" trust >/dev/null

cat > ../agent.sh <<'A'
for c in "curl x" "wget x" "nc x" "scp x" "ssh x" "rsync x" "echo ok"; do
	bash -c "$c >/dev/null 2>&1; exit 0"; echo "${c%% *}=$?"
done
A
run_cmds() { # the commands, one tool call each; prints NAME=STATUS
	"$HOOKSHIM" run --import claude -- bash ../agent.sh 2>err.txt
}

# --- everything loads; the managed files need no trust ----------------------
out=$(run_cmds)
for c in curl wget nc scp ssh rsync; do
	expect_contains "all files: $c is denied" "$out" "$c=126"
done
expect_contains "all files: the rest runs" "$out" "echo=0"
expect_contains "the managed file's hook gave its reason" "$(cat err.txt)" "managed says no"
expect_contains "a managed-settings.d drop-in loads" "$(cat err.txt)" "dropin-10 says no"
expect_not_contains "managed files need no trust" "$(cat err.txt)" "not trusted"
out=$("$HOOKSHIM" check --import claude 2>&1)
expect_contains "check: the drop-ins in lexical order" "$(grep -n 'read ' <<<"$out" | tr '\n' ' ')" \
	"10-first.json"
check "check: 10-first.json is read before 20-second.json" \
	test "$(grep -n 'read .*10-first' <<<"$out" | cut -d: -f1)" -lt \
	     "$(grep -n 'read .*20-second' <<<"$out" | cut -d: -f1)"

# --- disableAllHooks in the project: every hook but the managed ones ---------
cat > .claude/settings.local.json <<'J'
{"disableAllHooks": true}
J
"$HOOKSHIM" trust >/dev/null
out=$(run_cmds)
expect_contains "project disableAllHooks: the managed hook holds" "$out" "curl=126"
expect_contains "project disableAllHooks: the managed drop-in's hook holds" "$out" "wget=126"
expect_contains "project disableAllHooks: the user's hook is off" "$out" "scp=0"
expect_contains "project disableAllHooks: the project's hook is off" "$out" "rsync=0"
expect_contains "project disableAllHooks: permission rules still hold" "$out" "ssh=126"
expect_contains "project disableAllHooks: said" "$(cat err.txt)" \
	"disableAllHooks: 2 hook(s) of the other Claude settings files not loaded either (managed hooks still are)"
rm .claude/settings.local.json

# --- allowManagedHooksOnly / allowManagedPermissionRulesOnly -----------------
cat > "$M/managed-settings.d/30-locks.json" <<'J'
{"allowManagedHooksOnly": true, "allowManagedPermissionRulesOnly": true}
J
out=$(run_cmds)
expect_contains "allowManagedHooksOnly: the managed hook holds" "$out" "curl=126"
expect_contains "allowManagedHooksOnly: the user's hook is not loaded" "$out" "scp=0"
expect_contains "allowManagedHooksOnly: nor the project's" "$out" "rsync=0"
expect_contains "allowManagedPermissionRulesOnly: the managed rule holds" "$out" "nc=126"
expect_contains "allowManagedPermissionRulesOnly: the user's rule does not" "$out" "ssh=0"
expect_contains "allowManagedHooksOnly: said, naming the file" "$(cat err.txt)" \
	"allowManagedHooksOnly ($M/managed-settings.d/30-locks.json): 2 hook(s) of the user's and the project's settings not loaded"
expect_contains "allowManagedPermissionRulesOnly: said" "$(cat err.txt)" \
	"allowManagedPermissionRulesOnly ($M/managed-settings.d/30-locks.json): 1 permission rule(s)"
# a lock that is not a boolean is taken as set (Claude Code fails closed)
printf '{"allowManagedHooksOnly": "yes"}\n' > "$M/managed-settings.d/30-locks.json"
out=$(run_cmds)
expect_contains "a malformed lock: an error" "$(cat err.txt)" \
	"allowManagedHooksOnly must be true or false (taken as true, as Claude Code does)"
expect_contains "a malformed lock: taken as set" "$out" "scp=0"
rm "$M/managed-settings.d/30-locks.json"

# --- disableAllHooks in a managed file: every hook -----------------------------
printf '{"disableAllHooks": true, "hooks": {"PreToolUse": [%s]}}\n' "$(hook curl managed)" \
	> "$M/managed-settings.json"
out=$(run_cmds)
expect_contains "managed disableAllHooks: the drop-in's hook is off" "$out" "wget=0"
expect_contains "managed disableAllHooks: the user's hook is off" "$out" "scp=0"
expect_contains "managed disableAllHooks: permission rules hold" "$out" "nc=126"

# --- the managed files are protected during a session ------------------------
out=$("$HOOKSHIM" run --import claude -- bash -c "echo '{}' > $M/managed-settings.d/10-first.json; echo rc=\$?" 2>/dev/null)
expect_eq "an agent cannot rewrite a managed file" "rc=1" "$out"

# --- only the files of the hierarchy: a -c file's hooks stay -----------------
rm -f "$M/managed-settings.json" "$M"/managed-settings.d/*.json
printf '{"disableAllHooks": true}\n' > "$HOME/.claude/settings.json"
printf '{"allowManagedHooksOnly": true}\n' > "$M/managed-settings.json"
printf '{"hooks": {"PreToolUse": [%s]}}\n' "$(hook curl policy)" > "$TMP/policy.json"
out=$("$HOOKSHIM" run -c "$TMP/policy.json" --import claude -- bash ../agent.sh 2>err.txt)
expect_contains "a -c file's hook holds whatever the Claude files say" "$out" "curl=126"
expect_contains "... with its reason" "$(cat err.txt)" "policy says no"

# --- a managed file must be root's and writable by no one else ---------------
printf '{"hooks": {"PreToolUse": [%s]}}\n' "$(hook curl managed)" > "$M/managed-settings.json"
chmod 666 "$M/managed-settings.json"
out=$("$HOOKSHIM" run --import claude -- bash ../agent.sh 2>err.txt)
expect_contains "a group- or world-writable managed file is not loaded" "$out" "curl=0"
expect_contains "... and said" "$(cat err.txt)" \
	"managed-settings.json: a managed settings file must be root's and writable by no one else: not loaded"
chmod 644 "$M/managed-settings.json"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chown nobody "$M/managed-settings.json"
	out=$("$HOOKSHIM" run --import claude -- bash ../agent.sh 2>err.txt)
	expect_contains "a managed file owned by another user is not loaded" "$out" "curl=0"
	chown 0 "$M/managed-settings.json"
fi
out=$("$HOOKSHIM" run --import claude -- bash ../agent.sh 2>err.txt)
expect_contains "root's, 0644: loaded" "$out" "curl=126"
