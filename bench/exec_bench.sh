#!/bin/bash
# Exec interception cost, against plain runs in the same run:
#   1. a loop of N (2000) /bin/true execs — a C fork+execve loop and a bash
#      `for` loop — plain, under `hookshim run` with hooks that match none
#      of them (bench/nonmatching.json), under `hookshim run` with a hook on
#      every Bash tool call (none of these execs is one), and under snoopy
#      (libsnoopy.so preloaded, logging to a file); goal <= 1.05x plain;
#   2. the same cost exec by exec (bench/exec_rr.c): /bin/true's own
#      load and start-up, plain, with the empty library and with the shim
#      in a session's environment, the variants taking turns exec by exec
#      so the machine's drift cancels;
#   3. one trivial hook's full dispatch (a `bash -c true` tool call: shim
#      request, supervisor, PreToolUse hook `true`) against a bare spawn of
#      `sh -c true`.
# Every configuration runs once per repetition, interleaved, so drift in
# the machine's load hits all alike; medians are reported, as wall time and
# as CPU time (user+sys of the whole process tree, steadier on a busy box).
# Usage: BUILD=build [EXEC_N=2000] [REPS=7] bench/exec_bench.sh
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
HS=${HOOKSHIM:-$TOP/$BUILD/bin/hookshim}
LIB=${HOOKSHIM_LIB:-$TOP/$BUILD/lib/libhookshim.so}
LOOP=${HOOKSHIM_PROBES:-$TOP/$BUILD/probes}/bench_spawnloop
RR=$TOP/$BUILD/bench/exec_rr
N=${EXEC_N:-2000}
REPS=${REPS:-7}
K=${HOOK_N:-100} # tool calls for the dispatch measurement
for f in "$HS" "$LIB" "$LOOP"; do
	[ -e "$f" ] || { echo "exec bench: $f missing; make bench builds it"; exit 1; }
done
T=$(mktemp -d /tmp/hookshim-xbench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home; mkdir -p "$HOME" # no user hook files leak in
cd "$T" || exit 1

cat > bash-all.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}
J

# snoopy logs through /etc/snoopy.ini (the packaged build ignores
# SNOOPY_INI); its default output is syslog's /dev/log. Where there is no
# syslog daemon each message is still formatted, then the send fails.
SNOOPY=
for s in /lib/x86_64-linux-gnu/libsnoopy.so /usr/lib/x86_64-linux-gnu/libsnoopy.so \
	 /usr/local/lib/libsnoopy.so $(dpkg -L snoopy 2>/dev/null | grep '/libsnoopy\.so$'); do
	[ -f "$s" ] && { SNOOPY=$s; break; }
done
if [ -z "$SNOOPY" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq snoopy >/dev/null 2>&1
	for s in $(dpkg -L snoopy 2>/dev/null | grep '/libsnoopy\.so'); do
		[ -f "$s" ] && { SNOOPY=$s; break; }
	done
fi
# The floor of any LD_PRELOAD design: ld.so mapping one more library.
EMPTY=
if echo 'int hookshim_bench_empty;' > empty.c &&
   ${CC:-cc} -shared -fPIC -o libempty.so empty.c 2>/dev/null; then
	EMPTY=$T/libempty.so
fi

# command CONFIG LOOP [COUNT]: sets CMD to one loop (of N execs) under one
# configuration.
command_of() {
	local loop n=${3:-$N}
	case $2 in
	c) loop=("$LOOP" "$n") ;;
	sh) loop=(bash -c "for i in \$(seq $n); do /bin/true; done") ;;
	esac
	case $1 in
	plain) CMD=("${loop[@]}") ;;
	nonmatching) CMD=("$HS" run -c "$TOP/bench/nonmatching.json" -- "${loop[@]}") ;;
	bash-all) CMD=("$HS" run -c bash-all.json -- "${loop[@]}") ;;
	snoopy) CMD=(env LD_PRELOAD="$SNOOPY" "${loop[@]}") ;;
	empty) CMD=(env LD_PRELOAD="$EMPTY" "${loop[@]}") ;;
	esac
}
run() {
	command_of "$@"
	"${CMD[@]}"
}

# timed FILE-TAG CMD...: appends "wall cpu" seconds of CMD to $T/FILE-TAG.
timed() {
	local tag=$1 out; shift
	local TIMEFORMAT='%R %U %S'
	out=$( { time "$@" >/dev/null 2>"$T/err" ; } 2>&1 ) ||
		{ echo "exec bench: $tag failed: $(head -3 "$T/err")" >&2; return 1; }
	awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }' <<<"$out" >> "$T/$tag"
}

configs=(plain)
[ -n "$EMPTY" ] && configs+=(empty)
configs+=(nonmatching bash-all)
[ -n "$SNOOPY" ] && configs+=(snoopy)
echo "exec bench: $N execs of /bin/true per loop, $REPS repetitions, medians"
[ -n "$SNOOPY" ] || echo "(snoopy not installed: apt-get install snoopy)"
for r in $(seq "$REPS"); do
	for l in c sh; do
		for c in "${configs[@]}"; do
			timed "$l-$c" run "$c" "$l" || exit 1
		done
	done
