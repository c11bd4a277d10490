# OpenTelemetry export (issue 27 items 3 and 4): every record of the
# session's log -- session start and end, every decision -- reaches an
# OTLP/HTTP logs receiver started here, which decodes each request with
# the official OTLP protobuf definitions (otlp-receiver/receiver.cjs);
# every field is checked against the session's own --log. The OTEL_*
# environment as the specification defines it (endpoint, logs endpoint,
# headers, service name, resource attributes, OTEL_LOGS_EXPORTER=none,
# the batch processor's queue size); a receiver that answers 503 or 429
# first, or never, or is not there: no decision waits for it, nothing is
# lost within the queue bound, what is lost is counted in the log and on
# stderr. The traceparent a hook gets names its call's span. The OTLP
# JSON-lines file ("otlp": {"file"}) decodes with the same definitions,
# and `hookshim log` reads it.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy CI GITHUB_ACTIONS
unset $(env | sed -n 's/^\(OTEL_[A-Z_]*\)=.*/\1/p')
for t in node jq; do
	command -v $t >/dev/null || { skip "otlp export: $t missing"; exit 0; }
done
. "$HOOKSHIM_TOP/tests/integration/otlp-receiver/install.sh"
otlp_receiver_install "$TMP/npm.log" || { skip "otlp export: $RD_SKIP"; exit 0; }

RECV=
trap '[ -n "$RECV" ] && kill $RECV 2>/dev/null; rm -rf "$TMP"' EXIT
# receiver NAME [MODE]: a fresh receiver; sets URL, REC (its record)
receiver() {
	[ -n "$RECV" ] && { kill $RECV 2>/dev/null; wait $RECV 2>/dev/null; }
	REC=$TMP/$1.jsonl; : > "$REC"
	rm -f "$TMP/$1.port"
	node "$RD/receiver.cjs" serve "$TMP/$1.port" "$REC" "${2:-ok}" 2>"$TMP/$1.err" &
	RECV=$!
	for _ in $(seq 100); do [ -s "$TMP/$1.port" ] && break; sleep 0.1; done
	URL=http://127.0.0.1:$(cat "$TMP/$1.port")
}
# records REC: every LogRecord received, one JSON line each
records() { jq -c '.request.resourceLogs[].scopeLogs[].logRecords[]' "$1"; }
# attr KEY: that attribute's value, from one LogRecord on stdin
attr() { jq -r --arg k "$1" '.attributes[] | select(.key == $k) | .value | to_entries[0].value'; }

mkdir -p proj && cd proj || exit 1
cat > hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"echo \"$TRACEPARENT\" >> ../traceparents; grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
cat > agent.sh <<'A'
bash -c "echo one"
bash -c "rm -rf victim"
bash -c "echo two > out.txt"
A
touch victim

# --- every record, every field ------------------------------------------------
receiver ok
OTEL_EXPORTER_OTLP_ENDPOINT=$URL OTEL_EXPORTER_OTLP_HEADERS='x-api-key=secret%20one,x-team=blue' \
OTEL_SERVICE_NAME=agents-ci OTEL_RESOURCE_ATTRIBUTES='deployment.environment=ci,team=platform' \
	"$HOOKSHIM" run -c hooks.json --log "$TMP/log.jsonl" -- bash agent.sh >/dev/null 2>"$TMP/run.err"
