# Read events (opt-in): a PreToolUse hook on Read makes the agent's own
# opens for reading under the root events, with tool_input.file_path;
# a tool call's shell (`bash -c 'cat .env'`) and its children never fire
# them; a config without Read hooks, or with only a catch-all, sends none;
# a Read(...) rule narrows them in-process (no event for other files).
# A denied read or write fails with EACCES, and the hook's reason reaches
# the program's own error text (strerror: CPython's traceback, bash's
# redirection error).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "read events: no hookshim build"; exit 0; }
command -v python3 >/dev/null && command -v jq >/dev/null ||
	{ skip "read events: python3 or jq missing"; exit 0; }
ROOT=$TMP/root
mkdir -p "$ROOT/secrets" "$ROOT/src"
echo 'API_KEY=sk-123' >"$ROOT/.env"
echo 'plain' >"$ROOT/src/a.txt"
echo 'hidden' >"$ROOT/secrets/k"

# A public-style guard: blocks reading .env and secrets/, records every payload.
GUARD=$HOOKSHIM_TOP/tests/fixtures/read_guard.sh
export PAYLOADS=$TMP/payloads.jsonl

cfg() { # cfg FILE MATCHER [IF [ARG]]
	jq -n --arg m "$2" --arg c "$GUARD ${4:-}" --arg rule "${3:-}" \
		'{hooks: {PreToolUse: [{matcher: $m, hooks: [
		  {type: "command", command: $c} + (if $rule == "" then {} else {"if": $rule} end)]}]}}' >"$1"
}
cfg "$TMP/read.json" "Read"
cfg "$TMP/star.json" "*" "" star # not identical to the Read one: both run
cfg "$TMP/write.json" "Write|Edit"
cfg "$TMP/rule.json" "Read" "Read(secrets/**)"

# run CFG PYTHON: the agent is python3; sets OUT, ERR, LOG
run() {
	: >"$PAYLOADS"
	rm -f "$TMP/log"
	( cd "$ROOT" && "$HOOKSHIM" run -c "$1" --root "$ROOT" --log "$TMP/log" \
		-- python3 -c "$2" ) >"$TMP/out" 2>"$TMP/err"
	OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
	LOG=$(jq -c 'select(.op == "read") | {path, decision}' "$TMP/log" 2>/dev/null)
}

READS='
for p in ["src/a.txt", ".env"]:
    try: print(p, "=", open(p).read().strip())
    except OSError as e: print(p, "!", e.errno, e.strerror)
'
run "$TMP/read.json" "$READS"
expect_contains "Read hook: an ordinary file reads" "$OUT" "src/a.txt = plain"
expect_contains "Read hook: .env is denied with EACCES" "$OUT" ".env ! 13"
expect_not_contains "Read hook: .env's content never reached the agent" "$OUT" "sk-123"
expect_contains "Read hook: the reason is in the program's error text" "$OUT" \
	"Permission denied by hookshim: Blocked: .env holds secrets; use .env.example"
expect_contains "Read hook: the reason on stderr" "$ERR" "read of $ROOT/.env denied: Blocked: .env holds secrets"
expect_eq "Read hook: the payload is Claude's Read with file_path" \
	"Read $ROOT/.env PreToolUse" \
	"$(jq -r 'select(.tool_input.file_path | endswith(".env")) | "\(.tool_name) \(.tool_input.file_path) \(.hook_event_name)"' "$PAYLOADS")"
expect_contains "Read hook: the log records the denied read" "$LOG" "{\"path\":\"$ROOT/.env\",\"decision\":\"deny\"}"

# the reason is said once: a second EACCES on the thread reads as usual
run "$TMP/read.json" '
import os
try: open(".env")
except OSError as e: print("first:", e.strerror)
os.chmod("secrets/k", 0)
print("second:", os.strerror(13))
'
expect_contains "once: the denial's message carries the reason" "$OUT" "first: Permission denied by hookshim: Blocked"
expect_contains "once: the next message is libc's" "$OUT" "second: Permission denied"
expect_not_contains "once: ... without the reason" "${OUT#*second:}" "hookshim"
chmod 600 "$ROOT/secrets/k"

# A tool call's shell is not the agent: its reads are its command's.
run "$TMP/read.json" '
import subprocess
print(subprocess.run(["bash", "-c", "cat .env; python3 -c \"print(open(\x27.env\x27).read())\""],
                     capture_output=True, text=True).stdout)
'
expect_contains "tool call: cat .env in a command is not a read event" "$OUT" "API_KEY=sk-123"
expect_eq "tool call: no read event from the shell or its children" "" "$LOG"

