#!/bin/bash
# The floor's cost for reads: a program opening, reading and closing
# 5,000 existing files, interleaved runs, medians of 7 (with min-max):
#   static plain            the static reader alone
#   static write-hook       under hookshim, a Write hook matching none, no
#                           Read hook: reads are ALLOWed inside the kernel
#   static read-hook        a Read hook whose Read(never-here/**) matches
#                           none: every open is notified and answered
#                           CONTINUE by the receiver (what Claude Code's
#                           Bun pays for its own reads)
#   dynamic write-hook /    the same reader built dynamic: the shim is in
#   dynamic read-hook       it and forwards its reads with the cookie, so
#                           a Read hook adds no round trip (the agent's
#                           reads only cost the shim's in-process filter)
# Each run prints its median open latency: read-hook minus plain is one
# notification round trip.
set -u
S=$HOOKSHIM_PROBES/floor_static_bench
D=$HOOKSHIM_PROBES/floor_dynamic_bench
[ -x "$S" ] && [ -x "$D" ] || { echo "floor read bench: probes not built"; exit 0; }
N=${N:-5000}
RUNS=${RUNS:-7}
dir=$(mktemp -d "${FLOOR_BENCH_DIR:-/dev/shm}/hs-floor-read.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(never-here/**)","command":"exit 2"}]}]}}\n' >"$dir/write.json"
printf '{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","if":"Read(never-here/**)","command":"exit 2"}]}]}}\n' >"$dir/read.json"
mkdir "$dir/d" && "$S" "$dir/d" "$N" >/dev/null
run() { # variant -> "total_ms median_us" and the CPU time of the run
	local prog=$S cfg=${1#*-}
	case $1 in dyn-*) prog=$D ;; esac
	case $1 in
	*plain) out=$("$prog" "$dir/d" "$N" read) ;;
	*) out=$(cd "$dir" && "$HOOKSHIM" run -c "$dir/$cfg.json" --root "$dir" -- "$prog" "$dir/d" "$N" read) ;;
	esac
	echo "$out" | sed 's/total_ms=\([0-9.]*\) median_open_us=\([0-9.]*\)/\1 \2/'
}
V="st-plain st-write st-read dyn-plain dyn-write dyn-read"
declare -A T U
for _ in $(seq "$RUNS"); do
	for v in $V; do
		read -r t u <<<"$(run "$v")"
		T[$v]+="$t "; U[$v]+="$u "
	done
done
stats() { # "median (min-max)"
	tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "%.1f (%.1f-%.1f)", a[int((NR+1)/2)], a[1], a[NR]}'
}
med() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf 'reader: %s files opened for reading, read, closed; %s interleaved runs (%s)\n' "$N" "$RUNS" "$dir"
printf '%-10s %-28s %-26s %s\n' variant "total ms median (min-max)" "median open us (min-max)" "x plain"
for v in $V; do
	base=${v%%-*}-plain
	printf '%-10s %-28s %-26s %.2f\n' "$v" "$(echo "${T[$v]}" | stats)" "$(echo "${U[$v]}" | stats)" \
		"$(echo "$(echo "${T[$v]}" | med) / $(echo "${T[$base]}" | med)" | bc -l)"
done
