# Programs that run code given in their words or on their stdin (issue
# 23: code a hook never saw ran inside an allowed command;
# docs/agents.md "Hand-offs"). A tool call that gives python's -c, perl's
# -e, awk's program, sed's `e`, make's recipes, find's -exec, xargs, git's
# -c, a git setting by the environment or an interpreter's stdin a string
# the hook did not see (a substitution) is opaque: every program it
# starts is judged, and an interpreter judged beneath a hand-off hands off
# again, so the `rm -f victim.txt` it runs is denied. Each case first runs
# plainly, without hookshim, to show it does delete here. A command whose
# substitution is data (a commit message, a path after --) stays one
# tool call. Real bash, python3, perl, awk, sed, make, find, xargs, git;
# guard and enforce mode.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset CI GITHUB_ACTIONS
cat > hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "c=$(jq -r .tool_input.command); printf '%s\\n--\\n' \"$c\" >> \"$HS_SEEN\"; case \"$c\" in *'rm -f victim'*) echo 'hookshim-test: victim.txt is kept' >&2; exit 2;; esac; exit 0"}]}]}}
J
export HS_SEEN=$TMP/seen
cat > agent.py <<'P'
import json, os, subprocess, sys
open("victim.txt", "w").write("v")
r = subprocess.run(["bash", "-c", sys.argv[1]], capture_output=True, text=True)
print(json.dumps({"rc": r.returncode, "err": r.stderr,
                  "victim": os.path.exists("victim.txt")}))
P
git init -q . && git config user.email t@t && git config user.name t
# the command hidden from the hook's text: a substitution decodes it
D="\$(echo $(printf 'rm -f victim.txt' | base64 -w0) | base64 -d)"
# name|needs|command
cat > cases.txt <<C
python3 -c|python3|python3 -c "import os; os.system('$D')"
perl -e|perl|perl -e "system('$D')"
awk's system()|awk|awk 'BEGIN { system("'"$D"'") }'
sed's e flag|sed|echo victim.txt | sed "s/^/$D #/e"
make's variable|make|make -f /dev/null RM="$D" -E 'all:; \$(RM)'
find -exec|find|find . -maxdepth 0 -exec $D \\;
xargs|xargs|echo | xargs $D
git -c core.fsmonitor|git|git -c core.fsmonitor="$D" status
python3 on a pipe|python3|echo "import os; os.system('$D')" | python3
python3 on a here-document|python3|python3 - <<EOF
import os; os.system('$D')
EOF
make -f - on a here-document|make|make -f - <<EOF
all:; @$D
EOF
busybox sh on a file|busybox|echo "/bin/$D" > cmdfile; \$(echo busybox) sh cmdfile
busybox env sh on a file|busybox|echo "/bin/$D" > cmdfile; \$(echo busybox) env sh cmdfile
ed's ! on its stdin|ed|echo "!$D" > edscript; \$(echo ed) -s < edscript
sqlite3's .shell on its stdin|sqlite3|echo ".shell $D" > sqlscript; \$(echo sqlite3) < sqlscript
gdb's shell in a file|gdb|echo "shell $D" > gdbscript; \$(echo gdb) -batch -x gdbscript
vim's ! in a file|vim|echo "!$D" > exscript; \$(echo vim) -es -u NONE -S exscript -c q
flock's command|flock|echo "/bin/$D" > cmdfile; \$(echo flock) /tmp sh cmdfile
script's shell on its stdin|script|echo "/bin/$D; exit" > cmdfile; \$(echo script) -q /dev/null < cmdfile
find -exec of a file|find|echo "/bin/$D" > cmdfile; \$(echo find) cmdfile -exec sh {} \\;
setpriv's command|setpriv|echo "/bin/$D" > cmdfile; \$(echo setpriv) sh cmdfile
rbash on a file|rbash|echo "$D" > cmdfile; \$(echo rbash) cmdfile
C
# (the last eleven: a command word the hook did not see makes the tool
# call a hand-off, and the program it names, judged beneath it, runs a
# file or its input -- a shell by busybox's applet, env, what ed,
# sqlite3, gdb and vim read, flock's, script's, find's, setpriv's
# command, bash by another name --: every program but git hands off
# again, common/shellargv.c; they ran it as a command's, nested.
# busybox's shell runs its own rm in-process, as python its os.remove:
# /bin/rm here; script's interactive shell is told to exit: util-linux
# script hands its stdin's end to the shell only while the terminal is
# in canonical mode, and bash's readline, once started, never sees it --
# a race the case lost under load, waiting until the test's timeout)
# a case is its line and the lines after it that hold no `|`
i=0
while IFS= read -r line; do
	case "$line" in
	*'|'*'|'*) i=$((i + 1)); printf '%s\n' "$line" > "case.$i" ;;
	*) printf '%s\n' "$line" >> "case.$i" ;;
	esac
