# End to end: the agent's own Write/Edit tools under `hookshim run`, one
# session per agent that has them (Claude Code 2.1.332, 2.1.100, 2.0.0,
# Gemini CLI, Qwen Code, pi, opencode, Copilot CLI; Codex's apply_patch is in codex_patch.sh:
# its denials are the floor's, inside a static process, and their reason
# does not reach its model).
#
# 1. The reason of a denied own write reaches the model (issue 17 item 1).
#    A PreToolUse Write|Edit hook denies the write into secrets/ with a
#    reason. No agent's runtime takes its error text from libc (Bun and
#    node have their own errno tables), so the Write tool's result says
#    only EACCES; the reason comes with the result of the model's next
#    command, once -- not with one of the shells the agent runs for itself
#    in between (Claude Code's snapshot shell and `which`: shim/reason.c).
# 2. Edit vs Write (item 5): the model reads and edits an existing file
#    (Claude Code and Qwen Code edit only what was read) and writes a new
#    one. A hook matching only Edit fires for the edit, not for the
#    new file; one matching only Write fires for both, the edit with
#    tool_name Edit (docs/dialects.md, "Edit or Write").
# The plain agent does the same tasks first, in a directory of its own,
# and the agent is skipped with the reason when it does not.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-own-writes
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-own-writes: hookshim or jq missing"; exit 0; }

