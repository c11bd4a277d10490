#!/bin/bash
# The syscall floor's cost: a static binary creating 5,000 files, with a
# Write hook that matches none of them, plain vs hookshim with the floor
# off vs on (interleaved, medians of 7), and the median open latency of
# each (the floor's minus plain's: one notification round trip); and,
# when make bench built it, under bench/notify_bare (the floor's program,
# every notification continued at once, no hookshim): the kernel's part
# of that round trip.
set -u
BARE=$(dirname "$HOOKSHIM")/../bench/notify_bare
B=$HOOKSHIM_PROBES/floor_static_bench
[ -x "$B" ] || { echo "floor bench: $B not built"; exit 0; }
dir=$(mktemp -d "${FLOOR_BENCH_DIR:-/dev/shm}/hs-floor.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT
for m in on off; do
	printf '{"hookshim":{"floor":"%s"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(never-here/**)","command":"exit 2"}]}]}}\n' \
		"$([ $m = on ] && echo require || echo off)" > "$dir/$m.json"
done
run() { # variant -> "total_ms median_us"
	rm -rf "$dir/d"; mkdir "$dir/d"
	case $1 in
	plain) out=$("$B" "$dir/d" 5000) ;;
	bare) out=$("$BARE" "$B" "$dir/d" 5000) ;;
	*) out=$(cd "$dir" && "$HOOKSHIM" run -c "$dir/$1.json" --root "$dir" -- "$B" "$dir/d" 5000) ;;
	esac
	echo "$out" | sed 's/total_ms=\([0-9.]*\) median_open_us=\([0-9.]*\)/\1 \2/'
}
variants="plain off on"
[ -x "$BARE" ] && "$BARE" true 2>/dev/null && variants="$variants bare"
declare -A T U
for i in 1 2 3 4 5 6 7; do
	for v in $variants; do
		read -r t u <<<"$(run $v)"
		T[$v]+="$t "; U[$v]+="$u "
	done
done
med() { tr ' ' '\n' | grep . | sort -g | sed -n 4p; }
for v in $variants; do
	t=$(echo "${T[$v]}" | med); u=$(echo "${U[$v]}" | med)
	eval "t_$v=$t u_$v=$u"
done
printf 'static write loop, 5,000 files, hooks matching none (%s):\n' "$dir"
printf '  plain %8.1f ms   floor off %8.1f ms (%.2fx)   floor on %8.1f ms (%.2fx)\n' \
	"$t_plain" "$t_off" "$(echo "$t_off / $t_plain" | bc -l)" "$t_on" "$(echo "$t_on / $t_plain" | bc -l)"
printf '  median open: plain %.1f us, floor on %.1f us: round trip %.1f us\n' \
	"$u_plain" "$u_on" "$(echo "$u_on - $u_plain" | bc -l)"
if [ -n "${t_bare:-}" ]; then
	printf '  bare listener (no hookshim): %.1f ms (%.2fx), median open %.1f us: the kernel'"'"'s round trip %.1f us, hookshim'"'"'s part %.1f us\n' \
		"$t_bare" "$(echo "$t_bare / $t_plain" | bc -l)" "$u_bare" \
		"$(echo "$u_bare - $u_plain" | bc -l)" "$(echo "$u_on - $u_bare" | bc -l)"
fi
