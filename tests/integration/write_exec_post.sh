# `cmd > f` with an external cmd: the shell (or its fork child) opens f and
# execs cmd, which inherits the descriptor; the exec hands it over
# (HOOKSHIM_FDS) so the new image's close or exit fires the PostToolUse —
# exactly one per write, with the pre's path, operation and tool_use_id,
# in the Claude and memcode dialects.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "write exec post: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "write exec post: jq missing"; exit 0; }
LOG=$TMP/events.log
ROOT=$TMP/root

logcmd="jq -c . >> $LOG"
cat > "$TMP/claude.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"$logcmd"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"$logcmd"}]}]}}
J
cat > "$TMP/memcode.json" <<J
{"hooks":{
 "pre_tool_use":[{"matcher":"edit_file","command":"$logcmd"}],
 "post_tool_use":[{"matcher":"edit_file","command":"$logcmd"}]}}
J

# "KIND<TAB>PATH<TAB>OPERATION<TAB>ID" per event; paths relative to the
# root (@tsv shows a newline as \n).
norm='
  (.hook_event_name // .event) as $e
  | (if ($e|test("Pre|pre_")) then "pre" else "post" end) as $k
  | (.tool_input // .input // {}) as $in
  | [$k, (($in.file_path // $in.path)|sub("^'"$ROOT"'/";"")),
     $in.operation, (.tool_use_id // .id // "")] | @tsv'
hsrun() { # dialect, command string
	( cd "$ROOT" && "$HOOKSHIM" run --dialect "$1" -c "$TMP/$1.json" --root "$ROOT" -- bash -c "$2" )
}
case_() { # dialect, command
	: > "$LOG"
	hsrun "$1" "$2" >"$TMP/out" 2>"$TMP/err"
	EV=$(jq -r "$norm" "$LOG" 2>/dev/null)
}
# once DIALECT CASE PATH OP: one pre and one post for PATH, same op and id
# (awk reads PATH from the environment: -v would expand its backslashes)
once() {
	local pre post all name="$1: $2: one post $4 $3"
	pre=$(P=$3 O=$4 awk -F'\t' '$1=="pre" && $2==ENVIRON["P"] && $3==ENVIRON["O"]' <<<"$EV")
	post=$(P=$3 O=$4 awk -F'\t' '$1=="post" && $2==ENVIRON["P"] && $3==ENVIRON["O"]' <<<"$EV")
	all=$(P=$3 awk -F'\t' '$1=="post" && $2==ENVIRON["P"]' <<<"$EV")
	if [ "$(grep -c . <<<"$post")" = 1 ] && [ "$(grep -c . <<<"$pre")" = 1 ] &&
	   [ "$(grep -c . <<<"$all")" = 1 ] &&
	   [ "$(cut -f4 <<<"$pre")" = "$(cut -f4 <<<"$post")" ]; then
		pass "$name"
	else
		fail "$name"; note "events: $(printf %q "$EV")"; note "stderr: $(head -c 500 "$TMP/err")"
	fi
}

for d in claude memcode; do
	rm -rf "$ROOT"; mkdir -p "$ROOT"
	(cd "$ROOT" && echo abc > in && printf 'b\na\n' > x)

	case_ $d 'tr a b < in > out'
	once $d 'tr a b < in > out' out create
	case_ $d 'tr a b < in >> out'
	once $d 'tr a b < in >> out' out append
	case_ $d "python3 -c 'print(1)' > py.txt"
	once $d 'python3 > py.txt' py.txt create
	case_ $d 'sort x > y'
	once $d 'sort x > y' y create
	case_ $d 'cat x | tee t > z'
	once $d 'cat x | tee t > z' t create
	once $d 'cat x | tee t > z' z create
	case_ $d 'tr a b < in > out2; echo done'
	once $d 'fork, then exec' out2 create
	# dash runs its last command in a vfork child and ends with _exit
	case_ $d 'sh -c "cat in" > viash'
	once $d 'sh -c cmd > f' viash create
	case_ $d 'sh -c "exec > dashexec; echo x"'
	once $d 'dash exec > f' dashexec create
	# the shell keeps the descriptor: its own close reports, not the child's
	case_ $d 'exec 3> kept; tr a b < in >&3; exec 3>&-; { cat in; sort x; } > grp'
	once $d 'parent holds the fd' kept create
	once $d '{ cmd; cmd; } > f' grp create
	case_ $d "tr a b < in > \$'we:ird\\nna me'"
	once $d 'a name with a newline' 'we:ird\nna me' create
	expect_eq "$d: the file is written" "bbc" "$(cat "$ROOT/we:ird"$'\n'"na me")"
	# handed over once: neither the command nor its children see it
	case_ $d 'env > e1; sh -c env > e2; python3 -c "import os, sys; sys.stdout.write(os.environ.get(\"HOOKSHIM_FDS\", \"gone\"))" > e3'
	once $d 'env > f' e1 create
	once $d 'sh -c env > f' e2 create
	once $d 'python3 > f' e3 create
	expect_eq "$d: HOOKSHIM_FDS consumed" "0 0 gone" \
		"$(grep -c HOOKSHIM_FDS "$ROOT/e1") $(grep -c HOOKSHIM_FDS "$ROOT/e2") $(cat "$ROOT/e3")"
done

# A raw execve (no libc exec: a static parent) passing on a variable
# meant for another pid: the new image drops it and fires nothing; with
# this pid (an exec keeps it) the descriptor is tracked as named.
rm -rf "$ROOT"; mkdir -p "$ROOT"
raw='import ctypes, os, sys
me = os.getpid() + int(sys.argv[1])
p = os.path.abspath("raw.txt").encode()
v = b"HOOKSHIM_FDS=%d/1:1:6:create6:raw-id%d:%s" % (me, len(p), p)
env = [k.encode() + b"=" + v2.encode() for k, v2 in os.environ.items()] + [v]
argv = [b"/bin/sh", b"-c", b"echo ${HOOKSHIM_FDS:-gone}"]
A = lambda l: (ctypes.c_char_p * (len(l) + 1))(*l, None)
ctypes.CDLL(None).syscall(59, b"/bin/sh", A(argv), A(env))'
for off in 1 0; do
	case_ claude "python3 -c '$raw' $off > raw.txt"
	posts=$(awk -F'\t' '$1=="post" && $2=="raw.txt"' <<<"$EV" | cut -f4 | sort | tr '\n' ' ')
	expect_eq "raw exec, pid offset $off: variable consumed" "gone" "$(cat "$ROOT/raw.txt")"
	if [ $off = 1 ]; then
		# python's own entry dies with the raw exec, as before
		expect_eq "raw exec to another pid: nothing tracked from it" "" "$posts"
	else
		expect_eq "raw exec to this pid: the named entry takes the fd" "raw-id " "$posts"
	fi
done

# The memcode formatter: a redirect through an external command is
# formatted once, after the command has written it.
export FMTLOG=$TMP/fmt.log; : > "$FMTLOG"
cat > "$TMP/fmt.json" <<J
{"hooks":{"post_tool_use":[{"matcher":"edit_file","command":"$HOOKSHIM_TOP/tests/fixtures/upcase_fmt.sh"}]}}
J
(cd "$ROOT" && echo 'hello tr' > in && "$HOOKSHIM" run --dialect memcode -c "$TMP/fmt.json" --root "$ROOT" -- \
	bash -c 'tr h j < in > a.fmt; python3 -c "print(\"py out\")" > b.fmt; cat a.fmt b.fmt > /dev/null')
expect_eq "formatter: external commands' output formatted" "JELLO TR/PY OUT" "$(cat "$ROOT/a.fmt")/$(cat "$ROOT/b.fmt")"
expect_eq "formatter: once per file" "$ROOT/a.fmt $ROOT/b.fmt" "$(tr '\n' ' ' < "$FMTLOG" | sed 's/ $//')"