REASON="OWN-WRITE-DENIED: secrets/ is read-only, ask the user"
cat >"$TMP/guard.sh" <<SH
#!/bin/sh
case \$(jq -r '.tool_input.file_path // ""') in
*/secrets/*) echo "$REASON" >&2; exit 2 ;;
esac
exit 0
SH
# log.sh FILE: one line per event, "TOOL OPERATION BASENAME".
cat >"$TMP/log.sh" <<'SH'
#!/bin/sh
jq -r '[.tool_name, .tool_input.operation, (.tool_input.file_path | split("/") | last)] | join(" ")' >>"$1"
SH
chmod +x "$TMP/guard.sh" "$TMP/log.sh"

# edit_input AGENT FILE: the edit tool's input in the agent's own schema
# (pi takes a list of edits; Gemini CLI's replace an instruction too).
edit_input() {
	case $1 in
	pi) jq -nc --arg f "$2" '{file_path: $f, edits: [{oldText: "alpha", newText: "beta"}]}' ;;
	gemini) jq -nc --arg f "$2" '{file_path: $f, old_string: "alpha", new_string: "beta", instruction: "Replace alpha by beta."}' ;;
	*) jq -nc --arg f "$2" '{file_path: $f, old_string: "alpha", new_string: "beta"}' ;;
	esac
}

# tasks AGENT DIR: the model's script for DIR (its files made afresh)
tasks() {
	local dir=$2
	mkdir -p "$dir/secrets"
	printf 'alpha line\n' >"$dir/notes.txt"
	e2e_script "$dir.script.json" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$dir/secrets/x.txt\",\"content\":\"x\\n\"}}" \
		'{"tool":"shell","input":{"command":"echo next-one","description":"Echo"}}' \
		"{\"tool\":\"read\",\"input\":{\"file_path\":\"$dir/notes.txt\"}}" \
		"{\"tool\":\"edit\",\"input\":$(edit_input "$1" "$dir/notes.txt")}" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$dir/fresh.txt\",\"content\":\"fresh\\n\"}}" \
		'{"tool":"shell","input":{"command":"echo next-two","description":"Echo"}}' \
		'{"text":"OW-FINAL done"}'
}

for agent in $E2E_AGENTS; do
	t=own-writes/$agent
	if [ "$agent" = codex ]; then
		skip "$t: Codex has no Write/Edit tool; its apply_patch is tested in codex_patch.sh"
		continue
	fi
	# plain first: the same tasks, no hookshim
	pdir=$TMP/plain-$agent
	tasks "$agent" "$pdir"
	out=$(e2e_session "$pdir.script.json" "$pdir.rec" "$pdir" "$agent" "Do the file tasks.")
	[ $? = 125 ] && { fail "$t: model server"; continue; }
	if [[ "$out" != *OW-FINAL* ]] || [ "$(cat "$pdir/secrets/x.txt" 2>/dev/null)" != x ] ||
		[ "$(cat "$pdir/notes.txt")" != "beta line" ] || [ "$(cat "$pdir/fresh.txt" 2>/dev/null)" != fresh ]; then
		skip "$t: the plain agent does not do the file tasks here ($(head -c 200 "$pdir.rec.err" | tr '\n' ' '))"
		continue
	fi
	dir=$TMP/$agent
	tasks "$agent" "$dir"
	jq -n --arg g "$TMP/guard.sh" --arg l "$TMP/log.sh" --arg d "$TMP/$agent" '{hooks: {PreToolUse: [
	  {matcher: "Write|Edit", hooks: [{type: "command", command: $g}]},
	  {matcher: "Edit", hooks: [{type: "command", command: ($l + " " + $d + ".edit.log")}]},
	  {matcher: "Write", hooks: [{type: "command", command: ($l + " " + $d + ".write.log")}]}]}}' \
		>"$dir.hooks.json"
	e2e_server_start "$dir.script.json" "$dir.rec" ||
		{ fail "$t: model server"; continue; }
	# inotify on secrets/ for the whole session: a name that appears
	# there even for a moment (Claude Code's temp file) is a trace
	rm -f "$dir.ready" "$dir.stop"
	python3 "$HOOKSHIM_TOP/tests/fixtures/inotify_watch.py" "$dir/secrets" "$dir.ready" "$dir.seen" "$dir.stop" &
	watch=$!
	for _ in $(seq 100); do [ -f "$dir.ready" ] && break; sleep 0.05; done
	AGENT_PREFIX=("$HOOKSHIM" run --log "$dir.log.jsonl" -c "$dir.hooks.json" --root "$dir" --)
	out=$(cd "$dir" && e2e_agent "$agent" "Do the file tasks." 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	touch "$dir.stop"; wait "$watch" 2>/dev/null
	e2e_server_stop
	all=$(e2e_results "$dir.rec")

	expect_eq "$t: exit status" 0 "$rc"
	expect_contains "$t: final text" "$out" "OW-FINAL"
	# 1. the denied write
	expect_eq "$t: nothing reached secrets/" "" "$(ls -A "$dir/secrets")"
	expect_eq "$t: no name appeared under secrets/ during the session (inotify), not even a temp file" \
		"" "$(awk 'NF > 1 { print $2 }' "$dir.seen" | sort -u)"
	r0=$(e2e_result "$dir.rec" 0)
	# (opencode, Bun: "PermissionDenied: FileSystem.writeFile (PATH)")
	expect_contains "$t: the Write tool's result is the runtime's EACCES" \
		"$(tr A-Z a-z <<<"$r0" | tr -d ' ')" "permissiondenied"
	expect_eq "$t: the reason reaches the model exactly once" 1 \
		"$(grep -o "OWN-WRITE-DENIED" <<<"$all" | wc -l)"
	r1=$(e2e_result "$dir.rec" 1)
	expect_contains "$t: ... with the next command's result" "$r1" \
		"hookshim: the agent's write to $dir/secrets/x.txt was denied by a hook: $REASON"
	expect_contains "$t: ... which keeps its own output" "$r1" "next-one"
	# 2. Edit vs Write
	expect_eq "$t: the edit happened" "beta line" "$(cat "$dir/notes.txt")"
	expect_eq "$t: the new file was written" "fresh" "$(cat "$dir/fresh.txt" 2>/dev/null)"
	elog=$(sort -u "$dir.edit.log" 2>/dev/null)
	wlog=$(sort -u "$dir.write.log" 2>/dev/null)
	expect_eq "$t: an Edit-only hook fires for the edit, not for new files" \
		"Edit edit notes.txt" "$elog"
	expect_eq "$t: a Write-only hook fires for both, the edit as tool Edit" \
		"$(printf 'Edit edit notes.txt\nWrite create fresh.txt\nWrite create x.txt')" "$wlog"
	# (a denied write may be tried again by the agent: each try is a call)
	n=$(grep -c -x -e 'Edit edit notes.txt' -e 'Write create fresh.txt' "$dir.write.log" 2>/dev/null)
	expect_eq "$t: ... once per allowed Write or Edit (no second event at an atomic save's rename)" 2 "$n"
	[ "$n" = 2 ] || note "Write hook runs: $(tr '\n' ';' <"$dir.write.log")"
	if [ "$rc" != 0 ] || [[ "$r1" != *OWN-WRITE-DENIED* ]] ||
		[ "$elog" != "Edit edit notes.txt" ]; then
		note "stderr: $(head -c 1500 "$dir.err")"
		head -c 3000 <<<"$all" | sed 's/^/# /'
	fi
done
