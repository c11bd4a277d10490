# Hand-offs (issue 25, items 1 and 2; docs/agents.md "Hand-offs"): a shell
# that runs a string it was handed rather than one it contains. An agent
# whose wrapper hands the model's command to eval or to an inner shell
# from its own arguments, a wrapper no rule knows (a watchdog loop), an
# exec chain through `env -i`, a persistent shell the agent feeds on a
# pipe, `bash -s`, a model's own `… | base64 -d | sh`: in each, a denied
# command never runs, its reason reaches the tool's output, an allowed one
# runs, and the hook is shown the command itself -- exactly, once, where
# the shape can be unwrapped. Real bash, python3, a static busybox; guard
# and enforce mode.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset CI GITHUB_ACTIONS
mkdir -p .hookshim
cat > .hookshim/guard.sh <<'G'
#!/bin/bash
c=$(jq -r .tool_input.command)
printf '%s\n--\n' "$c" >> "$HS_SEEN"
case "$c" in *"rm -f victim"*) echo "hookshim-test: victim.txt is kept" >&2; exit 2;; esac
exit 0
G
chmod +x .hookshim/guard.sh
cat > hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "bash .hookshim/guard.sh"}]}]}}
J
export HS_SEEN=$TMP/seen

# The agent: runs one argv (or feeds a shell on stdin), as the agents do.
cat > agent.py <<'P'
import json, os, subprocess, sys
case = json.load(open(sys.argv[1]))
open("victim.txt", "w").write("v")
if "stdin" in case:
    r = subprocess.run(case["argv"], input=case["stdin"], capture_output=True, text=True)
else:
    r = subprocess.run(case["argv"], capture_output=True, text=True)
print(json.dumps({"rc": r.returncode, "out": r.stdout, "err": r.stderr,
                  "victim": os.path.exists("victim.txt"),
                  "allowed": os.path.exists("allowed.txt")}))
P
WATCHDOG='shell=$2
command=$3
( while kill -0 "$1" 2>/dev/null; do sleep 2; done ) &
watch=$!
ps -o ppid= -p $$ >/dev/null
"$shell" -c "$command"
rc=$?
kill $watch 2>/dev/null
exit $rc'
# name|exact|argv as JSON with CMD where the model's command goes
cat > shapes.txt <<S
eval-arg|exact|["bash","-c","eval \"\$1\"","agent","CMD"]
var-shell|exact|["bash","-c","cmd=\"\$2\"; exec \"\$1\" -c \"\$cmd\"","agent","/bin/bash","CMD"]
env-chain|exact|["bash","-c","set -e; exec env -i bash -c \"\$1\"","agent","CMD"]
function|beneath|["bash","-c","run() { local c=\"\$1\"; eval \"\$c\"; }\nrun \"\$1\"","agent","CMD"]
env-path-chain|beneath|["bash","-c","set -e; env -i PATH=/usr/bin:/bin HOME=/tmp bash -c \"\$1\"","agent","CMD"]
watchdog|beneath|["/bin/bash","-c",$(printf '%s' "$WATCHDOG" | jq -Rs .),"WATCH","$$","/bin/bash","CMD"]
eval-unquoted|beneath|["sh","-c","eval \$1","agent","CMD"]
runtime-env-chain|beneath|["bash","-c","sleep 0; env -i PATH=/usr/bin:/bin bash -c \"\$1\"","agent","CMD"]
S
run_case() { # MODE SHAPE-JSON CMD -> result JSON on stdout
	jq -cn --argjson a "$2" --arg c "$3" '{argv: [$a[] | if . == "CMD" then $c else . end]}' > case.json
	rm -f allowed.txt "$HS_SEEN"
	"$HOOKSHIM" run "$1" -c hooks.json --log log.jsonl -- python3 agent.py case.json 2>/dev/null
}
for mode in --guard --enforce; do
	while IFS='|' read -r name how argv; do
		r=$(run_case "$mode" "$argv" "rm -f victim.txt")
		expect_eq "$mode $name: the denied command did not run" true "$(jq -r .victim <<<"$r")"
		expect_contains "$mode $name: its reason is in the tool's output" \
			"$(jq -r .err <<<"$r")" "victim.txt is kept"
		if [ "$how" = exact ]; then
			expect_eq "$mode $name: the hook saw exactly the command, once" \
				"rm -f victim.txt" "$(sed '/^--$/d' "$HS_SEEN")"
		fi
		r=$(run_case "$mode" "$argv" "touch allowed.txt")
		expect_eq "$mode $name: an allowed command ran" true "$(jq -r .allowed <<<"$r")"
		if [ "$how" = exact ]; then
			expect_eq "$mode $name: ... and the hook saw it exactly, once" \
				"touch allowed.txt" "$(sed '/^--$/d' "$HS_SEEN")"
		else
			# shown whole first, then what it ran
			expect_contains "$mode $name: the program it ran was judged" \
				"$(cat "$HS_SEEN")" "touch allowed.txt"
		fi
	done < shapes.txt