check "requests arrived ($(grep -c . "$REC"))" test -s "$REC"
expect_eq "no request failed the official definitions" "" "$(jq -r '.error // empty' "$REC")"
expect_eq "sent to /v1/logs under the endpoint" /v1/logs "$(jq -r .url "$REC" | sort -u)"
expect_eq "OTEL_EXPORTER_OTLP_HEADERS sent (percent-decoded)" "secret one" "$(jq -r '.headers["x-api-key"]' "$REC" | sort -u)"
expect_eq "...every header" blue "$(jq -r '.headers["x-team"]' "$REC" | sort -u)"
expect_eq "Content-Type: application/json" application/json "$(jq -r '.headers["content-type"]' "$REC" | sort -u)"
res=$(jq -c '.request.resourceLogs[0].resource' "$REC" | head -1)
expect_eq "resource: service.name from OTEL_SERVICE_NAME" agents-ci "$(attr service.name <<<"$res")"
expect_eq "resource: OTEL_RESOURCE_ATTRIBUTES" platform "$(attr team <<<"$res")"
check "resource: host.name" test -n "$(attr host.name <<<"$res")"
expect_eq "scope: hookshim" hookshim "$(jq -r '.request.resourceLogs[0].scopeLogs[0].scope.name' "$REC" | head -1)"
n_log=$(jq -c 'select(.event != "otlp_export")' "$TMP/log.jsonl" | grep -c .)
n_otlp=$(records "$REC" | grep -c .)
expect_eq "one LogRecord per log record (none lost)" "$n_log" "$n_otlp"
session=$(jq -r .session "$TMP/log.jsonl" | head -1)
deny=$(jq -c 'select(.decision == "deny")' "$TMP/log.jsonl" | head -1)
lr=$(records "$REC" | while read -r r; do [ "$(attr hookshim.decision <<<"$r")" = deny ] && echo "$r"; done | head -1)
expect_eq "deny: event.name" hookshim.tool_decision "$(attr event.name <<<"$lr")"
expect_eq "deny: severity WARN" "WARN 13" "$(jq -r '"\(.severityText) \(.severityNumber)"' <<<"$lr")"
expect_eq "deny: session.id" "$session" "$(attr session.id <<<"$lr")"
expect_eq "deny: gen_ai.tool.name" Bash "$(attr gen_ai.tool.name <<<"$lr")"
expect_eq "deny: gen_ai.tool.call.id = the log's tool_use_id" "$(jq -r .tool_use_id <<<"$deny")" "$(attr gen_ai.tool.call.id <<<"$lr")"
expect_eq "deny: hookshim.reason = the log's reason" "$(jq -r .reason <<<"$deny")" "$(attr hookshim.reason <<<"$lr")"
expect_eq "deny: process.command_line" "rm -rf victim" "$(attr process.command_line <<<"$lr")"
expect_eq "deny: process.pid" "$(jq -r .pid <<<"$deny")" "$(attr process.pid <<<"$lr")"
expect_eq "deny: the hook's source" "$(jq -r '.hooks[0].source' <<<"$deny")" "$(attr hookshim.hook.source <<<"$lr")"
expect_eq "deny: the hook's verdict" deny "$(attr hookshim.hook.verdict <<<"$lr")"
expect_eq "deny: the hook's exit status" 2 "$(attr hookshim.hook.exit_code <<<"$lr")"
expect_eq "deny: the hook's duration" "$(jq -r '.hooks[0].duration_ms' <<<"$deny")" "$(attr hookshim.hook.duration_ms <<<"$lr")"
expect_contains "deny: body" "$(jq -r .body.stringValue <<<"$lr")" "deny Bash: rm -rf victim -- no rm -rf here"
expect_eq "deny: traceId is the session" "$session" "$(jq -r .traceId <<<"$lr")"
check "deny: a time" test "$(jq -r .timeUnixNano <<<"$lr")" -gt 1700000000000000000
starts=$(records "$REC" | while read -r r; do attr event.name <<<"$r"; done | sort | uniq -c | tr -s ' ')
expect_contains "session start exported" "$starts" "1 hookshim.session_start"
expect_contains "session end exported" "$starts" "1 hookshim.session_end"
expect_contains "three tool decisions" "$starts" "3 hookshim.tool_decision"
# the hook was handed its call's span: the denied call's traceparent
expect_contains "traceparent: the hook's names the call's span" "$(cat ../traceparents)" \
	"00-$session-$(jq -r .spanId <<<"$lr")-01"
