# A bare `LD_PRELOAD=libhookshim.so CMD` (no `hookshim run`): the first
# process starts its own session from the default hook files, and ends it
# when it exits; without hook files nothing is started at all.
. "$HOOKSHIM_TOP/tests/lib.sh"
[ -f "$HOOKSHIM_LIB" ] || { skip "bare preload: $HOOKSHIM_LIB not built"; exit 0; }
export HOME=$TMP/home
mkdir -p "$HOME/.config/hookshim" work
cd work || exit 1
unset HOOKSHIM_CONFIG XDG_CONFIG_HOME

cat > "$TMP/policy.sh" <<'S'
c=$(jq -r .tool_input.command)
echo "$c" >> "$SEEN"
case $c in *'rm -rf'*) echo 'no rm -rf here' >&2; exit 2;; esac
S
export SEEN=$TMP/seen
cat > "$HOME/.config/hookshim/hooks.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh $TMP/policy.sh"}]}],
 "SessionStart":[{"hooks":[{"type":"command","command":"echo start >> $TMP/events"}]}],
 "SessionEnd":[{"hooks":[{"type":"command","command":"echo end >> $TMP/events"}]}]}}
J

# supervisors NAME: pids of `hookshim __supervise` still running
supervisors() { pgrep -f '__supervise --pid' || true; }
before=$(supervisors)
# waits up to 5 s for the session of a finished command to end
settle() {
	for _ in $(seq 50); do
		[ "$(supervisors)" = "$before" ] && return 0
		sleep 0.1
	done
	return 1
}

mkdir victim
LD_PRELOAD=$HOOKSHIM_LIB bash -c 'rm -rf victim' 2>err.txt
rc=$?
expect_eq "denied command exits 126" 126 "$rc"
check "victim survives" test -d victim
expect_contains "reason on stderr" "$(cat err.txt)" "no rm -rf here"
check "supervisor gone after the command" settle
expect_eq "SessionStart and SessionEnd once each" "$(printf 'start\nend')" "$(cat "$TMP/events" 2>/dev/null)"

rm -f "$TMP/events" "$TMP/seen"
out=$(LD_PRELOAD=$HOOKSHIM_LIB bash -c 'echo ok; touch made; sh -c "echo nested"' 2>err.txt)
expect_eq "allowed command runs, output unchanged" "$(printf 'ok\nnested')" "$out"
check "allowed command had its effect" test -f made
expect_eq "no warning on stderr" "" "$(cat err.txt)"
check "supervisor gone after the allowed command" settle
expect_eq "one session for the whole tree" "$(printf 'start\nend')" "$(cat "$TMP/events" 2>/dev/null)"
expect_eq "one tool call seen by the hook, nested sh -c not" \
	'echo ok; touch made; sh -c "echo nested"' "$(cat "$TMP/seen")"

# The agent is the first process; its shells are the tool calls.
rm -f "$TMP/events"
mkdir -p victim2
out=$(LD_PRELOAD=$HOOKSHIM_LIB python3 -c '
import subprocess
r = subprocess.run(["bash", "-c", "rm -rf victim2"], capture_output=True, text=True)
print(r.returncode, r.stderr.strip())' 2>/dev/null)
expect_eq "agent (python3) tool call denied" "126 no rm -rf here" "$out"
check "victim2 survives" test -d victim2
check "supervisor gone after the agent" settle
expect_eq "agent session hooks once" "$(printf 'start\nend')" "$(cat "$TMP/events" 2>/dev/null)"

# Ending with the host process even when it is killed.
rm -f "$TMP/events"
LD_PRELOAD=$HOOKSHIM_LIB bash -c 'kill -KILL $$' 2>/dev/null
check "supervisor gone after a killed host" settle
expect_eq "SessionEnd after a killed host" "$(printf 'start\nend')" "$(cat "$TMP/events" 2>/dev/null)"

# HOOKSHIM_CONFIG names the files instead of the defaults.
cat > other.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo other-policy >&2; exit 2"}]}]}}
J
HOOKSHIM_CONFIG=$PWD/other.json LD_PRELOAD=$HOOKSHIM_LIB bash -c 'true' 2>err.txt
expect_eq "HOOKSHIM_CONFIG: its hook decides" "126 other-policy" "$? $(cat err.txt)"
settle >/dev/null

# No hook files: no supervisor is started.
rm -f "$TMP/fake-ran" A fake HOOKSHIM_BIN records
# whether anyone ran it.
cat > fakebin <<J
#!/bin/sh
echo ran >> $TMP/fake-ran
exit 1
J
chmod +x fakebin
rm -f "$HOOKSHIM_TOP/.hookshim-nonexistent"
out=$(HOME=$TMP/empty-home HOOKSHIM_BIN=$PWD/fakebin LD_PRELOAD=$HOOKSHIM_LIB \
	bash -c 'echo fine; sh -c "echo deeper"' 2>err.txt)
expect_eq "no config: command runs" "$(printf 'fine\ndeeper')" "$out"
check "no config: no supervisor started" test ! -e "$TMP/fake-ran"
expect_eq "no config: silent" "" "$(cat err.txt)"
env_out=$(HOME=$TMP/empty-home LD_PRELOAD=$HOOKSHIM_LIB env)
expect_not_contains "no config: environment untouched" "$env_out" "HOOKSHIM_SOCK"

# A hook file with no hooks: the supervisor looks, finds nothing, and the
# shim stays inert without a word.
mkdir -p "$TMP/empty-hooks/.config/hookshim"
echo '{"hooks":{}}' > "$TMP/empty-hooks/.config/hookshim/hooks.json"
out=$(HOME=$TMP/empty-hooks LD_PRELOAD=$HOOKSHIM_LIB bash -c 'echo "[$HOOKSHIM_SOCK]"' 2>err.txt)
expect_eq "empty hook file: no session" "[]" "$out"
expect_eq "empty hook file: silent" "" "$(cat err.txt)"

# A broken supervisor: one warning line, the command still runs.
out=$(HOOKSHIM_BIN=$PWD/fakebin LD_PRELOAD=$HOOKSHIM_LIB bash -c 'echo still' 2>err.txt)
expect_eq "broken supervisor: command runs" "still" "$out"
expect_eq "broken supervisor: one warning line" 1 "$(grep -c 'hookshim: warning' err.txt)"
out=$(HOOKSHIM_BIN=$PWD/fakebin LD_PRELOAD=$HOOKSHIM_LIB bash -c 'sh -c "echo a"; sh -c "echo b"' 2>err.txt)
expect_eq "broken supervisor: children do not retry" "1 a b" \
	"$(grep -c 'hookshim: warning' err.txt) $(echo $out)"

# `hookshim run` under a bare preload is not a second session.
rm -f "$TMP/events"
out=$(LD_PRELOAD=$HOOKSHIM_LIB "$HOOKSHIM" run -- sh -c 'echo "$HOOKSHIM_SESSION"')
check "hookshim run keeps its own session" test -n "$out"
settle >/dev/null
expect_eq "hookshim run: one SessionStart" "$(printf 'start\nend')" "$(cat "$TMP/events" 2>/dev/null)"
check "no supervisor left behind" settle
