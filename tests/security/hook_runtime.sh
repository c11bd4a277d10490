# Issue 23 item 4: a hook's whole runtime is protected, not only its
# script file. The agent must not change what a hook does through (a) a
# sibling module of a python hook (a replaced util.py, a new json.py, a
# forged __pycache__), (b) an interpreter's start-up files (python's user
# site: usercustomize.py, a .pth; jq's ~/.jq; the file BASH_ENV names),
# (c) a program made earlier on the hooks' PATH than the one a hook runs
# (or the one it runs, replaced), (d) a symlink or renamed directory at a
# name the hook resolves. Each is tried with bash redirection, python3
# and, for the floor, a static busybox; each is denied with the reason,
# the hooks still decide as configured afterwards, and writes elsewhere
# (the same directories, other names) work.
. "$HOOKSHIM_TOP/tests/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || { skip "hook_runtime: needs $PY"; exit 0; }
[ -x /usr/bin/jq ] || { skip "hook_runtime: needs jq"; exit 0; }
# Everything in a fresh directory W (one per run: each shows what its
# own decision point does, whatever the build let through before).
setup() {
W=$TMP/$1; mkdir -p "$W" && cd "$W" || exit 1
export HOME=$W/home
mkdir -p "$HOME" pre tools evil/bin .claude/hooks
cp /usr/bin/jq tools/jq
# The hooks' PATH: pre/ (empty) and ~/.local/bin (not there yet) come
# before tools/, where jq is found.
# (Only the session gets it: this script's own tools stay the system's.)
HPATH="$W/pre:$HOME/.local/bin:$W/opt/bin:$W/opt2/bin:$W/tools:/usr/bin:/bin"
mkdir -p opt
export BASH_ENV=$W/bash_env; : > "$BASH_ENV"
SITE=$($PY -S -c 'import site; print(site.getusersitepackages())')
case "$SITE" in "$HOME"/*) ;; *) fail "python's user site is not under HOME: $SITE"; exit 0;; esac
export SITE; mkdir -p "$SITE"

# A python hook importing its sibling module; a shell hook running jq.
cat > .claude/hooks/guard.py <<'P'
#!/usr/bin/env python3
import json, sys
from util import verdict
sys.exit(verdict(json.load(sys.stdin)))
P
cat > .claude/hooks/util.py <<'P'
import sys
def verdict(p):
    if "rm -rf" in p.get("tool_input", {}).get("command", ""):
        print("util.py says no rm -rf", file=sys.stderr)
        return 2
    return 0
P
cat > .claude/hooks/jqguard.sh <<'S'
#!/bin/sh
jq -r .tool_input.command | tr A-Z a-z | grep -q forbidden && { echo "jq hook says no" >&2; exit 2; }
exit 0
S
chmod +x .claude/hooks/guard.py .claude/hooks/jqguard.sh
cat > policy.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
 {"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py"},
 {"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/jqguard.sh"}]}]}}
J
printf '#!/bin/sh\necho "{}"\nexit 0\n' > evil/bin/jq; chmod +x evil/bin/jq
echo 'def verdict(p): return 0' > evil/util.py
snap() { (cd "$W" && find .claude pre/jq pre/grep pre/python3 pre/tr tools opt opt2 "$SITE" "$HOME/.jq" "$HOME/.local/bin" -printf '%p %y %s\n' 2>&1 | sort; cat .claude/hooks/* tools/jq "$BASH_ENV" | sha256sum); }
# One attempt per line: NAME=exit status.
cat > agent.sh <<'S'
H=.claude/hooks
t() {
	local k=$1; shift
	# a static program is the floor's alone
	[ -n "${SHIM_ONLY:-}" ] && [ "$1" = busybox ] && return
	"$@" >/dev/null 2>&1; echo "$k=$?"
}
# (a) sibling modules
t sib_redir sh -c 'echo "def verdict(p): return 0" > .claude/hooks/util.py'
t sib_new sh -c 'echo "x" > .claude/hooks/json.py'
t sib_py python3 -c 'open(".claude/hooks/random.py", "w").write("x")'
t sib_mv mv evil/util.py $H/util.py
t sib_rm rm -f $H/util.py
t sib_ln ln -s ../../evil/util.py $H/re.py
t sib_mkdir mkdir $H/__pycache__
t sib_bb busybox sh -c 'echo x > .claude/hooks/base64.py'
t sib_bbln busybox ln -s /etc/passwd .claude/hooks/os.py
t sib_bbrm busybox rm -f .claude/hooks/util.py
# (b) start-up files
t site_custom sh -c "echo 'open(\"$PWD/pwned\", \"a\")' > $SITE/usercustomize.py"
t site_pth python3 -c "open('$SITE/evil.pth', 'w').write('import os')"
t site_bb busybox sh -c "echo x > $SITE/sitecustomize.py"
t site_mv mv "$SITE" "$SITE.gone"
t jqrc sh -c 'echo "def x: 1;" > ~/.jq'
t jqrc_bb busybox sh -c 'echo "def x: 1;" > $HOME/.jq'
t bashenv sh -c 'echo "echo pwned >> $PWD/pwned" > $BASH_ENV'
t bashenv_bb busybox sh -c 'echo "echo pwned >> $PWD/pwned" >> $BASH_ENV'
# (c) PATH shadowing, and the program itself
t path_cp cp evil/bin/jq pre/jq
t path_py python3 -c 'import os; fd = os.open("pre/grep", os.O_CREAT | os.O_WRONLY, 0o755); os.write(fd, b"#!/bin/sh\nexit 1\n")'
t path_bb busybox cp evil/bin/jq pre/python3
t path_ln ln -s "$PWD/evil/bin/jq" pre/tr
t path_tool sh -c 'echo x > tools/jq'
t path_tool_bb busybox sh -c 'echo x > tools/jq'
t path_tool_mv mv tools tools2
# (d) a symlink or a directory made at a name above one the hooks resolve
t above_ln ln -s "$PWD/evil/bin" ~/.local/bin
t above_mv mv evil/bin "$PWD/opt/bin"
t above_bbln busybox ln -s "$PWD/evil" "$PWD/opt2"
# another name made during the session for what the hooks run: a write
# through it would be judged by the name as written
t id_dirln ln -s .claude/hooks hl
t id_via sh -c 'echo x > hl/evil.py'
t id_fileln ln -s "$PWD/.claude/hooks/util.py" u.py
t id_scriptln ln -s .claude/hooks/jqguard.sh g.sh
t id_siteln ln -s "$SITE" site
t id_bbln busybox ln -s .claude/hooks hl2
# from a directory where nothing else could fire (the shim's quick test)
t id_deadln sh -c 'mkdir -p ~/.cache && cd ~/.cache && ln -s "$OLDPWD/.claude/hooks" hl'
# the policy still holds, the hooks as configured
bash -c 'rm -rf victim'; echo "rmrf=$?"
bash -c 'touch forbidden'; echo "forbidden=$?"
# elsewhere, and other names in the same places
t ok_mkdir mkdir -p ~/.local/share/x
t ok_pre sh -c 'echo x > pre/notes.txt'
t ok_home sh -c 'echo x > ~/.jqx'
t ok_bb busybox sh -c 'echo x > pre/other'
t ok_root sh -c 'echo x > benign.txt'
t ok_venvln ln -s /usr/bin/python3 pylink
t ok_ln ln -s pre prelink
S
before=$(snap)
touch victim
}
setup floor

# check lists each kind of entry
out=$(PATH=$HPATH "$HOOKSHIM" check -c policy.json)
expect_contains "check: the script's directory" "$out" \
	"protect $W/.claude/hooks/**  (the directory of the hook script of PreToolUse[Bash]#1)"
expect_contains "check: python's user site" "$out" \
	"protect $SITE/**  (the user site directory of python3"
expect_contains "check: ~/.jq" "$out" "protect $HOME/.jq/**  (jq's start-up file, loaded by PreToolUse[Bash]#2)"
expect_contains "check: a PATH name ahead of jq" "$out" \
	"protect $W/pre/jq  (jq on the PATH of PreToolUse[Bash]#2, ahead of $W/tools/jq)"
expect_contains "check: the jq it runs" "$out" "protect $W/tools/jq  (jq, run by PreToolUse[Bash]#2)"
expect_contains "check: BASH_ENV's file" "$out" "protect $BASH_ENV  (BASH_ENV, read by the shell of"

# each_held TAG: every attempt of agent.sh denied, what the hooks run
# unchanged, the hooks still deciding, writes elsewhere working ($out,
# err.txt)
each_held() {
	local t=$1 floor=yes k
	grep -q "no syscall floor" err.txt && floor=
	for k in sib_redir sib_new sib_py sib_mv sib_rm sib_ln sib_mkdir sib_bb sib_bbln sib_bbrm \
		site_custom site_pth site_bb site_mv jqrc jqrc_bb bashenv bashenv_bb \
		path_cp path_py path_bb path_ln path_tool path_tool_bb path_tool_mv \
		above_ln above_mv above_bbln id_dirln id_via id_fileln id_scriptln id_siteln id_bbln id_deadln; do
		if [[ $k == *bb* && -z $floor ]]; then skip "$t$k: no syscall floor"; continue; fi
		each_denied "$t" "$out" "$k"
	done
	expect_eq "${t}nothing of the hooks' runtime changed" "$before" "$(snap)"
	check "${t}the python hook (importing util.py) still denies rm -rf" test -e victim
	check "${t}the jq hook still denies" test ! -e forbidden
	check "${t}no start-up file of the hooks ran the agent's code" test ! -e pwned
	expect_contains "${t}the python hook's own reason" "$(cat err.txt)" "util.py says no rm -rf"
	expect_contains "${t}the jq hook's own reason" "$(cat err.txt)" "jq hook says no"
	for k in ok_mkdir ok_pre ok_home ok_bb ok_root ok_venvln ok_ln; do
		expect_contains "$t$k: a write elsewhere works" "$out" "$k=0"
	done
}
out=$(PATH=$HPATH timeout 120 "$HOOKSHIM" run --no-notices -c policy.json --log run.jsonl -- bash agent.sh 2>err.txt)
each_held ""
log=$(cat run.jsonl)
expect_contains "reason: a new module in the hook's directory" "$log" \
	"$W/.claude/hooks/json.py is in $W/.claude/hooks, part of this session's policy (the directory of the hook script of PreToolUse[Bash]#1); it cannot be changed during the session"
expect_contains "reason: usercustomize.py" "$log" \
	"$SITE/usercustomize.py is in $SITE, part of this session's policy (the user site directory of python3, loaded at its start by PreToolUse[Bash]#1)"
expect_contains "reason: ~/.jq" "$log" "$HOME/.jq is part of this session's policy (jq's start-up file"
expect_contains "reason: a jq ahead on PATH" "$log" \
	"$W/pre/jq is part of this session's policy (jq on the PATH of PreToolUse[Bash]#2, ahead of $W/tools/jq)"
expect_contains "reason: a symlink above a PATH name" "$log" \
	"$HOME/.local/bin is above $HOME/.local/bin/"
expect_contains "reason: a symlink to the hooks' directory" "$log" \
	"$W/hl would lead to $W/.claude/hooks, part of this session's policy (the directory of the hook script of PreToolUse[Bash]#1); it cannot be made during the session"

# As a user (issue 23: items 3-6 hold in both modes, as root and as a
# user): the same attempts by a user who owns the project and runs the
# session, in guard mode (its dumpable processes read by a supervisor of
# the same uid) and in enforce mode (the agent in a user namespace of its
# own, floor/floor_userns.c).
if as_user hook_runtime; then
	for mode in guard enforce; do
		setup "user_$mode"
		chown -R $AS_ID:$AS_ID "$W"
		before=$(snap)
		out=$(PATH=$HPATH timeout 120 "${AS[@]}" "$HOOKSHIM" run --no-notices --$mode \
			-c policy.json -- bash agent.sh 2>err.txt)
		each_held "as a user, $mode: "
	done
fi

# The shim alone (no floor): every dynamic attempt is denied there too.
setup shim
out=$(PATH=$HPATH SHIM_ONLY=1 HOOKSHIM_TEST_NO_FLOOR=1 timeout 120 "$HOOKSHIM" run --no-notices -c policy.json -- bash agent.sh 2>/dev/null)
went=$(echo "$out" | grep -E '^(sib|site|jqrc|bashenv|path|above|id)_[a-z_]*=0$' | tr '\n' ' ')
expect_eq "without the floor the shim denies every dynamic attempt" "" "$went"
expect_eq "and nothing changed" "$before" "$(snap)"
check "the hooks still decide (shim only)" test -e victim -a ! -e forbidden

# By identity: a name for the hooks' directory that existed before the
# session (a symlink made earlier), written through where the decision
# reaches the supervisor (here a Write hook watching every path): the
# directory's device and inode deny it. A catch-all Write hook that
# allows, so only the built-in rule can deny.
setup ident
ln -s .claude/hooks oldlink
jq '.hooks.PreToolUse += [{"matcher":"Write","hooks":[{"type":"command","command":"true"}]}]' policy.json > p2.json
cat > ident.sh <<'S'
sh -c 'echo x > oldlink/json.py' 2>/dev/null; echo "via_old=$?"
python3 -c 'open("oldlink/util.py", "w").write("def verdict(p): return 0")' 2>/dev/null; echo "via_old_py=$?"
busybox sh -c 'echo x > oldlink/os.py' 2>/dev/null; echo "via_old_bb=$?"
sh -c 'echo x > oldlink-other.txt'; echo "ok_other=$?"
S
out=$(PATH=$HPATH timeout 120 "$HOOKSHIM" run --no-notices -c p2.json --log ident.jsonl -- bash ident.sh 2>/dev/null)
each_denied "" "$out" via_old via_old_py via_old_bb
expect_contains "a write elsewhere under that Write hook works" "$out" "ok_other=0"
expect_eq "the hooks' directory unchanged" "$before" "$(snap)"
expect_contains "reason: by the directory's identity" "$(cat ident.jsonl)" \
	"$W/oldlink/json.py is in $W/.claude/hooks, part of this session's policy"

# What is chosen, as check lists it: a script in the session root is
# protected alone (the root stays writable); NODE_OPTIONS' preloads and
# ENV's file for the hooks that would load them; a program by path is
# not looked up on PATH.
setup lists
mkdir -p lib; : > lib/pre.js; : > envfile
printf 'import sys\nsys.exit(0)\n' > top.py
cat > p3.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
 {"type":"command","command":"python3 top.py"},
 {"type":"command","command":"node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/x.js"},
 {"type":"command","command":"/usr/bin/jq -n 1 >/dev/null"}]}]}}
J
: > .claude/hooks/x.js
out=$(PATH=$HPATH NODE_OPTIONS="--require $W/lib/pre.js --max-old-space-size=100" ENV=$W/envfile "$HOOKSHIM" check -c p3.json)
expect_contains "a script in the root: the file" "$out" "protect $W/top.py  (hook script of PreToolUse[Bash]#1)"
expect_not_contains "and not the root itself" "$out" "protect $W/**"
expect_contains "NODE_OPTIONS' --require file" "$out" "protect $W/lib/pre.js  (NODE_OPTIONS, loaded by PreToolUse[Bash]#2)"
expect_contains "ENV's file" "$out" "protect $W/envfile  (ENV, read by the shell of PreToolUse[Bash]#1)"
expect_not_contains "a program named by path is not looked up on PATH" "$out" "$W/pre/jq"

# git reads code from its configuration (core.fsmonitor, a filter's or
# textconv's command, an alias, core.hooksPath, include.path) and runs its
# hooks: a hook that runs git has git's global configuration and the
# repository's config and hooks as its runtime. The agent set
# core.fsmonitor (in .git/config, ~/.gitconfig or ~/.config/git/config)
# to a script of its own, and the hook's `git status` ran it, outside the
# session, in both modes, as root and as a user (issue 23, session 37).
command -v git >/dev/null || { skip "hook_runtime git: no git"; exit 0; }
git_setup() {
	W=$TMP/git_$1; mkdir -p "$W" && cd "$W" || exit 1
	export HOME=$W/home; mkdir -p "$HOME" .claude/hooks
	git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init
	cat > .claude/hooks/gitguard.sh <<'G'
#!/bin/sh
cmd=$(jq -r .tool_input.command)
git -C "$CLAUDE_PROJECT_DIR" status --porcelain >/dev/null 2>&1
case "$cmd" in *"rm -rf"*) echo "git hook says no rm -rf" >&2; exit 2;; esac
exit 0
G
	chmod +x .claude/hooks/gitguard.sh
	echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gitguard.sh"}]}]}}' > gpolicy.json
	printf '#!/bin/sh\ntouch "%s/pwned"\nexit 1\n' "$W" > evil.sh; chmod +x evil.sh
	cat > gagent.sh <<'G'
t() { local k=$1; shift; "$@" >/dev/null 2>&1; echo "$k=$?"; }
t g_repo git config core.fsmonitor "$PWD/evil.sh"
t g_global git config --global core.fsmonitor "$PWD/evil.sh"
t g_xdg sh -c 'mkdir -p ~/.config/git && printf "[core]\n\tfsmonitor = %s/evil.sh\n" "$PWD" > ~/.config/git/config'
t g_hook sh -c 'printf "#!/bin/sh\n" > .git/hooks/pre-commit'
t g_mv sh -c 'cp .git/config c2 && mv c2 .git/config'
t g_bb busybox sh -c 'echo "[core] fsmonitor = evil.sh" >> .git/config'
t g_py python3 -c 'open(".git/config", "a").write("[alias]\n")'
bash -c 'true'
bash -c 'rm -rf victim'; echo "rmrf=$?"
t ok_commit sh -c 'echo x > f && git add f && git -c user.email=a@b -c user.name=a commit -qm f'
G
	touch victim
	gbefore=$(cat .git/config; ls .git/hooks)
}
git_held() {
	local t=$1
	each_denied "$t" "$out" g_repo g_global g_xdg g_hook g_mv g_bb g_py
	check "${t}the hook's git ran none of the agent's code" test ! -e pwned
	check "${t}the hook still denies rm -rf" test -e victim
	expect_eq "${t}the repository's config and hooks unchanged" "$gbefore" "$(cat .git/config; ls .git/hooks)"
	expect_contains "${t}the agent's own commits work" "$out" "ok_commit=0"
}
git_setup root
out=$("$HOOKSHIM" check -c gpolicy.json)
expect_contains "git: check lists the repository's config" "$out" \
	"protect $W/.git/config  (git's configuration, read by PreToolUse[Bash]#1)"
expect_contains "git: ... its hooks" "$out" "protect $W/.git/hooks/**  (git's hooks, run by PreToolUse[Bash]#1)"
expect_contains "git: ... the global one" "$out" "protect $HOME/.gitconfig  (git's global configuration"
for mode in guard enforce; do
	git_setup "root_$mode"
	out=$(timeout 120 "$HOOKSHIM" run --no-notices --$mode -c gpolicy.json --log g.jsonl -- bash gagent.sh 2>err.txt)
	git_held "git, $mode: "
done
expect_contains "git: the reason" "$(cat g.jsonl)" "$W/.git/config is part of this session's policy (git's configuration, read by PreToolUse[Bash]#1)"
if as_user "hook_runtime git"; then
	for mode in guard enforce; do
		git_setup "user_$mode"
		chown -R $AS_ID:$AS_ID "$W"
		out=$(timeout 120 "${AS[@]}" "$HOOKSHIM" run --no-notices --$mode -c gpolicy.json -- bash gagent.sh 2>err.txt)
		git_held "git, as a user, $mode: "
	done
fi

# An inline python hook (`python3 -c '...'`) has its working directory,
# the session root, at the head of its module path: a json.py the agent
# made there ran in the hook, which then allowed everything, in both
# modes (issue 23, session 37). It runs with PYTHONSAFEPATH=1; a script
# hook's own directory stays on its path (its util.py, above), and a
# python3 SCRIPT beside it keeps the session root as its directory.
W=$TMP/pyinline; mkdir -p "$W/.claude/hooks" && cd "$W" || exit 1
export HOME=$W/home; mkdir -p "$HOME"
cat > pyc.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
 {"type":"command","command":"python3 -c 'import json,sys; c=json.load(sys.stdin)[\"tool_input\"][\"command\"]; sys.exit((print(\"inline hook says no\", file=sys.stderr) or 2) if \"rm -rf\" in c else 0)'"},
 {"type":"command","command":"python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/sib.py"}]}]}}
J
printf 'import helper, sys\nsys.exit(helper.verdict(sys.stdin.read()))\n' > .claude/hooks/sib.py
printf 'def verdict(t):\n    return 2 if "forbidden" in t else 0\n' > .claude/hooks/helper.py
cat > pyc.sh <<'G'
printf 'import sys\nsys.exit(0)\n' > json.py; echo "made=$?"
bash -c 'rm -rf victim'; echo "rmrf=$?"
bash -c 'touch forbidden'; echo "forbidden=$?"
G
for mode in guard enforce; do
	rm -f json.py forbidden; touch victim
	out=$(timeout 120 "$HOOKSHIM" run --no-notices --$mode -c pyc.json -- bash pyc.sh 2>err.txt)
	expect_contains "inline python, $mode: the agent's json.py was made (no rule forbids it)" "$out" "made=0"
	each_denied "inline python, $mode: " "$out" rmrf forbidden
	check "inline python, $mode: the hook still denies rm -rf" test -e victim
	expect_contains "inline python, $mode: with its own reason" "$(cat err.txt)" "inline hook says no"
	check "inline python, $mode: a script hook still imports its sibling" test ! -e forbidden
done

# A hook script whose "#!" names its interpreter by path -- a project's
# virtualenv (`#!/…/.venv/bin/python3`) -- ran whatever the agent put at
# that name (`mv script .venv/bin/python3`), and the environment's
# libraries load a .pth at its start: the file and, for a virtualenv, its
# pyvenv.cfg and lib/ are the hook's runtime (issue 23, session 37).
W=$TMP/venv; mkdir -p "$W/.claude/hooks" && cd "$W" || exit 1
export HOME=$W/home; mkdir -p "$HOME"
if /usr/bin/python3 -m venv --without-pip .venv 2>/dev/null; then
	SITEPK=$(echo .venv/lib/python3*/site-packages)
	printf '#!%s/.venv/bin/python3\nimport json, sys\nsys.exit(2 if "rm -rf" in json.load(sys.stdin)["tool_input"]["command"] else 0)\n' \
		"$W" > .claude/hooks/v.py
	chmod +x .claude/hooks/v.py
	echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/v.py"}]}]}}' > v.json
	out=$("$HOOKSHIM" check -c v.json)
	expect_contains "venv: check lists the interpreter named by #!" "$out" \
		"protect $W/.venv/bin/python3  (python3, run by PreToolUse[Bash]#1)"
	expect_contains "venv: ... its libraries" "$out" "protect $W/.venv/lib/**  (a virtualenv's libraries, loaded by PreToolUse[Bash]#1)"
	cat > v.sh <<G
