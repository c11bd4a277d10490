# The floor under load: a static binary with 16 threads x 500 mixed file
# calls plus forks, a hook watching a subset (hot/): every watched call
# is decided exactly once, none is lost, nothing deadlocks; and with a
# thread sending SIGURG to the others every millisecond (Go's
# preemption), no call restarts forever (bounded run time).
# lane: alone -- no call restarts forever (bounded run time)
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor stress: no hookshim build"; exit 0; }
ST=$HOOKSHIM_PROBES/floor_static_stress
[ -x "$ST" ] || { skip "floor stress: probes not built"; exit 0; }
ROOT=$TMP/root
HLOG=$TMP/hook.log
cat > "$TMP/hooks.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(hot/**)","command":"echo x >> $HLOG"}]}]}}
J
for storm in 0 1; do
	name="floor stress (16 threads x 500, forks$([ $storm = 1 ] && echo ', SIGURG every ms'))"
	rm -rf "$ROOT"; mkdir -p "$ROOT/hot" "$ROOT/cold"; : > "$HLOG"
	t0=$(date +%s%N)
	out=$(cd "$ROOT" && timeout 60 "$HOOKSHIM" run -c "$TMP/hooks.json" --root "$ROOT" -- "$ST" 16 500 20 5 $storm 2>"$TMP/err")
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	expect_eq "$name: finished (no deadlock or livelock; ${ms} ms)" "0" "$rc"
	hot=${out#hot=}; hot=${hot%% *}
	expect_eq "$name: no call failed" "failed=0" "${out##* }"
	expect_eq "$name: every watched call decided exactly once" "$hot" "$(wc -l < "$HLOG" | tr -d ' ')"
	expect_eq "$name: every watched file exists" "$hot" "$(ls "$ROOT/hot" | wc -l | tr -d ' ')"
done