done

# The log and explain say why: the unwrap's shape, and what ran beneath.
run_case --guard '["bash","-c","eval \"$1\"","a","CMD"]' "true" >/dev/null
expect_eq "the log names the argument hand-off" "argument-handoff" \
	"$(jq -r 'select(.event=="pre") | .wrapper.shape' log.jsonl | head -1)"
run_case --guard '["sh","-c","eval $1","a","CMD"]' "rm -f victim.txt" >/dev/null
ex=$("$HOOKSHIM" explain log.jsonl)
expect_contains "explain: the opaque script's programs are judged too" "$ex" \
	"every program its shell starts is judged too"
expect_contains "explain: the program beneath is a tool call of its own" "$ex" \
	"a program started by a shell beneath a hand-off"

# A persistent shell the agent feeds one command a line, and bash -s.
cat > persistent.py <<'P'
import os, subprocess, sys
open("victim.txt", "w").write("v")
sh = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, text=True)
out, err = sh.communicate("echo first\nrm -f victim.txt\necho still here > allowed.txt\ncat allowed.txt\n")
print("victim", os.path.exists("victim.txt"))
print("out", out.replace("\n", "|"))
print("err", err.replace("\n", "|"))
P
for mode in --guard --enforce; do
	for sh in "bash" "bash -s" "sh" "bash -i"; do
		rm -f allowed.txt "$HS_SEEN"
		# shellcheck disable=SC2086
		out=$("$HOOKSHIM" run $mode -c hooks.json -- python3 persistent.py $sh 2>/dev/null)
		expect_contains "$mode persistent '$sh': rm -f victim.txt did not run" "$out" "victim True"
		expect_contains "$mode persistent '$sh': the reason reached its stderr" "$out" "victim.txt is kept"
		expect_contains "$mode persistent '$sh': the shell went on with the next command" \
			"$out" "out first|still here|"
	done
done

# The model's own command hands a string to a shell on stdin: judged.
r=$(run_case --guard '["bash","-c","CMD"]' "echo cm0gLWYgdmljdGltLnR4dA== | base64 -d | sh")
expect_eq "a model's '… | base64 -d | sh' does not delete" true "$(jq -r .victim <<<"$r")"
r=$(run_case --enforce '["bash","-c","CMD"]' "printf 'rm -f victim.txt\n' | bash -s")
expect_eq "enforce: a model's '… | bash -s' does not delete" true "$(jq -r .victim <<<"$r")"

# What a review tried (each ran a command the hook was not shown, on the
# build before): a function standing in for the command the string
# names, argv[0] passed off as a chain program or a shell, a shell that
# reads a stream as its script, a runner's shell.
B64=$(printf 'rm -f victim.txt' | base64 -w0)
for mode in --guard --enforce; do
	r=$(run_case "$mode" '["bash","-c","ls() { rm -f victim.txt; }; eval \"$1\"","_","CMD"]' "ls")
	expect_eq "$mode a function standing in for the shown command cannot delete" true "$(jq -r .victim <<<"$r")"
	r=$(run_case "$mode" '["bash","-c","CMD"]' "echo $(printf 'exec -a nohup rm -f victim.txt' | base64 -w0) | base64 -d | bash")
	expect_eq "$mode exec -a nohup rm beneath a hand-off is judged as rm" true "$(jq -r .victim <<<"$r")"
	for tail in "bash /dev/stdin" "env -- sh" "command -p sh" "stdbuf -o0 sh" "xargs -0 sh -c"; do
		r=$(run_case "$mode" '["bash","-c","CMD"]' "echo $B64 | base64 -d | $tail")
		expect_eq "$mode '… | $tail' does not delete" true "$(jq -r .victim <<<"$r")"
	done
