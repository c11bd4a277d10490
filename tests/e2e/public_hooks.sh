# End to end: hook scripts as people publish them, run unchanged under
# `hookshim run -c SETTINGS... -- AGENT` on pi, Gemini CLI and Claude Code
# (issue 17). Two published npm packages (cc-safety-net, sensitive-canary,
# pinned in tests/e2e/public-hooks/package.json) and public-style scripts
# written for these tests in the contracts of published repositories
# (tests/fixtures/public-hooks/, each naming its source). Every settings
# file is the one its source documents; the scripts are copied into the
# project's .claude/hooks/ as a user would.
#
# Two sessions per agent, each batching its cases: "npm" (the packages)
# and "scripts" (the fixtures). Each case is judged from the filesystem
# (denied: nothing happened; allowed: it did) and from what the model
# received (the hook's reason; an allowed step's output). The case table
# is in tests/e2e/NOTES.md. What an agent cannot do yet is a SKIP naming
# why, never a pass.
. "$HOOKSHIM_TOP/tests/lib.sh"
. "$HOOKSHIM_TOP/tests/e2e/agents.sh"
e2e_require e2e-public-hooks
if ! [ -x "$HOOKSHIM" ] || ! command -v jq >/dev/null || ! command -v git >/dev/null; then
	skip "e2e-public-hooks: hookshim, jq or git missing"; exit 0
fi
FIX=$HOOKSHIM_TOP/tests/fixtures/public-hooks
PH=$HOOKSHIM_TOP/tests/e2e/public-hooks
AGENTS=${E2E_PUBLIC_AGENTS:-claude gemini pi}

# The hook packages: npm ci into tests/e2e/public-hooks/node_modules when it
# is missing or was installed from another lock (a separate lock from the
# agents', so adding a hook never reinstalls them).
ph_installed() {
	[ -f "$PH/node_modules/.ph-lock-sum" ] &&
		[ "$(cat "$PH/node_modules/.ph-lock-sum")" = "$(sha256sum <"$PH/package-lock.json")" ]
}
if ! ph_installed; then
	(
		flock 9
		ph_installed && exit 0
		cd "$PH" && timeout 300 npm ci --no-audit --no-fund --loglevel=error \
			>"$TMP/ph-npm.log" 2>&1 || exit 1
		sha256sum <package-lock.json >node_modules/.ph-lock-sum
	) 9>/tmp/hookshim-e2e-public-hooks.lock ||
		{ skip "e2e-public-hooks: npm ci of the hook packages failed: $(tail -2 "$TMP/ph-npm.log" | tr '\n' ' ')"; exit 0; }
fi

# Secrets the project holds (shapes the scanners know; none is real).
DOTENV_KEY=sk-proj-E2Edotenv0123456789abcdefghijklmnopqrstuv
LOCAL_KEY=sk-proj-E2Elocal0123456789abcdefghijklmnopqrstuvwx
CREDS_KEY=AKIAZ7VQ3XK2PL4MN6RT
OPENAI_KEY=sk-proj-E2Ewrite0123456789abcdefghijklmnopqrstuvw
GH_TOKEN=ghp_E2E0123456789abcdefghijklmnopqrstuvw
AWS_KEY=AKIAQ4WE7RT2YU3IO5PX

