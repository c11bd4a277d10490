# Execs under the floor: a static parent exec'ing a static target is
# decided by the floor (no shim on either side); wherever a shim decides
# (a dynamic parent, or a dynamic target's constructor) the floor stays
# out of it, so each command is decided exactly once.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor exec: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor exec: jq missing"; exit 0; }
RAWX=$HOOKSHIM_PROBES/exec_static_rawexec
[ -x "$RAWX" ] || { skip "floor exec: probes not built"; exit 0; }
"$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1 ||
	{ skip "floor exec: busybox-static not installed (apt-get install busybox-static)"; exit 0; }
BB=/bin/busybox
# busybox as "sh": a shell by its name, as agents run shells
mkdir -p "$TMP/bin"; ln -s $BB "$TMP/bin/sh"; SH=$TMP/bin/sh
ROOT=$TMP/root
BLOG=$TMP/bash.log

conf() { # name, extra settings
	cat > "$TMP/$1.json" <<J
{"hookshim":{$2},"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command",
   "command":"c=\$(jq -r .tool_input.command); echo \"\$c\" >> $BLOG; case \"\$c\" in *'rm -rf'*) echo 'no rm -rf here' >&2; exit 2;; esac"}]}]}}
J
}
conf shell ''
conf every '"tool_calls":"every-exec"'
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT/secrets/sub"; echo keep > "$ROOT/secrets/sub/k"; : > "$BLOG"; }
hsrun() { # config, command...
	local c=$1; shift
	( cd "$ROOT" && timeout 30 "$HOOKSHIM" run -c "$TMP/$c.json" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"
}
ran() { wc -l < "$BLOG" | tr -d ' '; }

# a static parent runs a static shell with a command string: a tool call
fresh
hsrun shell "$RAWX" $BB sh -c 'rm -rf secrets'
check "floor exec: static parent, static 'sh -c rm -rf': nothing removed" test -f "$ROOT/secrets/sub/k"
expect_contains "floor exec: the reason on the caller's stderr" "$(cat "$TMP/err")" "no rm -rf here"
expect_eq "floor exec: the hook ran once" "1" "$(ran)"
expect_eq "floor exec: the hook saw the command string" "rm -rf secrets" "$(cat "$BLOG")"

# with every-exec, a static rm itself is the tool call
fresh
hsrun every "$RAWX" $BB rm -rf secrets
check "floor exec: static parent execve of a static 'rm -rf' is denied" test -f "$ROOT/secrets/sub/k"
expect_contains "floor exec: static rm: the reason on stderr" "$(cat "$TMP/err")" "no rm -rf here"
expect_eq "floor exec: static rm: the hook ran once" "1" "$(ran)"

# allowed static commands run, once decided
fresh
hsrun shell "$RAWX" $BB sh -c 'echo fine'
expect_eq "floor exec: an allowed static command runs" "fine" "$(cat "$TMP/out")"
expect_eq "floor exec: ... decided once" "1" "$(ran)"

# a target with no name (a memfd run by execveat(AT_EMPTY_PATH), as
# fexecve does) is judged by what the kernel runs, not by its name
# ("/memfd:payload (deleted)", which no stat finds): it once went on
# unjudged
MEMX=$HOOKSHIM_PROBES/exec_static_memfd
if [ -x "$MEMX" ]; then
	fresh
	hsrun every "$MEMX" $BB $BB rm -rf secrets
	check "floor exec: a memfd's 'rm -rf' is denied" test -f "$ROOT/secrets/sub/k"
	expect_eq "floor exec: ... the hook ran once" "1" "$(ran)"
	fresh
	hsrun every "$MEMX" $BB $BB echo from-memfd
	expect_eq "floor exec: an allowed memfd program runs" "from-memfd" "$(cat "$TMP/out")"
	# by a /proc link of the caller's own, written any way the kernel
	# takes it: the caller's descriptor, not the supervisor's
	for via in /proc/self/fd/ /proc//self/fd/ /proc/./thread-self/fd/ /dev//fd/; do
		fresh
		hsrun every "$MEMX" --via "$via" $BB $BB rm -rf secrets
		check "floor exec: a memfd run as ${via}900: 'rm -rf' denied" test -f "$ROOT/secrets/sub/k"
	done
else
	skip "floor exec: the memfd probe is not built"
fi

# an argument as long as the kernel takes (131,071 bytes and its NUL) is
# read whole and judged: it once left the exec unanswered, its caller
# stopped for good
fresh
long=$(head -c 131071 /dev/zero | tr '\0' a)
hsrun shell "$RAWX" $BB sh -c 'echo "${#1}"' sh "$long"
expect_eq "floor exec: a 131,071-byte argument: decided, and it ran" 131071 "$(cat "$TMP/out")"
expect_eq "floor exec: ... decided once" "1" "$(ran)"
unset long

# an exec whose arguments cannot be read fails as the kernel fails it
# (EFAULT), said on the caller's stderr and in the log, not left to the
# kernel's second reading
BADX=$HOOKSHIM_PROBES/exec_static_badargv
if [ -x "$BADX" ]; then
	fresh
	( cd "$ROOT" && timeout 30 "$HOOKSHIM" run -c "$TMP/shell.json" --root "$ROOT" \
		--log "$TMP/bad.jsonl" -- "$BADX" $BB ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "floor exec: unreadable arguments: EFAULT, as the kernel says" "execve=14" "$(cat "$TMP/out")"
	expect_contains "floor exec: ... said on stderr" "$(cat "$TMP/err")" "cannot read or name failed (Bad address)"
	expect_eq "floor exec: ... and logged" exec "$(jq -r 'select(.op == "syscall" and .decision == "deny") | .operation' "$TMP/bad.jsonl" 2>/dev/null | head -1)"
	# one byte past the kernel's longest argument: E2BIG, as the kernel
	# says it without a session
	expect_eq "floor exec: a 131,072-byte argument without a session: E2BIG" "execve=7" "$("$BADX" $BB long 131072)"
	fresh
	( cd "$ROOT" && timeout 30 "$HOOKSHIM" run -c "$TMP/shell.json" --root "$ROOT" \
		-- "$BADX" $BB long 131072 ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "floor exec: ... and under the floor" "execve=7" "$(cat "$TMP/out")"
else
	skip "floor exec: the bad-argv probe is not built"
fi

# the agent running a program that is not a shell: no event (as the shim)
fresh
hsrun shell "$RAWX" $BB true
expect_eq "floor exec: the agent running a non-shell program is no tool call" "0" "$(ran)"

# a dynamic target: its own constructor decides, the floor does not
fresh
hsrun shell "$RAWX" /bin/bash bash -c 'rm -rf secrets'
check "floor exec: static parent, dynamic bash: denied" test -f "$ROOT/secrets/sub/k"
expect_eq "floor exec: static parent, dynamic bash: decided once (constructor)" "1" "$(ran)"

# a dynamic parent (the shim in it) running a static shell: the shim decides
fresh
hsrun shell python3 -c 'import subprocess; subprocess.run(["sh", "-c", "rm -rf secrets"], executable="'$SH'")'
check "floor exec: python3 subprocess of a static sh: denied" test -f "$ROOT/secrets/sub/k"
expect_eq "floor exec: python3 subprocess of a static sh: decided once" "1" "$(ran)"
fresh
hsrun shell python3 -c 'import os; os.waitpid(os.posix_spawn("'$BB'", ["sh", "-c", "echo spawned"], os.environ), 0)'
expect_eq "floor exec: posix_spawn of a static sh runs" "spawned" "$(cat "$TMP/out")"
expect_eq "floor exec: posix_spawn of a static sh: decided once (libc's own execve not again)" "1" "$(ran)"

# CMD `sh -c` stays the agent (docs/design-exec.md): a static one's own
# `sh -c` is a tool call, as a dynamic one's is under the shim
fresh
hsrun shell $SH -c "$SH -c 'echo inner'"
expect_eq "floor exec: the agent's static shell running sh -c runs it" "inner" "$(cat "$TMP/out")"
expect_eq "floor exec: ... as a tool call of its own (CMD judged, then the inner one)" "2" "$(ran)"
