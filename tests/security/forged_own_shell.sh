# Enforce mode: an agent's own shell is decided and logged once, the
# other side answering "own" from a ticket (supervisor/session.c). The
# ticket must not make an exec the agent's own: a process that forges a
# question about `sh -c env` as if a process named claude asked (its pid
# in the request, a decoy started as `claude`) gets an "own" answer for
# itself and a ticket under its real pid -- and then execs that very argv
# from a static program, which only the floor sees. The floor asks again
# of what it knows (the caller the kernel names: not Claude Code) and
# finds a tool call: the Bash hook sees `env`.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
need_floor "forged own shell"
SS=$HOOKSHIM_PROBES/spawn_static
[ -x "$SS" ] || { skip "forged own shell: probes not built"; exit 0; }
command -v jq >/dev/null && command -v python3 >/dev/null ||
	{ skip "forged own shell: jq or python3 missing"; exit 0; }

cat > hooks.json <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"jq -r .tool_input.command >> $TMP/seen; exit 0"}]}]}}
J
rm -f "$TMP/seen"
# the forging process execs the static program in place: the same pid
"$HOOKSHIM" run --enforce --no-notices -c hooks.json --log s.log -- \
	python3 "$HOOKSHIM_TOP/tests/security/forged_supervisor.py" own "$SS" exec:env >out 2>err
expect_contains "forged own shell: the forged question was answered own" "$(cat out)" "forged: answered own"
expect_contains "forged own shell: the static exec ran (the hook allows)" "$(cat out)" "HOOKSHIM_SOCK="
expect_eq "forged own shell: the exec the floor saw was judged as a tool call: the hook saw env" \
	"env" "$(grep -x env "$TMP/seen" 2>/dev/null)"
expect_eq "forged own shell: the log has the tool call's decision" "allow" \
	"$(jq -r 'select(.event == "pre" and .via == "floor" and .argv[-1] == "env") | .decision' s.log | head -1)"
