#!/bin/bash
# An http hook's decision against a command hook's (issue 27), in the
# same run: a session whose agent (python3) starts N commands, each a
# Bash tool call decided by (a) no hook, (b) a command hook that allows
# (`exit 0`), (c) an http hook to the Cedar policy service
# (tests/integration/policy-service, allow-all policy) over kept-alive
# connections, and (d) the same service's /empty, which answers at once
# without Cedar: the transport alone. Rounds interleave a-d so drift
# hits all alike; reported as medians with ranges of wall time, and per
# decision above (a).
#
# Usage: BUILD=build bench/http_hook_bench.sh   (ROUNDS=5, N=300)
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
. bench/lib.bash
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
[ -x "$HS" ] || { echo "http hook bench: build first"; exit 1; }
ROUNDS=${ROUNDS:-5}
N=${N:-300}
T=$(mktemp -d /tmp/hookshim-hbench.XXXXXX)
export HOOKSHIM_TOP=$TOP
. tests/integration/policy-service/service.sh
trap 'policy_service_stop; rm -rf "$T"' EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
printf '@id("allow-all")\npermit(principal, action, resource);\n' > "$T/p.cedar"
policy_service_start "$T/p.cedar" "$T/rec.jsonl" ||
	{ echo "http hook bench: $PS_SKIP"; exit 0; }
echo '{"hooks":{}}' > "$T/none.json"
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}' > "$T/command.json"
echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"http\",\"url\":\"$PS_BASE/hook\"}]}]}}" > "$T/http.json"
echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"http\",\"url\":\"$PS_BASE/empty\"}]}]}}" > "$T/http-empty.json"
agent="import subprocess
for _ in range($N): subprocess.run(['/bin/sh', '-c', ':'])"
cd "$T" || exit 1
ms() { # CONFIG: wall ms of one session
	local t0 t1
	t0=$(date +%s%N)
	"$HS" run -c "$1" -- python3 -c "$agent" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 ))
}
: > none; : > command; : > http; : > http-empty
for _ in $(seq "$ROUNDS"); do
	for k in none command http http-empty; do ms "$k.json" >> "$k"; done
done
# rec.jsonl grows by a line per request: the service kept up
got=$(wc -l < rec.jsonl)
base=$(median < none)
per() { awk -v b="$base" -v n="$N" '{ printf "%.3f\n", ($1 - b) / n }' "$1"; }
printf '%-16s %8s %10s %18s\n' "" "wall ms" "range" "ms per decision"
for k in none command http http-empty; do
	printf '%-16s %8s %10s %18s\n' "$k hook" "$(median < "$k")" "$(minmax < "$k")" \
		"$( [ "$k" = none ] && echo - || { per "$k" | median; })"
done
echo "http / command, per decision: $(r "$(per http | median)" "$(per command | median)") with Cedar, $(r "$(per http-empty | median)" "$(per command | median)") transport alone  ($got requests answered, $N decisions a session)"
