# An exec of a name that is not there when the floor looks, and is when
# the kernel walks it: a thread flips a symlink to bash into place and
# out again, or opens the directory at the descriptor an execveat starts
# from and closes it, while a static program execs it with `bash -c
# "echo x >> ran.txt"` -- a nested exec the policy denies. The floor
# once let such an exec go on to the kernel ("the kernel fails it too"),
# whose walk of the same name then found bash and ran it unjudged; it
# now gives the kernel's answer itself where its look is the caller's
# (floor/floor_exec.c, nothing_to_run). A PATH search through a
# directory the caller may not enter (a user's run with root's PATH) is
# answered so too: the hook was asked once for each such miss.
# As root and as a user, in enforce and guard mode.
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "exec flip"
export HOME=$TMP/home; mkdir -p "$HOME"
FLIP=$HOOKSHIM_PROBES/exec_flip_static

cat >hook.sh <<'H'
c=$(jq -r .tool_input.command)
echo "$c" >>"${0%/*}/asked"
case $c in "echo x"*) echo "no echo x" >&2; exit 2 ;; esac
exit 0
H
printf '{"hookshim":{"nested_exec":true},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bash %s"}]}]}}\n' \
	"$TMP/hook.sh" >hooks.json

# flip MODE N PREFIX...: the probe as a tool call; how many of its
# execs ran bash (lines in ran.txt)
flip() {
	local mode=$1 n=$2
	shift 2
	rm -rf d ran.txt && mkdir d && chmod 777 d
	"$@" bash -c "$FLIP $mode d /usr/bin/bash $n bash -c 'echo x >> ran.txt'" \
		>/dev/null 2>"flip-err.txt"
	if [ -e ran.txt ]; then wc -l <ran.txt; else echo 0; fi
}

plain_name=$(flip name 1000)
plain_fd=$(flip fd 20)
note "plain runs: bash ran $plain_name times through a flipped name, $plain_fd through a flipped descriptor"
[ "$plain_name" -gt 0 ] || { skip "exec flip: the name race lands nothing here in a plain run"; exit 0; }

# rows TAG PREFIX...: each mode, each race
rows() {
	local t=$1 mode
	shift
	for mode in enforce guard; do
		expect_eq "$t $mode: a name flipped into place never runs unjudged" 0 \
			"$(flip name 1000 "$@" "$HOOKSHIM" run --$mode --no-notices -c hooks.json --)"
		expect_not_contains "  ... and a miss says nothing on the caller's stderr" \
			"$(cat flip-err.txt)" "hookshim:"
		expect_eq "$t $mode: a descriptor opened at the number is never run from unjudged" 0 \
			"$(flip fd 20 "$@" "$HOOKSHIM" run --$mode --no-notices -c hooks.json --)"
	done
}
rows root
if as_user "exec flip"; then
	chown -R $AS_ID:$AS_ID "$TMP"
	rows user "${AS[@]}"
	# a PATH through a directory the user may not enter (root's, 0700)
	mkdir -p "$TMP/closed/bin" && chmod 700 "$TMP/closed"
	rm -f asked
	out=$("${AS[@]}" env PATH="$TMP/closed/bin:/usr/bin:/bin" "$HOOKSHIM" run --enforce \
		--no-notices -c hooks.json -- python3 -c \
		'import subprocess; print(subprocess.run(["bash", "-c", "echo fine"], capture_output=True, text=True).stdout)' 2>&1)
	expect_eq "user: a PATH miss in a directory it may not enter: the call runs" fine "$out"
	expect_eq "  ... and the hook is asked once" "echo fine" "$(cat asked 2>/dev/null)"
	# a root session's user process: its execvp through that directory
	# ends EACCES, as plainly (the root supervisor's own walk found
	# nothing there and answered ENOENT, session 37)
	cat > eacces.py <<'P'
import os
try:
    os.execvp("no-such-program-zz", ["x"])
except OSError as e:
    print("execvp", e.errno)
P
	want=$("${AS[@]}" env PATH="$TMP/closed/bin:/usr/bin:/bin" python3 eacces.py 2>&1)
	expect_eq "user: plainly, execvp through a directory it may not enter is EACCES" "execvp 13" "$want"
	for mode in enforce guard; do
		expect_eq "root $mode session, a user's process: the same errno" "$want" \
			"$("$HOOKSHIM" run --$mode --no-notices -c hooks.json -- "${AS[@]}" \
				env PATH="$TMP/closed/bin:/usr/bin:/bin" python3 eacces.py 2>&1)"
	done
fi

# ... and a miss is the kernel's own answer: what the caller's walk finds
# through a symlink into its /proc/self or /dev/fd (ours, in the
# supervisor's walk), a descriptor fexecve names that is not open
# (EBADF), 39 symlinks deep (the /proc/<tid>/cwd hop does not count),
# run as plainly (a first version answered ENOENT to each); and a fifo a
# static shell execs, whose look held a receiver in guard mode until a
# writer came (`timeout` ends it: 124)
cat >misses.sh <<'S'
ln -sf /proc/self/fd/200 run; ./run 200</bin/true && echo run-ok || echo run-failed
mkdir -p bin sub; cp /bin/true bin/tool; ln -sf /proc/self/cwd/bin/tool run2
./run2 && echo run2-ok || echo run2-failed
(cd sub && cp /bin/true tool && ln -sf /proc/self/cwd/tool run3 && ./run3 && echo run3-ok || echo run3-failed)
python3 -c 'import os
try:
    os.execve(250, ["x"], {})
except OSError as e:
    print("fexecve", e.errno)'
mkdir -p lk; ln -sf /bin/true lk/l0; for i in $(seq 1 39); do ln -sf l$((i-1)) lk/l$i; done
./lk/l38 && echo l38-ok || echo l38-failed
./lk/l39 2>/dev/null && echo l39-ok || echo l39-failed
mkfifo ff; timeout 10 busybox sh -c ./ff 2>/dev/null; echo "fifo $?"
rm -rf run run2 bin sub lk ff
S
want=$(bash misses.sh 2>/dev/null)
for mode in enforce guard; do
	expect_eq "$mode: misses are the kernel's own answers" "$want" \
		"$("$HOOKSHIM" run --$mode --no-notices -c hooks.json -- bash misses.sh 2>/dev/null)"
done