printf '#!/bin/sh\\ncat >/dev/null; exit 0\\n' > fake; chmod +x fake
mv -f fake .venv/bin/python3 2>/dev/null; echo "mvinterp=\$?"
busybox sh -c 'echo "#!/bin/sh" > .venv/bin/python3' 2>/dev/null; echo "bbinterp=\$?"
echo 'import os' > $SITEPK/evil.pth 2>/dev/null; echo "pth=\$?"
echo x > .venv/pyvenv.cfg 2>/dev/null; echo "cfg=\$?"
bash -c 'rm -rf victim'; echo "rmrf=\$?"
echo ok > .venv/notes.txt; echo "ok=\$?"
G
	for mode in guard enforce; do
		mkdir -p victim
		out=$(timeout 120 "$HOOKSHIM" run --no-notices --$mode -c v.json -- bash v.sh 2>/dev/null)
		each_denied "venv, $mode: " "$out" mvinterp bbinterp pth cfg rmrf
		check "venv, $mode: the hook still denies rm -rf" test -d victim
		expect_contains "venv, $mode: a write elsewhere in the environment works" "$out" "ok=0"
	done
else
	skip "hook_runtime venv: python3 -m venv not available"
fi

# What the walk of a hook's command sees (session 37's review): a script
# after a shell's "-" (`bash - guard.sh`: "-" ends a shell's options, it
# is python's stdin alone), git behind a runner (`timeout 10 git`, `nice
# -n 5 git`, `/usr/bin/env git`, `xargs git`) or in a command line the
# hook runs (`sh -c 'git status'`, `env -S 'git status'`), and git's other
# files: the system's configuration, a submodule's, a linked worktree's
# pointer and its main repository.
W=$TMP/walk; mkdir -p "$W/.claude/hooks" && cd "$W" || exit 1
export HOME=$W/home; mkdir -p "$HOME"
printf '#!/bin/sh\nexit 0\n' > .claude/hooks/g.sh; chmod +x .claude/hooks/g.sh
git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init
walk_check() { # LABEL COMMAND WANT
	printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":%s}]}]}}' \
		"$(printf '%s' "$2" | jq -Rs .)" > walk.json
	expect_contains "walk: $1" "$(GIT_CONFIG_SYSTEM=$W/sysgit "$HOOKSHIM" check -c walk.json 2>&1)" "$3"
}
walk_check "a script after bash's -" 'bash - "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh' \
	"protect $W/.claude/hooks/g.sh  (hook script of PreToolUse[Bash]#1)"
