# Issue 23, session 37's attack run: a write whose name hookshim could not
# look at was taken for one that fails, and let through unjudged.
#  - A working directory that was removed (`mkdir d; cd d; rmdir ../d`):
#    getcwd fails, so the shim named nothing, and `echo > ../secrets/k`,
#    `> ../hooks/guard.sh` (the hook's script), `> ../policy.json` landed
#    from bash and python3, in guard mode, as root and as a user.
#  - A directory above the session root made unsearchable by the user who
#    owns it (`chmod 000 ..`): the look at the absolute name failed EACCES
#    while the write by a relative name went on, in both modes: every
#    write unjudged, the hook's script and the policy rewritten.
# Now the removed directory is named as /proc/self/cwd names it, and a
# name that cannot be looked at is judged as a write that may make or
# change its file: the built-in rule denies the policy's files in both
# modes, and enforce mode denies what a hook that cannot start would have
# judged (a hook's command under that directory cannot start: guard mode
# allows then, with the warning -- a hook that fails is not a denial
# there, docs/limits.md). Writes elsewhere still work.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "unreachable names: jq missing"; exit 0; }
need_floor "unreachable names"
chmod 755 "$TMP"

setup() { # NAME: a project in $TMP/NAME/proj ($R)
	W=$TMP/$1; R=$W/proj
	rm -rf "$W"; mkdir -p "$R/hooks" "$R/secrets"; chmod 755 "$W"
	echo keep >"$R/secrets/k"
	printf '#!/bin/sh\njq -r .tool_input.command | grep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }\nexit 0\n' \
		>"$R/hooks/guard.sh"
	chmod 755 "$R/hooks/guard.sh"
	cat >"$R/policy.json" <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]},
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
	mkdir -p "$R/victim"
	before=$(cd "$R" && cat secrets/* hooks/guard.sh policy.json | sha256sum)
	policy_before=$(cd "$R" && cat hooks/guard.sh policy.json | sha256sum)
}
unchanged() { (cd "$R" && cat secrets/* hooks/guard.sh policy.json | sha256sum); }

# ---- a removed working directory ----
cat >"$TMP/removed.sh" <<'S'
mkdir d && cd d && rmdir ../d || exit 1
echo P >> ../secrets/k 2>/dev/null; echo "sh_secret=$?"
echo P > ../secrets/new 2>/dev/null; echo "sh_new=$?"
echo 'exit 0' > ../hooks/guard.sh 2>/dev/null; echo "sh_hook=$?"
echo '{}' > ../policy.json 2>/dev/null; echo "sh_config=$?"
echo ok > ../ok.txt; echo "sh_ok=$?"
python3 - <<'P'
def t(n, p, mode="w"):
    try:
        with open(p, mode) as f: f.write("P\n")
        print(n + "=0")
    except OSError as e: print(n + "=%d" % e.errno)
t("py_secret", "../secrets/k", "a")
t("py_hook", "../hooks/guard.sh")
t("py_config", "../policy.json")
t("py_ok", "../ok2.txt")
P
cd .. && bash -c 'rm -rf victim'; echo "rmrf=$?"
S
removed_rows() { # WHO MODE runner...
	local who=$1 mode=$2 out
	shift 2
	setup "removed_${who}_$mode"
	[ "$who" = user ] && chown -R $AS_ID:$AS_ID "$W"
	out=$(cd "$R" && timeout 60 "$@" "$HOOKSHIM" run --$mode --no-notices -c policy.json \
		-- bash "$TMP/removed.sh" 2>/dev/null)
	each_denied "$who $mode, a removed working directory: " "$out" \
		sh_secret sh_new sh_hook sh_config py_secret py_hook py_config rmrf
	expect_contains "$who $mode: ... a write elsewhere works (bash)" "$out" "sh_ok=0"
	expect_contains "$who $mode: ... and from python" "$out" "py_ok=0"
	expect_eq "$who $mode: ... secrets/, the hook and the policy unchanged" "$before" "$(unchanged)"
	check "$who $mode: ... the hook still judges (rm -rf denied)" test -d "$R/victim"
}
for mode in guard enforce; do
	removed_rows root $mode
done

# ---- a directory above the root made unsearchable by its owner ----
cat >"$TMP/closed.sh" <<'S'
chmod 000 .. || exit 1
echo P >> secrets/k 2>/dev/null; echo "secret=$?"
echo 'exit 0' > hooks/guard.sh 2>/dev/null; echo "hook=$?"
python3 -c 'open("policy.json", "w").write("{}")' 2>/dev/null; echo "config=$?"
busybox sh -c 'echo "{}" > policy.json' 2>/dev/null; echo "bbconfig=$?"
mv hooks/guard.sh hooks/g2 2>/dev/null; echo "mvhook=$?"
rm -f hooks/guard.sh 2>/dev/null; echo "rmhook=$?"
echo ok > ok.txt; echo "ok=$?"
bash -c 'rm -rf victim' 2>/dev/null; echo "rmrf=$?"
chmod 755 ..
S
if as_user "unreachable names"; then
	for mode in guard enforce; do
		removed_rows user $mode "${AS[@]}"
		setup "closed_$mode"
		chown -R $AS_ID:$AS_ID "$W"
		out=$(cd "$R" && timeout 60 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json \
			--log "$W/log.jsonl" -- bash "$TMP/closed.sh" 2>"$TMP/err")
		chmod 755 "$W"
		each_denied "user $mode, chmod 000 above the root: the policy's files: " "$out" \
			hook config bbconfig mvhook rmhook
		expect_contains "user $mode: ... a write elsewhere works" "$out" "ok=0"
		expect_eq "user $mode: ... the hook's script and the policy unchanged" "$policy_before" \
			"$(cd "$R" && cat hooks/guard.sh policy.json 2>/dev/null | sha256sum)"
		if [ $mode = enforce ]; then
			each_denied "user enforce: ... what the hooks judge, their start failing: " "$out" secret rmrf
			expect_eq "user enforce: ... secrets/ unchanged" "$before" "$(unchanged)"
		else
			# the limit: a hook that cannot start is no denial in
			# guard mode; said
			expect_contains "user guard: a hook that could not start is said (the log)" \
				"$(cat "$W/log.jsonl")" "could not start"
		fi
	done
fi
