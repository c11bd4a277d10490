# Sourced by the tests that use the OTLP receiver (receiver.cjs):
#   otlp_receiver_install LOG   installs @opentelemetry/otlp-transformer at
# its locked version when missing (npm ci, one installer at a time); 1
# with the reason in RD_SKIP when it cannot. RD is the receiver's folder.
RD=$HOOKSHIM_TOP/tests/integration/otlp-receiver
rd_installed() {
	[ -f "$RD/node_modules/.lock-sum" ] &&
		[ "$(cat "$RD/node_modules/.lock-sum")" = "$(sha256sum <"$RD/package-lock.json")" ]
}
otlp_receiver_install() {
	rd_installed && return 0
	(
		flock 9
		rd_installed && exit 0
		cd "$RD" && timeout 300 npm ci --no-audit --no-fund --loglevel=error \
			>"$1" 2>&1 || exit 1
		sha256sum <package-lock.json >node_modules/.lock-sum
	) 9>/tmp/hookshim-otlp-receiver.lock && return 0
	RD_SKIP="npm ci of @opentelemetry/otlp-transformer failed: $(tail -2 "$1" | tr '\n' ' ')"
	return 1
}