done
# A second review's: set -k turning a word into BASH_ENV, code carried in
# the environment of a shell judged as exact, a stdin shell under another
# argv[0], an agent's own shell's shape used beneath a hand-off or by
# another agent, a run-its-operand program's name on another program,
# BASH_ARGV.
for mode in --guard --enforce; do
	r=$(run_case "$mode" '["bash","-c","CMD"]' "echo $B64 | base64 -d | bash -c 'set -k; exec bash -c \"\$1\" x BASH_ENV=/dev/stdin' _ true")
	expect_eq "$mode set -k BASH_ENV=/dev/stdin cannot delete" true "$(jq -r .victim <<<"$r")"
	r=$(run_case "$mode" '["bash","-c","CMD"]' "echo 'rm -f vic''tim.txt' | BASH_ENV=/dev/stdin bash -c true")
	expect_eq "$mode BASH_ENV on an inner shell cannot delete" true "$(jq -r .victim <<<"$r")"
	r=$(run_case "$mode" '["bash","-c","CMD"]' "echo $B64 | base64 -d | (exec -a foo bash)")
	expect_eq "$mode a stdin shell under another argv[0] cannot delete" true "$(jq -r .victim <<<"$r")"
	r=$(run_case "$mode" '["bash","-c","CMD"]' "echo $(printf '%s' "bash -c -l 'SNAPSHOT_FILE=/x/shell-snapshots/snapshot-1; rm -f victim.txt'" | base64 -w0) | base64 -d | sh")
	expect_eq "$mode an agent's own shell's shape beneath a hand-off is judged" true "$(jq -r .victim <<<"$r")"
	# bash's command hash set by `hash -p` (BASH_CMDS[ls]= by another
	# name: session 38's attack run ran rm as `ls`)
	for h in 'hash -p' 'hash -rp' 'hash -lp' 'ha\sh -p' "'hash' -p"; do
		r=$(run_case "$mode" '["bash","-c","CMD"]' "$h \"/bin/\$(printf r)m\" ls; ls -f victim.txt")
		expect_eq "$mode $h: what the hashed name runs is judged" true "$(jq -r .victim <<<"$r")"
	done
done
r=$(run_case --guard '["bash","-c","CMD"]' "rm -f victim.txt # '# Snapshot file' __codex_snapshot_command printf '\\0' # Functions")
expect_eq "Codex's own-shell markers under another agent are a tool call" true "$(jq -r .victim <<<"$r")"
mkdir -p fakebin && ln -sf "$(command -v python3)" fakebin/nice
r=$(run_case --guard '["bash","-c","CMD"]' "echo $(printf '%s' "$TMP/fakebin/nice -c 'import os' victim.txt" | base64 -w0) | base64 -d | sh")
expect_contains "a 'nice' that is python is judged as itself" "$(cat "$HS_SEEN")" "fakebin/nice -c"
r=$(run_case --guard '["bash","-c","echo victim.txt | xargs \"$BASH_ARGV\" -f","_","CMD"]' "rm")
expect_eq "BASH_ARGV: what the script runs is judged" true "$(jq -r .victim <<<"$r")"
if command -v zsh >/dev/null; then
	r=$(run_case --guard '["bash","-c","CMD"]' "exec -a dash zsh -c 'eval \"\$1\"' _ 'rm -f victim.txt'")
	expect_eq "zsh started as dash is not read by bash's rules" true "$(jq -r .victim <<<"$r")"
fi

# the agent's own sandbox hides the supervisor: the floor decides, and
# what the tool call runs is judged too
if unshare -rn true 2>/dev/null; then
	r=$(run_case --guard '["unshare","-rn","bash","-c","CMD"]' "echo $B64 | base64 -d | sh")
	expect_eq "guard: a sandboxed tool call's stdin shell does not delete" true "$(jq -r .victim <<<"$r")"
	# ... and says a hand-off as the supervisor does: an exact command
	# fires its hook once, not again for what it runs
	r=$(run_case --guard '["unshare","-rn","bash","-c","CMD"]' "touch allowed.txt; cat /dev/null")
	expect_eq "guard: a sandboxed tool call ran" true "$(jq -r .allowed <<<"$r")"
	expect_eq "guard: ... its hook saw it exactly, once (the floor said: no hand-off)" \
		"touch allowed.txt; cat /dev/null" "$(sed '/^--$/d' "$HS_SEEN")"
	r=$(run_case --guard '["unshare","-rn","bash","-c","CMD"]' 'eval "$(echo rm -f victim.txt)"')
	expect_eq "guard: a sandboxed eval of a substitution: what it runs is judged" true "$(jq -r .victim <<<"$r")"
else
	skip "no unprivileged user namespaces here"
fi