for c in 'timeout 10 git status' 'nice -n 5 git status' '/usr/bin/env git status' 'xargs git status' \
	"sh -c 'git status'" "env -S 'git status'" 'env -i FOO=1 git status'; do
	walk_check "git behind \`$c\`" "$c" "protect $W/.git/config  (git's configuration, read by PreToolUse[Bash]#1)"
done
# (a second review: a shell's own options before its script or its -c,
# busybox's sh, env's attached and clustered -S, env's -)
for c in 'bash -e "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh' 'bash -o pipefail "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh' \
	'bash +x -O extglob "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh' "bash -ec '\"\$CLAUDE_PROJECT_DIR\"/.claude/hooks/g.sh'"; do
	walk_check "a script behind \`$c\`" "$c" "protect $W/.claude/hooks/g.sh  (hook script of PreToolUse[Bash]#1)"
done
for c in "sh -xc 'git status'" "bash -lc 'git status'" "busybox sh -c 'git status'" 'env -S"git status"' \
	'env --split-string="git status"' "env -iS 'git status'" 'env - git status'; do
	walk_check "git behind \`$c\`" "$c" "protect $W/.git/config  (git's configuration, read by PreToolUse[Bash]#1)"
done
walk_check "git's system configuration" 'git status' "protect $W/sysgit  (git's system configuration, read by PreToolUse[Bash]#1)"
printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"git status"}]}]}}' > rel.json
expect_contains "walk: a relative GIT_CONFIG_SYSTEM, from the hook's directory" \
	"$(GIT_CONFIG_SYSTEM=relsys "$HOOKSHIM" check -c rel.json 2>&1)" "protect $W/relsys  (git's system configuration"
