# Issue 15 row 11: mknod/mkfifo in a protected directory are writes, and
# paths through kernel magic links (/proc/self/cwd, /proc/<pid>/cwd,
# /proc/self/root, /proc/self/fd/N, /proc/thread-self, /dev/fd/N) are
# judged by the file they reach, without follow_symlinks.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" secrets
echo '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}' > policy.json
echo keep > secrets/k
# secrets/ itself and what is in it, to the second: not its parent's
# entry (`ls -la` listed "..", whose mtime, shown to the minute, changes
# when agent.sh is written: the check failed when a minute turned over)
tree() { (ls -lA --time-style=full-iso secrets; stat -c '%Y %s %h' secrets) | sha256sum; }
before=$(tree)
cat > agent.sh <<'S'
mknod secrets/p p 2>/dev/null; echo "mknod=$?"
mkfifo secrets/q 2>/dev/null; echo "mkfifo=$?"
python3 -c 'import os; os.mkfifo("secrets/r")' 2>/dev/null; echo "pyfifo=$?"
python3 -c 'import os; os.mknod("secrets/s")' 2>/dev/null; echo "pymknod=$?"
busybox mknod secrets/t p 2>/dev/null; echo "bbmknod=$?"
echo P > /proc/self/cwd/secrets/a 2>/dev/null; echo "selfcwd=$?"
echo P > /proc/$$/cwd/secrets/b 2>/dev/null; echo "pidcwd=$?"
echo P > /proc/thread-self/cwd/secrets/c 2>/dev/null; echo "threadself=$?"
echo P > "/proc/self/root$PWD/secrets/d" 2>/dev/null; echo "selfroot=$?"
exec 7<secrets
echo P > /proc/self/fd/7/e 2>/dev/null; echo "fd=$?"
echo P > /proc/$$/fd/7/f 2>/dev/null; echo "pidfd=$?"
echo P > /dev/fd/7/g 2>/dev/null; echo "devfd=$?"
python3 -c 'import os; p=os.getpid(); os.open("/proc/%d/task/%d/cwd/secrets/h" % (p, p), os.O_WRONLY | os.O_CREAT)' 2>/dev/null; echo "task=$?"
busybox sh -c 'echo P > /proc/self/cwd/secrets/i' 2>/dev/null; echo "bbcwd=$?"
echo P > /proc/self/cwd/ok.txt; echo "benign=$?"
# /dev/stdin, /dev/stdout and /dev/stderr are the system's symlinks to
# /proc/self/fd/0..2: a read-only descriptor of a protected file, reopened
# for writing (or truncated) through one, is a write to that file (issue
# 23: "descriptor links"), by bash, python, a static busybox (the floor)
( exec 1<secrets/k; echo P > /dev/stdout ) 2>/dev/null; echo "devstdout=$?"
( exec 2<secrets/k; echo P > /dev/stderr ); echo "devstderr=$?"
( exec 0<secrets/k; python3 -c 'open("/dev/stdin", "w").write("P")' ) 2>/dev/null; echo "pystdin=$?"
( exec 0<secrets/k; python3 -c 'import os; os.truncate("/dev/stdin", 0)' ) 2>/dev/null; echo "pytrunc=$?"
( exec 2<secrets/k; busybox sh -c 'echo P > /dev/stderr' ); echo "bbstderr=$?"
( exec 0<secrets/k; busybox truncate -s 0 /dev/stdin ) 2>/dev/null; echo "bbtrunc=$?"
( exec 1>ok2.txt; echo through > /dev/stdout; busybox sh -c 'echo static >> /dev/stdout' ); echo "benignstd=$?"
echo "ok2=$(cat ok2.txt | tr '\n' ' ')"
echo pipe > /dev/stdout | cat >/dev/null; echo "benignpipe=$?"
# other spellings of the same names, which the kernel folds
( exec 1<secrets/k; busybox sh -c 'echo P > /dev//stdout' ) 2>/dev/null; echo "bbslash=$?"
( exec 1<secrets/k; busybox sh -c 'echo P > /dev/./stdout' ) 2>/dev/null; echo "bbdot=$?"
( exec 3<secrets/k; busybox sh -c 'echo P > /./proc/self/fd/3' ) 2>/dev/null; echo "bbproc=$?"
# a relative name for it, from /dev, to an allowed file: still works
( exec 1>"$PWD/ok4.txt"; cd /dev && busybox sh -c 'echo rel > stdout' ); echo "rel=$(cat ok4.txt)"
S
for mode in guard enforce; do
	out=$("$HOOKSHIM" run --$mode --no-notices -c policy.json -- bash agent.sh 2>/dev/null)
	each_denied "$mode: " "$out" mknod mkfifo pyfifo pymknod bbmknod selfcwd pidcwd threadself selfroot fd pidfd devfd task bbcwd \
		devstdout devstderr pystdin pytrunc bbstderr bbtrunc bbslash bbdot bbproc
	expect_contains "$mode: a benign write through /proc/self/cwd works" "$out" "benign=0"
	expect_contains "$mode: a write through a relative /dev/stdout to an allowed file lands" "$out" "rel=rel"
	expect_contains "$mode: a benign write through /dev/stdout to an allowed file works" "$out" "benignstd=0"
	expect_contains "$mode: ... and lands (bash, then a static busybox appending)" "$out" "ok2=through static "
	expect_contains "$mode: a benign write through /dev/stdout to a pipe works" "$out" "benignpipe=0"
	expect_eq "$mode: secrets/ unchanged" "$before" "$(tree)"
