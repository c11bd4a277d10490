# A write filter near the size the supervisor passes on whole (see
# engine/write_filter.h): 9 pre hooks each narrowed to one directory, 10
# include and 10 exclude globs (two filter lines each), all held by the
# shim in one table. Each hook denies exactly its own directory, the last
# exclude still applies, and a write no glob names reaches no one (no
# event in the session log).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "write globs: no hookshim build"; exit 0; }
command -v python3 >/dev/null || { skip "write globs: python3 missing"; exit 0; }
ROOT=$TMP/root
LOG=$TMP/session.log
mkdir -p "$ROOT/d0" "$ROOT/d7" "$ROOT/d8" "$ROOT/free" "$ROOT/out"

python3 - "$TMP/cfg.json" <<'PY'
import json, sys
pre = [{"matcher": "Write|Edit", "hooks": [{"type": "command",
        "if": "Write(d%d/**)" % i,
        "command": "echo 'd%d is protected' >&2; exit 2" % i}]}
       for i in range(9)]
writes = {"include": ["d%d/**" % i for i in range(9)] + ["free/**"],
          "exclude": ["x%d/**" % i for i in range(9)] + ["d8/**"]}
json.dump({"hookshim": {"writes": writes}, "hooks": {"PreToolUse": pre}},
          open(sys.argv[1], "w"))
PY

# The supervisor falls back to a coarser filter when the globs do not fit
# (then this script would test nothing): they must all be there.
wf=$("$HOOKSHIM" run -c "$TMP/cfg.json" --root "$ROOT" -- printenv HOOKSHIM_WRITE)
expect_contains "the filter holds the last exclude glob" "$wf" "-$ROOT/d8/**"
expect_contains "the filter holds the last pre hook's glob" "$wf" "<$ROOT/d8/**"

# write DIR: `echo x > DIR/f` in the session; sets RC and ERR
write() {
	( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/cfg.json" --root "$ROOT" \
		--log "$LOG" -- bash -c "echo x > $1/f" ) 2>"$TMP/err"
	RC=$?
	ERR=$(cat "$TMP/err")
}

for d in d0 d7; do
	write $d
	check "$d/f (hook $d of 9): denied" [ $RC -ne 0 ]
	expect_contains "$d/f: the hook's reason" "$ERR" "$d is protected"
	check "$d/f: not written" [ ! -e "$ROOT/$d/f" ]
done

write d8
check "d8/f: written (the 10th exclude glob applies)" [ $RC -eq 0 -a -f "$ROOT/d8/f" ]
expect_not_contains "d8/f: no denial" "$ERR" "protected"

write free
check "free/f: written" [ $RC -eq 0 -a -f "$ROOT/free/f" ]
write out
check "out/f (not included): written" [ $RC -eq 0 -a -f "$ROOT/out/f" ]
log=$(cat "$LOG")
expect_contains "the log has d0/f's write event" "$log" "\"path\":\"$ROOT/d0/f\""
expect_not_contains "free/f: no event (no pre glob names it)" "$log" "\"path\":\"$ROOT/free/f\""
expect_not_contains "out/f: no event (outside the include globs)" "$log" "\"path\":\"$ROOT/out/f\""
