# Every example of the three seed documents, verbatim in tests/fixtures/seeds,
# loads and behaves as its document says under `hookshim test`.
. "$HOOKSHIM_TOP/tests/lib.sh"
FX=$HOOKSHIM_TOP/tests/fixtures/seeds
export HOME=$TMP/home
mkdir -p "$HOME/.memcode" "$HOME/.mnemoai/hooks" bin proj/.memcode
export PATH=$TMP/bin:$PATH
# The documents' examples call `python`; some machines only have python3.
command -v python >/dev/null || ln -s "$(command -v python3)" bin/python

hs() { "$HOOKSHIM" "$@"; }

# --- memcode -------------------------------------------------------------
cp "$FX/memcode-force-push.json" "$HOME/.memcode/hooks.json"
out=$(hs test --import memcode pre_tool_use --tool bash \
	--input '{"command":"git push --force origin main"}' 2>&1); rc=$?
expect_eq "memcode force-push guard blocks git push --force (exit 2)" 2 "$rc"
expect_contains "memcode force-push reason is the hook's stderr" "$out" "force-push is blocked by policy"
hs test --import memcode pre_tool_use --tool bash --input '{"command":"git push origin main"}' >/dev/null 2>&1
expect_eq "memcode force-push guard lets git push through" 0 "$?"
hs test --import memcode pre_tool_use --tool bash --input '{"command":"git push -f"}' >/dev/null 2>&1
expect_eq "memcode force-push guard blocks -f" 2 "$?"
hs test --import memcode pre_tool_use --tool edit_file --input '{"path":"x --force"}' >/dev/null 2>&1
expect_eq "memcode matcher is full-matched on the tool name (edit_file untouched)" 0 "$?"

# user file first, then the project's: both run, user first
cat > "$HOME/.memcode/hooks.json" <<'J'
{"hooks":{"pre_tool_use":[{"command":"echo user >> \"$MEMCODE_PROJECT_DIR/order\""}]}}
J
cat > proj/.memcode/hooks.json <<'J'
{"hooks":{"pre_tool_use":[{"matcher":"ba.*","command":"echo project >> order; echo \"$MEMCODE_HOOK_EVENT $MEMCODE_TOOL_NAME $MEMCODE_SESSION_ID\" >> order"}]}}
J
# the project's file came with the project: not loaded until trusted
out=$(hs test --import memcode --root proj pre_tool_use --tool bash --input '{"command":"ls"}' 2>&1 >/dev/null)
expect_eq "an untrusted project file: only the user's hook ran" "user" "$(cat proj/order)"
expect_contains "an untrusted project file: test says so" "$out" \
	"proj/.memcode/hooks.json: came with the project and is not trusted yet"
rm proj/order
hs trust --root proj >/dev/null
hs test --import memcode --root proj pre_tool_use --tool bash --input '{"command":"ls"}' >/dev/null 2>&1
# the session id is a live one: 32 hex digits, new each run
expect_eq "memcode merges user then project, cwd = root, MEMCODE_* env" \
	"user project pre_tool_use bash SESSION" "$(tr '\n' ' ' < proj/order | sed 's/ $//; s/ [0-9a-f]\{32\}$/ SESSION/')"

cp "$FX/memcode-config.json" "$HOME/.memcode/hooks.json"
rm -f proj/.memcode/hooks.json
out=$(hs test --import memcode session_start --json 2>/dev/null)
expect_contains "memcode session_start stdout becomes standing context" \
	"$(jq -r .session_context <<<"$out")" "Deploy freeze until Friday"
out=$(hs test --import memcode pre_tool_use --tool bash --input '{"command":"ls"}' 2>&1); rc=$?
expect_eq "memcode missing guard script is a non-blocking warning" 0 "$rc"
expect_contains "memcode missing guard script is reported" "$out" "exited 127"

# gofmt every Go file the agent edits: a gofmt stand-in that rewrites the file
cat > bin/gofmt <<'S'
#!/bin/sh
[ "$1" = -w ] && shift
sed -i 's/  */ /g' "$1"; echo "formatted $1" >> "$(dirname "$1")/gofmt.log"
S
chmod +x bin/gofmt
cp "$FX/memcode-gofmt.json" "$HOME/.memcode/hooks.json"
printf 'package  main\n' > main.go; printf 'a  b\n' > notes.txt
hs test --import memcode post_tool_use --tool edit_file --input "{\"path\":\"$TMP/main.go\"}" >/dev/null 2>&1
hs test --import memcode post_tool_use --tool edit_file --input "{\"path\":\"$TMP/notes.txt\"}" >/dev/null 2>&1
expect_eq "memcode gofmt example formats .go files" "package main" "$(cat main.go)"
expect_eq "memcode gofmt example leaves other files" "a  b" "$(cat notes.txt)"
rm -f "$HOME/.memcode/hooks.json"

# --- mnemoai -------------------------------------------------------------
cp "$FX/mnemoai-secrets.json" "$HOME/.mnemoai/hooks/hooks.json"
out=$(hs test --import mnemoai PreToolUse --tool fs_write \
	--input "{\"path\":\"$TMP/proj/secrets/key.pem\"}" 2>&1); rc=$?