done
# /proc/<pid>/map_files/START-END names the file a mapping is of, and root
# may open it for writing whatever descriptor made the mapping: a
# read-only, shared mapping of a protected file (or of the hook's own
# script) reopened for writing through it, by a static program (the
# floor) and by python (the shim), in both modes. Guard mode let all of
# these through, no hook asked (issue 23, session 37). The kernel
# refuses map_files to a user: root only.
MAPF=$HOOKSHIM_PROBES/map_files_static
if [ "$(id -u)" = 0 ] && [ -x "$MAPF" ]; then
	mkdir -p hooks; printf 'exit 0\n' > hooks/ok.sh
	echo '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]},{"matcher":"Bash","hooks":[{"type":"command","command":"sh hooks/ok.sh"}]}]}}' > mapf.json
	echo map > mapped.txt
	cat > mapf.sh <<S
for how in self pid upper trunc; do "$MAPF" secrets/k \$how; done | sed 's/^/sec/'
"$MAPF" hooks/ok.sh pid | sed 's/^/hook/'
"$MAPF" mapped.txt pid | sed 's/^/benign/'
python3 - <<'PY'
import mmap, os
for name, f in (("pymap", "secrets/k"), ("pyhook", "hooks/ok.sh"), ("pybenign", "mapped.txt")):
    fd = os.open(f, os.O_RDONLY)
    m = mmap.mmap(fd, 0, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
    a = next(l.split()[0] for l in open("/proc/self/maps") if l.rstrip().endswith("/" + f))
    try:
        with open("/proc/self/map_files/" + a, "a") as w: w.write("P\n")
        print(name + "=0")
    except OSError as e:
        print("%s=%d" % (name, e.errno))
PY
S
	hook_before=$(sha256sum < hooks/ok.sh)
	for mode in guard enforce; do
		: > mapped.txt; echo map > mapped.txt
		out=$("$HOOKSHIM" run --$mode --no-notices -c mapf.json -- bash mapf.sh 2>/dev/null)
		each_denied "$mode, map_files: " "$out" secself secpid secupper sectrunc hookpid pymap pyhook
		expect_contains "$mode, map_files: a write through it to an allowed file works (static)" "$out" "benignpid=0"
		expect_contains "$mode, map_files: ... and from python" "$out" "pybenign=0"
		expect_eq "$mode, map_files: secrets/ unchanged" "$before" "$(tree)"
		expect_eq "$mode, map_files: the hook's script unchanged" "$hook_before" "$(sha256sum < hooks/ok.sh)"
	done
else
	skip "map_files: root and the probe map_files_static needed"
fi

# with follow_symlinks the supervisor resolves names in its own view,
# where /dev/stdout is its own descriptor: the caller's is named first
echo '{"hookshim":{"writes":{"follow_symlinks":true}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}' > follow.json
# and a symlink the agent makes to a descriptor (/proc/self/fd/3) or to
# /dev/stdout (the Docker way to log to stdout) is the caller's descriptor
cat > follow.sh <<'S'
ln -sf /proc/self/fd/3 lnk; ln -sf /dev/stdout acc.log
( exec 3<secrets/k; busybox sh -c 'echo P > lnk' ) 2>/dev/null; echo "bblnk=$?"
( exec 3<secrets/k; python3 -c 'open("lnk", "w").write("P")' ) 2>/dev/null; echo "pylnk=$?"
# a descriptor the supervisor has no such number of (its own walk finds
# nothing there), and a target spelt with /./
ln -sf /proc/self/fd/9 lnk9; ln -sf /./proc/self/fd/3 lnkdot
( exec 9<secrets/k; busybox sh -c 'echo P > lnk9' ) 2>/dev/null; echo "bblnk9=$?"
( exec 3<secrets/k; busybox sh -c 'echo P > lnkdot' ) 2>/dev/null; echo "bblnkdot=$?"
( exec 1<secrets/k; busybox sh -c 'echo P > acc.log' ) 2>/dev/null; echo "bbacc=$?"
( exec 1>ok3.txt; busybox sh -c 'echo landed > acc.log' ); echo "acc=$(cat ok3.txt)"
busybox sh -c 'echo piped > acc.log' | cat; echo "accpipe=$?"
S
for mode in guard enforce; do
	out=$("$HOOKSHIM" run --$mode --no-notices -c follow.json -- bash agent.sh 2>/dev/null)
	each_denied "$mode, follow_symlinks: " "$out" devstdout devstderr pystdin pytrunc bbstderr bbtrunc bbslash bbdot bbproc
	expect_contains "$mode, follow_symlinks: a benign write through /dev/stdout works and lands" "$out" "ok2=through static "
	expect_contains "$mode, follow_symlinks: a write through a relative /dev/stdout lands" "$out" "rel=rel"
	out=$("$HOOKSHIM" run --$mode --no-notices -c follow.json -- bash follow.sh 2>/dev/null)
	each_denied "$mode, follow_symlinks: " "$out" bblnk pylnk bbacc bblnk9 bblnkdot
	expect_contains "$mode, follow_symlinks: a symlink to /dev/stdout writes to the file it is" "$out" "acc=landed"
	expect_contains "$mode, follow_symlinks: ... and to a pipe" "$out" "accpipe=0"
	expect_eq "$mode, follow_symlinks: secrets/ unchanged" "$before" "$(tree)"
done

# As a user who owns the project, in guard and in enforce mode (issue 23:
# as root and as an unprivileged user; in enforce mode the agent runs in a
# user namespace of its own, and its own /proc links are still judged by
# what they reach)
if as_user "magic links"; then
	rm -f ok.txt ok2.txt ok4.txt; chown -R $AS_ID:$AS_ID .
	before=$(tree)
	for mode in guard enforce; do
		out=$("${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- bash agent.sh 2>/dev/null)
		each_denied "user $mode: " "$out" mknod mkfifo pyfifo pymknod bbmknod selfcwd pidcwd threadself selfroot fd pidfd devfd task bbcwd \
			devstdout devstderr pystdin pytrunc bbstderr bbtrunc bbslash bbdot bbproc
		expect_contains "user $mode: a benign write through /proc/self/cwd works" "$out" "benign=0"
		expect_contains "user $mode: a benign write through /dev/stdout works and lands" "$out" "ok2=through static "
		expect_eq "user $mode: secrets/ unchanged" "$before" "$(tree)"
	done
fi

# Enforce mode follows symlinks by default: one the session makes to a
# protected file takes no part in the decision (guard mode judges the
# path as written, as Claude Code's own Write matcher does: shown), and
# an explicit "follow_symlinks": false is honoured.
cat > symlink.sh <<'T'
rm -f innoc; ln -s secrets/k innoc
echo P > innoc 2>/dev/null; echo "bashlink=$?"
busybox sh -c 'echo P > innoc' 2>/dev/null; echo "bblink=$?"
rm -f innoc
T
echo '{"hookshim":{"writes":{"follow_symlinks":false}},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}' > nofollow.json
out=$("$HOOKSHIM" run --enforce --no-notices -c policy.json -- bash symlink.sh 2>/dev/null)
each_denied "enforce, by default: a symlink to a protected file: " "$out" bashlink bblink
expect_eq "enforce: secrets/ unchanged" "$before" "$(tree)"
out=$("$HOOKSHIM" run --guard --no-notices -c policy.json -- bash symlink.sh 2>/dev/null)
expect_contains "guard: a symlink to a protected file is judged by its own name (the stated limit)" "$out" "bashlink=0"
out=$("$HOOKSHIM" run --enforce --no-notices -c nofollow.json -- bash symlink.sh 2>/dev/null)
expect_contains "enforce with follow_symlinks false: as written, as asked" "$out" "bblink=0"
# ... and `check` says which, as run would do it
expect_contains "check: enforce follows symlinks" "$(echo '{"hookshim":{"mode":"enforce"}}' > m.json; "$HOOKSHIM" check -c m.json 2>&1)" \
	"symlinks: followed: the file one leads to is judged (enforce mode's default)"
expect_contains "check: guard judges the name" "$(echo '{"hookshim":{"mode":"guard"}}' > m.json; "$HOOKSHIM" check -c m.json 2>&1)" \
	"symlinks: judged by the name written"
