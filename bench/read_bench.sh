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
# Reported: median wall-time ratio over PAIRS interleaved runs, with the
# spread (min..max of the per-run ratios).
# Usage: BUILD=build bench/read_bench.sh
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

wall() { local TIMEFORMAT=%R; { time "$@" >/dev/null 2>&1; } 2>&1; }
plain() { (cd "$T/tree" && wall bash -c "$LOOP"); }
under() { (cd "$T/tree" && wall "$HS" run -c "$T/$1.json" --root "$T/tree" -- bash -c "$LOOP"); }

declare -A r
for _ in $(seq "$PAIRS"); do
	for c in write-only read-none; do
		p=$(plain); h=$(under $c)
		r[$c]+="$(echo "$h / $p" | bc -l) "
	done
done
for c in write-only read-none; do
	tr ' ' '\n' <<<"${r[$c]}" | grep . | sort -g | awk -v c="$c" -v n="$PAIRS" '
		{ v[NR] = $1 } END { m = int((NR + 1) / 2)
		med = (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2
		printf "read-heavy (git status + grep -r, 3000 files), %-10s: %.3fx plain (median of %d, spread %.3f..%.3f)\n", c, med, n, v[1], v[NR] }'
done