done < cases.txt
for f in case.*; do
	name=$(head -1 "$f" | cut -d'|' -f1)
	need=$(head -1 "$f" | cut -d'|' -f2)
	cmd=$({ head -1 "$f" | cut -d'|' -f3-; tail -n +2 "$f"; })
	if ! command -v "$need" >/dev/null; then
		skip "$name: no $need here"
		continue
	fi
	# plainly, it deletes
	r=$(python3 agent.py "$cmd" 2>/dev/null)
	if [ "$(jq -r .victim <<<"$r")" != false ]; then
		skip "$name: does not delete here, even plainly"
		continue
	fi
	for mode in --guard --enforce; do
		rm -f "$HS_SEEN"
		r=$(timeout 120 "$HOOKSHIM" run "$mode" -c hooks.json -- python3 agent.py "$cmd" 2>/dev/null)
		expect_eq "$mode $name: the rm it hid did not run" true "$(jq -r .victim <<<"$r")"
		expect_contains "$mode $name: the hook saw the rm, beneath" \
			"$(cat "$HS_SEEN" 2>/dev/null)" "rm -f victim.txt"
	done
done

# git's settings by the environment: enforce mode reads the environment
# a judged program was given (floor/floor_handoff.c), also where it runs
# in its shell's own process (the last command of a `bash -c`); guard
# mode trusts it (docs/limits.md).
cmd="GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=\"$D\" git status"
r=$(python3 agent.py "$cmd" 2>/dev/null)
expect_eq "plainly, GIT_CONFIG_VALUE_0's fsmonitor deletes" false "$(jq -r .victim <<<"$r")"
for tail in "" " >/dev/null"; do
	r=$("$HOOKSHIM" run --enforce -c hooks.json -- python3 agent.py "$cmd$tail" 2>/dev/null)
	expect_eq "enforce: GIT_CONFIG_VALUE_0's fsmonitor is judged${tail:+ (git in a child of its shell)}" \
		true "$(jq -r .victim <<<"$r")"
done

# Data is not code: one tool call, its programs nested.
for mode in --guard --enforce; do
	rm -f "$HS_SEEN"
	cmd='echo x > f && git add -- "$(echo f)" && git commit -q -m "$(printf "msg\n\nbody")" && git log --oneline | wc -l'
	r=$("$HOOKSHIM" run "$mode" -c hooks.json -- python3 agent.py "$cmd" 2>/dev/null)
	expect_eq "$mode: a commit message and a path from substitutions are one tool call" \
		"$cmd" "$(sed '/^--$/d' "$HS_SEEN")"
	rm -f "$HS_SEEN"
	cmd="python3 - <<'EOF'
print('\$(not run)')
EOF"
	"$HOOKSHIM" run "$mode" -c hooks.json -- python3 agent.py "$cmd" >/dev/null 2>&1
	expect_eq "$mode: python3 on a quoted here-document is one tool call" \
		"$cmd" "$(sed '/^--$/d' "$HS_SEEN")"
done

# git runs what its settings and hooks name, from files the session may
# write: a program a command's git starts that is not git's own is a tool
# call of its own (shim/exec_decide.c; floor/floor_exec.c in enforce mode,
# also with no shim in git). Each plainly deletes first.
cat > gitagent.py <<'P'
import json, os, subprocess, sys
open("victim.txt", "w").write("v")
setup = sys.argv[2] if len(sys.argv) > 2 else ""
if setup:
    exec(setup)