expect_eq "mnemoai secrets guard denies secrets/ (exit 2)" 2 "$rc"
expect_contains "mnemoai secrets guard reason" "$out" "Blocked by a local hook."
hs test --import mnemoai PreToolUse --tool fs_write --input "{\"path\":\"$TMP/proj/app.py\"}" >/dev/null 2>&1
expect_eq "mnemoai secrets guard allows other paths" 0 "$?"
hs test --import mnemoai PreToolUse --tool Write --input "{\"file_path\":\"$TMP/secrets/k\"}" >/dev/null 2>&1
expect_eq "mnemoai guard sees a Claude-spelled write as fs_write with path" 2 "$?"

cp "$FX/mnemoai-git-status.json" "$HOME/.mnemoai/hooks/hooks.json"
out=$(hs test --import mnemoai PreToolUse --tool execute_bash --input '{"command":"git status --short"}' --json)
expect_eq "mnemoai git-status auto-approve returns allow" allow "$(jq -r '.hooks[0].decision' <<<"$out")"
out=$(hs test --import mnemoai PreToolUse --tool execute_bash --input '{"command":"rm -rf /"}' --json)
expect_eq "mnemoai auto-approve says nothing for other commands" none "$(jq -r '.hooks[0].decision' <<<"$out")"

cp "$FX/mnemoai-failure-hint.json" "$HOME/.mnemoai/hooks/hooks.json"
out=$(hs test --import mnemoai PostToolUseFailure --tool execute_bash --input '{"command":"false"}' --exit 1 --json)
expect_eq "mnemoai PostToolUseFailure hint comes back as additional context" \
	"Re-read the file before retrying — it may have changed on disk." "$(jq -r .additional_context <<<"$out")"
out=$(hs test --import mnemoai PostToolUse --tool execute_bash --input '{"command":"true"}' --json)
expect_eq "mnemoai failure hint does not fire on success" 0 "$(jq '.hooks|length' <<<"$out")"

cp "$FX/mnemoai-formatter.json" "$HOME/.mnemoai/hooks/hooks.json"
out=$(hs check --import mnemoai)
expect_contains "mnemoai formatter example loads (check lists it)" "$out" "my-formatter-wrapper.sh"
expect_contains "mnemoai check shows timeout" "$out" "(30s)"

# --- memoh ---------------------------------------------------------------
hs check -c "$FX/memoh-empty.json" >/dev/null
expect_eq "memoh starter config loads" 0 "$?"
out=$(hs test -c "$FX/memoh-structure.json" PreToolUse --tool exec --input '{"command":"ls"}' --json 2>/dev/null); rc=$?
expect_eq "memoh review hook with a missing script and on_error: block denies" 2 "$rc"
expect_eq "memoh review hook ran with its 5s timeout" 1 "$(jq '.hooks|length' <<<"$out")"
out=$(hs test -c "$FX/memoh-structure.json" PreToolUse --tool write_file --input '{"path":"x"}' --json 2>/dev/null)
expect_eq "memoh matcher ^exec$ ignores other tools" 0 "$(jq '.hooks|length' <<<"$out")"
out=$(hs test -c "$FX/memoh-actions.json" PreToolUse --tool exec --input '{"command":"ls"}' --json)
expect_eq "memoh append_context decision" "Use the production-safe command variant." "$(jq -r .additional_context <<<"$out")"
out=$(hs test -c "$FX/memoh-actions.json" PostToolUse --tool exec --input '{"command":"ls"}' --json); rc=$?
expect_eq "memoh on_error: ignore (missing /data work_dir) still allows" 0 "$rc"
expect_eq "memoh record_event tool action runs as a built-in" 2 "$(jq '.hooks|length' <<<"$out")"

# --- Claude Code equivalents --------------------------------------------
C=$FX/claude-equivalent.json
hs test -c "$C" PreToolUse --tool Bash --input '{"command":"git push --force"}' >/dev/null 2>&1
expect_eq "claude force-push guard blocks" 2 "$?"
out=$(hs test -c "$C" PreToolUse --tool Bash --input '{"command":"git status"}' --json)
expect_eq "claude git status auto-approve (if: Bash(git status*))" allow "$(jq -r .hooks[1].decision <<<"$out")"
expect_eq "claude if-rule skips non-matching commands before spawning" 1 \
	"$(hs test -c "$C" PreToolUse --tool Bash --input '{"command":"ls"}' --json | jq '.hooks|length')"
out=$(hs test -c "$C" PreToolUse --tool Write --input "{\"file_path\":\"$TMP/secrets/k\"}" 2>&1); rc=$?
expect_eq "claude Write(secrets/**) denies" 2 "$rc"
expect_contains "claude Write deny reason" "$out" "no writes under secrets/: $TMP/secrets/k"
hs test -c "$C" PreToolUse --tool Write --input "{\"file_path\":\"$TMP/src/k\"}" >/dev/null 2>&1
expect_eq "claude Write(secrets/**) allows elsewhere" 0 "$?"
out=$(hs test -c "$C" PostToolUseFailure --tool Bash --input '{"command":"false"}' --exit 1 --json)
expect_eq "claude PostToolUseFailure additionalContext" "Re-read the file before retrying." "$(jq -r .additional_context <<<"$out")"
