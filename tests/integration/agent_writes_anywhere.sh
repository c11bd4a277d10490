# The agent's own writes are events wherever they land (issue 24 item 1,
# writes.agent_anywhere, on by default), as Claude Code's Write hook fires
# for any path its Write tool touches; the commands it runs are judged in
# the root and where a rule names a place, as before; and the agent's own
# places (common/agent_place.h: ~/.NAME for its name and the profiles',
# ~/.config/NAME, ~/.local/share/NAME, ~/.cache, ~/.local/state, the temp
# directories, writes.agent_state) fire nothing. The agent here is what
# `hookshim run` starts: python3, bash, a static busybox (the floor), in
# guard and enforce mode; `hookshim test` and `check` say the same.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home
unset CI GITHUB_ACTIONS
mkdir -p "$HOME/notes" "$HOME/other" proj
cd proj || exit 1
cat > "$TMP/guard.sh" <<'SH'
#!/bin/sh
p=$(jq -r '.tool_input.file_path // ""')
echo "$p" >> "$TMP_LOG"
case $p in */notes/*) echo "notes are the user's" >&2; exit 2 ;; esac
exit 0
SH
chmod +x "$TMP/guard.sh"
export TMP_LOG=$TMP/seen.log
policy() { # FILE [HOOKSHIM-SETTINGS]
	printf '{%s"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "%s"}]}]}}\n' \
		"${2:+\"hookshim\": $2, }" "$TMP/guard.sh" > "$1"
}
policy p.json
policy enforce.json '{"mode": "enforce"}'
policy off.json '{"writes": {"agent_anywhere": false}}'
policy state.json '{"writes": {"agent_state": ["~/other/**"]}}'

# agent.py: the agent's own writes, one per line "NAME=errno"
cat > agent.py <<'PY'
import os, subprocess, sys
H = os.environ["HOME"]
def w(name, p):
    try:
        if os.path.dirname(p):
            os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f: f.write("x\n")
        print(name + "=0")
    except OSError as e:
        print(name + "=" + str(e.errno))
w("notes", H + "/notes/a.txt")
w("other", H + "/other/b.txt")
w("bashrc", H + "/.bashrc")
w("own", H + "/.python3/state.json")
w("ownjson", H + "/.python3.json")
w("xdg", H + "/.local/share/python3/db")
w("cache", H + "/.cache/some-tool/c")
w("claude", H + "/.claude.json")
w("tmp", "/tmp/hookshim-aw-" + str(os.getpid()))
w("inside", "inside.txt")
# a command the agent runs: a tool's write, outside the root no event
r = subprocess.run(["/bin/sh", "-c", "echo t > \"$HOME/notes/tool.txt\""])
print("tool=%d" % r.returncode)
PY
# (a home has ~/.config and ~/.local/share, as every desktop's does)
clean() { rm -rf "$HOME/notes"/* "$HOME/other"/* "$HOME"/.bashrc "$HOME"/.python3* \
	"$HOME"/.local "$HOME"/.cache "$HOME"/.busybox "$HOME"/.claude.json "$TMP_LOG" inside.txt
	mkdir -p "$HOME/.local/share" "$HOME/.config"; }

for mode in guard enforce; do
	clean
	cfg=p.json; [ $mode = enforce ] && cfg=enforce.json
	out=$("$HOOKSHIM" run --no-notices -c $cfg -- python3 agent.py 2>err.txt)
	expect_contains "$mode: python agent: its write under ~/notes is denied" "$out" "notes=13"
	check "$mode: ... and did not land" test ! -e "$HOME/notes/a.txt"
	expect_contains "$mode: the hook's reason reaches the agent" "$(cat err.txt)" "notes are the user's"
	expect_contains "$mode: its allowed write outside the root landed" "$out" "other=0"
	expect_contains "$mode: ~/.bashrc written" "$out" "bashrc=0"
	expect_contains "$mode: the command it ran wrote under ~/notes (a tool's write outside the root)" "$out" "tool=0"
	seen=$(sed "s|$HOME|~|;s|$TMP/proj|ROOT|" "$TMP_LOG" | sort -u)
	want=$(printf '%s\n' '~/.bashrc' '~/notes/a.txt' '~/other/b.txt' 'ROOT/inside.txt')
	expect_eq "$mode: the hook saw the agent's writes outside the root and in it, not its own places nor the tool's" \
		"$(sort <<<"$want")" "$seen"
	expect_eq "$mode: each write asked once" "$(wc -l <<<"$want")" "$(wc -l < "$TMP_LOG")"
done

# bash as the agent: its own redirection is the agent's write
clean
out=$("$HOOKSHIM" run --no-notices -c p.json -- bash -c 'echo x > ~/notes/c.txt; echo "bash=$?"' 2>/dev/null)
expect_contains "bash as the agent: its redirection under ~/notes is denied" "$out" "bash=1"
# a static program as the agent: only the floor sees its writes
if command -v busybox >/dev/null && file -L "$(command -v busybox)" | grep -q static; then
	for mode in guard enforce; do
		clean
		mkdir -p "$HOME/.cache" "$HOME/.busybox"
		cfg=p.json; [ $mode = enforce ] && cfg=enforce.json
		out=$("$HOOKSHIM" run --no-notices -c $cfg -- busybox sh -c \
			'echo x > $HOME/notes/d.txt; echo "static=$?"; echo y > $HOME/.cache/e; echo "cache=$?"; echo z > $HOME/.busybox/f; echo "own=$?"' 2>err.txt)
		if grep -q "no syscall floor" err.txt; then
			skip "static agent ($mode): $(head -1 err.txt)"; continue
		fi
		expect_contains "static busybox as the agent ($mode): its write under ~/notes is denied (the floor)" "$out" "static=1"
		expect_contains "static busybox ($mode): the XDG cache is its own" "$out" "cache=0"
		expect_contains "static busybox ($mode): ~/.busybox (its own name) is its own" "$out" "own=0"
		expect_eq "static busybox ($mode): the hook saw only ~/notes" \
			"$HOME/notes/d.txt" "$(sort -u "$TMP_LOG")"
	done
else
	skip "static agent: no static busybox"
fi

# The places of the program `run` starts (python3 here) and of the
# profiles' names are the agent's own in both modes; a process's own name
# (its title) only in guard mode, where it is believed (the agent's
# processes do not attack hookshim: README): titled "ssh", ~/.ssh would be
# its own place.
cat > "$TMP/nossh.sh" <<'SH'
#!/bin/sh
case $(jq -r '.tool_input.file_path // ""') in */.ssh/*) echo "no ssh keys" >&2; exit 2 ;; esac
exit 0
SH
chmod +x "$TMP/nossh.sh"
for mode in enforce guard rule; do
	case $mode in
	rule) printf '{"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "exit 2", "if": "Write(~/.ssh/**)"}]}]}}\n' ;;
	*) printf '{"hookshim": {"mode": "%s"}, "hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "%s"}]}]}}\n' $mode "$TMP/nossh.sh" ;;
	esac > ssh.json
	mkdir -p "$HOME/.ssh"; rm -f "$HOME/.ssh/authorized_keys"
	out=$("$HOOKSHIM" run --no-notices -c ssh.json -- python3 -c '
import ctypes, os
ctypes.CDLL(None).prctl(15, b"ssh", 0, 0, 0)  # PR_SET_NAME
try:
    open(os.environ["HOME"] + "/.ssh/authorized_keys", "a").write("key\n")
    print("ssh=0")
except OSError as e:
    print("ssh=%d" % e.errno)' 2>/dev/null)
	case $mode in
	enforce) expect_contains "enforce: an agent titled 'ssh' is still asked about ~/.ssh, and denied" "$out" "ssh=13" ;;
	guard) expect_contains "guard (a limit): titled 'ssh', ~/.ssh is the agent's own place, the catch-all hook is not asked" "$out" "ssh=0" ;;
	rule) expect_contains "guard: a rule that names ~/.ssh holds whatever the title" "$out" "ssh=13" ;;
	esac
done

# writes.agent_anywhere: false -- the older scope: the root only
clean
out=$("$HOOKSHIM" run --no-notices -c off.json -- python3 agent.py 2>/dev/null)
expect_contains "agent_anywhere false: the write under ~/notes lands" "$out" "notes=0"
expect_eq "agent_anywhere false: the hook saw the root only" "$TMP/proj/inside.txt" "$(sort -u "$TMP_LOG")"
# writes.agent_state: a place of the agent's own named by the user
clean
out=$("$HOOKSHIM" run --no-notices -c state.json -- python3 agent.py 2>/dev/null)
expect_contains "agent_state: ~/notes is still judged" "$out" "notes=13"
expect_not_contains "agent_state: ~/other is the agent's own, no event" "$(cat "$TMP_LOG")" "/other/"

# hookshim test and check say the same
"$HOOKSHIM" test -c p.json PreToolUse --tool Write \
	--input "{\"file_path\":\"$HOME/notes/a.txt\"}" >out.txt 2>&1
expect_eq "test: the agent's Write under ~/notes is denied as live" 2 "$?"
"$HOOKSHIM" test -c p.json PreToolUse --tool Write \
	--input "{\"file_path\":\"$HOME/.cache/x\"}" >out.txt 2>&1
expect_contains "test: a write to the agent's own places is no request live" "$(cat out.txt)" "no request live"
"$HOOKSHIM" test -c off.json PreToolUse --tool Write \
	--input "{\"file_path\":\"$HOME/notes/a.txt\"}" >out.txt 2>&1
expect_contains "test: with agent_anywhere false, no request live" "$(cat out.txt)" "no request live"
out=$("$HOOKSHIM" check -c p.json 2>&1)
expect_contains "check: says where the agent's own writes are judged" "$out" \
	"the agent's own writes: anywhere but its own places"
out=$("$HOOKSHIM" check -c off.json 2>&1)
expect_contains "check: agent_anywhere false says so" "$out" "the agent's own writes: as the commands'"

# --- what a review found (each failed before its fix) ---
# A shell a static agent starts, and a shell fed on stdin, run the
# model's commands: their writes are the commands', not the agent's, also
# with no exec hook in the policy.
clean
if command -v busybox >/dev/null && file -L "$(command -v busybox)" | grep -q static; then
	"$HOOKSHIM" run --no-notices -c p.json -- busybox sh -c \
		'bash -c "echo x > \$HOME/notes/st.txt"; echo "static-child=$?"' >out.txt 2>/dev/null
	expect_contains "a static agent's bash -c: a command's write outside the root (no event)" "$(cat out.txt)" "static-child=0"
fi
printf 'echo y > "$HOME/notes/ps.txt"\necho "ps=$?"\n' > cmds.txt
out=$("$HOOKSHIM" run --no-notices -c p.json -- python3 -c '
import subprocess, sys
p = subprocess.run(["/bin/bash", "-s"], stdin=open("cmds.txt"), capture_output=True, text=True)
print(p.stdout, end="")' 2>/dev/null)
expect_contains "a persistent shell's command: its write outside the root is a command's (no event)" "$out" "ps=0"
expect_eq "... so no hook saw either" "" "$(cat "$TMP_LOG" 2>/dev/null)"
# enforce mode: a place of the writer's own name is not believed, by the
# shim and the floor alike: pre and post both fire, once
cat > post.json <<J
{"hookshim": {"mode": "enforce"}, "hooks": {
  "PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "$TMP/guard.sh"}]}],
  "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "echo post >> $TMP/post.log"}]}]}}
J
clean; rm -f "$TMP/post.log"; mkdir -p "$HOME/.zzz"
"$HOOKSHIM" run --no-notices -c post.json -- python3 -c '
import ctypes, os
ctypes.CDLL(None).prctl(15, b"zzz", 0, 0, 0)
open(os.environ["HOME"] + "/.zzz/f", "w").write("x")' 2>/dev/null
expect_eq "enforce: a titled process's write to ~/.zzz: its pre" "$HOME/.zzz/f" "$(cat "$TMP_LOG" 2>/dev/null)"
expect_eq "enforce: ... and its post, once" post "$(cat "$TMP/post.log" 2>/dev/null)"
# the XDG base directories are no own places: moving one away is judged
clean; mkdir -p "$HOME/.local/share/app"
"$HOOKSHIM" run --no-notices -c p.json -- python3 -c '
import os; H = os.environ["HOME"]; os.rename(H + "/.local/share", H + "/share.old")' 2>/dev/null
expect_contains "a rename of ~/.local/share by the agent is an event" "$(cat "$TMP_LOG" 2>/dev/null)" "/.local/share"
mv "$HOME/share.old" "$HOME/.local/share" 2>/dev/null
# a wrapper's name is not the agent's: env FOO=1 python3 -> python3
clean
out=$("$HOOKSHIM" run --no-notices -c p.json -- env FOO=1 python3 agent.py 2>/dev/null)
expect_contains "through env: ~/.env-like files are no own place of 'env'" "$(cat "$TMP_LOG")" "/notes/a.txt"
clean
out=$("$HOOKSHIM" run --no-notices -c p.json -- env FOO=1 python3 -c '
import os; open(os.environ["HOME"] + "/.env", "w").write("k")' 2>/dev/null)
expect_eq "through env: the agent's ~/.env is an event" "$HOME/.env" "$(cat "$TMP_LOG" 2>/dev/null)"
rm -f "$HOME/.env"
# a home written with a trailing slash is still the home (not /tmp's)
clean
out=$(HOME=$HOME/ "$HOOKSHIM" run --no-notices -c p.json -- python3 agent.py 2>/dev/null)
expect_contains "HOME with a trailing slash: ~/notes is still judged" "$out" "notes=13"
# Python's bytecode caches are the interpreter's own
clean; mkdir -p "$HOME/lib"; echo 'X = 1' > "$HOME/lib/mymod.py"
"$HOOKSHIM" run --no-notices -c p.json -- env -u PYTHONDONTWRITEBYTECODE python3 -c '
import os, sys; sys.path.insert(0, os.environ["HOME"] + "/lib"); import mymod' 2>/dev/null
check "an import's __pycache__ fires nothing" test -d "$HOME/lib/__pycache__"
expect_eq "... no hook asked" "" "$(cat "$TMP_LOG" 2>/dev/null)"
