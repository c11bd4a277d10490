#!/bin/bash
# What the floor's question costs an agent with the shim (shim/reason.c,
# floor/floor_pending.c): where the floor can deny (a hook on writes
# or reads) each shell the agent starts asks it for the denials it keeps,
# a seccomp round trip answered at once while none waits. A python3 agent
# spawning N `sh -c true` (its tool calls' shape), plain vs hookshim with
# a Write hook that matches nothing, the floor off (no question) and on,
# interleaved (PAIRS rounds); with BASE=DIR (the build directory of an
# older tree, e.g. from before the question) the floor on under that
# build too, in the same loop: the question's own cost. Reported: the
# median per-spawn wall and CPU time (user+sys of the whole session), the
# spread (min..max), and the ratio to plain.
# Usage: BUILD=build [BASE=/path/to/old/build] bench/floor_question_bench.sh
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
export HOOKSHIM_LIB=$TOP/$BUILD/lib/libhookshim.so
[ -x "$HS" ] || { echo "floor question bench: build first"; exit 0; }
command -v python3 >/dev/null || { echo "floor question bench: python3 missing"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=${N:-300}
PAIRS=${PAIRS:-7}
for f in off require; do
	printf '{"hookshim":{"floor":"%s"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(never-here/**)","command":"exit 2"}]}]}}\n' \
		"$f" > "$T/$f.json"
done
AGENT="import subprocess
for _ in range($N): subprocess.run(['sh', '-c', 'true'])"
run() { # variant -> "wall_s cpu_s"
	local TIMEFORMAT='%3R %3U %3S' t
	t=$( { time { (cd "$T" && case $1 in
		plain) python3 -c "$AGENT" ;;
		base) HOOKSHIM_LIB=$BASE/lib/libhookshim.so "$BASE/bin/hookshim" run \
			--no-notices -c "$T/require.json" --root "$T" -- python3 -c "$AGENT" ;;
		*) "$HS" run --no-notices -c "$T/$1.json" --root "$T" -- python3 -c "$AGENT" ;;
		esac) >/dev/null 2>&1; }; } 2>&1 )
	echo "$t" | awk '{ print $1, $2 + $3 }'
}
declare -A W C
V="plain off require"
[ -n "${BASE:-}" ] && [ -x "$BASE/bin/hookshim" ] && V="$V base"
for _ in $(seq "$PAIRS"); do
	for v in $V; do
		read -r w c <<<"$(run $v)"
		W[$v]+="$w "; C[$v]+="$c "
	done
done
per() { # seconds... -> "median ms (min..max)" per spawn
	tr ' ' '\n' | grep . | sort -g | awk -v n="$N" '{ v[NR] = $1 * 1000 / n } END {
		printf "%.2f ms (%.2f..%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
med() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf 'python3 agent, %d spawns of sh -c true per run, %d interleaved rounds, per spawn:\n' "$N" "$PAIRS"
for v in $V; do
	printf '  %-9s wall %-26s cpu %-26s (wall %.2fx, cpu %.2fx plain)\n' \
		"$(case $v in require) echo floor-on ;; off) echo floor-off ;;
		   base) echo on@base ;; *) echo plain ;; esac)" \
		"$(echo "${W[$v]}" | per)" "$(echo "${C[$v]}" | per)" \
		"$(echo "$(echo "${W[$v]}" | med) / $(echo "${W[plain]}" | med)" | bc -l)" \
		"$(echo "$(echo "${C[$v]}" | med) / $(echo "${C[plain]}" | med)" | bc -l)"
done
