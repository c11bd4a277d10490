# `hookshim __exec` (post hooks on commands) and `hookshim __deny`.
# lane: alone -- live output is timed as it arrives
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
# These drive __exec by hand: no shim needed (and none wanted in the way).
export HOOKSHIM_LIB=

cat > post.json <<J
{"hooks":{
 "PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > $TMP/post.json.in; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"CTX-FROM-POST\"}}'"}]}],
 "PostToolUseFailure":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > $TMP/fail.json.in"}]}]}}
J
run_exec() { # run CMD under a session with post.json via __exec
	hs run -c post.json -- "$HOOKSHIM" __exec --id toolu_x -- "$@"
}

# --- output passes unchanged ----------------------------------------------
head -c 200000 /dev/urandom > blob
printf 'a\0b\n' >> blob
run_exec /bin/cat cat blob > got.out 2>got.err
check "stdout byte-for-byte (binary, 200 KB)" cmp -s blob got.out
run_exec /bin/sh sh -c 'cat blob >&2' > /dev/null 2>got.err
head -c $(stat -c %s blob) got.err > got.err.head
check "stderr byte-for-byte" cmp -s blob got.err.head
out=$(run_exec /bin/sh sh -c 'echo out; echo err >&2' 2>err.txt)
expect_eq "stdout of the command" out "$out"
expect_eq "stderr of the command, then the post hook's context" \
	"$(printf 'err\nCTX-FROM-POST')" "$(cat err.txt)"

# Live: the first line arrives while the command still runs.
t0=$(date +%s%N)
run_exec /bin/sh sh -c 'echo first; sleep 2; echo second' 2>/dev/null |
	while read -r l; do echo "$l $(( ($(date +%s%N) - t0) / 1000000 ))"; done > live.txt
ms=$(sed -n 's/^first //p' live.txt)
expect_eq "live output: both lines" "first second" "$(cut -d' ' -f1 live.txt | tr '\n' ' ' | sed 's/ $//')"
note "first line after ${ms}ms"
check "output streams live, not at exit" test "${ms:-9999}" -lt 1800

# --- exit status and the post payload -------------------------------------
run_exec /bin/sh sh -c 'echo out; exit 0' >/dev/null 2>&1
expect_eq "post payload: event" PostToolUse "$(jq -r .hook_event_name post.json.in)"
expect_eq "post payload: command" "echo out; exit 0" "$(jq -r .tool_input.command post.json.in)"
expect_eq "post payload: stdout" "out" "$(jq -r .tool_response.stdout post.json.in)"
expect_eq "post payload: exit code" 0 "$(jq -r '.tool_response.exit_code // .tool_response.exitCode' post.json.in)"
expect_eq "post payload: the pre's tool_use_id" toolu_x "$(jq -r .tool_use_id post.json.in)"
run_exec /bin/sh sh -c 'echo partial; exit 4' >/dev/null 2>&1
expect_eq "exit status passes through" 4 "$?"
expect_eq "failure fires PostToolUseFailure" PostToolUseFailure "$(jq -r .hook_event_name fail.json.in)"
expect_contains "failure payload: the exit code" "$(jq -c . fail.json.in)" "exit code 4"
rc=$(bash -c '"$HOOKSHIM" run -c post.json -- "$HOOKSHIM" __exec --id t -- /bin/sh sh -c "kill -TERM \$\$"; echo $?' 2>/dev/null)
expect_eq "signal death re-raised by __exec" 143 "$rc"
expect_contains "signal death is a failure" "$(jq -c . fail.json.in)" "signal 15"
run_exec /nonexistent/x x 2>err.txt; rc=$?
expect_eq "missing executable: 127" 127 "$rc"

# A background process keeping the pipe open does not hold up the exit,
# and its output still arrives.
t0=$(date +%s%N)
out=$(run_exec /bin/sh sh -c '(sleep 1; echo late) & echo early' 2>/dev/null; echo "rc=$? at $(( ($(date +%s%N) - t0) / 1000000 ))")
expect_contains "background output still arrives" "$out" "late"
ms=$(sed -n 's/.*rc=0 at \([0-9]*\).*/\1/p' <<<"$out")
note "exit reported after ${ms}ms"
check "exit reported when the command exits, not at pipe EOF" test -n "$ms" -a "${ms:-9999}" -lt 900

# SIGTERM to __exec reaches the command; the post hook still runs.
rm -f fail.json.in
hs run -c post.json -- bash -c '"$HOOKSHIM_BIN" __exec --id t -- /bin/sh sh -c "trap \"exit 9\" TERM; sleep 5 & wait" & p=$!; sleep 0.5; kill -TERM $p; wait $p; echo "rc=$?"' > out.txt 2>/dev/null
expect_eq "SIGTERM forwarded to the command" "rc=9" "$(cat out.txt)"
check "post-failure fired after a forwarded signal" test -s fail.json.in

# No session at all: __exec still runs the command (defaults, no hooks).
out=$(env -u HOOKSHIM_SOCK "$HOOKSHIM" __exec -- /bin/echo echo alone)
expect_eq "__exec without a session" alone "$out"

# --- __deny ----------------------------------------------------------------
hs __deny 126 "blocked by policy: no rm -rf" 2>err.txt; rc=$?
expect_eq "__deny exit status" 126 "$rc"
expect_eq "__deny prints the reason" "blocked by policy: no rm -rf" "$(cat err.txt)"
hs __deny 3 two words 2>err.txt; rc=$?
expect_eq "__deny with a custom status" 3 "$rc"
expect_eq "__deny joins words" "two words" "$(cat err.txt)"