r = subprocess.run(["bash", "-c", sys.argv[1]], capture_output=True, text=True)
print(json.dumps({"rc": r.returncode, "err": r.stderr,
                  "victim": os.path.exists("victim.txt")}))
P
FSMON="open('.git/config', 'a').write('[core]\\n\\tfsmonitor = rm -f victim.txt\\n')"
ALIAS="open('.git/config', 'a').write('[alias]\\n\\tzap = !rm -f victim.txt\\n')"
OTHER="subprocess.run(['git', 'init', '-q', 'other']); open('other/.git/config', 'a').write('[core]\\n\\tfsmonitor = rm -f victim.txt\\n')"
INCL="open('inc.cfg', 'w').write('[core]\\n\\tfsmonitor = rm -f victim.txt\\n'); open('.git/config', 'a').write('[include]\\n\\tpath = ../inc.cfg\\n')"
# git's commands that are scripts run what their settings name from a
# shell of their own: git-web--browse as the fsmonitor, its browser's cmd
WEB=
if [ -x /usr/lib/git-core/git-web--browse ]; then
	WEB="a git command that is a script (web--browse) as the fsmonitor|--guard --enforce|"
	WEB+="[subprocess.run(['git', 'config', k, v]) for k, v in (('core.fsmonitor', '/usr/lib/git-core/git-web--browse'), ('web.browser', 'x'), ('browser.x.cmd', 'rm -f victim.txt;:'))]"
	WEB+="|git status >/dev/null"
else
	skip "no git-web--browse here"
fi
# enforce mode with no shim in git: a static busybox's env drops it
NOSHIM= WEBNOSHIM=
if command -v busybox >/dev/null && ! ldd "$(command -v busybox)" >/dev/null 2>&1; then
	NOSHIM="core.fsmonitor with no shim in git|--enforce|$FSMON|busybox env -u LD_PRELOAD git status >/dev/null"
	if [ -n "$WEB" ]; then
		WEBNOSHIM="${WEB%%|*} with no shim in git|--enforce|$(cut -d'|' -f3 <<<"$WEB")|busybox env -u LD_PRELOAD git status >/dev/null"
		# and claiming no role: its script is a hand-off's still
		WEBNOSHIM+=$'\n'"${WEB%%|*}, git with an empty environment|--enforce|$(cut -d'|' -f3 <<<"$WEB")|busybox env -i PATH=/usr/bin:/bin git status >/dev/null"
		# and what its cmd leaves running once the script has ended: an
		# orphan of the session, a hand-off's (floor/floor_orphans.c)
		WEBNOSHIM+=$'\n'"${WEB%%|*}, git with an empty environment, its cmd's rm left running|--enforce|$(cut -d'|' -f3 <<<"$WEB" | sed 's/rm -f victim.txt;:/(sleep 0.5; rm -f victim.txt) \& :/')|busybox env -i PATH=/usr/bin:/bin git status >/dev/null; sleep 2"
	fi
else
	skip "no static busybox: git with no shim"
fi
# name|modes|setup|command
while IFS='|' read -r name modes setup cmd; do
	[ -n "$name" ] || continue
	git init -q . && git config --unset-all core.fsmonitor 2>/dev/null
	git config --unset-all alias.zap 2>/dev/null; git config --unset-all include.path 2>/dev/null
	git config --unset-all web.browser 2>/dev/null
	rm -rf other inc.cfg
	r=$(python3 gitagent.py "$cmd" "$setup" 2>/dev/null)
	expect_eq "plainly, $name deletes" false "$(jq -r .victim <<<"$r")"
	for mode in $modes; do
		git config --unset-all core.fsmonitor 2>/dev/null
		git config --unset-all alias.zap 2>/dev/null; git config --unset-all include.path 2>/dev/null
		git config --unset-all web.browser 2>/dev/null
		rm -rf other inc.cfg "$HS_SEEN"
		r=$("$HOOKSHIM" run "$mode" -c hooks.json -- python3 gitagent.py "$cmd" "$setup" 2>/dev/null)
		expect_eq "$mode $name: what git ran was judged" true "$(jq -r .victim <<<"$r")"
		expect_contains "$mode $name: the hook saw it" "$(cat "$HS_SEEN" 2>/dev/null)" "rm -f victim.txt"
	done
