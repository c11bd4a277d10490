#!/bin/bash
# Runs every unit test binary and integration script; each prints lines
# "PASS name", "FAIL name" or "SKIP name: why". A program that dies without
# saying FAIL counts as one failure. Ends with "N passed, N failed".
#
# Usage: tests/run.sh [--long] [substring]   (BUILD names the build directory)
#
# Tests run side by side, HOOKSHIM_TEST_JOBS at a time (by default make's
# -jN, or the machine's cores). A script says near its top how it must run:
#   # lane: alone -- why    it times what it must (SIGTERM within 2 s, live
#                           output, a stalled writer): it runs when nothing
#                           else does, after the others
#   # lane: long -- why     a slow stress case: run only with --long,
#                           which runs just those (make test-long; CI
#                           runs it before make test)
# The longest tests start first, from the times the last run kept in
# $BUILD/test-times (e2e agents first when there is none).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export HOOKSHIM_TOP=$PWD
export HOOKSHIM=$PWD/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$PWD/$BUILD/lib/libhookshim.so
export HOOKSHIM_PROBES=$PWD/$BUILD/probes
# tests/lib.sh makes each test's TMP; a test that could not source it
# (the checkout removed under a run) would go on with TMP empty and work
# in / -- `chmod -R a+rwX "$TMP/root"` reached /root and, through its
# hard links, system binaries. Until lib.sh sets it, TMP names a place
# nothing can be made in.
export TMP=/proc/hookshim-tests-no-lib
# `hookshim run` turns CI mode on by itself under CI=true; the tests that
# want it say so, so a run in CI checks what a run here does.
unset CI GITHUB_STEP_SUMMARY
long=0
[ "${1:-}" = --long ] && { long=1; shift; }
filter=${1:-}
logdir=$(mktemp -d /tmp/hookshim-tests.XXXXXX)
times=$BUILD/test-times

jobs=${HOOKSHIM_TEST_JOBS:-}
if [ -z "$jobs" ] && [[ " ${MAKEFLAGS:-} " =~ \ -j([0-9]+)\  ]]; then
	jobs=${BASH_REMATCH[1]}
fi
jobs=${jobs:-$(nproc 2>/dev/null || echo 1)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || jobs=1
# the tests that run make (make install, make deb) start their own
unset MAKEFLAGS MFLAGS MAKELEVEL

lane_of() { # FILE: alone, long or together
	local l
	l=$(head -n 40 "$1" 2>/dev/null | sed -n 's/^# lane: \([a-z]*\).*/\1/p' | head -n 1)
	echo "${l:-together}"
}

# run_one NAME COMMAND...: runs it, prints its line (one write, so lanes
# running side by side do not interleave), keeps "p f s secs" in .res.
run_one() {
	local name=$1; shift
	local base="$logdir/${name//\//_}"
	local t0=$SECONDS
	timeout -k 10 900 "$@" >"$base.log" 2>&1 </dev/null
	local rc=$? p f s out
	p=$(grep -c '^PASS ' "$base.log"); f=$(grep -c '^FAIL ' "$base.log"); s=$(grep -c '^SKIP ' "$base.log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $name: exited $rc without a FAIL line" >>"$base.log"; f=1
	fi
	out=$(printf '%-44s %3d passed %3d failed %3d skipped (%ds)\n' "$name" "$p" "$f" "$s" $((SECONDS - t0))
		if [ "$f" != 0 ]; then
			grep -E '^(FAIL|#)' "$base.log" | head -40 | sed 's/^/    /'
			echo "    (full log: $base.log)"
		fi
		grep '^SKIP ' "$base.log" | sed 's/^/    /')
	printf '%s\n' "$out"
	echo "$p $f $s $((SECONDS - t0)) $name" >"$base.res"
}

# The tests to run, as "NAME<TAB>LANE<TAB>COMMAND".
list=()
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=unit/$(basename "$t")
	[[ -z "$filter" || "$n" == *"$filter"* ]] || continue
	[ "$long" = 1 ] && continue
	list+=("$n	together	$t")
done
for t in tests/integration/*.sh tests/security/*.sh tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=${t#tests/}
	[ "$n" = e2e/agents.sh ] && continue # a library the e2e tests source
	[[ -z "$filter" || "$n" == *"$filter"* ]] || continue
	lane=$(lane_of "$t")
	if [ "$lane" = long ]; then
		[ "$long" = 1 ] || continue
		lane=together
	elif [ "$long" = 1 ]; then
		continue
	fi
	list+=("$n	$lane	bash $t")
done

# what each test took last time, else a guess by folder
declare -A last=()
if [ -f "$times" ]; then
	while read -r secs name; do last[$name]=$secs; done <"$times"
fi
cost() { # NAME
	[ -n "${last[$1]:-}" ] && { echo "${last[$1]}"; return; }
	case $1 in e2e/*) echo 60 ;; security/*) echo 10 ;; integration/*) echo 5 ;; *) echo 1 ;; esac
}
ordered=$(for e in "${list[@]}"; do printf '%s\t%s\n' "$(cost "${e%%	*}")" "$e"; done | sort -t '	' -k1,1nr -s | cut -f2-)

start() { # NAME COMMAND
	# shellcheck disable=SC2086 # the command is a path and its arguments
	run_one "$1" $2
}
running=0
while IFS='	' read -r name lane cmd; do
	[ -n "$name" ] && [ "$lane" = together ] || continue
	if [ "$jobs" = 1 ]; then start "$name" "$cmd"; continue; fi
	while [ "$running" -ge "$jobs" ]; do wait -n; running=$((running - 1)); done
	start "$name" "$cmd" &
	running=$((running + 1))
done <<<"$ordered"
wait
while IFS='	' read -r name lane cmd; do
	[ -n "$name" ] && [ "$lane" = alone ] || continue
	start "$name" "$cmd"
done <<<"$ordered"

pass=0 fail=0 skip=0
failed_names=()
for r in "$logdir"/*.res; do
	[ -f "$r" ] || continue
	read -r p f s secs name <"$r"
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	[ "$f" = 0 ] || failed_names+=("$name")
done
# Keep what each test cost, for the next run's order (a filtered run adds
# to what is known; a test not run this time keeps its old figure).
{
	cat "$logdir"/*.res 2>/dev/null | awk '{print $4, $5}'
	[ -f "$times" ] && cat "$times"
} | awk '!seen[$2]++' >"$times.new" 2>/dev/null && mv "$times.new" "$times" 2>/dev/null
echo
[ ${#failed_names[@]} = 0 ] || echo "failing: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