# setup DIR: a git project with work to lose, a remote to push to, and
# the fixture hook scripts in .claude/hooks/.
setup() {
	local d=$1
	mkdir -p "$d/build" "$d/important" "$d/.claude/hooks"
	cp "$FIX"/*.py "$FIX"/*.sh "$FIX"/*.js "$d/.claude/hooks/"
	(
		cd "$d" || exit 1
		git init -q -b main && git config user.email e2e@hookshim.test &&
			git config user.name e2e
		printf '# demo project\nline two\n' >README.md
		echo v1 >tracked.txt
		echo artifact >build/out.txt
		echo keep >important/keep.txt
		# (not package-lock.json: Gemini CLI itself refuses to edit it)
		printf '[metadata]\ncontent-hash = "a1"\n' >poetry.lock
		printf 'ENCRYPTED:v1:9f86d081884c7d659a2feaa0c55ad015\n' >secrets.vault
		# (not .env, creds.txt: Gemini CLI's read_file refuses ignored files)
		printf 'logs/\n.claude/\n' >.gitignore
		git add -A && git commit -qm init
		git clone -q --bare . "$d.remote.git" && git remote add origin "$d.remote.git"
		git push -q origin main
		git checkout -q -b feature && echo f1 >feature.txt && git add feature.txt &&
			git commit -qm 'feature v1' && git push -q origin feature &&
			git commit -q --amend -m 'feature v2 (rewritten)' && git checkout -q main
		echo local >>README.md && git commit -qam 'local work'
		echo 'uncommitted work' >tracked.txt
		echo "API_KEY=$DOTENV_KEY" >.env
		echo "API_KEY=$LOCAL_KEY" >.env.local
		echo "aws_access_key_id=$CREDS_KEY" >creds.txt
	) >/dev/null 2>&1
}
remote_ref() { git --git-dir="$1.remote.git" rev-parse "$2" 2>/dev/null; }

# The tool calls of a session, one JSON turn each.
T=()
sh_turn() { T+=("$(jq -nc --arg c "$1" '{tool:"shell",input:{command:$c,description:"step"}}')"); }
read_turn() { T+=("$(jq -nc --arg p "$1" '{tool:"read",input:{file_path:$p}}')"); }
write_turn() { T+=("$(jq -nc --arg p "$1" --arg c "$2" '{tool:"write",input:{file_path:$p,content:$c}}')"); }
edit_turn() { T+=("$(jq -nc --arg p "$1" --arg o "$2" --arg n "$3" '{tool:"edit",input:{file_path:$p,old_string:$o,new_string:$n}}')"); }

# run_session AGENT DIR -c F...: the turns in T, under hookshim; sets
# rec, rc. Results: res N (the text of tool result N). The plain agent
# takes the same turns first in a project of its own (DIR-plain); plain
# says "ok", or why it did not end its session as it should.
run_session() {
	local agent=$1 dir=$2 p=$2-plain prc; shift 2
	setup "$p"
	e2e_script "$p.script.json" "${T[@]//$dir/$p}" '{"text":"PH-FINAL-TEXT done"}'
	e2e_session "$p.script.json" "$p.rec" "$p" "$agent" "Do the maintenance tasks." >"$p.out"
	prc=$?
	[ "$prc" = 125 ] && { rc=125; plain="no model server"; return; }
	plain=ok
	if [ "$prc" != 0 ] || ! grep -q PH-FINAL-TEXT "$p.out"; then
		plain="exit $prc: $(head -c 200 "$p.rec.err" | tr '\n' ' ')"
		return
	fi
	rec=$dir.rec
	e2e_script "$dir.script.json" "${T[@]}" '{"text":"PH-FINAL-TEXT done"}'
	e2e_server_start "$dir.script.json" "$rec" || { rc=125; return; }
	AGENT_PREFIX=("$HOOKSHIM" run --log "${E2E_CAPTURE:-$TMP}/$(basename "$dir").log.jsonl" "$@" --)
	(cd "$dir" && e2e_agent "$agent" "Do the maintenance tasks." >"$dir.out" 2>"$dir.err")
	rc=$?
	AGENT_PREFIX=()
	e2e_server_stop
	[ -n "${E2E_CAPTURE:-}" ] && cp "$rec" "$E2E_CAPTURE/"
	if [ "$rc" != 0 ]; then
		note "$agent: exit $rc; stderr: $(head -c 1500 "$dir.err")"
	fi
}
res() { e2e_result "$rec" "$1"; }

# held NAME COND...: the filesystem side of a case.
held() { local n=$1; shift; check "$n" "$@"; }
# traceless DIR NAME: no entry of DIR starts with NAME other than NAME
# itself (Claude Code writes NAME.tmp.PID.HEX and renames it).
traceless() { ! ls -A "$1" | grep -v -x -F "$2" | grep -q -F "$2"; }
# said NAME TEXT NEEDLE [GAP]: the model received NEEDLE. GAP, when given,
# is why this agent cannot pass yet: a miss is then a SKIP naming it.
said() {
	if [[ "$2" == *"$3"* ]]; then pass "$1"
	elif [ -n "${4:-}" ]; then skip "$1: known gap: $4"
	else fail "$1"; note "missing: $(printf %q "$3")"; note "in: $(printf %q "${2:0:1500}")"
	fi
}
# never NAME TEXT NEEDLE [GAP]: the model never received NEEDLE.
never() {
	if [[ "$2" != *"$3"* ]]; then pass "$1"
	elif [ -n "${4:-}" ]; then skip "$1: known gap: $4"
	else fail "$1"; note "unexpected: $(printf %q "$3")"
	fi
}

# Where an agent's own file tool carries a denial's reason: the denied
# call's result, or (node agents: libuv's own error table; Claude Code's
# Bun, whose reads the floor denies: floor/floor_pending.c) the
# result of the next tool call, which hookshim prefixes with it (docs/how-it-works.md,
# "what carries the reason to the model"). own N: both texts.
own() { printf '%s\n%s' "$(res "$1")" "$(res $(($1 + 1)))"; }

for agent in $AGENTS; do
	# ---- session "npm": cc-safety-net 2.4.5 + sensitive-canary 0.8.1 ----
	t=public-hooks/$agent/npm
	d=$TMP/$agent-npm
	setup "$d"
	for f in sensitive-canary cc-safety-net; do
		sed "s#@NODE_MODULES@#$PH/node_modules#g" "$FIX/$f.settings.json" >"$TMP/$agent-$f.json"
	done
	lock0=$(remote_ref "$d" main)
	T=()
	sh_turn 'git reset --hard'                             # 0 N1
	sh_turn 'git push --force origin main'                 # 1 N2
	sh_turn 'rm -rf build'                                 # 2 N3 (settings env)
	write_turn "$d/.env.production" "API_KEY=rotated"      # 3 N4
	sh_turn 'echo after-env-write'                         # 4
	read_turn "$d/creds.txt"                               # 5 N5
	sh_turn 'echo after-creds-read'                        # 6
	sh_turn 'cat .env'                                     # 7 N6
	sh_turn 'git log --oneline -1'                         # 8 A1
	read_turn "$d/README.md"                               # 9 A2
	run_session "$agent" "$d" -c "$TMP/$agent-sensitive-canary.json" -c "$TMP/$agent-cc-safety-net.json"
	[ "$plain" = ok ] || { skip "$t: the plain agent does not end this session here ($plain)"; continue; }
	check "$t: plain, N1 git reset --hard lost the uncommitted work (what the hooks prevent)" \
		bash -c '! grep -qx "uncommitted work" "$1"' _ "$d-plain/tracked.txt"
	expect_eq "$t: session ends as without hooks" 0 "$rc"
	# N1 cc-safety-net, JSON permissionDecision deny
	held "$t: N1 git reset --hard not run (uncommitted work kept)" grep -qx 'uncommitted work' "$d/tracked.txt"
	said "$t: N1 cc-safety-net's reason reached the model" "$(res 0)" "git reset --hard destroys all uncommitted changes"
	# N2 cc-safety-net
	held "$t: N2 git push --force not run (remote main unchanged)" test "$(remote_ref "$d" main)" = "$lock0"
	said "$t: N2 cc-safety-net's reason reached the model" "$(res 1)" "git push --force destroys remote history"
	# N3 cc-safety-net's paranoid rm, switched on by the settings file's env
	held "$t: N3 rm -rf build not run (CC_SAFETY_NET_PARANOID_RM from settings env)" test -f "$d/build/out.txt"
	said "$t: N3 paranoid-rm reason reached the model" "$(res 2)" "rm -rf for non-temporary paths is blocked"
	# N4 cc-safety-net on the agent's own Write of a .env file
	held "$t: N4 own Write of .env.production refused (no file)" test ! -e "$d/.env.production"
	held "$t: N4 ... and no temp file of it" traceless "$d" .env.production
	said "$t: N4 cc-safety-net's reason reached the model" "$(own 3)" "Access to a sensitive path is not allowed"
	# N5 sensitive-canary: a Read of a file whose content holds a key
	all=$(e2e_results "$rec")
	never "$t: N5 the AWS key in creds.txt never reached the model" "$all" "$CREDS_KEY"
	[ "$agent" = claude ] && said "$t: N5 the Read was refused: Bun's errno text is its result" \
		"$(res 5)" "EACCES: permission denied, open '$d/creds.txt'"
	said "$t: N5 sensitive-canary's reason reached the model" "$(own 5)" "file contains sensitive data"
	[ "$agent" = claude ] && said "$t: N5 ... as the floor's line in the next Bash result" \
		"$(res 6)" "hookshim: the agent's read of $d/creds.txt was denied by a hook: "
	# N6 sensitive-canary, exit 2, on `cat .env`
	never "$t: N6 .env's key never reached the model" "$all" "$DOTENV_KEY"
	said "$t: N6 sensitive-canary's reason reached the model" "$(res 7)" "and .env.* files contain secrets"
	# A1, A2 allowed steps: unchanged
	said "$t: A1 allowed command's output unchanged" "$(res 8)" "$(git -C "$d" log --oneline -1)"
	said "$t: A2 allowed Read returns the file" "$(res 9)" "line two"
	said "$t: final text on stdout" "$(cat "$d.out")" "PH-FINAL-TEXT"

	# ---- session "scripts": the public-style fixtures ----
	t=public-hooks/$agent/scripts
	d=$TMP/$agent-scripts
	setup "$d"
	main0=$(remote_ref "$d" main); feat0=$(remote_ref "$d" feature)
	vault0=$(sha256sum <"$d/secrets.vault"); lock0=$(sha256sum <"$d/poetry.lock")
	T=()
	sh_turn 'rm -rf important/'                            # 0 F1
	read_turn "$d/.env.local"                              # 1 F2 (Gemini CLI refuses .env itself)
	sh_turn 'echo after-env-read'                          # 2
	sh_turn 'git push --force origin feature'              # 3 F6 (settings env)
	sh_turn 'git push origin main'                         # 4 F10 legacy block
	read_turn "$d/secrets.vault"                           # 5 (Claude Code writes only files it has read)
	write_turn "$d/secrets.vault" "plain=text"             # 6 F4
	sh_turn "echo 'token=abc' >> secrets.vault"            # 7 F5 (and 6's reason)
	read_turn "$d/poetry.lock"                             # 8
	edit_turn "$d/poetry.lock" 'content-hash = "a1"' 'content-hash = "b2"' # 9 F3
	sh_turn 'echo after-lock-edit'                         # 10
	write_turn "$d/config.py" "OPENAI_API_KEY = \"$OPENAI_KEY\"" # 11 F7
	sh_turn 'echo after-config'                            # 12
	write_turn "$d/deploy.sh" "export GITHUB_TOKEN=$GH_TOKEN"    # 13 F8
	sh_turn "printf 'aws_access_key_id = $AWS_KEY\\n' > aws.ini" # 14 F9 (and 13's reason)
	write_turn "$d/notes.txt" "benign notes, no keys"      # 15 A3
	read_turn "$d/README.md"                               # 16
	edit_turn "$d/README.md" "line two" "line 2"           # 17 A4
	sh_turn 'echo all-steps-done'                          # 18 A5
	run_session "$agent" "$d" -c "$FIX/disler.settings.json" -c "$FIX/karanb.settings.json" \
		-c "$FIX/docs-style.settings.json" -c "$FIX/secret-scan.settings.json"
	[ "$plain" = ok ] || { skip "$t: the plain agent does not end this session here ($plain)"; continue; }
	check "$t: plain, F1 rm -rf important/ ran (what the hooks prevent)" test ! -e "$d-plain/important"
	all=$(e2e_results "$rec")
	expect_eq "$t: session ends as without hooks" 0 "$rc"
	# F1 python, exit 2
	held "$t: F1 rm -rf important/ not run" test -f "$d/important/keep.txt"
	said "$t: F1 pre_tool_use.py's reason reached the model" "$(res 0)" "BLOCKED: Dangerous rm command detected"
	# F2 python catch-all hook on the agent's Read of .env
	never "$t: F2 .env.local's key never reached the model" "$all" "$LOCAL_KEY"
	[ "$agent" = claude ] && said "$t: F2 the Read was refused: Bun's errno text is its result" \
		"$(res 1)" "EACCES: permission denied, open '$d/.env.local'"
	said "$t: F2 pre_tool_use.py's reason reached the model" "$(own 1)" "BLOCKED: Access to .env files"
	[ "$agent" = claude ] && said "$t: F2 ... as the floor's line in the next Bash result" \
		"$(res 2)" "hookshim: the agent's read of $d/.env.local was denied by a hook: BLOCKED: Access to .env files"
	[ "$agent" = claude ] && note "F2: the next Bash result: $(res 2 | head -c 600)"
	# F6 node, JSON deny, level from settings env HOOK_SAFETY_LEVEL=strict
	held "$t: F6 force push of a feature branch not run (strict level from settings env)" \
		test "$(remote_ref "$d" feature)" = "$feat0"
	said "$t: F6 block-dangerous-commands.js's reason reached the model" "$(res 3)" "[git-force-any] force push"
	# F10 bash + jq, legacy {"decision": "block"}
	held "$t: F10 push to main not run (remote main unchanged)" test "$(remote_ref "$d" main)" = "$main0"
	said "$t: F10 push-guard.sh's legacy block reason reached the model" "$(res 4)" "PUSH-GUARD: direct pushes to main"
	# F4 bash + jq, exit 2, the agent's own Write
	held "$t: F4/F5 secrets.vault unchanged" test "$(sha256sum <"$d/secrets.vault")" = "$vault0"
	held "$t: F4 ... and no temp file of it" traceless "$d" secrets.vault
	said "$t: F4 protect-files.sh's reason reached the model (own Write)" "$(own 6)" \
		"Blocked: Cannot directly write to secrets.vault"
	# F5 the same hook on a shell redirection (Claude Code itself would not catch it)
	said "$t: F5 protect-files.sh's reason reached the model (shell >>)" "$(res 7)" \
		"Blocked: Cannot directly write to secrets.vault"
	# F3 bash + jq on Edit only: the agent's edit of an existing file is an Edit
	held "$t: F3 poetry.lock unchanged" test "$(sha256sum <"$d/poetry.lock")" = "$lock0"
	said "$t: F3 lockfile-guard.sh (Edit-only matcher) reason reached the model" "$(own 9)" \
		"Blocked: poetry.lock is generated"
	# F7, F8 python content scanner (tool_input.content), JSON deny + suppressOutput
	held "$t: F7 config.py with an OpenAI key never written" test ! -e "$d/config.py"
	held "$t: F7 ... and no temp file holding it" traceless "$d" config.py
	said "$t: F7 secret_scan.py's reason reached the model" "$(own 11)" "SECRET-SCAN: refusing to write OpenAI key"
	held "$t: F8 deploy.sh with a GitHub token never written" test ! -e "$d/deploy.sh"
	held "$t: F8 ... and no temp file holding it" traceless "$d" deploy.sh
	never "$t: F7/F8 no file in the project holds a key it refused" \
		"$(grep -rlF -e "$OPENAI_KEY" -e "$GH_TOKEN" "$d" --exclude-dir=logs --exclude-dir=.git)" "$d"
	said "$t: F8 secret_scan.py's reason reached the model" "$(own 13)" "SECRET-SCAN: refusing to write GitHub token"
	# F9 the scanner on a shell redirection's content
	held "$t: F9 aws.ini with an AWS key never written (shell >)" test ! -e "$d/aws.ini"
	said "$t: F9 secret_scan.py's reason reached the model" "$(res 14)" "SECRET-SCAN: refusing to write AWS access key"
	# A3..A5 allowed steps: unchanged
	expect_eq "$t: A3 allowed Write byte-identical" "benign notes, no keys" "$(cat "$d/notes.txt" 2>/dev/null)"
	held "$t: A4 allowed Edit applied" grep -qx 'line 2' "$d/README.md"
	said "$t: A5 allowed command's output unchanged" "$(res 18)" "all-steps-done"
	# F11 python SessionEnd hook reading transcript_path
	chat=$(jq -r '.[] | select(.type == "assistant") | .message.content[]? | select(.type == "tool_use") | .input.command // empty' \
		"$d/logs/chat.json" 2>/dev/null)
	said "$t: F11 session_chat.py copied the transcript (the model's commands)" "$chat" "git push --force origin feature"
	said "$t: final text on stdout" "$(cat "$d.out")" "PH-FINAL-TEXT"
done
