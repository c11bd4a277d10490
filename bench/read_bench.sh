#!/bin/bash
# Read events cost, on a read-heavy workload: `git status` and `grep -r`
# over a tree of 3,000 files, run by the agent itself (`hookshim run --
# bash -c LOOP`: bash and its git and grep are agent processes, whose
# reads are the ones read events look at). Three sessions against plain
# runs, interleaved, in the same run:
#   write-only  a config with a Write hook and no Read hook (today's cost:
#               read-only opens test one flag more, goal: ratio as before)
#   read-none   a Read hook whose path filter matches nothing the workload
#               opens (every open for reading builds its path and misses
#               the glob in-process; nothing leaves the process)
#   write-only@base  (only with BASE=DIR, the build directory of an older
#               tree, e.g. from before read events) the write-only config
#               under that build, in the same interleaved loop: the way to
#               show "a config without Read hooks costs what it did"
# Reported: median wall-time and CPU-time (user+sys of the whole session)
# ratios over PAIRS interleaved runs, with the spread (min..max of the
# per-run ratios).
# Usage: BUILD=build [BASE=/path/to/old/build] bench/read_bench.sh
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$TOP/$BUILD/lib/libhookshim.so
[ -x "$HS" ] && [ -f "$HOOKSHIM_LIB" ] || { echo "read bench: build first"; exit 1; }
command -v git >/dev/null || { echo "read bench: git missing"; exit 0; }
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d $base/hookshim-rbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home; mkdir -p "$HOME"
PAIRS=${PAIRS:-7}
LOOPS=${LOOPS:-3}

mkdir -p "$T/tree"
( cd "$T/tree" && for d in $(seq 30); do mkdir -p d$d
	for f in $(seq 100); do echo "line $d $f" >d$d/f$f.txt; done; done
  git init -q . && git add -A && git -c user.email=b@b -c user.name=b commit -qm t )
LOOP="for i in \$(seq $LOOPS); do git status --porcelain >/dev/null; grep -r needle . >/dev/null; done; true"

cat >"$T/write-only.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"exit 0","if":"Write(nowhere/**)"}]}]}}
J
cat >"$T/read-none.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"exit 0","if":"Read(nowhere/**)"}]}]}}
J

BASE=${BASE:-}
VARIANTS="write-only read-none"
if [ -n "$BASE" ]; then
	[ -x "$BASE/bin/hookshim" ] && [ -f "$BASE/lib/libhookshim.so" ] ||
		{ echo "read bench: BASE=$BASE has no bin/hookshim and lib/libhookshim.so"; exit 1; }
	VARIANTS+=" write-only@base"
fi

# "wall cpu" of one run; cpu is user+sys of the run and its children
measure() { local TIMEFORMAT='%R %U %S'; { time "$@" >/dev/null 2>&1; } 2>&1 |
	awk '{ printf "%s %.3f", $1, $2 + $3 }'; }
plain() { (cd "$T/tree" && measure bash -c "$LOOP"); }
under() {
	local hs=$HS lib=$HOOKSHIM_LIB cfg=$1
	case $1 in *@base) hs=$BASE/bin/hookshim lib=$BASE/lib/libhookshim.so cfg=${1%@base} ;; esac
	(cd "$T/tree" && HOOKSHIM_LIB=$lib measure "$hs" run -c "$T/$cfg.json" --root "$T/tree" -- bash -c "$LOOP")
}

declare -A rw rc hw hc
for _ in $(seq "$PAIRS"); do
	for c in $VARIANTS; do
		read -r pw pc <<<"$(plain)"; read -r hw[$c] hc[$c] <<<"$(under "$c")"
		rw[$c]+="$(echo "${hw[$c]} / $pw" | bc -l) "
		rc[$c]+="$(echo "${hc[$c]} / $pc" | bc -l) "
	done
	# this build against the old one directly, a few seconds apart
	[ -n "$BASE" ] && rw[now/base]+="$(echo "${hw[write-only]} / ${hw[write-only@base]}" | bc -l) " &&
		rc[now/base]+="$(echo "${hc[write-only]} / ${hc[write-only@base]}" | bc -l) "
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '
	{ v[NR] = $1 } END { m = int((NR + 1) / 2)
	printf "%.3fx (spread %.3f..%.3f)", (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2, v[1], v[NR] }'; }
for c in $VARIANTS; do
	printf "read-heavy (git status + grep -r, 3000 files), %-15s: wall %s, cpu %s plain, median of %d\n" \
		"$c" "$(median "${rw[$c]}")" "$(median "${rc[$c]}")" "$PAIRS"
done
[ -z "$BASE" ] || printf "write-only, this build against BASE's: wall %s, cpu %s, median of %d\n" \
	"$(median "${rw[now/base]}")" "$(median "${rc[now/base]}")" "$PAIRS"
true
