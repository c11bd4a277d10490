# A shell the agent feeds its commands on stdin (issue 25, item 2): a
# persistent bash on a pipe, one command after another, each followed by
# the agent's own end marker, as OpenHands- and SWE-agent-style agents
# drive one. Each command the shell reads is a tool call: the hook sees it
# whole (a loop, a here-document, a continued line: one call), judged
# before the shell has it; a deny keeps everything it would run from
# running and its reason reaches the output, the marker after it still
# runs; a rewrite (updatedInput) is what runs; a command that runs what
# its hook did not see has its programs judged too; a writer that sends a
# command in pieces gets each piece judged with what came before.
. "$HOOKSHIM_TOP/tests/lib.sh"
unset CI GITHUB_ACTIONS
command -v jq >/dev/null || { skip "stdin lines: jq missing"; exit 0; }

# agent.py [--same-line] [--slow] [--shell SH] CMD...: one shell on a
# pipe, every CMD followed by `echo __END__N $?` (on its own line, or on
# the command's with --same-line); prints "CMD -> [output lines, rc=N]".
# --slow: each line of a command sent on its own, $SLOW_GAP (0.3) s apart.
cat > agent.py <<'P'
import os, subprocess, sys, time
args = sys.argv[1:]
if args and args[0] == "--raw":
    # --raw TEXT...: each TEXT written as it is ("@NUL@" a NUL byte,
    # "@PAD@" $PAD x's), $SLOW_GAP s apart, then the end of input; all
    # output printed
    p = subprocess.Popen(["/bin/bash"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for t in args[1:]:
        t = t.replace("@NUL@", "\0").replace("@PAD@", "x" * int(os.environ.get("PAD", "0")))
        p.stdin.write(t.encode()); p.stdin.flush()
        time.sleep(float(os.environ.get("SLOW_GAP", "0")))
    p.stdin.close()
    sys.stdout.write(p.stdout.read().decode(errors="replace"))
    print("shell exit", p.wait())
    sys.exit(0)
same = "--same-line" in args
slow = "--slow" in args
shell = "/bin/bash"
if "--shell" in args:
    shell = args[args.index("--shell") + 1]
    args.remove(shell)
args = [a for a in args if a not in ("--same-line", "--slow", "--shell")]
p = subprocess.Popen([shell], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT, text=True)
for i, cmd in enumerate(args):
    mark = "echo __END__%d $?" % i
    text = cmd + ("; " if same else "\n") + mark + "\n"
    if slow:
        for line in text.splitlines(True):
            p.stdin.write(line); p.stdin.flush()
            time.sleep(float(os.environ.get("SLOW_GAP", "0.3")))
    else:
        p.stdin.write(text); p.stdin.flush()
    out = []
    while True:
        line = p.stdout.readline()
        if not line:
            out.append("EOF"); break
        if line.startswith("__END__%d " % i):
            out.append("rc=" + line.split()[1]); break
        out.append(line.rstrip("\n"))
    print("CMD", repr(cmd), "->", out, flush=True)
p.stdin.close()
print("shell exit", p.wait())
P
# the hook: every command it sees into $SEEN, "--" after each; denies
# anything naming victim.txt; rewrites `echo ORIGINAL`
cat > hooks.json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command":
 "c=$(jq -r .tool_input.command); printf '%s\\n--\\n' \"$c\" >> \"$SEEN\"; case $c in *victim*) echo 'victim.txt is kept' >&2; exit 2;; 'echo ORIGINAL') printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo REWRITTEN\"}}}';; esac; exit 0"}]}]}}
J
export SEEN=$TMP/seen
# seen_cmds: what the hook saw, one command per entry (newlines as \n),
# the agent's own markers left out
seen_cmds() {
	awk 'BEGIN { RS = "\n--\n" } $0 !~ /^echo __END__/ { gsub(/\n/, "\\n"); print }' "$SEEN" 2>/dev/null
}
run() { # AGENT-ARGS...: one session; sets out, rc
	rm -f "$SEEN"
	out=$(timeout 60 "$HOOKSHIM" run -c hooks.json --log log.jsonl -- python3 agent.py "$@" 2>&1)
	rc=$?
}

