# The hook runner and merge rules through `hookshim check` / `hookshim test`,
# with real hook processes.
# lane: alone -- a killed hook must be gone within 10 s
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"

# --- bad input -------------------------------------------------------------
printf '{\n  "hooks": {\n    "PreToolUse": [1,]\n  }\n}\n' > bad.json
out=$(hs check -c bad.json 2>&1); rc=$?
expect_contains "malformed JSON reports file:line:column" "$out" "bad.json:3:22: malformed JSON"
check "check exits non-zero when a file cannot be used" test "$rc" != 0

cat > regex.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash(", "hooks":[{"type":"command","command":"exit 2"}]},
 {"matcher":"Bash", "hooks":[{"type":"command","command":"echo kept >&2; exit 2"}]}
]}}
J
out=$(hs check -c regex.json 2>&1); rc=$?
expect_contains "bad regex names the hook" "$out" "hooks.PreToolUse[0].hooks[0]"
expect_contains "bad regex names the pattern" "$out" "/Bash(/"
# A skipped hook is a deny that silently vanished: an error for `check`
# (issue 16), while `test` and `run` still go on with the rest of the file.
expect_eq "a bad regex is an error: check exits 1" 1 "$rc"
out=$(hs test -c regex.json PreToolUse --tool Bash --input '{"command":"ls"}' 2>&1)
expect_contains "one broken entry never costs the rest of the file" "$out" "kept"

cat > unknown.json <<'J'
{"hooks":{"PreToolUze":[{"hooks":[{"type":"command","command":"true"}]}],
 "UserPromptSubmit":[{"hooks":[{"type":"command","command":"true"}]}],
 "PreToolUse":[{"hooks":[{"type":"command"},{"type":"prompt","prompt":"x"},{"type":"command","command":"true","timeout":"x"}]}]},
 "hookshim":{"colour":"blue"}}
J
out=$(hs check -c unknown.json 2>&1)
expect_contains "unknown event named" "$out" 'unknown event "PreToolUze"'
expect_contains "catalog-only event loads with a notice" "$out" "UserPromptSubmit happens inside the agent"
expect_contains "missing command named" "$out" 'hooks.PreToolUse[0].hooks[0]: missing "command"'
expect_contains "unsupported handler type named" "$out" "handler type prompt"
expect_contains "bad timeout named" "$out" "timeout must be a positive number"
expect_contains "unknown settings field named" "$out" "hookshim.colour"
out=$(hs check -c nonexistent.json 2>&1); rc=$?
expect_contains "missing config file named" "$out" "nonexistent.json: No such file"
check "missing -c file is fatal" test "$rc" != 0

printf '{"version":2,"hooks":[]}' > v2.json
out=$(hs check -c v2.json 2>&1)
expect_contains "memoh version must be 1" "$out" '"version" must be 1'
cat > memoh-bad.json <<'J'
{"version":1,"hooks":[{"event":"Nope","actions":[]},{"event":"TurnEnd","actions":[{"type":"command","command":"true"}]},
 {"event":"PreToolUse","actions":[{"type":"mcp_tool"},{"type":"tool","tool":"send_email"}]}]}
J
out=$(hs check -c memoh-bad.json 2>&1)
expect_contains "memoh unknown event" "$out" 'unknown event "Nope"'
expect_contains "memoh catalog-only event notice" "$out" "TurnEnd cannot be produced by this host"
expect_contains "memoh mcp_tool rejected" "$out" "mcp_tool is reserved"
expect_contains "memoh unknown tool action notice" "$out" "send_email"

