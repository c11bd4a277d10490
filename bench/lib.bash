# Shared by the interleaved benches (modes_bench.sh, scope_bench.sh,
# net_bench.sh): sourced, not run (bench/run.sh runs only *.sh).

# median of the numbers on stdin; minmax: "lo-hi" of them
median() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
	print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
minmax() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }
# r A B: A / B with two decimals (0 when B is 0)
r() { echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0) ? $1 / $2 : 0 }'; }

# npm_project DIR: a small project with its packages in the offline
# cache (npm's, under $HOME), for `npm ci --offline`; false when npm or
# its registry is not reachable here
npm_project() {
	mkdir -p "$1" && (cd "$1" &&
		echo '{"name":"b","version":"1.0.0","dependencies":{"is-number":"7.0.0","ms":"2.1.3","kleur":"4.1.5"}}' > package.json &&
		timeout 120 npm install --silent --no-audit --no-fund >/dev/null 2>&1) &&
		[ -f "$1/package-lock.json" ]
}

# cells WALLS CPUS PLAIN_WALLS PLAIN_CPUS (space-separated seconds of the
# interleaved rounds): a mode's median wall and CPU time, each with its
# ratio to plain's median and the range of the rounds' ratios, as
# "W (Rx, lo-hi) C (Rx, lo-hi)" -- the row the interleaved benches print
cells() {
	local pw pc mw mc rw rc
	pw=$(tr ' ' '\n' <<<"$3" | grep . | median)
	pc=$(tr ' ' '\n' <<<"$4" | grep . | median)
	mw=$(tr ' ' '\n' <<<"$1" | grep . | median)
	mc=$(tr ' ' '\n' <<<"$2" | grep . | median)
	rw=$(tr ' ' '\n' <<<"$1" | grep . | awk -v p="$pw" '{ printf "%.2f\n", $1 / p }' | minmax)
	rc=$(tr ' ' '\n' <<<"$2" | grep . | awk -v p="$pc" '{ printf "%.2f\n", ($1 > 0 && p > 0) ? $1 / p : 0 }' | minmax)
	printf '%7.3f (%sx, %s) %7.3f (%sx, %s)' "$mw" "$(r "$mw" "$pw")" "$rw" \
		"$mc" "$(r "$mc" "$pc")" "$rc"
}

# timed WHAT CMD...: CMD's wall and CPU seconds (user + sys of its whole
# tree) as "W C"; a run that fails is said on stderr (WHAT names the bench
# and the mode): a failed workload would measure nothing
timed() {
	local what=$1 TIMEFORMAT='%R %U %S' out
	shift
	out=$( { time "$@" >/dev/null 2>&1 || echo "rc=$?"; } 2>&1 )
	grep -q '^rc=' <<<"$out" && echo "$what run failed ($(grep '^rc=' <<<"$out"))" >&2
	grep -v '^rc=' <<<"$out" | awk '{ printf "%s %s\n", $1, $2 + $3 }'
}

# interleave ONE KEY...: ROUNDS rounds, each running `ONE KEY` ("W C")
# for every KEY in turn, into the caller's associative arrays wall and
# cpu (wall[KEY]: the rounds' seconds, space-separated)
interleave() {
	local one=$1 k a b
	shift
	for _ in $(seq "$ROUNDS"); do
		for k in "$@"; do
			read -r a b <<<"$("$one" "$k")"
			wall[$k]+="$a "
			cpu[$k]+="$b "
		done
	done
}
