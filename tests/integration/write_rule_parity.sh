# One write rule (issue 23 item 7, common/write_rule.h): the same calls
# made through the shim (a dynamic program) and through the floor (the
# same program built static) fire the same PreToolUse and PostToolUse
# events, with the same operation, file_path and new_path, where pre and
# post hooks watch different names: a rename whose source only a post
# hook watches and whose target only a pre hook does (the shim asked no
# pre there before), exchanges whose post is the other name's (the shim
# posted nothing), a RENAME_NOREPLACE, a rename into watched ground.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "rule parity: jq missing"; exit 0; }
DYN=$HOOKSHIM_PROBES/ident_dynamic ST=$HOOKSHIM_PROBES/ident_static
[ -x "$DYN" ] && [ -x "$ST" ] || { skip "rule parity: probes not built"; exit 0; }
ROOT=$TMP/root LOG=$TMP/events
cat > "$TMP/p.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(pre/**)",
   "command":"jq -c '[\"pre\",.tool_input.operation,.tool_input.file_path,.tool_input.new_path]' >> $LOG"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(post/**)",
   "command":"jq -c '[\"post\",.tool_input.operation,.tool_input.file_path,.tool_input.new_path]' >> $LOG"}]}]}}
J
floor_here=1
(cd "$TMP" && "$HOOKSHIM" run -c "$TMP/p.json" -- "$ST" append:/dev/null) 2>&1 | grep -q "no syscall floor" && floor_here=0
[ $floor_here = 1 ] || { skip "rule parity: no syscall floor here"; exit 0; }

ops="rename:post/f:pre/g exchange:pre/a:post/b exchange:post/c:pre/d noreplace:post/h:pre/i rename:x:pre/j rename:pre/k:post/l"
run_with() { # PROG: the events, one a line, names relative to the root
	rm -rf "$ROOT"; mkdir -p "$ROOT/pre" "$ROOT/post"
	for f in post/f pre/g pre/a post/b post/c pre/d post/h pre/i x pre/k; do echo "$f" > "$ROOT/$f"; done
	: > "$LOG"
	# shellcheck disable=SC2086
	(cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/p.json" -- "$1" $ops) > "$TMP/out" 2>&1
	sed "s|$ROOT/||g" "$LOG" | sort
}
dyn=$(run_with "$DYN")
dyn_out=$(cat "$TMP/out")
st=$(run_with "$ST")
note "shim: $(echo $dyn)"
note "floor: $(echo $st)"
# every call runs but the RENAME_NOREPLACE onto pre/i, which exists
expect_eq "the calls ran through the shim" "5 noreplace post/h: EEXIST" "$(grep -c ': ok$' <<<"$dyn_out") $(grep noreplace <<<"$dyn_out")"
expect_eq "the calls ran through the floor" "5 noreplace post/h: EEXIST" "$(grep -c ': ok$' "$TMP/out") $(grep noreplace "$TMP/out")"
expect_eq "the shim and the floor fire the same events" "$dyn" "$st"
expect_contains "a rename's target a pre hook watches is asked, whoever watches its source" "$dyn" '["pre","edit","pre/g",null]'
expect_contains "...and the source's post fires" "$dyn" '["post","rename","post/f","pre/g"]'
expect_contains "an exchange's post at its second name" "$dyn" '["post","exchange","post/b","pre/a"]'
expect_contains "...and the pre at its first" "$dyn" '["pre","exchange","pre/a","post/b"]'
expect_contains "RENAME_NOREPLACE creates, even where a file is" "$dyn" '["pre","create","pre/i",null]'
expect_contains "a rename into watched ground" "$dyn" '["pre","create","pre/j",null]'
expect_contains "a rename out of it" "$dyn" '["pre","rename","pre/k","post/l"]'
