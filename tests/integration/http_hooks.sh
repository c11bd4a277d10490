# Claude Code's "http" hooks against a real policy engine: a local
# service (policy-service/server.mjs) that decides each request with the
# Cedar project's own engine (@cedar-policy/cedar-wasm from npm). Real
# bash and python3 under hookshim run; what is checked is what the
# service received, what ran, what reached the disk and what the
# command's output (the model's tool result) says:
#   deny / allow / ask decisions with Cedar's reasons; the payload and
#   the headers ($VAR only when allowedEnvVars lists it);
#   allowedHttpHookUrls and httpHookAllowedEnvVars, merged across files;
#   a service that answers 503, plain text, nothing in time, or refuses
#   the connection: a non-blocking error in guard mode, a deny under
#   --ci and with "failClosed"; an empty 2xx body is no decision;
#   1,000 decisions over kept-alive connections;
#   SIGTERM ends a session whose hook's request is in flight.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
for t in node jq curl python3; do
	command -v $t >/dev/null || { skip "http hooks: $t missing"; exit 0; }
done
. "$HOOKSHIM_TOP/tests/integration/policy-service/service.sh"

trap 'policy_service_stop; rm -rf "$TMP"' EXIT
policy_service_start "$PS_DIR/team.cedar" "$TMP/record.jsonl" ||
	{ skip "http hooks: $PS_SKIP"; exit 0; }
BASE=$PS_BASE
stat_of() { curl -s "$BASE/stats" | jq -r ".$1"; }
last() { tail -1 "$TMP/record.jsonl" | jq -r "$1"; }

mkdir -p "$TMP/proj/secrets" && cd "$TMP/proj" || exit 1
# hooks FILE URL [EXTRA HANDLER FIELDS]: one http PreToolUse hook
hooks() {
	cat > "$1" <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit","hooks":[
 {"type":"http","url":"$2","timeout":${TIMEOUT:-20}${3:+,$3}}]}]}}
J
}
hooks hooks.json "$BASE/hook" '"headers":{"X-Team":"team-$TEAM","X-Secret":"${SECRET}","X-$TEAM":"named"},"allowedEnvVars":["TEAM"]'

# check: the hook listed, the unlisted variable said where it is written
out=$("$HOOKSHIM" check -c hooks.json 2>&1); rc=$?
expect_eq "check: the http hook loads (exit 0)" 0 "$rc"
expect_contains "check: lists the url" "$out" "$BASE/hook"
expect_contains "check: the header's unlisted variable, at file:line:col" "$out" \
	'hooks.json:2:'
expect_contains "check: ...names it and says it is sent empty" "$out" \
	'header "X-Secret" names $SECRET, which its allowedEnvVars does not list: it is sent empty'

# libcurl is loaded when a request needs it (engine/curl_load.h): one
# that cannot be loaded (a broken libcurl.so.4 first on the library path)
# is said by check and run at the hook's file:line:col, and fails closed
# in CI mode, before any call
mkdir -p "$TMP/badlib"; echo 'not a library' > "$TMP/badlib/libcurl.so.4"
out=$(LD_LIBRARY_PATH=$TMP/badlib "$HOOKSHIM" check -c hooks.json 2>&1); rc=$?
expect_eq "check: an unloadable libcurl is an error (exit 1)" 1 "$rc"
expect_contains "check: ...said at the hook, with the loader's reason" "$out" \
	"hooks.json:2:"
expect_contains "check: ...the loader's words" "$out" "libcurl could not be loaded"
touch kept
out=$(LD_LIBRARY_PATH=$TMP/badlib "$HOOKSHIM" run --ci -c hooks.json -- bash -c 'rm -f kept' 2>&1); rc=$?
check "run --ci: refuses to start without libcurl for its http hook" test "$rc" -ne 0 -a -e kept
expect_contains "run --ci: ...and says why" "$out" "libcurl could not be loaded"
rm -f kept

# deny: Cedar's forbid, its reason in the command's output; nothing ran
touch victim
out=$(TEAM=blue SECRET=s3cret "$HOOKSHIM" run -c hooks.json --log "$TMP/log.jsonl" -- \
	bash -c 'bash -c "rm -f victim"; echo "rm exit $?"; bash -c "echo allowed-ran"' 2>&1)
check "deny: the victim is still there" test -e victim
expect_contains "deny: Cedar's reason reaches the output" "$out" \
	"Cedar policy no-rm: deleting files is not allowed by the team policy"