done
if [ -n "$SNOOPY" ]; then
	[ -S /dev/log ] && echo "(snoopy logs to syslog)" ||
		echo "(snoopy: no /dev/log here; messages are built, the send fails)"
fi

# median FILE COLUMN
median() {
	awk -v c="$2" '{ print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
			print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

label() {
	case $1 in
	plain) echo "plain" ;;
	nonmatching) echo "hookshim, nothing matches" ;;
	bash-all) echo "hookshim, hook on every Bash call" ;;
	snoopy) echo "snoopy" ;;
	empty) echo "preload of an empty library" ;;
	esac
}
# Page faults per exec: wall and CPU time swing by 10% on a shared VM,
# the fault count does not, and on a VM it is most of the cost of an
# exec. The difference between a loop of FN execs and an empty one.
FN=400
faults() {
	command -v perf >/dev/null || { echo -; return; }
	local a b
	command_of "$1" "$2" "$FN"
	a=$(perf stat -x, -e page-faults -- "${CMD[@]}" 2>&1 >/dev/null |
		awk -F, '/page-faults/ { print $1 }')
	command_of "$1" "$2" 0
	b=$(perf stat -x, -e page-faults -- "${CMD[@]}" 2>&1 >/dev/null |
		awk -F, '/page-faults/ { print $1 }')
	[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] && echo $(( (a - b) / FN )) || echo -
}
printf '%-36s %9s %7s %9s %7s %7s\n' "loop / configuration" "wall s" "ratio" \
	"cpu s" "ratio" "faults"
for l in c sh; do
	[ $l = c ] && echo "C fork+execve loop:" || echo "bash for loop:"
	pw=$(median "$T/$l-plain" 1); pc=$(median "$T/$l-plain" 2)
	for c in "${configs[@]}"; do
		w=$(median "$T/$l-$c" 1); u=$(median "$T/$l-$c" 2)
		printf '  %-34s %9.3f %7s %9.3f %7s %7s\n' "$(label $c)" "$w" \
			"$(ratio "$w" "$pw")x" "$u" "$(ratio "$u" "$pc")x" \
			"$(faults "$c" "$l")"
	done
done
echo "(faults: page faults per exec, perf stat over $FN execs)"
echo "(goal for hookshim <= 1.05x plain; snoopy was 1.44x)"

# --- the exec'd process's side, exec by exec -----------------------------------
if [ -x "$RR" ]; then
	# a session's variables, as every process in it has them (the write
	# filter holds newlines: \037-separated, see exec_rr.c)
	us=$'\037'
	senv=$("$HS" run -c "$TOP/bench/nonmatching.json" -- env -0 |
		while IFS= read -r -d '' kv; do
			case $kv in
			HOOKSHIM_CHECKED=*) ;;
			LD_PRELOAD=* | HOOKSHIM_* | UV_USE_IO_URING=*)
				printf '%s\037' "$kv" ;;
			esac
		done)
	variants=("HOOKSHIM_CHECKED=x")
	names=("plain")
	[ -n "$EMPTY" ] && variants+=("LD_PRELOAD=$EMPTY${us}HOOKSHIM_CHECKED=x") &&
		names+=("preload of an empty library")
	variants+=("${senv}HOOKSHIM_CHECKED=x")
	names+=("hookshim session, nothing matches")
	echo "one exec's own side (/bin/true: load, start-up, exit), the variants"
	echo "taking turns exec by exec, $N execs each:"
	"$RR" "$N" "${variants[@]}" | while read -r v mean med ratio; do
		printf '  %-34s %9.0f us %7.3fx  (median %.0f us)\n' \
			"${names[$v]}" "$mean" "$ratio" "$med"
	done
fi

# --- one trivial hook, end to end ---------------------------------------------
# K `bash -c true` tool calls by an agent, with and without the hook: the
# difference per call is the dispatch (request, supervisor, hook spawn).
for r in $(seq "$REPS"); do
	timed k-plain "$LOOP" "$K" /bin/bash -c true || exit 1
	timed k-hook "$HS" run -c bash-all.json -- "$LOOP" "$K" /bin/bash -c true || exit 1
	timed k-sh "$LOOP" "$K" /bin/sh -c true || exit 1
done
pw=$(median "$T/k-plain" 1); hw=$(median "$T/k-hook" 1); sw=$(median "$T/k-sh" 1)
awk -v p="$pw" -v h="$hw" -v s="$sw" -v k="$K" 'BEGIN {
	d = (h - p) / k * 1e3; b = s / k * 1e3;
	printf "one trivial hook (PreToolUse Bash `true`) on a bash -c tool call:\n";
	printf "  dispatch %.2f ms per call (%.2f ms with hook vs %.2f ms without),\n", d, h / k * 1e3, p / k * 1e3;
	printf "  bare fork+exec of sh -c true %.2f ms: %.2fx\n", b, d / b }'