echo v > victim.txt
run 'ls agent.py' 'rm -f victim.txt' 'touch made; cat made' \
	"$(printf 'for i in 1 2; do\necho n$i\ndone')" "$(printf 'cat <<E\nhello\nE')" \
	"$(printf 'echo a \\\nb')" 'echo ORIGINAL' 'eval "$(echo rm -f vict""im.txt)"'
expect_eq "the session ends as the agent does" 0 "$rc"
expect_contains "the shell ended at the end of its input" "$out" "shell exit 0"
expect_eq "the hook saw each command whole, once, as the shell read it" \
	"$(printf '%s\n' 'ls agent.py' 'rm -f victim.txt' 'touch made; cat made' \
		'for i in 1 2; do\necho n$i\ndone' 'cat <<E\nhello\nE' 'echo a \\nb' \
		'echo ORIGINAL' 'eval "$(echo rm -f vict""im.txt)"' 'rm -f victim.txt')" \
	"$(seen_cmds)"
check "the denied command did not run" test -f victim.txt
expect_contains "... its reason is in the output, and it failed" "$out" \
	"'rm -f victim.txt' -> ['victim.txt is kept', 'rc=126']"
check "an allowed command ran" test -f made
expect_contains "a loop read as one command ran whole" "$out" "['n1', 'n2', 'rc=0']"
expect_contains "a here-document too" "$out" "['hello', 'rc=0']"
expect_contains "a continued line too" "$out" "['a b', 'rc=0']"
expect_contains "a rewritten command: the rewrite is what ran" "$out" \
	"'echo ORIGINAL' -> ['REWRITTEN', 'rc=0']"
# the eval's text names no victim: allowed, but what it runs is judged
expect_contains "a command that runs what its hook did not see: its programs are judged" \
	"$(jq -r 'select(.stdin_line) | .command' log.jsonl | tr '\n' '|')" "eval"
# (eight commands, each with its marker)
expect_eq "the log marks each as a command read on stdin" 16 \
	"$(jq -c 'select(.stdin_line)' log.jsonl | wc -l)"
expect_contains "explain says so" "$("$HOOKSHIM" explain log.jsonl)" \
	"a command a shell fed on its stdin read"

# nothing of a denied command runs, not even a builtin: a function it
# defines is not there for the next command
run 'f() { touch victim.txt.f; }' 'f' 'echo still-here'
check "a denied function definition defines nothing" test ! -e victim.txt.f
expect_contains "... calling it finds no command" "$out" "'f' -> ['/bin/bash: line "
expect_contains "... and the shell goes on" "$out" "['still-here', 'rc=0']"

# a command that leaves code behind (an allowed function hiding what it
# runs): what every later command runs is judged too
run 'g() { rm -f "$1"; }' 'g vic""tim.txt' 'ls agent.py'
check "a function defined earlier cannot run the denied rm" test -f victim.txt
expect_contains "... the hook saw what it ran" "$(seen_cmds)" "rm -f victim.txt"
expect_contains "... and its reason reached the output" "$out" "victim.txt is kept"

# a writer that sends a command line by line, slowly: the shell waits for
# the rest, and so does the judgment; the hook sees it whole, once
run --slow "$(printf 'if true; then\nrm -f victim.txt\nfi')" 'echo after'
check "slow writer: the command inside the if did not run" test -f victim.txt
expect_eq "slow writer: the hook saw the whole if, once" \
	"$(printf '%s\n' 'if true; then\nrm -f victim.txt\nfi' 'echo after')" "$(seen_cmds)"
expect_contains "slow writer: the next command runs" "$out" "['after', 'rc=0']"
# slower than the wait for a next line (2 s): each piece is judged as it
# is, its programs judged too, and again with what follows; the whole
# decides
SLOW_GAP=2.5 run --slow "$(printf 'if true; then\nrm -f victim.txt\nfi')"
check "slower writer: the command inside the if did not run" test -f victim.txt
expect_contains "slower writer: the hook saw the first piece alone" "$(seen_cmds)" "$(printf 'if true; then\n')"
expect_contains "slower writer: ... and the whole" "$(seen_cmds)" 'if true; then\nrm -f victim.txt\nfi'
expect_contains "slower writer: its reason reached the output" "$out" "victim.txt is kept"
# a denied first piece the shell has none of yet: nothing of it runs
echo v > victim.txt
SLOW_GAP=2.5 run --raw $'echo pwned > victim.txt; {\n' $':; }\n'
expect_eq "slower writer, denied first piece: its redirection did not run" v "$(cat victim.txt)"

