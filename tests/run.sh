#!/bin/bash
# Runs every unit test binary and integration script; each prints lines
# "PASS name", "FAIL name" or "SKIP name: why". A program that dies without
# saying FAIL counts as one failure. Ends with "N passed, N failed".
# Usage: tests/run.sh [substring]   (BUILD names the build directory)
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export HOOKSHIM_TOP=$PWD
export HOOKSHIM=$PWD/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$PWD/$BUILD/lib/libhookshim.so
export HOOKSHIM_PROBES=$PWD/$BUILD/probes
# `hookshim run` turns CI mode on by itself under CI=true; the tests that
# want it say so, so a run in CI checks what a run here does.
unset CI GITHUB_STEP_SUMMARY
filter=${1:-}
pass=0 fail=0 skip=0
failed_names=()
logdir=$(mktemp -d /tmp/hookshim-tests.XXXXXX)

run_one() { # name, command...
	local name=$1; shift
	local log="$logdir/${name//\//_}.log"
	local t0=$SECONDS
	timeout -k 10 900 "$@" >"$log" 2>&1 </dev/null
	local rc=$?
	local p f s
	p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $name: exited $rc without a FAIL line" >>"$log"; f=1
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	printf '%-44s %3d passed %3d failed %3d skipped (%ds)\n' "$name" "$p" "$f" "$s" $((SECONDS - t0))
	if [ "$f" != 0 ]; then
		failed_names+=("$name")
		grep -E '^(FAIL|#)' "$log" | head -40 | sed 's/^/    /'
		echo "    (full log: $log)"
	fi
	grep '^SKIP ' "$log" | sed 's/^/    /'
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=unit/$(basename "$t")
	[[ -z "$filter" || "$n" == *"$filter"* ]] || continue
	run_one "$n" "$t"
done
for t in tests/integration/*.sh tests/security/*.sh tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=${t#tests/}
	[ "$n" = e2e/agents.sh ] && continue # a library the e2e tests source
	[[ -z "$filter" || "$n" == *"$filter"* ]] || continue
	run_one "$n" bash "$t"
done
echo
[ ${#failed_names[@]} = 0 ] || echo "failing: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
