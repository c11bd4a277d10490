#!/bin/bash
# Runs libFuzzer targets built by `make fuzz-build`, one after the other.
#   fuzz/run.sh NAME...            fuzz each for FUZZ_SECONDS (make fuzz)
#   fuzz/run.sh --regress NAME...  run each once over its committed corpus
#                                  (fuzz/corpus/NAME): seconds, no fuzzing
# One process, one core, no -jobs: the machine is shared.
# FUZZ_BUILD (build-fuzz), FUZZ_SECONDS (60), FUZZ_RSS_MB (2048) and
# FUZZ_ARGS (more libFuzzer flags) come from the environment. New inputs
# go to $FUZZ_BUILD/corpus/NAME and crashes to $FUZZ_BUILD/artifacts/NAME;
# the committed corpus only changes by hand (see docs/performance.md, Fuzzing).
set -u
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-build-fuzz}
SECS=${FUZZ_SECONDS:-60}
RSS=${FUZZ_RSS_MB:-2048}
regress=0
if [ "${1:-}" = --regress ]; then regress=1; shift; fi
status=0
for t in "$@"; do
	bin=$B/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "fuzz: $bin is not built (make fuzz-build)"; status=1; continue
	fi
	dict=(); [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
	log=$(mktemp /tmp/hookshim-fuzz.XXXXXX)
	if [ $regress = 1 ]; then
		# Every committed input once, crashers included: they stay fixed.
		"$bin" -runs=0 -rss_limit_mb="$RSS" -timeout=10 \
			-artifact_prefix="${log}-" "fuzz/corpus/$t" >"$log" 2>&1
	else
		mkdir -p "$B/corpus/$t" "$B/artifacts/$t"
		echo "fuzz: $t for ${SECS}s"
		# shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
		"$bin" -max_total_time="$SECS" -rss_limit_mb="$RSS" -timeout=10 \
			-print_final_stats=1 "${dict[@]}" \
			-artifact_prefix="$B/artifacts/$t/" ${FUZZ_ARGS:-} \
			"$B/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1
	fi
	rc=$?
	if [ $rc = 0 ]; then
		if [ $regress = 1 ]; then
			echo "PASS fuzz_$t: $(ls "fuzz/corpus/$t" | wc -l) corpus inputs"
		else
			grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -2
			grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
		fi
	else
		status=1
		echo "FAIL fuzz_$t (exit $rc)"
		grep -E 'ERROR|SUMMARY|Test unit written|^ +#[0-9]+ 0x' "$log" |
			grep -vE 'fuzzer::|libc|__sanitizer|_start' | head -20 | sed 's/^/# /'
	fi
	rm -f "$log" "$log"-*
done
[ $regress = 1 ] || { [ $status = 0 ] && echo "fuzz: every target ran ${SECS}s without a crash"; }
exit $status