# --- decisions, merge order, dedup ------------------------------------------
cat > claude.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[
   {"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"},
   {"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"are you sure\"}}'"},
   {"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"legacy block\"}'"},
   {"type":"command","command":"echo '{\"hookSpecificOutput\":{\"additionalContext\":\"ctx-1\"},\"systemMessage\":\"note\",\"continue\":false,\"stopReason\":\"halt\"}'"}
 ]},
 {"matcher":"*","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}
]}}
J
out=$(hs test -c claude.json PreToolUse --tool Bash --input '{"command":"ls"}' --json 2>/dev/null); rc=$?
expect_eq "claude deny > ask > allow (legacy block is deny)" "deny/2" "$(jq -r .decision <<<"$out")/$rc"
expect_eq "claude deny reason" "legacy block" "$(jq -r .reason <<<"$out")"
expect_eq "claude additionalContext" "ctx-1" "$(jq -r .additional_context <<<"$out")"
expect_eq "claude systemMessage" "note" "$(jq -r .system_message <<<"$out")"
expect_eq "claude continue:false" "false" "$(jq -r .continue <<<"$out")"
expect_eq "claude identical handlers run once; all handlers run" 4 "$(jq '.hooks|length' <<<"$out")"
cat > ask.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[
 {"type":"command","command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\"}}'"},
 {"type":"command","command":"echo '{\"decision\":\"approve\"}'"}]}]}}
J
hs test -c ask.json PreToolUse --tool Bash --input '{"command":"ls"}' >/dev/null 2>&1
expect_eq "ask beats allow; hookshim test exits 3" 3 "$?"
cat > exit2.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo 'not json' ; echo why >&2; exit 2"}]}],
 "PostToolUse":[{"hooks":[{"type":"command","command":"echo post-says >&2; exit 2"},{"type":"command","command":"exit 1"}]}]}}
J
out=$(hs test -c exit2.json PreToolUse --tool Bash --input '{"command":"ls"}' 2>&1 >/dev/null)
expect_eq "claude exit 2 denies with stderr as the reason" "why" "$out"
out=$(hs test -c exit2.json PostToolUse --tool Bash --input '{"command":"ls"}' --json)
expect_eq "claude PostToolUse exit 2 feeds stderr back as context" "post-says" "$(jq -r .additional_context <<<"$out")"
expect_eq "claude PostToolUse never denies" allow "$(jq -r .decision <<<"$out")"
expect_contains "other exit codes are non-blocking warnings" "$(jq -r '.warnings[]' <<<"$out")" "exited 1 (non-blocking)"

mkdir -p "$HOME/.mnemoai/hooks"
cat > "$HOME/.mnemoai/hooks/hooks.json" <<'J'
{"// comment":"ignored","hooks":{"PreToolUse":[
 {"matcher":"exec*","hooks":[
  {"type":"command","command":"echo '{\"decision\":\"allow\",\"additionalContext\":\"A\"}'"},
  {"type":"command","command":"echo '{\"additionalContext\":\"B\"}'; [[ -n \"$BASH_VERSION\" ]] && echo bash >> $HOME/shell"},
  {"type":"command","command":"echo '{\"decision\":\"deny\",\"reason\":\"first deny\"}'"},
  {"type":"command","command":"echo '{\"decision\":\"deny\",\"reason\":\"second deny\"}'"}]},
 {"matcher":"execute_bash","hooks":[{"//":"x","type":"command","command":"sleep 5","timeout":900}]}]}}
J
out=$(hs test --import mnemoai PreToolUse --tool execute_bash --input '{"command":"ls"}' --json 2>/dev/null)
expect_eq "mnemoai: allow never short-circuits, first deny stops the rest" "deny:first deny:3" \
	"$(jq -r '.decision + ":" + .reason + ":" + (.hooks|length|tostring)' <<<"$out")"
expect_eq "mnemoai additionalContext concatenated" "A
B" "$(jq -r .additional_context <<<"$out")"
expect_eq "mnemoai hooks run under real bash" bash "$(cat "$HOME/shell")"
expect_contains "mnemoai timeout capped at 600" "$(hs check --import mnemoai)" "(600s)"

