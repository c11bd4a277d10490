# End to end, issue 13's case: Codex (static musl binary) writes the files
# of its own apply_patch tool in-process with raw open(2), so only the
# syscall floor sees them. Under `hookshim run` with a Write hook on
# secrets/**: the model's patches adding and changing files under secrets/
# are denied (nothing under secrets/ changes), a patch elsewhere lands and
# fires the Write hook with its path, and apply_patch sent as a shell
# command (Codex intercepts the heredoc and applies it itself, no shell
# runs) is judged the same way. The hook's reason reaches the model with
# its next shell command (floor/floor_pending.c), once, also from
# inside Codex's sandbox. Without the floor the same patches land unseen:
# the documented limit.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-codex-patch
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-codex-patch: hookshim or jq missing"; exit 0; }
case " $E2E_AGENTS " in *" codex "*) ;; *)
	skip "e2e-codex-patch: codex not in E2E_AGENTS"; exit 0 ;;
esac
echo '{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 0"}]}]}}' >"$TMP/require.json"
if ! "$HOOKSHIM" run -c "$TMP/require.json" -- /bin/true 2>"$TMP/require.err"; then
	skip "e2e-codex-patch: no syscall floor here ($(head -1 "$TMP/require.err"))"
	exit 0
fi

HLOG=$TMP/hook.log
jq -n --arg log "$HLOG" '{hooks: {PreToolUse: [
  {matcher: "Write|Edit", hooks: [{type: "command", "if": "Write(secrets/**)",
    command: "echo \"BLOCKED-WRITE: secrets/ is read-only\" >&2; exit 2"}]},
  {matcher: "Write|Edit", hooks: [{type: "command", command:
    ("jq -c \"[.tool_name,.tool_input.file_path,.tool_input.operation]\" >> " + $log)}]},
  {matcher: "Bash", hooks: [{type: "command", command:
    ("jq -c \"[.tool_name,.tool_input.command]\" >> " + $log)}]}
]}}' >"$TMP/hooks.json"

# The model's side: apply_patch (Codex's freeform tool) adding a file
# outside secrets/, adding one inside, updating one inside; then
# apply_patch as a shell command into secrets/.
add() { printf '*** Begin Patch\n*** Add File: %s\n+%s\n*** End Patch\n' "$1" "$2"; }
upd='*** Begin Patch
*** Update File: secrets/old
@@
-keep
+CHANGED
*** End Patch
'
# Between them, shell commands: the first after a denied patch is handed
# its reason (floor/floor_pending.c), the next is not.
e2e_script "$TMP/script.json" \
	"$(jq -nc --arg p "$(add notes/ok.txt allowed-line)" '{tool:"patch",input:$p}')" \
	"$(jq -nc --arg p "$(add secrets/k SECRET)" '{tool:"patch",input:$p}')" \
	'{"tool":"shell","input":{"command":"echo next"}}' \
	'{"tool":"shell","input":{"command":"echo again"}}' \
	"$(jq -nc --arg p "$upd" '{tool:"patch",input:$p}')" \
	"$(jq -nc --arg c "apply_patch <<'EOF'
$(add secrets/via-shell SECRET)
EOF" '{tool:"shell",input:{command:$c}}')" \
	'{"tool":"shell","input":{"command":"echo after"}}' \
	'{"text":"CP-FINAL done"}'

