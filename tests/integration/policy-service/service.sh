# Sourced by the tests that use the Cedar policy service (server.mjs):
#   policy_service_start POLICY.cedar RECORD.jsonl
# installs @cedar-policy/cedar-wasm at its locked version when missing
# (npm ci), starts the service on a free port of 127.0.0.1 and sets
# PS_BASE (http://127.0.0.1:PORT) and PS_PID; or returns 1 with the
# reason in PS_SKIP. policy_service_stop ends it.
PS_DIR=$HOOKSHIM_TOP/tests/integration/policy-service

ps_installed() {
	[ -f "$PS_DIR/node_modules/.lock-sum" ] &&
		[ "$(cat "$PS_DIR/node_modules/.lock-sum")" = "$(sha256sum <"$PS_DIR/package-lock.json")" ]
}

policy_service_start() {
	local policy=$1 record=$2 pf
	PS_SKIP=
	command -v node >/dev/null || { PS_SKIP="node missing"; return 1; }
	if ! ps_installed; then
		(
			flock 9
			ps_installed && exit 0
			cd "$PS_DIR" && timeout 300 npm ci --no-audit --no-fund \
				--loglevel=error >"$record.npm" 2>&1 || exit 1
			sha256sum <package-lock.json >node_modules/.lock-sum
		) 9>/tmp/hookshim-policy-service.lock ||
			{ PS_SKIP="npm ci of @cedar-policy/cedar-wasm failed: $(tail -2 "$record.npm" | tr '\n' ' ')"; return 1; }
	fi
	pf=$record.port
	rm -f "$pf"
	node "$PS_DIR/server.mjs" "$pf" "$policy" "$record" 2>"$record.err" &
	PS_PID=$!
	for _ in $(seq 100); do
		[ -s "$pf" ] && break
		kill -0 "$PS_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$pf" ] || { PS_SKIP="the policy service did not start: $(head -c 300 "$record.err")"; return 1; }
	PS_BASE=http://127.0.0.1:$(cat "$pf")
}

policy_service_stop() {
	[ -n "${PS_PID:-}" ] && { kill "$PS_PID" 2>/dev/null; wait "$PS_PID" 2>/dev/null; }
	PS_PID=
	return 0
}