spans=$(records "$REC" | jq -r 'select(.attributes[] | select(.key == "event.name" and .value.stringValue == "hookshim.tool_decision")) | .spanId' | sort -u | grep -c .)
expect_eq "traceparent: a span per call" 3 "$spans"
expect_contains "the log says what was sent" "$(jq -c 'select(.event == "otlp_export")' "$TMP/log.jsonl")" '"sent":5,"dropped":0'
expect_eq "nothing said on stderr when all was sent" "" "$(grep -i opentelemetry "$TMP/run.err")"
expect_contains "check says where decisions go" \
	"$(OTEL_EXPORTER_OTLP_ENDPOINT=$URL "$HOOKSHIM" check -c hooks.json 2>&1)" \
	"decisions exported (OpenTelemetry): OTLP/HTTP JSON to $URL/v1/logs (the OTEL_* environment)"

# OTEL_EXPORTER_OTLP_LOGS_ENDPOINT is used as it is
receiver logs-endpoint
OTEL_EXPORTER_OTLP_LOGS_ENDPOINT=$URL/custom/path OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9 \
OTEL_RESOURCE_ATTRIBUTES=service.name=from-attributes \
	"$HOOKSHIM" run -c hooks.json -- bash -c 'bash -c "echo x"' >/dev/null 2>&1
expect_eq "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: as it is, over the generic one" /custom/path "$(jq -r .url "$REC" | sort -u)"
expect_eq "service.name from OTEL_RESOURCE_ATTRIBUTES, once" from-attributes \
	"$(jq -r '[.request.resourceLogs[0].resource.attributes[] | select(.key == "service.name") | .value.stringValue] | join(",")' "$REC" | sort -u)"
# OTEL_LOGS_EXPORTER=none: nothing
: > "$REC"
OTEL_LOGS_EXPORTER=none OTEL_EXPORTER_OTLP_ENDPOINT=$URL \
	"$HOOKSHIM" run -c hooks.json -- bash -c 'bash -c "echo x"' >/dev/null 2>&1
expect_eq "OTEL_LOGS_EXPORTER=none: nothing sent" 0 "$(grep -c . "$REC")"

# --- a collector that fails first: retried, nothing lost -----------------------
for mode in fail:2:503 fail:2:429; do
	receiver "${mode//:/-}" "$mode"
	OTEL_EXPORTER_OTLP_ENDPOINT=$URL "$HOOKSHIM" run -c hooks.json --log "$TMP/log-$mode.jsonl" -- bash agent.sh >/dev/null 2>&1
	n_log=$(jq -c 'select(.event != "otlp_export")' "$TMP/log-$mode.jsonl" | grep -c .)
	expect_eq "$mode: retried until taken, nothing lost" "$n_log" "$(records "$REC" | grep -c .)"
	expect_contains "$mode: the log says none dropped" "$(jq -c 'select(.event == "otlp_export")' "$TMP/log-$mode.jsonl")" '"dropped":0'
done

# --- a collector that never answers, or is not there ---------------------------
cat > many.sh <<'A'
for i in $(seq 30); do bash -c "echo $i"; done
A
for mode in hang down; do
	if [ $mode = hang ]; then receiver hang hang; else
		kill $RECV 2>/dev/null; wait $RECV 2>/dev/null; RECV=
		URL=http://127.0.0.1:9
	fi
	rm -f out.txt
	OTEL_EXPORTER_OTLP_ENDPOINT=$URL "$HOOKSHIM" run -c hooks.json --log "$TMP/log-$mode.jsonl" \
		-- bash -c 'bash many.sh >/dev/null; bash -c "echo done > out.txt"' >/dev/null 2>"$TMP/$mode.err"
	expect_eq "$mode: every decision made, none waited for the collector" 32 \
		"$(jq -c 'select(.event == "pre")' "$TMP/log-$mode.jsonl" | grep -c .)"
	check "$mode: the agent ran to its end" test -s out.txt
	ex=$(jq -c 'select(.event == "otlp_export")' "$TMP/log-$mode.jsonl")
	expect_eq "$mode: nothing counted as sent" 0 "$(jq -r .sent <<<"$ex")"
	expect_eq "$mode: every record counted as not delivered" 34 "$(jq -r .dropped <<<"$ex")"
	expect_contains "$mode: said on stderr" "$(cat "$TMP/$mode.err")" "record(s) sent, 34 not delivered"
