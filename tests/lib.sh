# Helpers for integration scripts: source it, call ok/fail/skip per case.
# Each case prints one line the runner counts.
set -u
: "${HOOKSHIM:?run through tests/run.sh or make test}"
TMP=$(mktemp -d /tmp/hookshim-t.XXXXXX) && [ -d "$TMP" ] ||
	{ echo "FAIL no directory of the test's own (mktemp)"; exit 1; }
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
# python3 as every user can run it: a version manager's (pyenv's shim in
# root's home) fails with 126 for the unprivileged rows (as_user), which
# a row counting failures as denials would take for one
if [ -x /usr/bin/python3 ] && p=$(command -v python3) && [ "$p" != /usr/bin/python3 ] &&
	[ "$(id -u)" = 0 ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups "$p" -c '' 2>/dev/null; then
	# (a directory of its own that every user can reach, unlike $TMP)
	mkdir -p /tmp/hookshim-python && chmod 755 /tmp/hookshim-python &&
		{ ln -s /usr/bin/python3 /tmp/hookshim-python/python3 2>/dev/null; :; } &&
		PATH=/tmp/hookshim-python:$PATH
fi

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

# as_user NAME: sets AS to the prefix that runs a command as an
# unprivileged user (uid and gid AS_ID, no groups) and makes $TMP
# reachable to it; fails, saying the skip for NAME, where this cannot be
# (not root, no setpriv). The security tests run their attacks as root
# and as a user. Not the overflow id (65534, "nobody"): enforce mode puts
# the agent of any other user in a user namespace of its own
# (floor/floor_userns.c), which these runs then go through.
AS_ID=12345
as_user() {
	if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
		chmod 755 "$TMP"
		AS=(setpriv --reuid=$AS_ID --regid=$AS_ID --clear-groups)
		return 0
	fi
	skip "$1 as a user: not root or no setpriv"
	return 1
}

# each_denied TAG OUT KEY...: OUT holds a "KEY=STATUS" line per attempt
# (an agent script's `echo "KEY=$?"`): each KEY failed, none went through
# (TAG prefixes the case names).
each_denied() {
	local t=$1 out=$2 k
	shift 2
	for k; do
		case "$out" in
		*"$k=0"*) fail "$t$k went through" ;;
		*"$k="*) pass "$t$k denied" ;;
		*) fail "$t$k: no result" ;;
		esac
	done
}

# need_floor NAME: ends the script with a skip for NAME (saying why) where
# `hookshim run` cannot install the syscall floor here; the floor tests'
# shared preamble.
need_floor() {
	echo '{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}' >"$TMP/need-floor.json"
	"$HOOKSHIM" run -c "$TMP/need-floor.json" -- /bin/true 2>"$TMP/need-floor.err" && return 0
	skip "$1: no syscall floor here ($(head -1 "$TMP/need-floor.err"))"
	exit 0
}

# TRY_PY: a Python helper for scripts that report calls one line each:
# try_(NAME, F) prints "NAME ok" (F returned None), "NAME <what F
# returned>" or "NAME <the OSError's text>".
TRY_PY='def try_(name, f):
    try:
        r = f()
        print(name, "ok" if r is None else r)
    except OSError as e:
        print(name, e.strerror)'
