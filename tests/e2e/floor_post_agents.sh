# End to end: PostToolUse for a real agent's own writes (docs/floor.md,
# "PostToolUse"). Codex 0.171.0 is a static musl binary: when the model's
# command is an `apply_patch` heredoc, Codex applies the patch itself, with
# its own raw open/unlink, which only the floor sees -- each file it adds,
# updates or deletes fires one post; one into secrets/, which a Write hook
# denies, leaves no file and fires none. Claude Code's Write goes through
# Bun's raw syscalls to a temp file and a libc rename, which the shim
# posts: still one post, none for the temp file.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-floor-post
[ -x "$HOOKSHIM" ] || { skip "e2e floor post: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "e2e floor post: jq missing"; exit 0; }

PLOG=$TMP/post.log
cat >"$TMP/hooks.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command",
 "command":"jq -r '[.hook_event_name,.tool_name,.tool_input.file_path,.tool_input.operation] | join(\" \")' >> $PLOG"}]}],
 "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -c .tool_input.command >> $TMP/bash.log"}]},
  {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo secrets-are-read-only >&2; exit 2"}]}]}}
J
posts() { sed "s|$1/||" "$PLOG" | sort; }

# session AGENT DIR TURN FILE: one scripted turn (then a final text) in DIR under
# `hookshim run`; true when the agent exited 0 and DIR/FILE exists.
# A Write hook denies secrets/. The plain agent takes the same turn first,
# in a copy of DIR: when it does not make FILE, the case is skipped.
session() {
	local agent=$1 dir=$2 turn=$3 made=$4 rc f=$TMP/${2##*/} p=$2-plain
	rm -rf "$p"; cp -a "$dir" "$p"
	e2e_script "$f.plain.json" "${turn//$dir/$p}" '{"text":"HS-FINAL done"}'
	e2e_session "$f.plain.json" "$f.plain.rec" "$p" "$agent" "Do it." >/dev/null
	rc=$?
	if [ "$rc" != 0 ] || [ ! -e "$p/$made" ]; then
		skip "e2e floor post: the plain $agent does not make $made here (rc=$rc: $(tail -c 200 "$f.plain.rec.err" | tr '\n' ' '))"
		return 1
	fi
	e2e_script "$f.json" "$turn" '{"text":"HS-FINAL done"}'
	e2e_server_start "$f.json" "$f.rec"
	AGENT_PREFIX=("$HOOKSHIM" run -c "$TMP/hooks.json" --)
	(cd "$dir" && e2e_agent "$agent" "Do it." >/dev/null 2>"$f.err"); rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	[ "$rc" = 0 ] && [ -e "$dir/$made" ] && return 0
	fail "e2e floor post: $agent did not write $made (rc=$rc)"
	note "$(tail -c 1500 "$f.err")"
	return 1
}

# ---- Codex: apply_patch, applied by Codex itself ----
dir=$TMP/codex; mkdir -p "$dir"; echo old >"$dir/upd.txt"; echo gone >"$dir/del.txt"; : >"$PLOG"
patch=$'apply_patch <<\'EOF\'\n*** Begin Patch\n*** Add File: made.txt\n+hello\n*** Update File: upd.txt\n@@\n-old\n+new\n*** Delete File: del.txt\n*** End Patch\nEOF'
if session codex "$dir" "$(jq -nc --arg c "$patch" '{tool:"shell",input:{command:$c,description:"Patch"}}')" made.txt; then
	expect_eq "e2e floor post: codex applied the patch itself" "hello new absent" \
		"$(cat "$dir/made.txt") $(cat "$dir/upd.txt") $([ -e "$dir/del.txt" ] && echo present || echo absent)"
	expect_eq "e2e floor post: no Bash tool call ran it (Codex's own write)" "" \
		"$(cat "$TMP/bash.log" 2>/dev/null)"
	expect_eq "e2e floor post: codex's add/update/delete fire one post each" \
		"$(printf '%s\n' "PostToolUse Edit del.txt delete" "PostToolUse Edit upd.txt edit" \
			"PostToolUse Write made.txt create" | sort)" "$(posts "$dir")"
fi

# ---- Codex: its own apply_patch into secrets/, denied: no file, no post ----
dir=$TMP/codex-deny; mkdir -p "$dir/secrets"; : >"$PLOG"
patch=$'apply_patch <<\'EOF\'\n*** Begin Patch\n*** Add File: secrets/no.txt\n+hello\n*** End Patch\nEOF'
if session codex "$dir" "$(jq -nc --arg c "$patch" '{tool:"shell",input:{command:$c,description:"Patch"}}')" .; then
	check "e2e floor post: the plain codex wrote secrets/no.txt" test -e "$dir-plain/secrets/no.txt"
	expect_eq "e2e floor post: codex's own apply_patch into secrets/ is denied: no file, no post" \
		"absent " "$([ -e "$dir/secrets/no.txt" ] && echo present || echo absent) $(cat "$PLOG")"
	expect_contains "e2e floor post: ... and Codex tells the model the write failed" \
		"$(e2e_result "$TMP/codex-deny.rec" 0)" "Failed to write file"
fi

# ---- Claude Code: its own Write tool (temp file + rename) ----
dir=$TMP/claude; mkdir -p "$dir"; : >"$PLOG"
if session claude "$dir" "{\"tool\":\"write\",\"input\":{\"file_path\":\"$dir/by-write.txt\",\"content\":\"x\\n\"}}" by-write.txt; then
	expect_eq "e2e floor post: claude's Write fires exactly one post, none for its temp file" \
		"PostToolUse Write by-write.txt create" "$(posts "$dir")"
fi
