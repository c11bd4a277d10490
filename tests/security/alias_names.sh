# Issue 23 items 4 and 5, in guard mode too: a protected name reached
# through a symlinked directory the agent makes during the session
# (session 38's attack run). Guard mode reads names as written; these
# landed there, each then letting `rm -rf` through or forging what a hook
# reads: the session root renamed away through an alias of its parent
# and a new one made with the agent's hook script; ~/.jq (a jq hook's
# start-up file, which does not exist yet) made through an alias of
# $HOME; the session's transcript directory renamed through an alias
# and made again with a forged transcript; a protected hook script
# replaced by a rename onto it through an alias. Each is now asked about
# by the identity of the directory the name is in and judged as the name
# it reaches: denied, in both modes, as root and as a user.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "alias names: jq missing"; exit 0; }
chmod 755 "$TMP"
UNPRIV=$(( 63000 + RANDOM % 1000 ))
for as in root "$UNPRIV"; do
	who=$([ $as = root ] && echo root || echo unprivileged)
	AS=(); [ $as != root ] && AS=(setpriv --reuid="$as" --regid="$as" --clear-groups)
	for mode in guard enforce; do
		B=$TMP/$as-$mode; rm -rf "$B"; mkdir -p "$B/proj" "$B/home" "$B/tmp"
		cd "$B/proj" || exit 1
		printf '#!/bin/sh\njq -r .tool_input.command | grep -q "rm -rf" && exit 2; exit 0\n' > guard.sh
		chmod +x guard.sh
		echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/guard.sh"}]}]}}' > policy.json
		printf '#!/bin/sh\nexit 0\n' > "$B/evil.sh"; chmod +x "$B/evil.sh"
		cat > agent.sh <<EOF
ln -s $B $B/a; mv $B/a/proj $B/a/old 2>/dev/null; echo "root=\$?"
ln -s $B/home hh; echo 'def test(\$r): false;' > hh/.jq 2>/dev/null; echo "jqrc=\$?"
s=\$(dirname "\$(ls -d $B/tmp/hookshim-*/hookshim-session-* | head -1)")
ln -s "\$s" al; mv al/hookshim-session-* al/moved 2>/dev/null; echo "transcript=\$?"
mv $B/evil.sh $B/a/proj/guard.sh 2>/dev/null; echo "script=\$?"
mkdir -p victim; bash -c 'rm -rf victim'; echo "rmrf=\$?"
EOF
		[ $as != root ] && chown -R "$as:$as" "$B"
		out=$(timeout 60 "${AS[@]}" env HOME="$B/home" TMPDIR="$B/tmp" \
			"$HOOKSHIM" run --$mode --no-notices -c policy.json -- bash agent.sh 2>/dev/null)
		t="$who $mode"
		expect_contains "$t: the session root renamed through an alias: denied" "$out" "root=1"
		expect_contains "$t: ~/.jq made through an alias of HOME: denied" "$out" "jqrc=1"
		expect_contains "$t: the transcript's directory renamed through an alias: denied" "$out" "transcript=1"
		expect_contains "$t: the hook script replaced through an alias: denied" "$out" "script=1"
		expect_contains "$t: the hook still decides" "$out" "rmrf=126"
		check "$t: ~/.jq not made" test ! -e "$B/home/.jq"
		check "$t: the hook script unchanged" grep -q 'rm -rf' "$B/proj/guard.sh"
	done
done

# A HOME that is a symlink (session 38's review): a protected name not
# there yet (~/.jq) made by its real name went unjudged, in both modes;
# it is protected by its directory's real name too.
R=$TMP/symhome; rm -rf "$R"; mkdir -p "$R/realhome" "$R/proj"; ln -s realhome "$R/homelink"
cd "$R/proj" || exit 1
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && exit 2; exit 0"}]}]}}' > p.json
for mode in guard enforce; do
	out=$(HOME=$R/homelink timeout 60 "$HOOKSHIM" run --$mode --no-notices -c p.json -- \
		bash -c "echo 'def test(\$r): false;' > $R/realhome/.jq; echo jq=\$?" 2>/dev/null)
	expect_contains "a symlinked HOME, $mode: ~/.jq made by its real name: denied" "$out" "jq=1"
done

# A policy whose filter has no room left for every name by its
# directory's identity (12 hook scripts, a deep project): the names left
# out are said by their names alone, and the hooks' own lines are kept
# (the review: the name lines overflowed the filter, were dropped, and
# the hooks' lines gave way to catch-alls)
D=$TMP/deep/a/b/c/d/e/f/g/h/proj; mkdir -p "$D/.claude/hooks" "$TMP/deep/home"; cd "$D" || exit 1
git init -q . 2>/dev/null
hooks=
for i in $(seq 12); do
	printf '#!/bin/sh\njq -r .tool_input.command | grep -q "rm -rf" && exit 2; git status >/dev/null 2>&1; exit 0\n' > .claude/hooks/check_$i.sh
	chmod +x .claude/hooks/check_$i.sh
	hooks="$hooks{\"type\":\"command\",\"command\":\"\\\"\$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/check_$i.sh\"},"
done
echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[${hooks%,}]},{\"matcher\":\"Write\",\"hooks\":[{\"type\":\"command\",\"if\":\"Write(secrets/**)\",\"command\":\"exit 2\"}]}]}}" > p.json
out=$(HOME=$TMP/deep/home timeout 60 "$HOOKSHIM" run --guard --no-notices -c p.json -- \
	bash -c 'printf "%s\n" "$HOOKSHIM_WRITE" | grep -cE "^[<>]\*"; ln -s $HOME hh; echo x > hh/.jq; echo jq=$?' 2>/dev/null)
expect_eq "a full filter: the hooks' lines kept (no catch-all)" 0 "$(head -1 <<<"$out")"
expect_contains "a full filter: ~/.jq through an alias of HOME still denied" "$out" "jq=1"
