# Enforce mode takes the session's orphans and reaps them (floor/
# floor_orphans.c), on the same process as the hooks it starts, whose
# exit statuses are its decisions. A reaper that took a hook's status
# would turn that hook into a failed one -- an allowed tool call denied
# with "hook failed", a denial's own reason lost -- so: an agent runs
# tool calls, allowed and denied, while a program of its own makes
# 3,000 orphans that end at random moments beside them. Every allowed
# call runs, every denied one carries its hook's own reason, the hook
# was asked once a call, the orphans were the supervisor's, and none of
# them is left a zombie. As root and as a user.
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "orphan reaper"
export HOME=$TMP/home; mkdir -p "$HOME"

cat >hook.sh <<'H'
c=$(cat)
echo x >>"${0%/*}/asked"
case $c in *DENYME*) echo "reason-from-the-hook" >&2; exit 2 ;; esac
exit 0
H
printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bash %s"}]}]}}\n' \
	"$TMP/hook.sh" >hooks.json

# orphans.py SUP N: N times a child that forks a grandchild and ends at
# once; the grandchild, an orphan, waits to be given to SUP, says so on
# a pipe and ends a moment later.
cat >orphans.py <<'P'
import os, random, sys, time
sup, n = int(sys.argv[1]), int(sys.argv[2])
r, w = os.pipe()
for i in range(n):
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            os.close(r)
            for _ in range(2000):
                if os.getppid() == sup:
                    os.write(w, b"o")
                    break
                time.sleep(0.0005)
            time.sleep(random.random() * 0.003)
            os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)
os.close(w)
got = 0
while True:
    b = os.read(r, 65536)
    if not b:
        break
    got += len(b)
print("supervisor's", got)
P

# the agent: the orphan maker beside 100 allowed and 50 denied tool calls
cat >agent.py <<'P'
import os, subprocess, sys, time
sup = os.getppid()
maker = subprocess.Popen([sys.executable, "orphans.py", str(sup), "3000"],
                         stdout=subprocess.PIPE, text=True)
calls = ran = denied = reasons = 0
# tool calls for as long as the orphans are being made, 150 at least
while calls < 150 or maker.poll() is None:
    i, calls = calls, calls + 1
    deny = i % 3 == 2
    word = "DENYME" if deny else "fine"
    p = subprocess.run(["bash", "-c", "echo %s-%d" % (word, i)],
                       capture_output=True, text=True)
    if not deny and p.returncode == 0 and p.stdout.strip() == "fine-%d" % i:
        ran += 1
    elif deny and p.returncode != 0 and "DENYME-%d" % i not in p.stdout and \
            "reason-from-the-hook" in p.stdout + p.stderr:
        denied += 1
    else:
        sys.stderr.write("call %d: %d %r %r\n" % (i, p.returncode, p.stdout, p.stderr))
print(maker.communicate()[0].strip())
print("calls", calls)
print("wrong", calls - ran - denied)
def zombies():
    z = 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                s = open("/proc/%s/stat" % d).read()
            except OSError:
                continue
            f = s[s.rindex(")") + 2:].split()
            if f[0] == "Z" and int(f[1]) == sup:
                z += 1
    return z
# the reaper looks at the floor watchdog's ticks: wait for it, bounded
for _ in range(100):
    if zombies() == 0:
        break
    time.sleep(0.05)
print("zombies", zombies())
P

# one_run TAG PREFIX...: the agent in enforce mode, its findings checked
one_run() {
	local t=$1 out
	shift
	rm -f asked
	out=$("$@" "$HOOKSHIM" run --enforce --no-notices -c hooks.json -- \
		python3 agent.py 2>"err-$t.txt")
	expect_eq "$t: the orphans were the supervisor's" "supervisor's 3000" \
		"$(grep "^supervisor's" <<<"$out")"
	calls=$(sed -n 's/^calls //p' <<<"$out")
	check "$t: tool calls made beside them (${calls:-none})" test "${calls:-0}" -ge 150
	expect_eq "$t: every allowed call ran, every denied one carried its hook's reason" \
		"wrong 0" "$(grep '^wrong' <<<"$out")"
	expect_eq "$t: the hook was asked once a call" "${calls:-none}" "$(wc -l <asked 2>/dev/null)"
	expect_eq "$t: no orphan is left a zombie" "zombies 0" "$(grep '^zombies' <<<"$out")"
	expect_not_contains "$t: no hook failed" "$(cat "err-$t.txt")" "hook"
}
one_run root
if as_user "orphan reaper"; then
	chown -R $AS_ID:$AS_ID "$TMP"
	one_run user "${AS[@]}"
fi
