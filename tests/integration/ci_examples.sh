# The CI jobs in examples/ (GitHub Actions, GitLab CI) are what a user
# copies: their YAML parses, and their hookshim command lines, run as
# written in a repository that carries its own policy, fail the job on a
# denial (--fail-on-deny: the agent's script went on after it) and leave
# the JUnit report and the log the jobs keep.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v xmllint >/dev/null || { skip "ci examples: xmllint missing"; exit 0; }
mkdir -p "$TMP/bin" "$TMP/repo/.hookshim"
ln -s "$HOOKSHIM" "$TMP/bin/hookshim"
export PATH=$TMP/bin:$PATH
cd "$TMP/repo" || exit 1
cat > .hookshim/hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf in CI' >&2; exit 2; }; exit 0"}]}]}}
J
# the agent: its denied command fails, it carries on and succeeds
printf '#!/bin/sh\nbash -c "rm -rf victim"\necho agent done\n' > run-agent.sh
chmod +x run-agent.sh

for ex in github-actions gitlab-ci; do
	f=$HOOKSHIM_TOP/examples/$ex.yml
	if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
		check "$ex: the YAML parses" python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f"
	fi
	# the job's own hookshim lines, joined where the YAML continues them
	lines=$(sed -e 's/^ *- //' -e 's/^ *run: //' -e 's/^ *//' "$f" |
		awk '/\\$/ { sub(/\\$/, ""); buf = buf $0; next } { print buf $0; buf = "" }' |
		grep '^hookshim ')
	expect_eq "$ex: a check and a run" 2 "$(grep -c . <<<"$lines")"
	rm -f hookshim-junit.xml hookshim.jsonl; touch victim
	while read -r line; do
		# shellcheck disable=SC2086
		eval "$line" > "$TMP/out" 2>&1
		rc=$?
		case $line in
		"hookshim check"*) expect_eq "$ex: '$line' passes" 0 "$rc" ;;
		"hookshim run"*)
			expect_eq "$ex: '${line:0:40}...' fails the job on the denial" 1 "$rc"
			expect_contains "$ex: the agent carried on" "$(cat "$TMP/out")" "agent done"
			check "$ex: the denied command did not run" test -e victim
			check "$ex: the JUnit report is valid XML" xmllint --noout hookshim-junit.xml
			expect_contains "$ex: ...with the denial as a failure" "$(cat hookshim-junit.xml)" "no rm -rf in CI"
			check "$ex: the log kept" test -s hookshim.jsonl ;;
		esac
	done <<<"$lines"
done
