# hookshim learn (issue 25, item 4): an agent no profile knows -- its
# every command handed to a watchdog script as an argument, probes of its
# own through /bin/sh and bash --norc before each -- is run once under learn; the draft
# profile it writes, put in the user's profile directory, makes the next
# session exact: the hook sees each model command once, the probe and the
# watchdog's own ps and sleep fire nothing, and a deny still holds.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home XDG_CONFIG_HOME=$TMP/xdg
mkdir -p "$HOME" "$XDG_CONFIG_HOME/hookshim/agents"
unset CI GITHUB_ACTIONS
cat > agent.py <<'P'
import os, subprocess, sys
WATCHDOG = ('shell=$2\ncommand=$3\n( while kill -0 "$1" 2>/dev/null; do sleep 1; done ) &\n'
            'watch=$!\nps -o ppid= -p $$ >/dev/null\n"$shell" -c "$command"\nrc=$?\n'
            'kill $watch 2>/dev/null\nexit $rc')
for cmd in sys.argv[1:]:
    subprocess.run(["/bin/sh", "-c", "uname -r"], capture_output=True)
    subprocess.run(["/bin/bash", "--norc", "-c", "kill -0 %d 2>/dev/null" % os.getpid()])
    r = subprocess.run(["/bin/bash", "-c", WATCHDOG, "WATCH", str(os.getpid()),
                        "/bin/bash", cmd], capture_output=True, text=True)
    print(cmd, "->", r.returncode, r.stderr.strip())
P
"$HOOKSHIM" learn -o draft.json -- python3 agent.py 'ls' 'echo hi > out.txt' 'touch made' >/dev/null 2>learn.err
rc=$?
expect_eq "learn exits 0" 0 "$rc"
expect_contains "learn says where the draft went" "$(cat learn.err)" "wrote draft.json"
expect_eq "the draft is named after the agent's script" agent "$(jq -r .name draft.json)"
expect_eq "its processes: the script node or python runs" '["agent.py"]' "$(jq -c .processes draft.json)"
expect_eq "the watchdog: a hand-off of parameter \$3" 3 "$(jq -r '.handoffs[0].command' draft.json)"
expect_eq "the probe through /bin/sh: the agent's own" '/bin/sh|["*","-c","uname -r"]' \
	"$(jq -r '.internal[0].shell + "|" + (.internal[0].argv | tojson)' draft.json)"
# (a pid of four digits or more is a hex-like word: `*`)
expect_eq "a shell's options are kept, its pid made a wildcard, 2>/dev/null not" \
	'["*","--norc","-c","kill -0 * 2>/dev/null"]' \
	"$(jq -c '.internal[] | select(.argv[1] == "--norc") | .argv | .[3] |= sub("\\[0-9\\]\\*"; "*")' draft.json)"
"$HOOKSHIM" learn -o draft.json -- true 2>err.txt
expect_eq "no overwrite without --force" 1 "$?"

# the draft in use: exact, and the deny holds
cp draft.json "$XDG_CONFIG_HOME/hookshim/agents/agent.json"
cat > hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
 "c=$(jq -r .tool_input.command); printf '%s\\n' \"$c\" >> \"$SEEN\"; case $c in *victim*) echo 'victim is kept' >&2; exit 2;; esac; exit 0"}]}]}}
J
export SEEN=$TMP/seen
echo v > victim.txt
out=$("$HOOKSHIM" run -c hooks.json -- python3 agent.py 'ls' 'rm -f victim.txt' 'touch made' 2>/dev/null)
expect_eq "the hook saw each model command once, nothing of the agent's" \
	"$(printf 'ls\nrm -f victim.txt\ntouch made')" "$(cat "$SEEN")"
check "the denied command did not run" test -f victim.txt
expect_contains "its reason reached the tool's output" "$out" "victim is kept"
check "an allowed command ran" test -f made
# without the draft: every program judged, the deny holds too
rm -f "$SEEN" "$XDG_CONFIG_HOME/hookshim/agents/agent.json" made
"$HOOKSHIM" run -c hooks.json -- python3 agent.py 'rm -f victim.txt' >/dev/null 2>&1
check "without a profile the deny holds as well" test -f victim.txt
expect_contains "... the probe and the watchdog's programs fire too" "$(cat "$SEEN")" "uname -r"

# Hooks are children of `hookshim run` too, in process groups of their
# own: whatever they run is no name of the agent's. An administrator's
# PreToolUse hook that execs a program of its own (`exec sleep`: the
# hook's process becomes it) while the agent runs is not in the draft.
if [ ! -e /etc/hookshim ]; then
	mkdir -p "$TMP/etc/hookshim"
	echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exec sleep 0.3"}]}]}}' \
		> "$TMP/etc/hookshim/managed.json"
	HOOKSHIM_SYSCONFDIR=$TMP/etc "$HOOKSHIM" learn --force -o draft2.json -- python3 agent.py 'ls' 'ls' 'ls' >/dev/null 2>learn2.err
	expect_eq "a hook's own program is no name of the agent's" '["agent.py"]' "$(jq -c .processes draft2.json)"
else
	skip "learn, a hook's program: this machine has its own /etc/hookshim"
fi
