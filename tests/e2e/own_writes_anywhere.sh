# End to end: the agent's own writes are events wherever they land (issue
# 24 item 1), as Claude Code's Write hook fires for any path its Write
# tool touches -- while the agent's own bookkeeping (its state under
# ~/.NAME, ~/.config/NAME, ~/.local/share/NAME, the XDG cache and state
# trees, the temp directories: common/agent_place.h) fires nothing.
#
# The model writes three files: one under $HOME/notes/ (outside the
# project root; a Write|Edit hook that reads tool_input.file_path denies
# it with a reason), one under $HOME/other/ (allowed), one in the root.
# A command it runs also writes outside the root (a tool's write there is
# no event by default: docs/configuration.md, writes). A catch-all
# PostToolUse Write|Edit hook records every event: it must see exactly
# the model's two allowed files, and nothing of the agent's own state.
#
# The plain agent runs first: an agent that refuses to write outside its
# workspace by itself (Gemini CLI's workspace check) is skipped with the
# reason; Codex has no Write tool (codex_patch.sh).
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-own-writes-anywhere
[ -x "$HOOKSHIM" ] && command -v jq >/dev/null ||
	{ skip "e2e-own-writes-anywhere: hookshim or jq missing"; exit 0; }

REASON="OUTSIDE-DENIED: ~/notes is the user's, ask first"
cat >"$TMP/guard.sh" <<SH
#!/bin/sh
case \$(jq -r '.tool_input.file_path // ""') in
*/notes/*) echo "$REASON" >&2; exit 2 ;;
esac
exit 0
SH
# log.sh FILE: one line per event, "TOOL OPERATION PATH".
cat >"$TMP/log.sh" <<'SH'
#!/bin/sh
jq -r '[.tool_name, .tool_input.operation, .tool_input.file_path] | join(" ")' >>"$1"
SH
chmod +x "$TMP/guard.sh" "$TMP/log.sh"

# run AGENT MODE DIR HOME: one session (MODE plain or hookshim)
run() {
	local agent=$1 mode=$2 dir=$3 home=$4 extra=()
	rm -rf "$dir" "$home"
	mkdir -p "$dir" "$home/notes" "$home/other"
	# Copilot CLI checks paths against its workspace unless told
	[ "$agent" = copilot ] && extra=(--allow-all-paths)
	e2e_script "$dir.script.json" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$home/notes/outside.txt\",\"content\":\"secret plan\\n\"}}" \
		'{"tool":"shell","input":{"command":"echo next-one; echo tool > ~/tool-out.txt","description":"Echo"}}' \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$home/other/ok.txt\",\"content\":\"ok\\n\"}}" \
		"{\"tool\":\"write\",\"input\":{\"file_path\":\"$dir/fresh.txt\",\"content\":\"fresh\\n\"}}" \
		'{"text":"OWA-FINAL done"}'
	e2e_server_start "$dir.script.json" "$dir.rec" || return 1
	if [ "$mode" = hookshim ]; then
		jq -n --arg g "$TMP/guard.sh" --arg l "$TMP/log.sh" --arg d "$dir" '{hooks: {
		  PreToolUse: [{matcher: "Write|Edit", hooks: [{type: "command", command: $g}]}],
		  PostToolUse: [{matcher: "Write|Edit", hooks: [{type: "command", command: ($l + " " + $d + ".events")}]}]}}' \
			>"$dir.hooks.json"
		AGENT_PREFIX=("$HOOKSHIM" run --log "$dir.log.jsonl" -c "$dir.hooks.json" --root "$dir" --)
	fi
	out=$(cd "$dir" && E2E_AGENT_HOME=$home e2e_agent "$agent" "Do the file tasks." "${extra[@]}" 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	all=$(e2e_results "$dir.rec")
}

for agent in $E2E_AGENTS; do
	t=own-writes-anywhere/$agent
	if [ "$agent" = codex ]; then
		skip "$t: Codex has no Write tool; its apply_patch is tested in codex_patch.sh"
		continue
	fi
	home=$TMP/home-$agent
	run "$agent" plain "$TMP/plain-$agent" "$home" || { fail "$t: model server"; continue; }
	if [ "$(cat "$home/notes/outside.txt" 2>/dev/null)" != "secret plan" ]; then
		skip "$t: the plain agent does not write outside its workspace (exit $rc; $(head -c 200 <<<"$all" | tr '\n' ' '))"
		continue
	fi
	expect_eq "$t: plain: the agent writes all three files" "ok fresh" \
		"$(cat "$home/other/ok.txt" "$TMP/plain-$agent/fresh.txt" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"

	dir=$TMP/$agent
	run "$agent" hookshim "$dir" "$home" || { fail "$t: model server"; continue; }
	expect_eq "$t: exit status" 0 "$rc"
	expect_contains "$t: final text" "$out" "OWA-FINAL"
	expect_eq "$t: the denied write outside the root did not land" "" "$(ls -A "$home/notes")"
	expect_eq "$t: the reason reaches the model" 1 "$(grep -o "OUTSIDE-DENIED" <<<"$all" | wc -l)"
	expect_eq "$t: the allowed writes landed, outside the root and in it" "ok fresh" \
		"$(cat "$home/other/ok.txt" "$dir/fresh.txt" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "$t: the command's own write outside the root landed (a tool's: no event)" tool \
		"$(cat "$home/tool-out.txt" 2>/dev/null)"
	expect_eq "$t: the catch-all Write hook saw the model's writes and nothing of the agent's own state" \
		"$(printf 'Write create %s\nWrite create %s' "$dir/fresh.txt" "$home/other/ok.txt" | sort)" \
		"$(sort -u "$dir.events" 2>/dev/null)"
	if [ "$rc" != 0 ] || [[ "$all" != *OUTSIDE-DENIED* ]]; then
		note "stderr: $(head -c 1500 "$dir.err")"
		head -c 3000 <<<"$all" | sed 's/^/# /'
	fi
	[ -s "$dir.events" ] && note "events: $(sort "$dir.events" | uniq -c | sed "s|$TMP|T|g" | tr '\n' ';')"
done
