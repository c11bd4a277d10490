# hookshim init (issue 26 item 3): a starter policy from presets, each a
# readable script beside the policy; the project's file trusted so `run`
# loads it without -c; what each preset denies and allows, judged by
# `hookshim test` and by real bash and git under `hookshim run`; nothing
# overwritten without --force; a misspelt preset gets a suggestion.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME/.ssh"
unset CI GITHUB_ACTIONS XDG_STATE_HOME
command -v jq >/dev/null && command -v git >/dev/null ||
	{ skip "init: jq or git missing"; exit 0; }
mkdir -p proj && cd proj || exit 1
git init -q -b main && git config user.email t@hookshim.test && git config user.name t
echo one > a.txt && git add a.txt && git commit -qm one
git init -q --bare ../remote.git && git remote add origin ../remote.git && git push -q origin main

out=$("$HOOKSHIM" init 2>&1); rc=$?
expect_eq "init: exit 0" 0 "$rc"
expect_contains "init: says what it wrote" "$out" "wrote .hookshim/hooks.json and its scripts in .hookshim/hooks/ (presets: secrets, destructive, force-push, outside-root)"
expect_contains "init: says how to check it" "$out" "hookshim check"
for p in secrets destructive force-push outside-root; do
	check "init: .hookshim/hooks/$p.sh, executable" test -x .hookshim/hooks/$p.sh
done
check "init: the policy is JSON" sh -c 'jq -e .hooks.PreToolUse .hookshim/hooks.json >/dev/null'
out=$("$HOOKSHIM" check 2>&1); rc=$?
expect_eq "check: loads without -c (trusted), no error" 0 "$rc"
expect_contains "check: 0 errors, 0 warnings" "$out" "0 errors, 0 warnings"
expect_contains "check: the secrets rule widens the write scope to ~/.ssh" "$out" '~/.ssh/** ("if" of'

# each preset, as `hookshim test` decides it: 2 deny, 0 allow
decide() { # WANT TOOL ARG
	local flag=--command
	[ "$2" = Write ] && flag=--file
	"$HOOKSHIM" test PreToolUse --tool "$2" $flag "$3" >/dev/null 2>&1
	expect_eq "test: $2 '$3'" "$1" "$?"
}
decide 2 Bash 'rm -rf ~'
decide 2 Bash 'rm -rf /'
decide 2 Bash 'sudo rm -rf --no-preserve-root /'
decide 0 Bash 'rm -rf build'
decide 2 Bash 'mkfs.ext4 /dev/sdb1'
decide 2 Bash 'dd if=img of=/dev/nvme0n1 bs=1M'
decide 2 Bash 'chmod -R 777 /'
decide 0 Bash 'chmod -R 755 dist'
decide 2 Bash 'git push --force origin main'
decide 2 Bash 'git push -f'
decide 2 Bash 'git push origin +main'
decide 0 Bash 'git push origin main'
decide 2 Bash 'rm -r ../other'
decide 0 Bash 'rm -r ./build'
# spellings a first version let through (review): each denied now
decide 2 Bash '/bin/rm -rf /'
decide 2 Bash '(rm -rf ~)'
decide 2 Bash 'rm -rf "$HOME"'
decide 2 Bash 'rm -rf $HOME/*'
decide 2 Bash 'git -C . push -f'
decide 2 Bash 'git -c core.x=1 push --force'
decide 2 Bash 'git push -fu origin main'
decide 2 Bash 'terraform init && rm -rf ../x'
decide 2 Bash 'rm -f a && rm -rf ../x'
decide 2 Bash 'cd .. && rm -rf proj'
decide 0 Bash 'echo rm -rf ..'
decide 0 Bash 'git rm -r docs'
decide 0 Bash 'git push -u origin feature-f'
decide 2 Write .env
decide 0 Write .env.example
decide 2 Write config/.env.production
decide 2 Write certs/server.key
decide 2 Write secrets/token
decide 0 Write src/main.c

# without jq a preset cannot judge: it denies, and says why
out=$(echo '{}' | PATH=/nonexistent /bin/sh .hookshim/hooks/secrets.sh 2>&1); rc=$?
expect_eq "no jq: the preset denies" 2 "$rc"
expect_contains "no jq: says why" "$out" "jq is missing"

# live, with real bash and git: denied with the reason, nothing happened
before=$(git -C ../remote.git rev-parse main)
git commit -q --allow-empty -m two && git reset -q --hard HEAD~1 && git commit -q --allow-empty -m diverged
# the agent: a script (its own text is no tool call); each line one
echo 'bash -c "git push -q --force origin main"; echo "push exit $?"' > ../agent.sh
out=$("$HOOKSHIM" run -- bash ../agent.sh 2>&1)
expect_contains "run: the force-push denied" "$out" "push exit 126"
expect_contains "run: ...with the preset's reason" "$out" "force-push is blocked by policy"
expect_eq "run: the remote unchanged" "$before" "$(git -C ../remote.git rev-parse main)"
out=$("$HOOKSHIM" run -- bash -c 'echo KEY=1 > .env; echo k >> ~/.ssh/authorized_keys; echo ok > notes.txt' 2>&1)
check "run: .env not written" test ! -e .env
check "run: ~/.ssh/authorized_keys not written (outside the root)" test ! -e "$HOME/.ssh/authorized_keys"
check "run: an ordinary file written" test -s notes.txt
expect_contains "run: the secrets reason said" "$out" "holds credentials; agents do not write it"

# nothing overwritten without --force
echo '# mine' >> .hookshim/hooks/force-push.sh
out=$("$HOOKSHIM" init 2>&1); rc=$?
expect_eq "init again: refused" 1 "$rc"
expect_contains "init again: says --force" "$out" "(--force replaces it)"
check "init again: the edited script kept" grep -q '# mine' .hookshim/hooks/force-push.sh
"$HOOKSHIM" init --force >/dev/null 2>&1
check "init --force: replaced" sh -c '! grep -q "# mine" .hookshim/hooks/force-push.sh'

# presets by name, another file: not trusted (named with -c), the hints say -c
mkdir -p ../other && cd ../other || exit 1
out=$("$HOOKSHIM" init --preset ci --preset=secrets -o policy.json 2>&1)
expect_contains "init -o: the hints name the file" "$out" "hookshim check -c policy.json"
expect_not_contains "init -o: not a project file, no trust record" "$out" "trusted it"
expect_eq "init --preset ci: CI settings" every-exec "$(jq -r .hookshim.tool_calls policy.json)"
expect_eq "init --preset ci,secrets: one hook group" 1 "$(jq '.hooks.PreToolUse | length' policy.json)"
out=$("$HOOKSHIM" check -c policy.json 2>&1)
expect_contains "init -o: checks clean" "$out" "0 errors, 0 warnings"
# its scripts by absolute path: found from any directory
(cd / && "$HOOKSHIM" test -c "$TMP/other/policy.json" PreToolUse --tool Write --file "$TMP/other/.env" >/dev/null 2>&1)
expect_eq "init -o: judged from another directory (scripts by absolute path)" 2 "$?"
out=$("$HOOKSHIM" init --preset secret 2>&1); rc=$?
expect_eq "a misspelt preset: exit 64" 64 "$rc"
expect_contains "a misspelt preset: did you mean" "$out" "no preset 'secret'; did you mean 'secrets'?"
expect_eq "init --list" "secrets destructive force-push outside-root ci" "$("$HOOKSHIM" init --list | tr '\n' ' ' | sed 's/ $//')"