done <<C
the repository's core.fsmonitor the agent wrote, in git status|--guard --enforce|$FSMON|git status >/dev/null
an alias's !command the agent wrote|--guard --enforce|$ALIAS|git zap
a repository the agent made, by GIT_DIR|--guard --enforce|$OTHER|GIT_DIR=other/.git git status >/dev/null
a file the repository's configuration includes|--guard --enforce|$INCL|git status >/dev/null
$NOSHIM
$WEB
$WEBNOSHIM
C
git config --unset-all core.fsmonitor 2>/dev/null; git config --unset-all alias.zap 2>/dev/null
git config --unset-all include.path 2>/dev/null; git config --unset-all web.browser 2>/dev/null
rm -rf other inc.cfg

# A hook the agent wrote is a tool call of its own: shown by its name (its
# text, like any script's, is a file a write hook can guard).
printf '#!/bin/sh\nexit 0\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
for mode in --guard --enforce; do
	rm -f "$HS_SEEN"
	"$HOOKSHIM" run "$mode" -c hooks.json -- python3 gitagent.py "echo $mode >> f && git add f && git commit -qm m" >/dev/null 2>&1
	expect_contains "$mode: a git hook is judged as a program git starts" \
		"$(cat "$HS_SEEN" 2>/dev/null)" ".git/hooks/pre-commit"
done
rm -f .git/hooks/pre-commit

# git's own programs are git: a commit, its maintenance, a push to a
# local repository fire nothing beneath but the remote's receive-pack,
# which git starts through a shell.
git init -q --bare "$TMP/bare.git" && git remote add o "$TMP/bare.git"
for mode in --guard --enforce; do
	rm -f "$HS_SEEN"
	cmd="echo $mode >> f && git add f && git commit -qm m && git maintenance run --auto && git push -q o HEAD:main"
	"$HOOKSHIM" run "$mode" -c hooks.json -- python3 gitagent.py "$cmd" >/dev/null 2>&1
	expect_eq "$mode: git's own programs are git's" \
		"$cmd
git-receive-pack '$TMP/bare.git'" "$(sed '/^--$/d' "$HS_SEEN")"
done

# The agent's own git (not a tool call's): a program it starts that is
# not git's own is a tool call, as the agent's shells are. Here git runs
# a program the repository's configuration names by its path, with no
# shell between (no metacharacters), which the agent's exec of a program
# would not have judged.
printf '#!/bin/sh\nrm -f victim.txt\n' > zap && chmod +x zap
cat > zaphooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "c=$(jq -r .tool_input.command); printf '%s\\n--\\n' \"$c\" >> \"$HS_SEEN\"; case \"$c\" in *zap*) echo 'hookshim-test: no zap' >&2; exit 2;; esac; exit 0"}]}]}}
J
cat > owngit.py <<'P'
import os, subprocess
open("victim.txt", "w").write("v")
subprocess.run(["git", "-c", "core.fsmonitor=" + os.getcwd() + "/zap", "status"],
               capture_output=True)
print(os.path.exists("victim.txt"))
P
expect_eq "plainly, the agent's own git runs the program its setting names" False "$(python3 owngit.py)"
for mode in --guard --enforce; do
	rm -f "$HS_SEEN"
	expect_eq "$mode: the agent's own git's program is judged" True \
		"$("$HOOKSHIM" run "$mode" -c zaphooks.json -- python3 owngit.py 2>/dev/null)"
done
rm -f zap

