# Concurrency: 8 threads x 1000 writes plus forks, a hook matching hot/
# (one write in ten): each hot write decided exactly once (pre and post),
# cold writes never reach the supervisor, no deadlock, no fd leak.
# lane: long -- 8 threads x 1000 writes and forks
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/write_stress
[ -x "$P" ] || { skip "write stress: probe not built"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/hot" "$ROOT/cold"
cat > "$TMP/c.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(hot/**)","command":"jq -r '\"pre \" + .tool_input.file_path' >> $TMP/decided"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(hot/**)","command":"jq -r '\"post \" + .tool_input.file_path' >> $TMP/decided"}]}]}}
J
: > "$TMP/decided"
out=$(cd "$ROOT" && timeout 300 "$HOOKSHIM" run -c "$TMP/c.json" --root "$ROOT" --log "$TMP/log" -- "$P"); rc=$?
expect_eq "stress probe finishes (no deadlock)" 0 "$rc"
read -r _ before after <<<"$out"
expect_eq "no descriptor leak" "$before" "$after"
want=$( (cd "$ROOT" && ls hot) | sort)
expect_eq "hot files written" 820 "$(wc -l <<<"$want")"
for k in pre post; do
	got=$(grep "^$k " "$TMP/decided" | sed "s|^$k $ROOT/hot/||" | sort)
	expect_eq "every hot write: one $k, none twice, none lost" "$want" "$got"
done
expect_eq "cold writes never reach the supervisor" 0 "$(grep -c '/cold/' "$TMP/log")"
expect_eq "temp files never reach the supervisor" 0 "$(grep -c '\.tmp\.' "$TMP/log")"
