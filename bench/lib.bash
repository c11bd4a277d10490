# Shared by the interleaved benches (modes_bench.sh, scope_bench.sh):
# sourced, not run (bench/run.sh runs only *.sh).

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