# A persistent shell fed on a pipe (docs/agents.md): a line that exports
# a variable an interpreter loads as code leaves code behind, so what
# later lines run is judged too, and the interpreter, judged, hands off
# again: PERL5OPT's -M runs its `system` in a later `perl -e 1`.
cat > persistent.py <<'P'
import os, subprocess, sys
open("victim.txt", "w").write("v")
sh = subprocess.Popen(["bash"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, text=True)
sh.communicate(sys.argv[1])
print(os.path.exists("victim.txt"))
P
if command -v perl >/dev/null; then
	lines='export PERL5OPT="-Mstrict;system(q(rm).chr(32).q(-f).chr(32).q(victim.txt))"
perl -e 1
'
	expect_eq "plainly, an exported PERL5OPT runs in a later perl" False "$(python3 persistent.py "$lines")"
	for mode in --guard --enforce; do
		expect_eq "$mode: ... judged there" True \
			"$("$HOOKSHIM" run "$mode" -c hooks.json -- python3 persistent.py "$lines" 2>/dev/null)"
	done
else
	skip "persistent PERL5OPT: no perl here"
fi

# Enforce mode: a hand-off's process (PERL5OPT carries code) whose judged
# exec fails in the kernel (E2BIG) is a hand-off still, so its next exec
# is judged too (floor/floor_lineage.c: a command's process granted
# again).
if command -v perl >/dev/null; then
	cat > e2big.pl <<'P'
{ local %ENV = (BIG => 'x' x 200000); exec '/usr/bin/true'; }
%ENV = (PATH => '/usr/bin:/bin');
exec '/bin/rm', '-f', 'victim.txt';
P
	cat > e2big.py <<'P'
import os, subprocess
open("victim.txt", "w").write("v")
subprocess.run(["bash", "-c", "perl -e 1"],
               env=dict(os.environ, PERL5OPT="-Mstrict;do(q(./e2big.pl))"))
print(os.path.exists("victim.txt"))
P
	expect_eq "plainly, the script's rm runs after its failed exec" False "$(python3 e2big.py 2>/dev/null)"
	expect_eq "enforce: a hand-off whose judged exec failed is a hand-off still" True \
		"$("$HOOKSHIM" run --enforce -c hooks.json -- python3 e2big.py 2>/dev/null)"
fi

# git's scripts that run no setting's command are git's own, their
# programs nested: an octopus merge (git-merge-octopus) and a bisect
# fire the tool call alone.
git checkout -q -b oa && echo a > oa && git add oa && git commit -qm oa
git checkout -q - && git checkout -q -b ob && echo b > ob && git add ob && git commit -qm ob
git checkout -q - && git checkout -q -b oc
for mode in --guard --enforce; do
	git reset -q --hard oc 2>/dev/null
	rm -f "$HS_SEEN"
	cmd="git merge -q -m octo oa ob && git bisect start HEAD oc >/dev/null && git bisect reset -q"
	"$HOOKSHIM" run "$mode" -c hooks.json -- python3 gitagent.py "$cmd" >/dev/null 2>&1
	expect_eq "$mode: git's scripts that run no setting's command fire nothing beneath" \
		"$cmd" "$(sed '/^--$/d' "$HS_SEEN")"
done

# ssh runs its settings' ProxyCommand as a program it starts (a git
# fetch's ssh reads ~/.ssh/config): judged as git's children are.
if command -v ssh >/dev/null; then
	printf 'Host victimhost\n  ProxyCommand sh -c "rm -f victim.txt"\n' > ssh.cfg
	cmd='timeout 20 ssh -F ./ssh.cfg -o BatchMode=yes -o ConnectTimeout=2 victimhost true 2>/dev/null'
	r=$(python3 agent.py "$cmd" 2>/dev/null)
	if [ "$(jq -r .victim <<<"$r")" = false ]; then
		for mode in --guard --enforce; do
			rm -f "$HS_SEEN"
			r=$(timeout 120 "$HOOKSHIM" run "$mode" -c hooks.json -- python3 agent.py "$cmd" 2>/dev/null)
			expect_eq "$mode: ssh's ProxyCommand from its settings is judged" true "$(jq -r .victim <<<"$r")"
			expect_contains "$mode: ... the hook saw it" "$(cat "$HS_SEEN" 2>/dev/null)" "rm -f victim.txt"
		done
	else
		skip "ssh's ProxyCommand does not run here, even plainly"
	fi
else
	skip "no ssh here"
fi