mkdir -p "$TMP/subsrc" && (cd "$TMP/subsrc" && git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m s)
git -c protocol.file.allow=always submodule -q add "$TMP/subsrc" sub 2>/dev/null
walk_check "a submodule's configuration" 'git status' "protect $W/.git/modules/sub/config  (git's configuration"
walk_check "a submodule's pointer to its repository" 'git status' "protect $W/sub/.git  (a submodule's pointer to its repository"
# a python found on the hooks' PATH in a virtualenv (an agent started in
# an activated one): its settings and libraries
if /usr/bin/python3 -m venv --without-pip "$W/venv2" 2>/dev/null; then
	printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"python3 -c pass"}]}]}}' > vp.json
	out=$(PATH="$W/venv2/bin:$PATH" "$HOOKSHIM" check -c vp.json 2>&1)
	expect_contains "walk: a virtualenv's python on PATH: its libraries" "$out" \
		"protect $W/venv2/lib/**  (a virtualenv's libraries"
	expect_contains "walk: ... its settings" "$out" "protect $W/venv2/pyvenv.cfg  (a virtualenv's settings"
fi
git worktree add -q "$TMP/wt" 2>/dev/null
( cd "$TMP/wt" && mkdir -p .claude/hooks && cp "$W/.claude/hooks/g.sh" .claude/hooks/ &&
  printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"git status"}]}]}}' > w.json &&
  "$HOOKSHIM" check -c w.json ) > "$TMP/wt.out" 2>&1
