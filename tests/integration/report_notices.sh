# Terminal notices, driven through a real terminal (tmux): a denial shows
# as one dim line on the terminal; while a full-screen program owns it
# (raw mode, alternate screen) nothing is drawn over it and the notice
# waits for the session-end summary; --no-notices silences them.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v tmux >/dev/null || { skip "notices: no tmux (apt-get install tmux)"; exit 0; }
command -v python3 >/dev/null || { skip "notices: no python3"; exit 0; }
export TMUX_TMPDIR=$TMP
tmux() { command tmux -L hs-notices "$@"; }
trap 'tmux kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

cat > hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command | grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J
touch victim
# A line-mode agent: its tool call's output is captured, as agents do.
cat > plain.py <<'P'
import subprocess
subprocess.run(["bash", "-c", "rm -rf victim"], capture_output=True)
print("AGENT-DONE")
P
# A full-screen agent: raw mode and the alternate screen, then a denied
# tool call; it holds the screen until told to go.
cat > tui.py <<'P'
import os, subprocess, sys, termios, time, tty
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
sys.stdout.write("\033[?1049h\033[2J\033[HTUI-SCREEN top line\r\n")
sys.stdout.flush()
subprocess.run(["bash", "-c", "rm -rf victim"], capture_output=True)
sys.stdout.write("TUI-CALLED\r\n"); sys.stdout.flush()
while not os.path.exists("go"):
    time.sleep(0.1)
sys.stdout.write("\033[?1049l"); sys.stdout.flush()
termios.tcsetattr(fd, termios.TCSADRAIN, old)
print("TUI-EXITED")
P

wait_for() { # TEXT: until the pane shows TEXT (10 s)
	for _ in $(seq 100); do
		tmux capture-pane -p -t t 2>/dev/null | grep -qF "$1" && return 0
		sleep 0.1
	done
	return 1
}
start() { # command line, run in a fresh 160x40 terminal
	tmux kill-session -t t 2>/dev/null
	tmux new-session -d -s t -x 160 -y 40 "cd $PWD && $1; echo SHELL-END; sleep 60"
}

start "$HOOKSHIM run -c hooks.json -- python3 plain.py"
wait_for SHELL-END
screen=$(tmux capture-pane -p -t t)
expect_contains "line mode: the denial as a notice on the terminal" "$screen" "hookshim denied:"
expect_contains "line mode: with its reason" "$screen" "rm -rf victim  — no rm -rf here"
check "the denied command did not run" test -e victim

start "$HOOKSHIM run --no-notices -c hooks.json -- python3 plain.py"
wait_for SHELL-END
expect_not_contains "--no-notices: no notice" "$(tmux capture-pane -p -t t)" "hookshim denied"

rm -f go
start "$HOOKSHIM run -c hooks.json -- python3 tui.py"
if wait_for TUI-CALLED; then pass "tui: ran its tool call"; else fail "tui: ran its tool call"; fi
sleep 0.5
screen=$(tmux capture-pane -p -t t)
expect_contains "tui: its screen is up" "$screen" "TUI-SCREEN top line"
expect_not_contains "tui: no notice drawn over the full-screen UI" "$screen" "hookshim"
touch go
wait_for SHELL-END
screen=$(tmux capture-pane -p -t t)
expect_contains "tui: the UI ended" "$screen" "TUI-EXITED"
expect_contains "tui: the held-back notice in the session-end summary" "$screen" "hookshim: 1 notice from this session:"
expect_contains "tui: the summary names the denial" "$screen" "denied:"
check "tui: the denied command did not run" test -e victim
