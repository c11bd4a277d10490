#!/bin/bash
# writes.follow_symlinks' cost through the shim: a dynamic program making
# N calls through a symlinked directory (l -> okdir) that no hook
# watches, plain vs hookshim with follow_symlinks off and on, interleaved
# (PAIRS rounds), for two calls:
#   open    open(O_CREAT|O_APPEND) + write + close of l/x: the path is
#           resolved, pinned and the file opened by its physical name
#   unlink  unlink(l/x) of a name that is not there: with
#           follow_symlinks its directory is resolved (an unlink is named
#           through its parent since the shim pins it)
#   on@base  (only with BASE=DIR, the build directory of an older tree)
#           follow_symlinks on under that build, in the same loop
# Reported: the median CPU-time (user+sys of the whole session) ratio to
# the plain run of the same round, with the spread (min..max).
# Usage: BUILD=build [BASE=/path/to/old/build] bench/follow_bench.sh
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
P=$TOP/$BUILD/probes/follow_race
export HOOKSHIM_LIB=$TOP/$BUILD/lib/libhookshim.so
[ -x "$HS" ] && [ -x "$P" ] || { echo "follow bench: build first (make bench builds the probes)"; exit 0; }
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d $base/hookshim-fbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
N=${N:-20000}
PAIRS=${PAIRS:-7}
mkdir -p "$T/okdir"; ln -s okdir "$T/l"
for f in off on; do
	printf '{"hookshim":{"floor":"off","writes":{"follow_symlinks":%s}},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(never-here/**)","command":"exit 2"}]}]}}\n' \
		"$([ $f = on ] && echo true || echo false)" > "$T/$f.json"
done
VARIANTS="off on"
[ -n "${BASE:-}" ] && [ -x "$BASE/bin/hookshim" ] && VARIANTS="off on on@base"
cpu() { # variant kind -> CPU seconds of the run
	local TIMEFORMAT='%3U %3S' t
	rm -f "$T/okdir/x"
	t=$( { time { (cd "$T" && case $1 in
		plain) "$P" "$2:l:$N" ;;
		on@base) HOOKSHIM_LIB=$BASE/lib/libhookshim.so "$BASE/bin/hookshim" \
			run --no-notices -c "$T/on.json" --root "$T" -- "$P" "$2:l:$N" ;;
		*) "$HS" run --no-notices -c "$T/$1.json" --root "$T" -- "$P" "$2:l:$N" ;;
		esac) >/dev/null 2>&1; }; } 2>&1 )
	echo "$t" | awk '{ print $1 + $2 }'
}
stats() { # ratios... -> "median (min..max)"
	tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END {
		printf "%.2fx (%.2f..%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
for kind in open unlink; do
	declare -A R=()
	for i in $(seq "$PAIRS"); do
		p=$(cpu plain $kind)
		for f in $VARIANTS; do
			c=$(cpu $f $kind)
			R[$f]+="$(echo "$c / ($p + 0.0001)" | bc -l) "
		done
	done
	printf '%-6s x %d through l -> okdir (no hook matches), CPU vs plain, %d rounds:\n' "$kind" "$N" "$PAIRS"
	printf '  follow_symlinks off %s   on %s' "$(echo "${R[off]}" | stats)" "$(echo "${R[on]}" | stats)"
	[ -n "${R[on@base]:-}" ] && printf '   on@base %s' "$(echo "${R[on@base]}" | stats)"
	echo
	unset R
done
