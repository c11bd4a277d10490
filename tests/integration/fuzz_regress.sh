# Every fuzz target once over its committed corpus (fuzz/corpus/NAME, the
# crashers found so far included), so a fixed crash stays fixed. Seconds,
# no fuzzing; `make fuzz` fuzzes. Needs clang's libFuzzer: skipped without.
. "$HOOKSHIM_TOP/tests/lib.sh"
cd "$HOOKSHIM_TOP" || exit 1
FB=${FUZZ_BUILD:-build-fuzz}
export FUZZ_BUILD=$FB
if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
	skip "fuzz regression: no clang"; exit 0
fi
names=()
for f in fuzz/fuzz_*.c; do n=${f#fuzz/fuzz_}; names+=("${n%.c}"); done
if ! make -s fuzz-build >"$TMP/build.log" 2>&1; then
	fail "fuzz targets build"; sed 's/^/# /' "$TMP/build.log" | tail -20; exit 0
fi
fuzz/run.sh --regress "${names[@]}"
exit 0