expect_contains "walk: a linked worktree's pointer" "$(cat "$TMP/wt.out")" "protect $TMP/wt/.git  (git's pointer to its repository"
expect_contains "walk: ... its main repository's configuration" "$(cat "$TMP/wt.out")" "protect $W/.git/config  (git's configuration"
expect_contains "walk: ... its own" "$(cat "$TMP/wt.out")" "protect $W/.git/worktrees/wt/config.worktree  (git's configuration"

# ... and an inline python in other forms: by env's PATH, with an option's
# value before -c, behind a runner, and with an empty PYTHONSAFEPATH in the
# host's environment (unset, to python): each ran the agent's json.py
W=$TMP/pyforms; mkdir -p "$W" && cd "$W" || exit 1
export HOME=$W/home; mkdir -p "$HOME"
code='import json,sys; c=json.load(sys.stdin)[\"tool_input\"][\"command\"]; sys.exit(2 if \"rm -rf\" in c else 0)'
printf 'import sys\nsys.exit(0)\n' > json.py
printf "bash -c 'rm -rf victim'; echo rmrf=\$?\n" > pyagent.sh
for form in "/usr/bin/env python3 -c" "python3 -W ignore -c" "python3 -X utf8 -c" "timeout 10 python3 -c" "nice python3 -c"; do
	printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"%s '"'"'%s'"'"'"}]}]}}' \
		"$form" "$code" > f.json
	mkdir -p victim
	out=$(timeout 60 "$HOOKSHIM" run --no-notices --enforce -c f.json -- bash pyagent.sh 2>/dev/null)
	each_denied "inline python as \`$form\`: " "$out" rmrf
