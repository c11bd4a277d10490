# `hookshim run`: exit status, signals, session hooks, --log, the config
# snapshot, CMD's environment and terminal, concurrent requests.
# lane: alone -- eight 1 s hooks served at once take < 4 s
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"

# --- exit status -------------------------------------------------------------
hs run -- sh -c 'exit 3'; expect_eq "exit status of CMD" 3 "$?"
hs run sh -c 'exit 0'; expect_eq "no -- needed" 0 "$?"
rc=$(bash -c '"$HOOKSHIM" run -- sh -c "kill -TERM \$\$"; echo $?' 2>/dev/null)
expect_eq "SIGTERM death re-raised (shell sees 143)" 143 "$rc"
rc=$(bash -c '"$HOOKSHIM" run -- sh -c "kill -KILL \$\$"; echo $?' 2>/dev/null)
expect_eq "SIGKILL death re-raised (137)" 137 "$rc"
# CMD may not dump core; hookshim, re-raising its death, must not either.
mkdir -p coredir
out=$(bash -c 'ulimit -c unlimited; cd "$1" && "$HOOKSHIM" run -- sh -c "ulimit -c 0; kill -SEGV \$\$"; echo $?' _ "$TMP/coredir" 2>/dev/null)
expect_eq "SIGSEGV death re-raised" 139 "$out"
check "no core file of hookshim" test -z "$(ls coredir)"
hs run -- /nonexistent/cmd 2>err.txt; rc=$?
expect_eq "missing CMD exits 127" 127 "$rc"
expect_contains "missing CMD named" "$(cat err.txt)" "/nonexistent/cmd"
hs run 2>/dev/null; expect_eq "no CMD is a usage error" 64 "$?"
hs run --bogus -- true 2>/dev/null; expect_eq "unknown option is a usage error" 64 "$?"
out=$(echo data | hs run -- cat); expect_eq "CMD keeps stdin" data "$out"

# --- session hooks -----------------------------------------------------------
cat > session.json <<J
{"hooks":{
 "SessionStart":[{"hooks":[{"type":"command","command":"echo start >> $TMP/events; env > $TMP/hook.env"}]}],
 "SessionEnd":[{"hooks":[{"type":"command","command":"echo end >> $TMP/events"}]}]}}
J
hs run -c session.json -- sh -c 'echo cmd >> events'
expect_eq "SessionStart, CMD, SessionEnd once each, in order" \
	"$(printf 'start\ncmd\nend')" "$(cat events)"
expect_contains "hooks run inert" "$(cat hook.env)" "HOOKSHIM_INERT=1"
expect_not_contains "hooks run without the shim" "$(cat hook.env)" "LD_PRELOAD="
expect_not_contains "hooks do not see the session socket" "$(cat hook.env)" "HOOKSHIM_SOCK="

# memcode's session_start stdout is context: shown on stderr for now.
cat > mc.json <<'J'
{"hooks":{"session_start":[{"command":"echo REMEMBER-THIS"}]}}
J
err=$(hs run --dialect memcode -c mc.json -- true 2>&1 >/dev/null)
expect_contains "memcode session_start context on stderr" "$err" "REMEMBER-THIS"

# --- --log ---------------------------------------------------------------
rm -f events
hs run -c session.json --log "$TMP/s.log" -- true
check "--log lines are JSON" jq -e . "$TMP/s.log" >/dev/null
expect_eq "--log has one line per event" \
	"session_start session_end" "$(jq -r .event "$TMP/s.log" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "--log lines name the session" 1 "$(jq -r .session "$TMP/s.log" | sort -u | wc -l)"
expect_contains "--log lists hook runs" "$(head -1 "$TMP/s.log")" '"status":"exited"'
hs run --log /nonexistent/dir/x.log -- true 2>/dev/null
check "unwritable --log refuses to start" test "$?" != 0

