# Helpers for integration scripts: source it, call ok/fail/skip per case.
# Each case prints one line the runner counts.
set -u
: "${HOOKSHIM:?run through tests/run.sh or make test}"
TMP=$(mktemp -d /tmp/hookshim-t.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
note() { echo "# $*"; }

# check NAME COMMAND...: passes when COMMAND succeeds.
check() {
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# expect_eq NAME WANT GOT
expect_eq() {
	if [ "$2" == "$3" ]; then pass "$1"; else
		fail "$1"; note "want: $(printf %q "$2")"; note " got: $(printf %q "$3")"
	fi
}

# expect_contains NAME HAYSTACK NEEDLE
expect_contains() {
	if [[ "$2" == *"$3"* ]]; then pass "$1"; else
		fail "$1"; note "missing: $(printf %q "$3")"; note "in: $(printf %q "${2:0:2000}")"
	fi
}

expect_not_contains() {
	if [[ "$2" != *"$3"* ]]; then pass "$1"; else
		fail "$1"; note "unexpected: $(printf %q "$3")"
	fi
}
