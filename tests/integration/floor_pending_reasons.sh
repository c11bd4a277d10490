# The reason of a write the floor denied in an agent without the shim (a
# static busybox "agent", as Codex is static), handed to the agent's next
# tool call (floor/floor_pending.c): the supervisor writes it to the
# stderr of the agent's next shell with a command string, once; not to one
# of the agent's own shells (`sh -c env`, config/agents.json), nor to an exec
# that is no tool call (`busybox sh -c`: argv[0] is no shell name, for the
# floor as for the shim), nor twice. A denial in a tool-role process is
# not kept (its stderr is the tool's result already). Write hooks only:
# execs are notified for this alone; with a Bash hook too, the hook still
# sees the command once. A Read hook alone: a denied read travels the same
# way.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor pending: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor pending: jq missing"; exit 0; }
"$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1 ||
	{ skip "floor pending: busybox-static not installed (apt-get install busybox-static)"; exit 0; }
need_floor "floor pending"
BB=/bin/busybox
# busybox as "sh": a shell by its name, as agents run shells
mkdir -p "$TMP/bin"; ln -s $BB "$TMP/bin/sh"
ROOT=$TMP/root
BLOG=$TMP/bash.log
guard='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo \"BLOCKED: secrets/ is read-only\" >&2; exit 2"}]}'
echo "{\"hooks\":{\"PreToolUse\":[$guard]}}" >"$TMP/writes.json"
echo "{\"hooks\":{\"PreToolUse\":[$guard,{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"jq -r .tool_input.command >> $BLOG\"}]}]}}" >"$TMP/both.json"
said() { echo "hookshim: the agent's write to $ROOT/secrets/$1 was denied by a hook: BLOCKED: secrets/ is read-only"; }
fresh() { rm -rf "$ROOT" "$TMP"/*.err; mkdir -p "$ROOT/secrets"; : >"$BLOG"; }
# agent CONFIG SCRIPT: busybox sh -c SCRIPT as the agent (role agent: no
# HOOKSHIM_ROLE), each command's stderr in $TMP/NAME.err
agent() {
	(cd "$ROOT" && TMP=$TMP PATH=$TMP/bin:$PATH "$HOOKSHIM" run -c "$TMP/$1.json" --root "$ROOT" -- \
		$BB sh -c "$2") >"$TMP/out" 2>"$TMP/agent.err"
}
err() { cat "$TMP/$1.err" 2>/dev/null; }

for conf in writes both; do
	fresh
	agent $conf 'echo x > secrets/k; echo x > secrets/k
sh -c env >/dev/null 2>$TMP/internal.err
busybox sh -c "echo busybox" 2>$TMP/busybox.err
sh -c "echo next" 2>$TMP/next.err
sh -c "echo after" 2>$TMP/after.err
echo y > secrets/a; echo z > secrets/b
sh -c "echo two" 2>$TMP/two.err
env HOOKSHIM_ROLE=tool sh -c "echo t > secrets/t" 2>$TMP/tool.err
sh -c "echo last" 2>$TMP/last.err
sh -c "echo q > secrets/q" 2>$TMP/intool.err
sh -c "echo end" 2>$TMP/end.err'
	expect_eq "$conf: the commands ran" "busybox next after two last end" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')"
	check "$conf: nothing reached secrets/" test -z "$(ls -A "$ROOT/secrets")"
	expect_contains "$conf: the agent's own stderr has the floor's message" "$(err agent)" \
		"hookshim: write to $ROOT/secrets/k denied: BLOCKED: secrets/ is read-only"
	expect_eq "$conf: the agent's own shell (sh -c env) does not take it" "" "$(err internal)"
	expect_eq "$conf: busybox sh -c (no shell name) does not take it" "" "$(err busybox)"
	expect_eq "$conf: the next tool call takes it, the same denial once" "$(said k)" "$(err next)"
	expect_eq "$conf: once" "" "$(err after)"
	expect_eq "$conf: two denials, both said" "$(said a)
$(said b)" "$(err two)"
	expect_contains "$conf: a tool-role process's denial is on its own stderr" "$(err tool)" \
		"hookshim: write to $ROOT/secrets/t denied"
	expect_eq "$conf: ... and not kept for the next tool call" "" "$(err last)"
	# the limit (docs/limits.md): a static agent's static tool shell is still
	# "agent" to the floor, so its denial is said there and again next
	expect_contains "$conf: a denial inside a static tool shell: on its stderr" \
		"$(err intool)" "hookshim: write to $ROOT/secrets/q denied"
	expect_eq "$conf: ... and again with the next tool call (the limit)" "$(said q)" "$(err end)"
done
# busybox runs its `sh` applet by exec'ing /proc/self/exe: the floor names
# it (common/proclink.c) and decides it; `busybox sh -c` is no tool call
expect_eq "both: the Bash hook saw each tool call once" \
	"echo next|echo after|echo two|echo t > secrets/t|echo last|echo q > secrets/q|echo end" \
	"$(grep -v '^env$' "$BLOG" | tr '\n' '|' | sed 's/|$//')"
# A Read hook alone: execs are notified for this too (floor_bpf.c), and a
# denied read is said as a read
echo '{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","if":"Read(secrets/**)","command":"echo \"BLOCKED: secrets/ is unreadable\" >&2; exit 2"}]}]}}' >"$TMP/reads.json"
fresh; echo KEY-89 >"$ROOT/secrets/r"
agent reads 'cat secrets/r 2>$TMP/cat.err
sh -c "echo next" 2>$TMP/next.err
sh -c "echo after" 2>$TMP/after.err'
expect_eq "reads: the commands ran, the key unread" "next after" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')"
expect_eq "reads: the next tool call takes the denied read" \
	"hookshim: the agent's read of $ROOT/secrets/r was denied by a hook: BLOCKED: secrets/ is unreadable" "$(err next)"
expect_eq "reads: once" "" "$(err after)"
