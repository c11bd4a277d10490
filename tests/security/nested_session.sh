# Issue 15 row 1: a `hookshim run` inside a session joins it. The outer
# policy keeps deciding everything (tree unchanged, the outer's reason on
# the command's stderr); the inner config may only add hooks. Each case
# runs with the outer floor and without it (HOOKSHIM_TEST_NO_FLOOR=1).
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "nested: jq missing"; exit 0; }
export HOME=$TMP/home; mkdir -p "$HOME" secrets other
echo S > secrets/keep
cat > pol.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && { echo outer-no-rm >&2; exit 2; }; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && { echo outer-secret-guard >&2; exit 2; }; exit 0"}]}]}}
J
echo '{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /other/ && { echo inner-guard >&2; exit 2; }; exit 0"}]}]}}' > add.json
echo '{"hookshim":{"strict":true},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && { echo outer-no-rm >&2; exit 2; }; exit 0"}]},{"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && { echo outer-secret-guard >&2; exit 2; }; exit 0"}]}]}}' > strict.json
echo '{"hooks":{}}' > e.json
echo '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo P > '"$TMP"'/secrets/by-hook"}]}]}}' > evil.json
tree_hash() { (cd "$TMP/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %s %Y' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
before=$(tree_hash)
# The command texts live in scripts, so the outer's Bash hook does not see
# "rm -rf" in the outer command itself: only the inner session's tool call
# carries it.
echo "bash -c 'rm -rf victim'; echo rm-rc=\$?" > rm.sh
echo 'echo P > secrets/f; echo write-rc=$?' > write.sh

hsrun() { "$HOOKSHIM" run --no-notices -c "${CFG:-pol.json}" -- bash -c "$1" >out.txt 2>&1; out=$(cat out.txt); }

for nf in 0 1; do
	export HOOKSHIM_TEST_NO_FLOOR=$nf
	t="floor=$((1 - nf))"
	# the reproducer
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash write.sh'
	expect_eq "$t: reproducer: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_contains "$t: reproducer: the outer reason reaches stderr" "$out" "outer-secret-guard"
	expect_contains "$t: reproducer: the write fails" "$out" "write-rc=1"
	CFG=strict.json hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash write.sh'
	expect_eq "$t: strict outer: secrets/ unchanged" "$before" "$(tree_hash)"
	# env -u / env -i through libc: the outer shim repairs the environment
	hsrun 'env -u LD_PRELOAD -u HOOKSHIM_SOCK -u HOOKSHIM_FLAGS -u HOOKSHIM_WRITE -u HOOKSHIM_SESSION $HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash write.sh'
	expect_eq "$t: env -u LD_PRELOAD -u HOOKSHIM_*: secrets/ unchanged" "$before" "$(tree_hash)"
	hsrun 'env -i PATH=/usr/bin:/bin '"$HOOKSHIM"' run -c '"$TMP"'/e.json -- bash write.sh'
	expect_eq "$t: env -i: secrets/ unchanged" "$before" "$(tree_hash)"
	# three deep
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash -c "\$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash write.sh"'
	expect_eq "$t: three deep: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_contains "$t: three deep: the outer reason" "$out" "outer-secret-guard"
	# hooks add: the inner denies what the outer allows
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/add.json -- bash -c "echo P > other/x; echo rc=\$?"'
	check "$t: an inner hook denies too" test ! -e other/x
	expect_contains "$t: with its reason" "$out" "inner-guard"
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/add.json -- bash -c "echo P > ok; echo rc=\$?"'
	expect_contains "$t: what neither denies is written" "$(cat ok 2>&1)" "P"
	# an exec policy holds in the inner session
	touch victim
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash rm.sh'
	check "$t: Bash rm -rf denied in the inner session" test -e victim
	expect_contains "$t: rm -rf: the outer reason" "$out" "outer-no-rm"
	# a hook written into the inner config is policed by the outer
	hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/evil.json -- true'
	check "$t: an inner hook's own write is judged by the outer" test ! -e secrets/by-hook
done
unset HOOKSHIM_TEST_NO_FLOOR

# A static program scrubs the environment (no libc exec, no repair).
if command -v busybox >/dev/null; then
	touch victim
	hsrun 'busybox env -i PATH=/usr/bin:/bin '"$HOOKSHIM"' run -c '"$TMP"'/e.json -- bash -c "bash write.sh; bash rm.sh"'
	expect_eq "floor: static env -i: secrets/ unchanged" "$before" "$(tree_hash)"
	check "floor: static env -i: rm -rf still denied (the floor judges the unknown shim's exec)" test -e victim
	HOOKSHIM_TEST_NO_FLOOR=1 hsrun 'busybox env -i PATH=/usr/bin:/bin '"$HOOKSHIM"' run -c '"$TMP"'/e.json -- bash write.sh'
	if [ "$before" = "$(tree_hash)" ]; then fail "no floor: static env -i is the documented limit, expected to pass"
	else pass "no floor: static env -i drops the shim (docs/limits.md: a process that drops LD_PRELOAD)"; fi
	rm -f secrets/f; before=$(tree_hash)
else
	skip "nested: busybox missing"
fi

# Nothing of any session is left once the outer one ended.
hsrun '$HOOKSHIM_BIN run -c '"$TMP"'/add.json -- bash -c "sleep 0.2"'
sleep 0.3
expect_eq "no hookshim process left" "" "$(pgrep -f "$TMP/add.json" || true)"

# Under a bare LD_PRELOAD session.
[ -f "$HOOKSHIM_LIB" ] && {
	HOOKSHIM_CONFIG=$TMP/pol.json LD_PRELOAD=$HOOKSHIM_LIB bash -c '$HOOKSHIM_BIN run -c '"$TMP"'/e.json -- bash write.sh' >out.txt 2>&1
	expect_eq "bare outer: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_contains "bare outer: its reason" "$(cat out.txt)" "outer-secret-guard"
}