# --- CMD's environment -----------------------------------------------------
mkdir -p proj
env_out=$(cd proj && hs run -- env)
sock=$(sed -n 's/^HOOKSHIM_SOCK=//p' <<<"$env_out")
sess=$(sed -n 's/^HOOKSHIM_SESSION=//p' <<<"$env_out")
expect_eq "HOOKSHIM_SOCK names the session" "hookshim-$sess" "$sock"
check "session id is random hex" grep -qE '^[0-9a-f]{32}$' <<<"$sess"
expect_contains "HOOKSHIM_ROOT is the cwd" "$env_out" "HOOKSHIM_ROOT=$TMP/proj"
bin=$(sed -n 's/^HOOKSHIM_BIN=//p' <<<"$env_out")
check "HOOKSHIM_BIN is the absolute binary" test "$bin" -ef "$HOOKSHIM"
check "HOOKSHIM_FLAGS carries interest, deny settings, the mode (m=0: guard) and the supervisor (pid, start time, network namespace)" \
	grep -qE '^HOOKSHIM_FLAGS=i=[0-9]+,x=126,e=13,s=0,n=0,a=0,l=0,k=0,m=0,p=[0-9]+,t=[0-9]+,w=[0-9]+$' <<<"$env_out"
expect_contains "UV_USE_IO_URING=0" "$env_out" "UV_USE_IO_URING=0"
check "no role for CMD: it is the agent" bash -c '! grep -qE "^HOOKSHIM_ROLE=" <<<"$1"' _ "$env_out"
check "CMD carries the spawn marker: hookshim run decided it" \
	grep -qE '^HOOKSHIM_CHECKED=spawn:[0-9]+$' <<<"$env_out"
env_out=$(hs run --root "$TMP/proj" -- env)
expect_contains "--root sets HOOKSHIM_ROOT" "$env_out" "HOOKSHIM_ROOT=$TMP/proj"
sess2=$(hs run -- env | sed -n 's/^HOOKSHIM_SESSION=//p')
check "each session has its own id" test "$sess" != "$sess2"
if [ -f "$HOOKSHIM_LIB" ]; then
	pre=$(LD_PRELOAD=/lib/x86_64-linux-gnu/libc.so.6 hs run -- sh -c 'echo "$LD_PRELOAD"')
	expect_eq "shim prepended to LD_PRELOAD" \
		"$(realpath "$HOOKSHIM_LIB"):/lib/x86_64-linux-gnu/libc.so.6" "$pre"
else
	skip "LD_PRELOAD prepend: $HOOKSHIM_LIB not built"
fi
pre=$(HOOKSHIM_LIB= hs run -- sh -c 'echo "[${LD_PRELOAD-unset}]"')
expect_eq "empty HOOKSHIM_LIB runs without the shim" "[unset]" "$pre"
out=$(HOOKSHIM_SOCK=stale HOOKSHIM_ROLE=tool hs run -- env)
check "an outer session's variables are replaced" bash -c \
	'! grep -qE "^HOOKSHIM_(SOCK=stale|ROLE=)" <<<"$1"' _ "$out"

# --- signals ---------------------------------------------------------------
# Run in the background directly (not through the hs function, which would
# put a subshell between us and hookshim).
"$HOOKSHIM" run -- sh -c 'sleep 0.5; exit 5' & pid=$!
sleep 0.2; kill -INT $pid; kill -QUIT $pid; wait $pid
expect_eq "hookshim run ignores SIGINT/SIGQUIT sent to it" 5 "$?"
rm -f events
"$HOOKSHIM" run -c session.json -- sh -c 'trap "echo cmd-got-term >> events; exit 7" TERM; sleep 5 & wait' &
pid=$!
sleep 0.5; kill -TERM $pid; wait $pid; rc=$?
expect_eq "SIGTERM forwarded to CMD, its status reported" 7 "$rc"
expect_eq "SessionEnd after a forwarded SIGTERM" \
	"$(printf 'start\ncmd-got-term\nend')" "$(cat events)"

# --- config snapshot -------------------------------------------------------
cat > snap.json <<J
{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"echo original >> $TMP/snap.out"}]}]}}
J
hs run -c snap.json -- sh -c "sed -i 's/original/edited/' snap.json; rm -f missing"
expect_eq "editing the hook file mid-session changes nothing" original "$(cat snap.out)"
check "the edit itself was denied (the config file is protected)" grep -q original snap.json