expect_contains "deny: the command failed with the deny status" "$out" "rm exit 126"
expect_contains "allow: an allowed command ran" "$out" "allowed-ran"
# the request the service received for the rm
line=$(grep -F '"rm -f victim' "$TMP/record.jsonl" | tail -1)
body=$(jq -r .body <<<"$line")
expect_eq "payload: hook_event_name" PreToolUse "$(jq -r .hook_event_name <<<"$body")"
expect_eq "payload: tool_name" Bash "$(jq -r .tool_name <<<"$body")"
expect_eq "payload: tool_input.command" "rm -f victim" "$(jq -r .tool_input.command <<<"$body")"
expect_eq "payload: cwd" "$TMP/proj" "$(jq -r .cwd <<<"$body")"
check "payload: a session_id" test -n "$(jq -r '.session_id // empty' <<<"$body")"
expect_eq "request: POSTed to the hook's path" /hook "$(jq -r .url <<<"$line")"
expect_eq "request: Content-Type" application/json "$(jq -r '.headers["content-type"]' <<<"$line")"
expect_eq "request: \$TEAM filled (allowedEnvVars lists it)" team-blue \
	"$(jq -r '.headers["x-team"]' <<<"$line")"
expect_eq "request: \${SECRET} sent empty (not listed)" "" \
	"$(jq -r '.headers["x-secret"]' <<<"$line")"
expect_eq "request: a header's name is never filled" named \
	"$(jq -r '.headers["x-$team"]' <<<"$line")"
# the log says which kind of hook decided, and its HTTP status
rec=$(jq -c 'select(.decision == "deny")' "$TMP/log.jsonl" | tail -1)
expect_eq "log: the run is an http hook's" http "$(jq -r '.hooks[0].type' <<<"$rec")"
expect_eq "log: its HTTP status" 200 "$(jq -r '.hooks[0].http_status' <<<"$rec")"

# a write the shell makes: a Write event, Cedar's file policy denies it
out=$("$HOOKSHIM" run -c hooks.json -- bash -c 'echo key > secrets/k; echo "write exit $?"; echo ok > notes' 2>&1)
check "write: nothing reached secrets/" test ! -e secrets/k
expect_contains "write: Cedar's reason" "$out" "Cedar policy no-secrets: secrets/ is written by the release process only"
check "write: an allowed write landed" test -s notes
expect_eq "write: the service saw the path" "$TMP/proj/secrets/k" \
	"$(jq -r '.body | fromjson | select(.tool_name == "Write") | .tool_input.file_path' "$TMP/record.jsonl" | grep -F secrets/k | tail -1)"

# ask: nobody to ask (no terminal): denied, the policy's id said
out=$("$HOOKSHIM" run -c hooks.json -- bash -c 'bash -c "git push origin main"; echo "push exit $?"' 2>&1 </dev/null)
expect_contains "ask: not run without someone to ask" "$out" "push exit 126"
expect_contains "ask: the policy named" "$out" "ask-push"

# hookshim test: the same request, decided by the same service
out=$("$HOOKSHIM" test -c hooks.json PreToolUse --tool Bash --command 'rm -rf build' 2>&1); rc=$?
expect_eq "test: a deny (exit 2)" 2 "$rc"
expect_contains "test: shows the url" "$out" "url: $BASE/hook"
expect_contains "test: Cedar's reason" "$out" "Cedar policy no-rm"

# allowedHttpHookUrls: a hook no pattern matches is not loaded, said at
# its url; the list merges across files (here from a second file)
echo '{"allowedHttpHookUrls":["https://policy.example.com/*"]}' > urls.json
out=$("$HOOKSHIM" check -c hooks.json -c urls.json 2>&1); rc=$?
expect_contains "allowedHttpHookUrls: the hook dropped, at its url" "$out" \
	"hooks.json:2:17: http hook $BASE/hook: no allowedHttpHookUrls pattern matches its url (hook not loaded)"
check "allowedHttpHookUrls: check fails" test "$rc" -ne 0
out=$("$HOOKSHIM" run --ci -c hooks.json -c urls.json -- bash -c 'echo should-not-run' 2>&1); rc=$?
check "allowedHttpHookUrls: --ci refuses to start" test "$rc" -ne 0
expect_not_contains "allowedHttpHookUrls: ...and nothing ran" "$out" "should-not-run"
echo '{"allowedHttpHookUrls":["https://policy.example.com/*","http://127.0.0.1:*/hook"]}' > urls.json
out=$("$HOOKSHIM" check -c hooks.json -c urls.json 2>&1)
expect_contains "allowedHttpHookUrls: a matching pattern loads it" "$out" "0 errors"