done
printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"python3 -c '"'"'%s'"'"'"}]}]}}' "$code" > f.json
mkdir -p victim
out=$(PYTHONSAFEPATH= timeout 60 "$HOOKSHIM" run --no-notices --enforce -c f.json -- bash pyagent.sh 2>/dev/null)
each_denied "inline python, an empty PYTHONSAFEPATH in the host's environment: " "$out" rmrf

# Module paths and start-up files the hook's environment names (session
# 38's attack run): PYTHONPATH, PERL5LIB, NODE_PATH and a login shell's
# ~/.bash_profile held code the agent put there, which ran in the hook
# (outside the session) and let `rm -rf` through. Each directory is
# protected whole, each file by name, in both modes.
W=$TMP/envpaths; mkdir -p "$W" && cd "$W" || exit 1
export HOME=$W/home
mkdir -p "$HOME/perl5/JSON" "$HOME/pylib" "$HOME/nodelib" hooks
cat > hooks/guard.pl <<'PL'
use JSON::PP; local $/; my $p = JSON::PP::decode_json(<STDIN>);
if ($p->{tool_input}{command} =~ /rm -rf/) { print STDERR "no rm -rf\n"; exit 2 } exit 0;
PL
printf 'import json, sys\nsys.exit(2 if "rm -rf" in json.load(sys.stdin)["tool_input"]["command"] else 0)\n' > hooks/guard.py
cat > hooks/guard.js <<'JS'
const bad = require("guardlib"); let d = "";
process.stdin.on("data", x => d += x).on("end", () => process.exit(bad(JSON.parse(d).tool_input.command) ? 2 : 0));
JS
# kind: the hook's command, the file the agent plants (code that says it
# ran, then allows)
declare -A HCMD=([perl]="perl $W/hooks/guard.pl" [python]="$PY $W/hooks/guard.py"
	[node]="node $W/hooks/guard.js"
	[login]="bash -lc 'jq -r .tool_input.command | grep -q \"rm -rf\" && exit 2; exit 0'")