# --- CMD itself as a tool call ---------------------------------------------
# `hookshim run -- sh -c STR` plays the agent launching a tool call: the
# hooks judge STR before CMD starts (the shim leaves hookshim's children be).
cat > deny.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command > seen.txt; grep -q 'touch' seen.txt && { echo 'NO-TOUCH' >&2; exit 2; }; exit 0"}]}]}}
J
HOOKSHIM_LIB= hs run -c deny.json -- sh -c 'touch made' 2>err.txt; rc=$?
expect_eq "sh -c CMD denied: exit 126" 126 "$rc"
expect_contains "sh -c CMD denied: reason on stderr" "$(cat err.txt)" "NO-TOUCH"
check "sh -c CMD denied: never ran" test ! -e made
expect_eq "the hook saw STR" "touch made" "$(cat seen.txt)"
out=$(HOOKSHIM_LIB= hs run -c deny.json -- sh -c 'echo "$HOOKSHIM_ROLE"')
# CMD stays the agent even when judged: what it starts in turn are tool calls.
expect_eq "an allowed sh -c CMD still runs as the agent (no role)" "" "$out"
out=$(HOOKSHIM_LIB= hs run -c deny.json -- env | grep -c '^HOOKSHIM_ROLE=')
expect_eq "a non-shell CMD is the agent (no role)" 0 "$out"

# --- broken config ---------------------------------------------------------
# A malformed file costs only itself, as the dialects document ("a broken
# hooks.json never takes the agent down"); refusing is strict_config's
# (issue 16; check_parity.sh has the rest).
echo '{"hooks":' > broken.json
err=$(hs run -c broken.json -- sh -c 'touch ran' 2>&1); rc=$?
expect_eq "a malformed config is reported and the session starts" 0 "$rc"
check "CMD ran despite the broken config" test -e ran
expect_contains "the malformed file is named at line:col" "$err" "broken.json:2:1: malformed JSON"
rm -f ran
printf '{"hookshim":{"strict_config":true}}' > strict.json
hs run -c strict.json -c broken.json -- sh -c 'touch ran' 2>/dev/null; rc=$?
check "with strict_config a broken config refuses to start" test "$rc" != 0
check "CMD did not run with strict_config and a broken config" test ! -e ran

# --- concurrent requests ---------------------------------------------------
# Eight post hooks that each sleep 1s, from eight processes at once: served
# concurrently they take about 1s, one by one 8s.
cat > slow.json <<'J'
{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sleep 1"}]}]}}
J
t0=$(date +%s%N)
HOOKSHIM_LIB= hs run -c slow.json -- bash -c '
	for i in 1 2 3 4 5 6 7 8; do "$HOOKSHIM_BIN" __exec --id t$i -- /bin/true true & done; wait'
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
note "8 concurrent 1s post hooks took ${ms}ms"
check "concurrent requests are served concurrently" test "$ms" -lt 4000

# --- tool_calls: "every-exec" — CI, where make runs simple recipe lines
# without a shell ---------------------------------------------------------
mkdir -p ci/victim && cd ci || exit 1
printf 'test:\n\trm -rf victim\n\techo after\n' > Makefile
cat > guard.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"jq -r .tool_input.command | grep -q 'rm -rf' && { echo 'no rm -rf in CI' >&2; exit 2; }; exit 0"}]}]}}
J
jq '. + {hookshim: {tool_calls: "every-exec"}}' guard.json > every.json
"$HOOKSHIM" run -c every.json -- make test >out 2>err; rc=$?
check "every-exec: make's shell-less recipe line is a tool call and denied" test -d victim
expect_contains "every-exec: the reason reaches the build log" "$(cat err)" "no rm -rf in CI"
check "every-exec: the build fails" test "$rc" != 0
"$HOOKSHIM" run -c guard.json -- make test >out 2>err
check "default scope: a recipe line make runs without a shell is not a tool call" test ! -d victim
cd ..
