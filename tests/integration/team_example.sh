# The team example of docs/team.md ("Running hookshim across a team"), as
# written: its managed.json is taken from the page, only its URLs pointed at
# services started here -- the Cedar policy service
# (policy-service/server.mjs) and the OTLP receiver that decodes with the
# official definitions (otlp-receiver/receiver.cjs). Checked: the policy
# service decides (with the token header), a user's file cannot weaken it,
# the collector receives the decision, and a policy service that is down
# denies.
. "$HOOKSHIM_TOP/tests/lib.sh"
[ "$(id -u)" = 0 ] || { skip "team example: a managed file must be root's"; exit 0; }
[ -e /etc/hookshim ] && { skip "team example: this machine has its own /etc/hookshim"; exit 0; }
for t in node jq; do command -v $t >/dev/null || { skip "team example: $t missing"; exit 0; }; done
export HOME=$TMP/home HOOKSHIM_SYSCONFDIR=$TMP/etc
mkdir -p "$HOME" "$HOOKSHIM_SYSCONFDIR/hookshim" proj
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy CI GITHUB_ACTIONS
unset $(env | sed -n 's/^\(OTEL_[A-Z_]*\)=.*/\1/p')
. "$HOOKSHIM_TOP/tests/integration/policy-service/service.sh"
. "$HOOKSHIM_TOP/tests/integration/otlp-receiver/install.sh"
otlp_receiver_install "$TMP/npm.log" || { skip "team example: $RD_SKIP"; exit 0; }
RECV=
trap 'policy_service_stop; [ -n "$RECV" ] && kill $RECV 2>/dev/null; rm -rf "$TMP"' EXIT
policy_service_start "$PS_DIR/team.cedar" "$TMP/policy.jsonl" ||
	{ skip "team example: $PS_SKIP"; exit 0; }
node "$RD/receiver.cjs" serve "$TMP/otlp.port" "$TMP/otlp.jsonl" 2>"$TMP/otlp.err" &
RECV=$!
for _ in $(seq 100); do [ -s "$TMP/otlp.port" ] && break; sleep 0.1; done
OTLP=http://127.0.0.1:$(cat "$TMP/otlp.port")

# the page's block after "ships one file", URLs replaced
awk '/ships one file/ { f = 1 } f && /^```json/ { p = 1; next } p && /^```/ { exit } p' \
	"$HOOKSHIM_TOP/docs/team.md" > "$TMP/readme.json"
check "docs/team.md has the example" test -s "$TMP/readme.json"
sed -e "s|https://policy.example.com/v1/hook|$PS_BASE/hook|" \
    -e "s|https://policy.example.com/\*|http://127.0.0.1:*|" \
    -e "s|https://otel.example.com:4318|$OTLP|" \
	"$TMP/readme.json" > "$HOOKSHIM_SYSCONFDIR/hookshim/managed.json"
check "...which is valid JSON" sh -c 'jq -e . "$1" >/dev/null' - "$HOOKSHIM_SYSCONFDIR/hookshim/managed.json"
cd proj || exit 1
touch victim
# a user's file that tries to switch it off: its own hooks off, no http
# hook allowed anywhere, no variable in a header, failures and guard
echo '{"disableAllHooks": true, "allowedHttpHookUrls": [], "httpHookAllowedEnvVars": [],
 "hookshim": {"on_hook_failure": "allow", "mode": "guard"}}' > ../mine.json
out=$(POLICY_TOKEN=t0ken "$HOOKSHIM" run -c ../mine.json -- bash -c 'bash -c "rm -f victim"; echo "exit=$?"' 2>&1)
check "the policy service's deny holds" test -e victim
expect_contains "...with Cedar's reason" "$out" "Cedar policy no-rm"
expect_contains "...the user's weakening said" "$out" "is locked by the managed policy"
expect_eq "the token header, from allowedEnvVars" "Bearer t0ken" \
	"$(jq -r '.headers.authorization' "$TMP/policy.jsonl" | tail -1)"
expect_contains "the collector received the denial" \
	"$(jq -c '.request.resourceLogs[].scopeLogs[].logRecords[]' "$TMP/otlp.jsonl")" '"stringValue":"deny"'
check "...in requests that arrived" test -s "$TMP/otlp.jsonl"
expect_eq "...each in the official definitions" "" "$(jq -r '.error // empty' "$TMP/otlp.jsonl")"
# the policy service down: fails closed
policy_service_stop
out=$(POLICY_TOKEN=t0ken "$HOOKSHIM" run -- bash -c 'bash -c "echo hi > ran"' 2>&1)
check "the service down: the call is denied" test ! -e ran
expect_contains "...saying why" "$out" "hook failed: "