done

# --- the queue bound: what does not fit is counted, never waited for ------------
# a collector that takes 1.5 s to answer, a queue of 5: some records fit
receiver bound slow:1500
OTEL_EXPORTER_OTLP_ENDPOINT=$URL OTEL_BLRP_MAX_QUEUE_SIZE=5 OTEL_BLRP_MAX_EXPORT_BATCH_SIZE=5 \
	"$HOOKSHIM" run -c hooks.json --log "$TMP/log-bound.jsonl" -- bash many.sh >/dev/null 2>"$TMP/bound.err"
ex=$(jq -c 'select(.event == "otlp_export")' "$TMP/log-bound.jsonl")
sent=$(jq -r .sent <<<"$ex"); dropped=$(jq -r .dropped <<<"$ex")
expect_eq "queue bound: every decision still made" 30 "$(jq -c 'select(.event == "pre")' "$TMP/log-bound.jsonl" | grep -c .)"
expect_eq "queue bound: sent + dropped = every record" 32 $((sent + dropped))
check "queue bound: some did not fit and are counted ($dropped)" test "$dropped" -gt 0
# received on arrival: what was sent, and at most the batch in flight
# when the deadline came (not answered in time: counted as not delivered)
got=$(records "$REC" | grep -c .)
check "queue bound: what was counted as sent was received ($sent, $got)" \
	test "$got" -ge "$sent" -a "$got" -le $((sent + 5))
expect_contains "queue bound: said on stderr" "$(cat "$TMP/bound.err")" "$dropped not delivered"

# --- the OTLP file, and `hookshim log` reading it --------------------------------
cat > otlp.json <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]},
 "hookshim":{"otlp":{"file":"$TMP/otlp.jsonl"}}}
J
"$HOOKSHIM" run -c otlp.json -- bash agent.sh >/dev/null 2>&1
out=$(node "$RD/receiver.cjs" check "$TMP/otlp.jsonl" 2>&1); rc=$?
expect_eq "file: every line decodes with the official definitions" 0 "$rc"
[ "$rc" = 0 ] || note "$out"
out=$("$HOOKSHIM" log "$TMP/otlp.jsonl" 2>&1); rc=$?
expect_eq "hookshim log reads the OTLP file" 0 "$rc"
expect_contains "...its denied call" "$out" "rm -rf victim"
expect_contains "...with the reason" "$out" "no rm -rf here"
out=$("$HOOKSHIM" log --denied --json "$TMP/otlp.jsonl" 2>&1)
expect_eq "hookshim log --denied --json: the one denial, as a record" deny "$(jq -r .decision <<<"$out")"

expect_eq "...its hook's verdict" deny "$(jq -r '.hooks[0].verdict' <<<"$out")"
# libcurl is loaded when a collector needs it (engine/curl_load.h): one
# that cannot be loaded leaves the collector out, said at the start, and
# the OTLP file is still written
mkdir -p "$TMP/badlib"; echo 'not a library' > "$TMP/badlib/libcurl.so.4"
sed "s|\"file\":|\"endpoint\":\"http://127.0.0.1:9\",\"file\":|" otlp.json > otlp2.json
rm -f "$TMP/otlp.jsonl"
LD_LIBRARY_PATH=$TMP/badlib "$HOOKSHIM" run -c otlp2.json -- bash agent.sh >/dev/null 2>"$TMP/nolib.err"
expect_contains "no libcurl: the collector left out, said" "$(cat "$TMP/nolib.err")" \
	"OpenTelemetry export: libcurl could not be loaded"
expect_contains "...naming it" "$(cat "$TMP/nolib.err")" "not exporting to http://127.0.0.1:9"
check "...and the OTLP file still written" test -s "$TMP/otlp.jsonl"
out=$(LD_LIBRARY_PATH=$TMP/badlib "$HOOKSHIM" check -c otlp2.json 2>&1)
expect_contains "check says so too" "$out" "not exported to http://127.0.0.1:9"