declare -A PLANT=([perl]="$HOME/perl5/JSON/PP.pm" [python]="$HOME/pylib/json.py"
	[node]="$HOME/nodelib/guardlib.js" [login]="$HOME/.bash_profile")
declare -A CODE=([perl]='package JSON::PP; open(my $f, ">", "'$W'/PWNED"); exit 0; 1;'
	[python]="open('$W/PWNED','w'); import sys; sys.exit(0)"
	[node]="require('fs').writeFileSync('$W/PWNED', ''); module.exports = () => false;"
	[login]="touch $W/PWNED; exit 0")
for kind in perl python node login; do
	[ $kind = node ] && ! command -v node >/dev/null && { skip "env paths: no node"; continue; }
	printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":%s}]}]}}' \
		"$(printf '%s' "${HCMD[$kind]}" | jq -Rs .)" > $kind.json
	printf '%s\n' "${CODE[$kind]}" > "$W/code"
	printf 'cat %s > %s; echo plant=$?\nbash -c "rm -rf %s/victim"; echo rmrf=$?\n' \
		"$W/code" "${PLANT[$kind]}" "$W" > agent.sh
	for mode in guard enforce; do
		mkdir -p victim; rm -f PWNED "${PLANT[$kind]}"
		echo 'module.exports = (c) => /rm -rf/.test(c);' > "$HOME/nodelib/guardlib.js"
		out=$(PERL5LIB=$HOME/perl5 PYTHONPATH=$HOME/pylib NODE_PATH=$HOME/nodelib \
			timeout 60 "$HOOKSHIM" run --no-notices --$mode -c $kind.json -- bash agent.sh 2>/dev/null)
		expect_contains "env paths/$kind/$mode: the plant denied" "$out" "plant=1"
		expect_contains "env paths/$kind/$mode: rm -rf still denied" "$out" "rmrf=126"
		check "env paths/$kind/$mode: no code of the agent's ran in the hook" test ! -e PWNED
	done
done
expect_contains "env paths: check names PERL5LIB's directory" \
	"$(PERL5LIB=$HOME/perl5 "$HOOKSHIM" check -c perl.json 2>&1)" "protect $HOME/perl5/**  (PERL5LIB, loaded by PreToolUse[Bash]#1)"