# Opt-in: no Read hook, no read events; a catch-all alone does not ask.
for c in write star; do
	run "$TMP/$c.json" "$READS"
	expect_contains "$c config: .env reads" "$OUT" ".env = API_KEY=sk-123"
	expect_eq "$c config: no read event at all" "" "$LOG"
	check "$c config: no Read payload" [ ! -s "$PAYLOADS" ]
	wf=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/$c.json" --root "$ROOT" -- printenv HOOKSHIM_WRITE)
	expect_not_contains "$c config: no read globs in the filter" "$wf" "("
done
# ... but once a hook names Read, a catch-all hook sees reads too (as in
# Claude Code, where "*" fires for every tool).
jq -s '{hooks: {PreToolUse: (.[0].hooks.PreToolUse + .[1].hooks.PreToolUse)}}' \
	"$TMP/read.json" "$TMP/star.json" >"$TMP/both.json"
run "$TMP/both.json" "$READS"
expect_eq "Read + catch-all: both hooks saw the .env read" 2 \
	"$(jq -r 'select(.tool_name == "Read" and (.tool_input.file_path | endswith(".env"))) | 1' "$PAYLOADS" | wc -l)"

# A Read(...) rule narrows reads in the shim: no event for other files.
run "$TMP/rule.json" '
for p in ["src/a.txt", ".env", "secrets/k"]:
    try: print(p, "=", open(p).read().strip())
    except OSError as e: print(p, "!", e.strerror)
'
expect_contains "Read(secrets/**): secrets/k denied" "$OUT" "secrets/k ! Permission denied by hookshim: Blocked: nothing under secrets/"
expect_contains "Read(secrets/**): .env is outside the rule" "$OUT" ".env = API_KEY"
expect_eq "Read(secrets/**): the only read event is secrets/k" \
	"{\"path\":\"$ROOT/secrets/k\",\"decision\":\"deny\"}" "$LOG"

# `hookshim test` says what the live path did.
t=$(cd "$ROOT" && "$HOOKSHIM" test -c "$TMP/read.json" --root "$ROOT" PreToolUse --tool Read \
	--input "{\"file_path\":\"$ROOT/.env\"}" 2>&1)
expect_contains "hookshim test: Read of .env is denied" "$t" "deny"

# Writes: the reason reaches CPython's traceback and bash's error text.
cfg "$TMP/w.json" "Write|Edit"
run "$TMP/w.json" 'open("secrets/x", "w")'
expect_contains "write: python3's traceback carries the reason" "$ERR" \
	"PermissionError: [Errno 13] Permission denied by hookshim: Blocked: nothing under secrets/: 'secrets/x'"
check "write: secrets/x not created" [ ! -e "$ROOT/secrets/x" ]
err=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/w.json" --root "$ROOT" -- bash -c 'echo x > secrets/y' 2>&1)
expect_contains "write: bash's redirection error carries the reason" "$err" \
	"secrets/y: Permission denied by hookshim: Blocked: nothing under secrets/"

# node (libuv's own errno table: no libc message to carry the reason):
# the agent's last own denial reaches the stderr of its next tool call,
# once — what the agent hands its model as that tool's result.
if command -v node >/dev/null; then
	cfg "$TMP/rw.json" "Read|Write|Edit"
	out=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/rw.json" --root "$ROOT" -- node -e '
const fs = require("fs"), cp = require("child_process");
const sh = c => cp.spawnSync("/bin/sh", ["-c", c], { encoding: "utf8" }).stderr;
try { fs.writeFileSync("secrets/n", "k") } catch (e) { console.log("write:", e.message) }
console.log("next:", JSON.stringify(sh("true")));
console.log("after:", JSON.stringify(sh("true")));
try { fs.readFileSync(".env") } catch (e) { console.log("read:", e.message) }
console.log("next2:", JSON.stringify(sh("true")));
' 2>/dev/null)
	expect_contains "node: the write fails with libuv's text" "$out" "write: EACCES: permission denied"
	expect_contains "node: the next tool call's stderr carries the reason" "$out" \
		"next: \"hookshim: the agent's write to $ROOT/secrets/n was denied by a hook: Blocked: nothing under secrets/\\n\""
	expect_contains "node: only once" "$out" 'after: ""'
	expect_contains "node: a denied read's reason, the same way" "$out" \
		"next2: \"hookshim: the agent's read of $ROOT/.env was denied by a hook: Blocked: .env holds secrets; use .env.example\\n\""
	check "node: secrets/n not created" [ ! -e "$ROOT/secrets/n" ]
else
	skip "read events: node missing"
fi