# a NUL byte: the shell skips it, so the hook sees the line without it
echo v > victim.txt
run --raw $'echo hi@NUL@; rm -f victim.txt\n'
check "NUL: the denied rest of the line did not run" test -f victim.txt
expect_contains "NUL: the hook saw the line as the shell runs it" "$(seen_cmds)" "echo hi; rm -f victim.txt"

# data the shell reads with fd 0 redirected is no command
printf '%s\n' 'rm -f victim.txt' 'plain' > list
run 'while read -r l; do echo "got[$l]"; done < list'
expect_contains "a loop reading a file gets its lines as they are" "$out" "got[rm -f victim.txt]"
expect_eq "... and no hook sees them" 'while read -r l; do echo "got[$l]"; done < list' "$(seen_cmds)"

# data `read` takes from the agent's own stream cannot lower the verdict
# of the command that reads it: what that command runs is judged
run --raw $'read -r x; bash -c "$(echo ${x#\\# } | base64 -d)"\n' "# $(printf 'rm -f victim.txt' | base64)"$'\n'
check "a command that reads its next line: what it runs is judged" test -f victim.txt

# a command past the 4 MiB a shim holds (a function hiding rm behind a
# long comment): from there on the input passes through and every
# program is judged
PAD=4500000 run --raw 'ls() { rm -f vict""im.txt; } # @PAD@'$'\n' $'ls\n'
check "past the cap: a function left behind cannot run the denied rm" test -f victim.txt
expect_contains "... its reason reached the output" "$out" "victim.txt is kept"

# the shell made to read its commands from a file the hook never saw
printf 'rm -f victim.txt\n' > cmds
run --raw $'exec < cmds\n'
check "exec < file: the commands read from it are judged as programs" test -f victim.txt

# code left behind by ways a name is not a function: bash's command hash
# and alias tables, builtins run through time and command -p
for how in 'BASH_CMDS[ls]=/bin/rm' 'hash -p /bin/rm ls' 'time eval "ls() { rm \"\$@\"; }"' \
	'command -p eval "ls() { rm \"\$@\"; }"'; do
	run "$how" 'ls vic""tim.txt'
	check "left behind by $how: the later rm is judged" test -f victim.txt
done

