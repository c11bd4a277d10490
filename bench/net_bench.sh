#!/bin/bash
# Connections as events (issue 28, docs/network.md): 1,000 HTTP requests
# to a local server, each over a new connection, made by 100 curl
# processes (10 URLs each, "Connection: close") started by a command of
# the agent -- plain vs hookshim with no WebFetch hook (connect's fast
# path), with one whose rule matches no host (each process asks the
# supervisor once, answered without a spawn), and with one that matches
# every host (one spawn, then the session's cache) -- interleaved in the
# same run, guard mode, medians of ROUNDS with the range, wall and CPU
# time as ratios to plain. Every hookshim row includes the session's
# start and end (about 5 ms). A second table: 20,000 UDP datagrams sent
# without a connect (python's sendto, through the shim), and the same by a
# static program's sendmsg (each a notification of the floor: BPF cannot
# read sendmsg's destination), plain vs a hook on every host.
#
# Usage: BUILD=build bench/net_bench.sh   (ROUNDS=5)
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
. bench/lib.bash
BUILD=${BUILD:-build}
HS=$TOP/$BUILD/bin/hookshim
[ -x "$HS" ] || { echo "net bench: build first"; exit 1; }
command -v curl >/dev/null || { echo "net bench: no curl"; exit 0; }
ROUNDS=${ROUNDS:-5}
T=$(mktemp -d /tmp/hookshim-nbench.XXXXXX)
export HOME=$T/home; mkdir -p "$HOME" "$T/www" "$T/proj"
echo ok > "$T/www/ok.txt"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -c '
import http.server, sys, os
os.chdir(sys.argv[2])
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()' "$PORT" "$T/www" &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/ok.txt" && break; sleep 0.1; done

printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}\n' > "$T/none.json"
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","if":"WebFetch(domain:nothing.invalid)","command":"exit 2"}]}]}}\n' > "$T/nomatch.json"
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"true"}]}]}}\n' > "$T/every.json"
urls=$(for i in $(seq 10); do printf ' http://127.0.0.1:%s/ok.txt' "$PORT"; done)
cat > "$T/udp.py" <<PY
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(20000):
    s.sendto(b"x", ("127.0.0.1", $PORT))
PY
cat > "$T/work.sh" <<SH
for p in \$(seq 100); do curl -s -H 'Connection: close' -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null -o /dev/null $urls || exit 1; done
SH

# one MODE: "wall cpu" (MODE plain: no hookshim); the work runs as a
# command of the agent (a shell with a command string)
one() {
	local work=${WORK:-bash $T/work.sh}
	if [ "$1" = plain ]; then
		timed "net bench: $1" bash -c "$work"
	else
		timed "net bench: $1" "$HS" run --guard --no-notices --root "$T/proj" -c "$T/$1.json" -- bash -c "bash -c '$work'"
	fi
}

modes="plain none nomatch every"
declare -A wall=() cpu=()
one plain >/dev/null # warm caches
interleave one $modes
printf '%-34s %26s %26s\n' "1,000 requests, 100 curl processes" "wall s (ratio, range)" "cpu s (ratio, range)"
for m in $modes; do
	case $m in
	plain) label="plain" ;; none) label="no WebFetch hook" ;;
	nomatch) label="a rule matching no host" ;; every) label="a hook on every host" ;;
	esac
	printf '%-34s %s\n' "$label" "$(cells "${wall[$m]}" "${cpu[$m]}" "${wall[plain]}" "${cpu[plain]}")"
done

# datagrams: python (the shim: one question, then its own memory) and a
# static program (the floor: a notification per sendmsg)
P=$TOP/$BUILD/probes/net_static_connect
# one_row WORK:MODE: the datagram workload WORK in MODE
one_row() {
	case ${1%%:*} in
	py) WORK="python3 $T/udp.py" one "${1#*:}" ;;
	st) WORK="$P $PORT sendmsg20000" one "${1#*:}" ;;
	esac
}
unset wall cpu
declare -A wall=() cpu=()
rows="py:plain py:every"
[ -x "$P" ] && rows+=" st:plain st:every"
interleave one_row $rows
printf '\n%-34s %26s %26s\n' "20,000 UDP datagrams" "wall s (ratio, range)" "cpu s (ratio, range)"
for r in $rows; do
	case $r in
	py:plain) label="python sendto, plain" ;; py:every) label="... a hook on every host" ;;
	st:plain) label="static sendmsg, plain" ;; st:every) label="... a hook on every host" ;;
	esac
	base=${r%%:*}:plain
	printf '%-34s %s\n' "$label" "$(cells "${wall[$r]}" "${cpu[$r]}" "${wall[$base]}" "${cpu[$base]}")"
done