fresh() {
	rm -rf "$1"; mkdir -p "$1/secrets" "$1/notes"
	echo keep >"$1/secrets/old"; : >"$HLOG"
}
tree_hash() { (cd "$1/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
# run DIR [ENV...]: one Codex session under hookshim; sets out, rc.
run() {
	local dir=$1; shift
	e2e_server_start "${SCRIPT:-$TMP/script.json}" "$dir.rec" || { rc=125; out=; return; }
	AGENT_PREFIX=("$HOOKSHIM" run -c "${HOOKS:-$TMP/hooks.json}" --root "$dir" --)
	AGENT_ENV=("$@")
	out=$(cd "$dir" && e2e_agent codex "Apply the patches." 2>"$dir.stderr")
	rc=$?
	AGENT_PREFIX=(); AGENT_ENV=()
	e2e_server_stop
}
res() { e2e_result "$1.rec" "$2"; }

# ---- with the floor ----
dir=$TMP/proj
fresh "$dir"; before=$(tree_hash "$dir")
run "$dir"
[ "$rc" = 0 ] || note "stderr: $(head -c 2000 "$dir.stderr")"
expect_eq "codex-patch: exit status" 0 "$rc"
expect_contains "codex-patch: final text" "$out" "CP-FINAL done"
expect_eq "codex-patch: apply_patch was offered and called" \
	"apply_patch apply_patch exec_command exec_command apply_patch exec_command exec_command" \
	"$(e2e_results "$dir.rec" --json | jq -r '[.[].name] | join(" ")')"
expect_eq "codex-patch: secrets/ unchanged (add, update, shell heredoc)" \
	"$before" "$(tree_hash "$dir")"
check "codex-patch: secrets/k does not exist" test ! -e "$dir/secrets/k"
check "codex-patch: secrets/via-shell does not exist" test ! -e "$dir/secrets/via-shell"
expect_eq "codex-patch: the patch outside secrets/ lands" "allowed-line" \
	"$(cat "$dir/notes/ok.txt" 2>/dev/null)"
expect_contains "codex-patch: the Write hook fired for it, with its path" \
	"$(cat "$HLOG")" "[\"Write\",\"$dir/notes/ok.txt\",\"create\"]"
expect_contains "codex-patch: ... and for the denied add" \
	"$(cat "$HLOG")" "[\"Write\",\"$dir/secrets/k\",\"create\"]"
expect_contains "codex-patch: ... and for the shell's apply_patch" \
	"$(cat "$HLOG")" "[\"Write\",\"$dir/secrets/via-shell\",\"create\"]"
# Codex writes an update in place (open O_WRONLY|O_TRUNC) from its own
# process, not a shell: an edit, as the shim names an agent's in-place
# replace of a non-empty file (docs/dialects.md, "Edit or Write").
expect_contains "codex-patch: ... and for the denied update, as an Edit" \
	"$(cat "$HLOG")" "[\"Edit\",\"$dir/secrets/old\",\"edit\"]"
expect_eq "codex-patch: one Write or Edit event per patched file, nothing else" 4 \
	"$(grep -c '^\["\(Write\|Edit\)"' "$HLOG")"
expect_eq "codex-patch: no shell ran for the heredoc (Codex applied it itself)" \
	'["Bash","echo next"] ["Bash","echo again"] ["Bash","echo after"]' \
	"$(grep '^\["Bash"' "$HLOG" | tr '\n' ' ' | sed 's/ $//')"
# What the model sees: Codex's own words, without the errno or the hook's
# reason (it drops the io::Error's source); the reason is on Codex's
# stderr, the user's terminal, and the supervisor hands it to the stderr
# of the model's next shell command (Codex has no shim to keep it).
r1=$(res "$dir" 1)
expect_contains "codex-patch: the model sees the add fail" "$r1" "Exit code: 1"
expect_contains "codex-patch: ... naming the file" "$r1" "Failed to write file $dir/secrets/k"
expect_contains "codex-patch: the model sees the update fail" "$(res "$dir" 4)" "Exit code: 1"
expect_contains "codex-patch: the model sees the shell's apply_patch fail" \
	"$(res "$dir" 5)" "Failed to write file $dir/secrets/via-shell"
expect_contains "codex-patch: the allowed patch reports success" "$(res "$dir" 0)" \
	"Success. Updated the following files:"
expect_contains "codex-patch: the hook's reason on Codex's stderr" "$(cat "$dir.stderr")" \
	"hookshim: write to $dir/secrets/k denied: BLOCKED-WRITE: secrets/ is read-only"
said() { echo "hookshim: the agent's write to $dir/secrets/$1 was denied by a hook: BLOCKED-WRITE: secrets/ is read-only"; }
all=$(for i in 0 1 2 3 4 5 6; do res "$dir" $i; done)
r2=$(res "$dir" 2)
expect_contains "codex-patch: the next command's result has the reason" "$r2" "$(said k)"
expect_contains "codex-patch: ... and the command's output" "$r2" "next"
expect_eq "codex-patch: the model is told once" 1 "$(grep -cF "$(said k)" <<<"$all")"
expect_not_contains "codex-patch: not the command after it" "$(res "$dir" 3)" "hookshim:"
r6=$(res "$dir" 6)
expect_contains "codex-patch: the next command after two more denials has both" \
	"$r6" "$(said old)"
expect_contains "codex-patch: ... (the shell's apply_patch)" "$r6" "$(said via-shell)"
expect_eq "codex-patch: ... each once in the session" "1 1" \
	"$(grep -cF "$(said old)" <<<"$all") $(grep -cF "$(said via-shell)" <<<"$all")"

# ---- Codex's own sandbox (workspace-write, what `codex exec` does by
# default): the patch runs in `codex --codex-run-as-fs-helper` inside the
# bubblewrap Codex bundles (its own mount namespace and seccomp filter,
# stacked on the floor's; allowed by "floor_allow"); still judged ----
# bubblewrap makes a user and a mount namespace and mounts there, which
# the floor refuses unless "floor_allow" names them (docs/floor.md,
# "Refused calls")
jq '.hookshim.floor_allow = ["namespaces", "mount"]' "$TMP/hooks.json" >"$TMP/hooks-sb.json"
# First the plain agent, no hookshim: Codex's sandbox must run a command
# on this machine at all (with a system bubblewrap installed, Codex 0.171
# runs it and it cannot find codex-linux-sandbox: the command fails
# before hookshim is involved).
e2e_script "$TMP/script-plain.json" \
	'{"tool":"shell","input":{"command":"echo plain-alive"}}' '{"text":"CP-FINAL done"}'
dir=$TMP/proj-plain
fresh "$dir"
e2e_server_start "$TMP/script-plain.json" "$dir.rec" &&
	{ (cd "$dir" && E2E_CODEX_SANDBOX=workspace-write e2e_agent codex "Run it." >/dev/null 2>"$dir.stderr"); e2e_server_stop; }
plain_sandbox=$(res "$dir" 0 2>/dev/null)
dir=$TMP/proj-sandbox
fresh "$dir"; before=$(tree_hash "$dir")
HOOKS=$TMP/hooks-sb.json E2E_CODEX_SANDBOX=workspace-write run "$dir"
[ "$rc" = 0 ] || note "stderr: $(head -c 2000 "$dir.stderr")"
if [[ "$plain_sandbox" != *plain-alive* ]]; then
	skip "codex-patch, sandboxed: Codex's own sandbox fails here without hookshim too ($(tr '\n' ' ' <<<"$plain_sandbox" | tail -c 160))"
elif grep -q 'sandbox: workspace-write' "$dir.stderr"; then
	expect_eq "codex-patch, sandboxed: secrets/ unchanged" "$before" "$(tree_hash "$dir")"
	expect_eq "codex-patch, sandboxed: the patch outside secrets/ lands" "allowed-line" \
		"$(cat "$dir/notes/ok.txt" 2>/dev/null)"
	expect_contains "codex-patch, sandboxed: the model sees the add fail" "$(res "$dir" 1)" \
		"Failed to write file $dir/secrets/k"
	expect_contains "codex-patch, sandboxed: the Write hook fired for it" \
		"$(cat "$HLOG")" "[\"Write\",\"$dir/secrets/k\",\"create\"]"
	expect_contains "codex-patch, sandboxed: the next command's result has the reason" \
		"$(res "$dir" 2)" "$(said k)"
	expect_not_contains "codex-patch, sandboxed: not the command after it" \
		"$(res "$dir" 3)" "was denied by a hook"
	# its commands' shims cannot reach the supervisor there (a network
	# namespace of its own) and hand their calls to the floor, silently
	expect_not_contains "codex-patch, sandboxed: no shim says the supervisor is unreachable" \
		"$(cat "$dir.stderr"; for i in 0 1 2 3 4 5 6; do res "$dir" $i; done)" "unreachable"

	# The model's shell commands inside Codex's sandbox: Codex's static
	# bwrap starts bash bypassing libc, bash's constructor judges itself
	# by asking the floor (HS_FLOOR_ASK). rm -rf is denied by the Bash
	# hook with its reason (spelled through a variable: Codex refuses a
	# literal `rm -rf` in its sandbox itself), a command's write to
	# secrets/ by the Write hook, an allowed command runs; each hook once.
	jq --arg log "$HLOG" '.hooks.PreToolUse += [{matcher: "Bash", hooks: [{type: "command",
	  command: "jq -r .tool_input.command | grep -qw rm && { echo \"BLOCKED-RM: no rm -rf\" >&2; exit 2; }; exit 0"}]}]' \
		"$TMP/hooks-sb.json" >"$TMP/hooks-rm.json"
	e2e_script "$TMP/script-rm.json" \
		'{"tool":"shell","input":{"command":"f=-rf; rm $f notes"}}' \
		'{"tool":"shell","input":{"command":"echo x > secrets/s2"}}' \
		'{"tool":"shell","input":{"command":"echo alive > notes/after.txt; cat notes/after.txt"}}' \
		'{"text":"CP-FINAL done"}'
	dir=$TMP/proj-sandbox-rm
	fresh "$dir"; echo keep >"$dir/notes/keep"
	SCRIPT=$TMP/script-rm.json HOOKS=$TMP/hooks-rm.json E2E_CODEX_SANDBOX=workspace-write run "$dir"
	expect_eq "codex-sandbox-rm: exit status" 0 "$rc"
	check "codex-sandbox-rm: the model's rm -rf is denied (notes/ is still there)" \
		test -f "$dir/notes/keep"
	expect_contains "codex-sandbox-rm: the model sees the hook's reason" "$(res "$dir" 0)" \
		"BLOCKED-RM: no rm -rf"
	check "codex-sandbox-rm: the command's write to secrets/ is denied" test ! -e "$dir/secrets/s2"
	expect_contains "codex-sandbox-rm: ... the model sees that reason" "$(res "$dir" 1)" \
		"hookshim: write to $dir/secrets/s2 denied: BLOCKED-WRITE: secrets/ is read-only"
	expect_contains "codex-sandbox-rm: an allowed command runs" "$(res "$dir" 2)" "alive"
	expect_eq "codex-sandbox-rm: ... and writes" "alive" "$(cat "$dir/notes/after.txt" 2>/dev/null)"
	expect_eq "codex-sandbox-rm: each command's Bash hook once" \
		'["Bash","f=-rf; rm $f notes"] ["Bash","echo x > secrets/s2"] ["Bash","echo alive > notes/after.txt; cat notes/after.txt"]' \
		"$(grep '^\["Bash"' "$HLOG" | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "codex-sandbox-rm: the Write hook once for each write of a command" \
		"[\"Write\",\"$dir/secrets/s2\",\"create\"] [\"Write\",\"$dir/notes/after.txt\",\"create\"]" \
		"$(grep '^\["Write".*\(secrets/s2\|after.txt\)' "$HLOG" | tr '\n' ' ' | sed 's/ $//')"
else
	skip "codex-patch, sandboxed: Codex did not start its sandbox here ($(grep -m1 -i sandbox "$dir.stderr"))"
fi

# ---- without the floor (a kernel or sandbox without it): unseen ----
dir=$TMP/proj-nofloor
fresh "$dir"
run "$dir" HOOKSHIM_TEST_NO_FLOOR=1
expect_contains "codex-patch, no floor: hookshim says so at start" \
	"$(cat "$dir.stderr")" "no syscall floor"
expect_eq "codex-patch, no floor: secrets/k is written (the limit)" "SECRET" \
	"$(cat "$dir/secrets/k" 2>/dev/null)"
expect_eq "codex-patch, no floor: secrets/old is changed" "CHANGED" \
	"$(cat "$dir/secrets/old" 2>/dev/null)"
expect_eq "codex-patch, no floor: no hook saw any of Codex's writes" "" \
	"$(grep '^\["Write"' "$HLOG")"
expect_contains "codex-patch, no floor: the model sees success" "$(res "$dir" 1)" \
	"Success. Updated the following files:"
expect_not_contains "codex-patch, no floor: no reason with the next command" \
	"$(res "$dir" 2)" "hookshim:"