# mnemoai truncation markers (on a post event: a live pre-write has no
# content, so `hookshim test` leaves it out there)
big=$(head -c 20000 /dev/zero | tr '\0' a)
cat > "$HOME/.mnemoai/hooks/hooks.json" <<'J'
{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"cat > $HOME/payload.json"}]}]}}
J
hs test --import mnemoai PostToolUse --tool fs_write --input "{\"path\":\"$PWD/x\",\"content\":\"$big\"}" >/dev/null
expect_eq "mnemoai long input strings are capped" 10000 "$(jq -r '.tool_input.content|length' "$HOME/payload.json")"
expect_eq "mnemoai clipped keys listed under _truncated" '["content"]' "$(jq -c '.tool_input._truncated' "$HOME/payload.json")"
expect_eq "mnemoai short values are not marked" "$PWD/x" "$(jq -r '.tool_input.path' "$HOME/payload.json")"

# memoh priority order, ties in file order, on_error modes, env, trailing newline
cat > memoh.json <<'J'
{"version":1,"defaults":{"timeout":2},"env":{"EXTRA":"from-config"},"hooks":[
 {"name":"low","event":"PreToolUse","priority":1,"actions":[{"type":"command","command":"echo low >> order"}]},
 {"name":"high","event":"PreToolUse","priority":10,"actions":[{"type":"command","command":"echo high:$MEMOH_HOOK_NAME:$MEMOH_HOOK_EVENT:$EXTRA >> order"}]},
 {"name":"tie-a","event":"PreToolUse","priority":5,"actions":[{"type":"command","command":"echo tie-a >> order; tail -c1 | od -c | head -1 | grep -q 'n' && echo newline >> order"}]},
 {"name":"tie-b","event":"PreToolUse","priority":5,"actions":[
   {"type":"command","command":"exit 3","on_error":"fail"},
   {"type":"command","command":"echo never >> order"}]},
 {"name":"ignored","event":"PreToolUse","priority":4,"actions":[
   {"type":"command","command":"exit 1","on_error":"ignore"},
   {"type":"command","command":"echo after-ignore >> order; echo not-json"}]},
 {"name":"off","event":"PreToolUse","enabled":false,"actions":[{"type":"command","command":"echo off >> order"}]}
]}
J
hs test -c memoh.json --root . PreToolUse --tool exec --input '{"command":"ls"}' >/dev/null 2>&1; rc=$?
expect_eq "memoh runs higher priority first, ties in file order, skips disabled" \
	"high:high:PreToolUse:from-config tie-a newline after-ignore low" "$(tr '\n' ' ' < order | sed 's/ $//')"
expect_eq "memoh on_error fail/ignore do not deny; non-JSON stdout is allow" 0 "$rc"
cat > memoh-block.json <<'J'
{"version":1,"defaults":{"on_error":"block","timeout":"300ms"},"hooks":[
 {"event":"PreToolUse","matcher":"^exec$","actions":[{"type":"command","command":"sleep 10"}]}]}
J
out=$(hs test -c memoh-block.json PreToolUse --tool exec --input '{"command":"ls"}' 2>&1); rc=$?
expect_eq "memoh on_error: block turns a timeout into deny" 2 "$rc"
cat > memoh-ask.json <<'J'
{"version":1,"hooks":[{"event":"BeforeWorkspaceCommand","matcher":"rm ","actions":[{"type":"command","command":"echo '{\"decision\":\"ask_approval\",\"reason\":\"sure?\"}'"}]}]}
J
hs test -c memoh-ask.json BeforeWorkspaceCommand --tool exec --input '{"command":"rm -rf x"}' >/dev/null 2>&1
expect_eq "memoh ask_approval -> ask; matcher target is extra.command" 3 "$?"
hs test -c memoh-ask.json BeforeWorkspaceCommand --tool exec --input '{"command":"ls"}' >/dev/null 2>&1
expect_eq "memoh BeforeWorkspaceCommand matcher misses other commands" 0 "$?"