# httpHookAllowedEnvVars narrows every hook's allowedEnvVars
echo '{"httpHookAllowedEnvVars":["OTHER"]}' > envs.json
out=$("$HOOKSHIM" check -c hooks.json -c envs.json 2>&1)
expect_contains "httpHookAllowedEnvVars: the narrowed variable said" "$out" \
	'header "X-Team" names $TEAM, which allowedEnvVars and httpHookAllowedEnvVars do not both list'
TEAM=blue "$HOOKSHIM" run -c hooks.json -c envs.json -- bash -c 'bash -c "echo narrowed"' >/dev/null 2>&1
expect_eq "httpHookAllowedEnvVars: \$TEAM sent empty" team- "$(last '.headers["x-team"]')"

# A service that fails: a non-blocking error in guard mode (the call
# runs, the failure is said), a deny under --ci and with failClosed.
failing() { # NAME URL EXPECTED-WORDS [TIMEOUT]
	local name=$1 url=$2 words=$3 out rc
	TIMEOUT=${4:-20} hooks fail.json "$url"
	rm -f ran; : > "$TMP/fail.log"
	"$HOOKSHIM" run -c fail.json --log "$TMP/fail.log" -- bash -c 'bash -c "touch ran"' >/dev/null 2>&1
	check "$name, guard: the call runs" test -e ran
	expect_contains "$name, guard: the failure is logged" "$(cat "$TMP/fail.log")" "$words"
	rm -f ran
	out=$("$HOOKSHIM" run --ci -c fail.json -- bash -c 'bash -c "touch ran"' 2>&1); rc=$?
	check "$name, --ci: the call does not run" test ! -e ran
	expect_contains "$name, --ci: denied as a failed hook" "$out" "hook failed: "
	expect_contains "$name, --ci: ...saying why" "$out" "$words"
	check "$name, --ci: the job fails" test "$rc" -ne 0
	TIMEOUT=${4:-20} hooks fail.json "$url" '"failClosed":true'
	out=$("$HOOKSHIM" run -c fail.json -- bash -c 'bash -c "touch ran"' 2>&1)
	check "$name, failClosed: the call does not run" test ! -e ran
	expect_contains "$name, failClosed: denied, saying why" "$out" "$words"
}
failing "HTTP 503" "$BASE/status/503" "HTTP 503: the policy service is down for maintenance"
failing "a text body" "$BASE/text" "its response is neither empty nor a JSON object (HTTP 200)"
failing "connection refused" "http://127.0.0.1:9/hook" "no answer: Failed to connect to 127.0.0.1 port 9"
failing "timeout" "$BASE/slow/5000" "timed out after" 1
hooks empty.json "$BASE/empty"
rm -f ran
"$HOOKSHIM" run --ci -c empty.json -- bash -c 'bash -c "touch ran"' >/dev/null 2>&1
check "an empty 2xx body: no decision, the call runs (--ci too)" test -e ran

# 1,000 decisions, each a request, over connections kept alive
r0=$(stat_of requests); c0=$(stat_of connections)
out=$("$HOOKSHIM" run -c hooks.json -- python3 -c '
import subprocess
bad = sum(subprocess.run(["/bin/sh", "-c", ":"]).returncode != 0 for _ in range(1000))
print("failed", bad)' 2>&1)
expect_contains "1,000 decisions: every command allowed and run" "$out" "failed 0"
expect_eq "1,000 decisions: 1,000 requests" 1000 $(( $(stat_of requests) - r0 ))
conns=$(( $(stat_of connections) - c0 ))
check "1,000 decisions: over kept-alive connections (opened: $conns)" test "$conns" -le 8

# SIGTERM while a hook's request is in flight: the session ends, the
# command never runs, nothing is left behind
hooks slow.json "$BASE/slow/60000"
n0=$(wc -l < "$TMP/record.jsonl")
"$HOOKSHIM" run -c slow.json -- bash -c 'bash -c "echo late-ran > late"' >"$TMP/slow.out" 2>&1 &
run=$!
for _ in $(seq 200); do [ "$(wc -l < "$TMP/record.jsonl")" -gt "$n0" ] && break; sleep 0.05; done
kill -TERM $run
ended=no
for _ in $(seq 100); do kill -0 $run 2>/dev/null || { ended=yes; break; }; sleep 0.1; done
expect_eq "SIGTERM mid-request: the session ended" yes "$ended"
check "SIGTERM mid-request: the command never ran" test ! -e late
kill -KILL $run 2>/dev/null
wait $run 2>/dev/null || true
