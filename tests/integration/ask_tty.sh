# `ask` / `ask_approval`: a prompt on the controlling terminal when there is
# one (answered through a real pseudo-terminal), else ask_default.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v python3 >/dev/null || { skip "ask on a tty: no python3"; exit 0; }

cat > ask.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}'"}]}]}}
J
cat > ask-allow.json <<'J'
{"hookshim":{"ask_default":"allow"},
 "hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
 "command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}'"}]}]}}
J
cat > memoh.json <<'J'
{"version":1,"hooks":[{"name":"confirm","event":"PreToolUse","matcher":"^exec$",
 "actions":[{"type":"command","command":"echo '{\"decision\":\"ask_approval\",\"reason\":\"sure?\"}'"}]}]}
J
# The agent: runs one tool call and reports its exit status and stderr.
agent='import subprocess, sys
r = subprocess.run(["bash", "-c", "touch made"], stderr=subprocess.PIPE, text=True)
print("rc=%d err=%s" % (r.returncode, r.stderr.strip()))'

# pty_run ANSWER ARGS...: runs ARGS on a new pseudo-terminal (its
# controlling terminal), types ANSWER and Enter at the first "Allow?",
# prints everything the terminal showed.
cat > pty_run.py <<'P'
import os, pty, select, sys, time
answer, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out, sent, deadline = b"", False, time.time() + 60
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    if not sent and b"Allow?" in out:
        os.write(fd, answer.encode() + b"\r")
        sent = True
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
print("[exit %d]" % os.waitstatus_to_exitcode(st))
P

run_tty() { # ANSWER CONFIG [DIALECT]
	rm -f made
	python3 pty_run.py "$1" "$HOOKSHIM" run ${3:+--dialect "$3"} -c "$2" -- python3 -c "$agent"
}

out=$(run_tty y ask.json)
expect_contains "prompt shows the command" "$out" "touch made"
expect_contains "prompt shows the reason" "$out" "reason: sure?"
expect_contains "y: the command runs" "$out" "rc=0 err="
check "y: side effect" test -f made
expect_contains "y: answer acknowledged" "$out" "allowed"

out=$(run_tty n ask.json)
expect_contains "n: denied with exit 126" "$out" "rc=126"
check "n: no side effect" test ! -e made
expect_contains "n: reason reaches the command's stderr" "$out" "sure?"

out=$(run_tty "" ask.json)
expect_contains "Enter alone: the default answer is no" "$out" "rc=126"

out=$(run_tty Y memoh.json memoh)
expect_contains "memoh ask_approval prompts" "$out" "Allow?"
expect_contains "memoh ask_approval: Y runs it" "$out" "rc=0"

# No terminal: setsid drops the controlling tty, stdin is not one.
rm -f made
out=$(setsid "$HOOKSHIM" run -c ask.json -- python3 -c "$agent" </dev/null 2>&1)
expect_contains "no tty: ask_default denies" "$out" "rc=126"
check "no tty: no side effect" test ! -e made
expect_not_contains "no tty: no prompt" "$out" "Allow?"
out=$(setsid "$HOOKSHIM" run -c ask-allow.json -- python3 -c "$agent" </dev/null 2>&1)
expect_contains "no tty: ask_default allow runs it" "$out" "rc=0"
check "no tty: allow had its effect" test -f made
# A terminal exists but stdin is not it (a pipe): nobody is asked either.
rm -f made
out=$(echo | python3 pty_run.py y sh -c "\"$HOOKSHIM\" run -c \"$TMP/ask.json\" -- python3 -c '$agent' </dev/null")
expect_contains "tty but stdin redirected: ask_default" "$out" "rc=126"
expect_not_contains "tty but stdin redirected: no prompt" "$out" "Allow?"

# Bare LD_PRELOAD: the supervisor the shim starts keeps the terminal too.
if [ -f "$HOOKSHIM_LIB" ]; then
	mkdir -p "$HOME/.config/hookshim"
	cp ask.json "$HOME/.config/hookshim/hooks.json"
	rm -f made
	out=$(python3 pty_run.py y env LD_PRELOAD="$HOOKSHIM_LIB" python3 -c "$agent")
	expect_contains "bare preload: prompt" "$out" "Allow?"
	expect_contains "bare preload: y runs it" "$out" "rc=0"
	out=$(python3 pty_run.py n env LD_PRELOAD="$HOOKSHIM_LIB" bash -c 'touch made2')
	expect_contains "bare preload: n denies" "$out" "[exit 126]"
	check "bare preload: n, no side effect" test ! -e made2
	rm -f "$HOME/.config/hookshim/hooks.json"
else
	skip "bare preload ask: $HOOKSHIM_LIB not built"
fi
