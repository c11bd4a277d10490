# Issue 23 item 2: in enforce mode the one exec let through unjudged is
# the agent's own start, hookshim run's exec of the command it was given.
# As a user the agent's child enters a user namespace and is not dumpable
# until that exec, so the floor cannot read it, and the pass was kept
# for the agent's next exec it could read: a static agent's own
# `bash -c 'rm -rf victim'` in its place ran unjudged. Root and a user.
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "enforce start"
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "enforce start: enforce mode cannot run here"; exit 0; }
W=$TMP/w
mkdir -p "$W"
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
chmod -R a+rX "$W"
EXS=$HOOKSHIM_PROBES/exec_static_rawexec
start_case() { # PREFIX...: "held" or "landed"
	rm -rf "$W/root"; mkdir -p "$W/root"; echo v > "$W/root/victim"
	chmod -R a+rwX "$W/root"
	(cd "$W/root" && timeout -k 5 60 "$@" "$HOOKSHIM" run --enforce --no-notices \
		-c "$W/policy.json" -- "$EXS" -i /bin/bash bash -c 'rm -rf victim') >"$TMP/out" 2>"$TMP/err"
	if [ -e "$W/root/victim" ]; then echo held; else echo landed; fi
}
if [ -x "$EXS" ]; then
	(cd "$W" && timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices -c "$W/policy.json" -- \
		"$EXS" -i /bin/echo echo started) >"$TMP/out" 2>"$TMP/err"
	expect_eq "enforce: the agent's own start runs, and its allowed exec" started "$(cat "$TMP/out")"
	r=$(start_case)
	expect_eq "enforce: a static agent's first exec of its own is judged" held "$r"
	expect_contains "enforce: ... the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
	if as_user "enforce start"; then
		r=$(start_case "${AS[@]}")
		expect_eq "enforce as a user: a static agent's first exec of its own is judged" held "$r"
		expect_contains "enforce as a user: ... the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
	fi
else
	skip "enforce start: exec_static_rawexec not built"
fi
