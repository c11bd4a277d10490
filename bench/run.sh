#!/bin/bash
# make bench: every benchmark, as ratios against plain runs in the same run.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export HOOKSHIM_TOP=$PWD
export HOOKSHIM=$PWD/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$PWD/$BUILD/lib/libhookshim.so
export HOOKSHIM_PROBES=$PWD/$BUILD/probes
echo "== core: matcher and hook dispatch"
"$BUILD/bench/bench_core" bench/nonmatching.json
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo
	echo "== $(basename "$b" .sh)"
	bash "$b"
done