# a shell started under another name is a shell all the same
cat > named.py <<'P'
import subprocess
p = subprocess.Popen(["worker"], executable="/bin/bash", stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out, _ = p.communicate(b'f() { rm "$@"; }\nf vic""tim.txt\n')
print(out.decode())
P
"$HOOKSHIM" run -c hooks.json -- python3 named.py >/dev/null 2>&1
check "a shell named worker: a function it defines cannot run the denied rm" test -f victim.txt

# a variable an earlier command left, evaluated as code by arithmetic
run 'x="a[\$(rm -f vict""im.txt)]"' 'echo $((x))'
check "arithmetic over a variable left behind: what it runs is judged" test -f victim.txt
expect_contains "... the hook saw the rm" "$(seen_cmds)" "rm -f victim.txt"

# dash reads its input in blocks; it gets one command at a time
if [ -x /bin/dash ]; then
	echo v > victim.txt
	run --shell /bin/dash 'rm -f victim.txt' 'echo dash-ok'
	check "dash: the denied command did not run" test -f victim.txt
	expect_contains "dash: the next one runs" "$out" "['dash-ok', 'rc=0']"
	expect_eq "dash: the hook saw both" "$(printf '%s\n' 'rm -f victim.txt' 'echo dash-ok')" "$(seen_cmds)"
fi

# a stdin shell inside a tool call (`… | bash -s`, its script hidden from
# the tool call's text): beneath the hand-off, each line it reads is
# judged too
rm -f "$SEEN"
cat > tool.py <<'P'
import base64, subprocess
b = base64.b64encode(b"echo one\nrm -f victim.txt\n").decode()
r = subprocess.run(["/bin/bash", "-c", "echo %s | base64 -d | bash -s" % b],
                   capture_output=True, text=True)
print(r.returncode, r.stdout, r.stderr)
P
out=$("$HOOKSHIM" run -c hooks.json -- python3 tool.py 2>&1)
check "bash -s in a pipe: the denied line did not run" test -f victim.txt
expect_contains "bash -s in a pipe: its reason is in the output" "$out" "victim.txt is kept"
expect_contains "bash -s in a pipe: the hook saw its lines" "$(seen_cmds)" "$(printf 'echo one\nrm -f victim.txt')"

# a policy without exec hooks: the shell's input passes as it is
echo '{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "exit 0"}]}]}}' > writes.json
out=$(timeout 60 "$HOOKSHIM" run -c writes.json -- python3 agent.py 'echo plain' 2>&1)
expect_contains "no exec hook: the shell runs as ever" "$out" "['plain', 'rc=0']"

# Property: 120 generated commands in shapes no agent here sends
# (quotes of every kind, loops, ifs, here-documents, pipes, groups,
# continued lines; some touch a victim file; no function, which would
# make every later command's programs judged too), fed through the pipe: the
# hook sees exactly each command, once, in order; what an allowed one
# prints is what plain bash prints; no denied one leaves its file.
cat > gen.py <<'P'
import json, random, sys
rnd = random.Random(int(sys.argv[1]))
words = ["alpha", "b c", "it's", 'say "hi"', "$HOME", "x*y", "tab\there", "back\\slash"]
def word():
    w = rnd.choice(words)
    k = rnd.randrange(3)
    if k == 0:
        return "'" + w.replace("'", "'\\''") + "'"
    if k == 1:
        return '"' + "".join("\\" + c if c in '"$`\\' else c for c in w) + '"'
    return "".join(c if c.isalnum() else "\\" + c for c in w)
def simple(n):
    k = rnd.randrange(6)
    if k == 0: return "echo %s %s" % (word(), word())
    if k == 1: return "printf '%%s|' %s | tr a A; echo" % word()
    if k == 2: return "touch victim-%d" % n
    if k == 3: return "echo one; echo two && echo three"
    if k == 4: return 'v=%s; echo "[$v]"' % word()
    return "true || echo never"
def command(n):
    k = rnd.randrange(7)
    s = simple(n)
    if k == 0: return "for i in 1 2; do\n  %s\ndone" % s
    if k == 1: return "if true; then\n%s\nelse\necho no\nfi" % s
    if k == 2: return "while true; do\n%s\nbreak; done" % s
    if k == 3: return "cat <<'EOF%d'\n%s\nEOF%d" % (n, s, n)
    if k == 4: return "%s \\\n  && echo cont" % s
    if k == 5: return "{ %s; } 2>&1 | cat" % s
    return s
json.dump([command(n) for n in range(int(sys.argv[2]))], sys.stdout)
P
seed=${HS_PROP_SEED:-$RANDOM}
python3 gen.py "$seed" 120 > cmds.json
mapfile -d '' cmds < <(jq -j '.[] | ., "\u0000"' cmds.json)
mkdir -p plain hs
plain=$(cd plain && timeout 120 python3 ../agent.py "${cmds[@]}" 2>&1)
rm -f "$SEEN"
hsout=$(cd hs && timeout 120 "$HOOKSHIM" run -c ../hooks.json -- python3 ../agent.py "${cmds[@]}" 2>&1)
expect_eq "property (seed $seed): the hook saw exactly each command, once, in order" \
	"$(jq -r '.[] | gsub("\n"; "\\n")' cmds.json)" "$(seen_cmds)"
expect_eq "property (seed $seed): no denied command left its file" "" "$(ls hs | grep victim)"
expect_contains "property (seed $seed): the plain run did make them" "$(ls plain)" "victim-"
# every command that names no victim printed what it prints plainly
ok=1
while IFS= read -r line; do
	case $line in *victim*) continue ;; esac
	grep -qxF -- "$line" <<<"$hsout" || { ok=; note "differs: $line"; }
done < <(grep '^CMD ' <<<"$plain")
check "property (seed $seed): allowed commands' output as under plain bash" test -n "$ok"