# In enforce mode a raw exec (no libc: the floor judges it and hands the
# new image's shim a ticket) keeps the hand-off: what it runs is judged
cat > rawexec.py <<'P'
import ctypes, os, sys
argv = [b"bash", b"-c", sys.argv[1].encode()]
A = (ctypes.c_char_p * 4)(*argv, None)
env = [("%s=%s" % kv).encode() for kv in os.environ.items()]
E = (ctypes.c_char_p * (len(env) + 1))(*env, None)
ctypes.CDLL(None).syscall(59, b"/bin/bash", A, E)
P
echo v > victim.txt
"$HOOKSHIM" run --enforce -c hooks.json -- python3 rawexec.py \
	"eval \"\$(echo $(printf 'rm -f victim.txt' | base64) | base64 -d)\"" >/dev/null 2>&1
check "enforce: a raw exec of a hand-off keeps it (what it runs is judged)" test -f victim.txt

# Beneath a hand-off, a static program's own exec is the floor's: judged
# with the role the shim gave it (HOOKSHIM_ROLE=handoff).
if command -v busybox >/dev/null && ! ldd "$(command -v busybox)" >/dev/null 2>&1; then
	r=$(run_case --enforce '["bash","-c","sleep 0; busybox env \"$1\" -f victim.txt","a","CMD"]' "rm")
	expect_eq "enforce: a static env beneath a hand-off cannot run the denied rm" \
		true "$(jq -r .victim <<<"$r")"
else
	skip "no static busybox"
fi

# Ordinary commands are not hand-offs: a script's programs stay nested.
r=$(run_case --guard '["bash","-c","CMD"]' 'for f in a b; do ls >/dev/null; done; git --version >/dev/null')
expect_eq "a plain command fires once, its programs stay nested" \
	'for f in a b; do ls >/dev/null; done; git --version >/dev/null' "$(sed '/^--$/d' "$HS_SEEN")"

# The limit (docs/limits.md): a static shell runs its applets in its own
# process, so a persistent static busybox sh's rm is no exec at all.
if command -v busybox >/dev/null && ! ldd "$(command -v busybox)" >/dev/null 2>&1; then
	out=$("$HOOKSHIM" run --enforce -c hooks.json -- python3 persistent.py busybox sh 2>/dev/null)
	expect_contains "limit: a static busybox sh fed on stdin runs its rm applet in-process" \
		"$out" "victim False"
fi

# Agent knowledge as data: a profile the user writes makes the watchdog
# exact -- its command shown once, its own ps and sleep fire nothing --
# and the deny still holds; the profile directory is protected during a
# session.
export XDG_CONFIG_HOME=$TMP/xdg
mkdir -p "$XDG_CONFIG_HOME/hookshim/agents"
cat > "$XDG_CONFIG_HOME/hookshim/agents/watch.json" <<'J'
{"name": "watch-agent", "processes": ["watch-agent"],
 "handoffs": [{"what": "its watchdog", "script": "shell=$2\ncommand=$3\n*", "command": 3}]}
J
watch=$(sed -n 's/^watchdog|beneath|//p' shapes.txt)
for mode in --guard --enforce; do
	r=$(run_case "$mode" "$watch" "rm -f victim.txt")
	expect_eq "$mode profile: the watchdog's denied command did not run" true "$(jq -r .victim <<<"$r")"
	expect_eq "$mode profile: the hook saw exactly the command, once" \
		"rm -f victim.txt" "$(sed '/^--$/d' "$HS_SEEN")"
	r=$(run_case "$mode" "$watch" "touch allowed.txt")
	expect_eq "$mode profile: an allowed command ran" true "$(jq -r .allowed <<<"$r")"
	expect_eq "$mode profile: ... its wrapper's ps and sleep fired nothing" \
		"touch allowed.txt" "$(sed '/^--$/d' "$HS_SEEN")"
done
expect_contains "check lists the profile and its file" \
	"$("$HOOKSHIM" check -c hooks.json 2>&1)" "watch-agent    0 own shell(s), 1 hand-off(s)"
r=$(run_case --guard '["bash","-c","CMD"]' "echo '{\"name\":\"x\",\"internal\":[{\"what\":\"w\",\"script\":\"rm -f victim.txt\"}]}' > \"\$XDG_CONFIG_HOME/hookshim/agents/evil.json\"")
check "a profile cannot be planted during a session" test ! -e "$XDG_CONFIG_HOME/hookshim/agents/evil.json"
unset XDG_CONFIG_HOME