# --- the runner: timeouts, caps, stdin --------------------------------------
cat > slow.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"sleep 100 & echo $! > kid; sleep 100","timeout":1}]}]}}
J
t0=$(date +%s%N)
out=$(hs test -c slow.json PreToolUse --tool Bash --input '{"command":"ls"}' 2>&1); rc=$?
t1=$(date +%s%N)
expect_eq "a timed-out hook is non-blocking" 0 "$rc"
expect_contains "timeout reported" "$out" "timed out"
check "sleep 100 hook killed within its timeout (<10s)" test $(( (t1 - t0) / 1000000 )) -lt 10000
# gone, or a zombie when this container's pid 1 does not reap orphans
dead() { [ ! -e /proc/$1 ] || [ "$(sed 's/.*) //' /proc/$1/stat | cut -c1)" = Z ]; }
sleep 0.3
check "the hook's children are killed too" dead "$(cat kid)"

cat > loud.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"head -c 50000000 /dev/zero | tr '\\0' x; echo done >&2; exit 2"}]}]}}
J
out=$(hs test -c loud.json PreToolUse --tool Bash --input '{"command":"ls"}' --json 2>/dev/null); rc=$?
expect_eq "a hook printing 50 MB still decides" 2 "$rc"
check "its output is capped (1 MiB: a JSON answer is read whole up to that)" \
	test "$(jq -r '.hooks[0].stdout|length' <<<"$out")" -le 1048576

cat > stdin.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[
 {"type":"command","command":"exit 0"},
 {"type":"command","command":"cat /dev/zero > /dev/null","timeout":1},
 {"type":"command","command":"read -r line; echo \"$line\" | jq -r .tool_input.command | wc -c >&2; exit 2"}]}]}}
J
big=$(head -c 120000 /dev/zero | tr '\0' a) # under MAX_ARG_STRLEN, over a pipe buffer
out=$(hs test -c stdin.json PreToolUse --tool Bash --input "{\"command\":\"$big\"}" 2>&1 >/dev/null); rc=$?
expect_eq "hooks that exit before reading, read forever, or read: no SIGPIPE death, deny holds" 2 "$rc"
expect_eq "the reading hook got the whole payload" 120001 "$out"

# --- check lists by event -----------------------------------------------------
out=$(hs check -c claude.json -c exit2.json)
expect_contains "check groups by event" "$out" "PostToolUse"
expect_contains "check shows source file" "$out" "from exit2.json"

# --- unknown fields are named -------------------------------------------------
cat > typo.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hook":[],"hooks":[{"type":"command","command":"true","timout":5}]}]}}
J
out=$(hs check -c typo.json 2>&1)
expect_contains "unknown handler field named" "$out" 'hooks.PreToolUse[0].hooks[0]: unknown field "timout"'
expect_contains "unknown group field named" "$out" 'hooks.PreToolUse[0]: unknown field "hook"'
printf '{"version":1,"defaultz":{},"hooks":[{"event":"PreToolUse","prio":1,"actions":[{"type":"command","command":"true","workdir":"/"}]}]}' > mtypo.json
out=$(hs check -c mtypo.json 2>&1)
expect_contains "memoh unknown top-level field named" "$out" 'unknown field "defaultz"'
expect_contains "memoh unknown hook field named" "$out" 'hooks[0]: unknown field "prio"'
expect_contains "memoh unknown action field named" "$out" 'unknown field "workdir"'

# --- Claude handlers run in parallel, as Claude Code runs them ----------------
# Each waits for the other's mark: only concurrent runs can both succeed.
cat > par.json <<'J'
{"hooks":{"PreToolUse":[{"hooks":[
 {"type":"command","command":"touch a; for i in $(seq 100); do [ -e b ] && exit 0; sleep 0.05; done; exit 1"},
 {"type":"command","command":"touch b; for i in $(seq 100); do [ -e a ] && exit 0; sleep 0.05; done; exit 1"}]}]}}
J
out=$(hs test -c par.json --root . PreToolUse --tool Bash --input '{"command":"ls"}' --json)
expect_eq "claude handlers run concurrently (each saw the other's mark)" "0 0" \
	"$(jq -r '[.hooks[].exit_code|tostring]|join(" ")' <<<"$out")"