expect_contains "env paths: check names a login shell's ~/.profile" \
	"$("$HOOKSHIM" check -c login.json 2>&1)" "protect $HOME/.profile  (a login shell's start-up file, read by PreToolUse[Bash]#1)"

# A program a hook runs by bare name, reached by another name (session
# 38's attack run): the PATH's own name for it a symlink (as
# /usr/bin/awk -> /etc/alternatives/awk -> mawk), a chain of them, a hard
# link it had at session start (/usr/bin/perl5.36.0 of perl), a symlink
# made to it during the session. Each wrote the agent's `jq` into the
# file the hook runs, and `rm -rf` went through. The file is protected by
# its identity too, in both modes.
W=$TMP/pathids; mkdir -p "$W/proj" && cd "$W/proj" || exit 1
printf '#!/bin/sh\necho harmless\n' > "$W/evil"; chmod +x "$W/evil"
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q \"rm -rf\" && exit 2; exit 0"}]}]}}' > p.json
for shape in symlink chain hardlink newlink; do
	rm -rf "$W/tools" "$W/alt" "$W/real"; mkdir -p "$W/tools" "$W/alt" "$W/real"
	target=$W/tools/jq
	case $shape in
	symlink) cp /usr/bin/jq "$W/real/jq"; ln -s ../real/jq "$W/tools/jq" ;;
	chain) cp /usr/bin/jq "$W/real/jq"; ln -s ../real/jq "$W/alt/jq"; ln -s ../alt/jq "$W/tools/jq" ;;
	hardlink) cp /usr/bin/jq "$W/tools/jq"; ln "$W/tools/jq" "$W/real/jq-1.6"; target=$W/real/jq-1.6 ;;
	newlink) cp /usr/bin/jq "$W/tools/jq"; target=$W/proj/newlink ;;
	esac
	printf '%s\ncp %s %s; echo cp=$?\nmkdir -p victim; bash -c "rm -rf victim"; echo rmrf=$?\n' \
		"$([ $shape = newlink ] && echo "ln -s $W/tools/jq $target")" "$W/evil" "$target" > agent.sh
	for mode in guard enforce; do
		out=$(PATH=$W/tools:/usr/bin:/bin timeout 60 "$HOOKSHIM" run --no-notices --$mode -c p.json -- bash agent.sh 2>/dev/null)
		expect_contains "PATH program, $shape, $mode: the write through another name denied" "$out" "cp=1"
		expect_contains "PATH program, $shape, $mode: the hook still decides" "$out" "rmrf=126"
	done
	expect_eq "PATH program, $shape: the program is unchanged" "$(sha256sum < /usr/bin/jq)" \
		"$(sha256sum < "$W/tools/jq")"
done

# A node hook's packages and module type, from the directories above its
# script (the project's, which the agent writes as its work): a
# node_modules/<pkg>.js made nearer than the hook's own package shadowed
# it, and "type": "module" in the project's package.json made the
# CommonJS hook fail (a non-blocking error: its call allowed). Both let
# `rm -rf` through in guard mode (session 37's limit; mended in session
# 38). The package.json files up to the nearest one and each package's
# node_modules names up to where it is are protected; node's own
# modules (fs) are not looked up.
if command -v node >/dev/null; then
	W=$TMP/nodehook; mkdir -p "$W/.claude/hooks" "$W/node_modules/guardlib" && cd "$W" || exit 1
	echo '{"name":"p","version":"1.0.0"}' > package.json
	echo 'module.exports = (c) => /rm -rf/.test(c);' > node_modules/guardlib/index.js
	cat > .claude/hooks/guard.js <<'JS'
const bad = require("guardlib"); const fs = require("fs"); let d = "";
process.stdin.on("data", x => d += x).on("end", () => process.exit(bad(JSON.parse(d).tool_input.command) ? 2 : 0));
JS
	echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.js"}]}]}}' > n.json
	cat > agent.sh <<'S'
mkdir -p .claude/node_modules; echo 'module.exports = () => false;' > .claude/node_modules/guardlib.js; echo "shadow=$?"
echo '{"name":"p","version":"1.0.0","type":"module"}' > package.json; echo "type=$?"
mkdir -p victim; bash -c 'rm -rf victim'; echo "rmrf=$?"
S
	for mode in guard enforce; do
		out=$(timeout 60 "$HOOKSHIM" run --no-notices --$mode -c n.json -- bash agent.sh 2>/dev/null)
		expect_contains "node hook, $mode: a nearer node_modules/guardlib.js denied" "$out" "shadow=1"
		expect_contains "node hook, $mode: the project's package.json (its module type) denied" "$out" "type=1"
		expect_contains "node hook, $mode: the hook still decides" "$out" "rmrf=126"
	done
	out=$("$HOOKSHIM" check -c n.json 2>&1)
	expect_contains "node hook: check names the package where it is" "$out" \
		"protect $W/node_modules/guardlib/**  (a package a node hook script loads"
	expect_not_contains "node hook: node's own modules are not looked up" "$out" "node_modules/fs"
fi
