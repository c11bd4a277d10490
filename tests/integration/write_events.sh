# File-write interception with real programs under `hookshim run`: each
# write fires the right event (path, operation) in all four dialects, and
# a deny on secrets/ leaves the tree byte-identical with the right errno.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "write events: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "write events: jq missing"; exit 0; }
LOG=$TMP/events.log
ROOT=$TMP/root

# One config per dialect: log every write pre/post, deny secrets/ (exit 2).
# The log hook stores the payload as one JSON line.
logcmd="jq -c . >> $LOG"
cat > "$TMP/claude.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"$logcmd"}]},
   {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"$logcmd"}]}]}}
J
cat > "$TMP/memcode.json" <<J
{"hooks":{
 "pre_tool_use":[{"matcher":"edit_file","command":"$logcmd"},
   {"matcher":"edit_file","command":"f=\$(jq -r .input.path); case \$f in */secrets/*) echo 'secrets are protected' >&2; exit 2;; esac"}],
 "post_tool_use":[{"matcher":"edit_file","command":"$logcmd"}]}}
J
cat > "$TMP/mnemoai.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"fs_write","hooks":[{"type":"command","command":"$logcmd"},
   {"type":"command","command":"f=\$(jq -r .tool_input.path); case \$f in */secrets/*) echo 'secrets are protected' >&2; exit 2;; esac"}]}],
 "PostToolUse":[{"matcher":"fs_write","hooks":[{"type":"command","command":"$logcmd"}]}]}}
J
cat > "$TMP/memoh.json" <<J
{"version":1,"hooks":[
 {"event":"BeforeFileWrite","actions":[{"type":"command","command":"$logcmd"}]},
 {"event":"BeforeFileWrite","matcher":"/secrets/","actions":[{"type":"command","command":"echo '{\\"decision\\":\\"deny\\",\\"reason\\":\\"secrets are protected\\"}'"}]},
 {"event":"AfterFileWrite","actions":[{"type":"command","command":"$logcmd"}]}]}
J

# "KIND<TAB>PATH<TAB>OPERATION<TAB>NEW_PATH" per logged event, in every
# dialect's vocabulary; KIND is pre or post.
norm='
  (.hook_event_name // .event) as $e
  | (if ($e|test("Pre|pre_|Before")) then "pre" else "post" end) as $k
  | (.tool_input // .input // (.tool|objects|.input) // {}) as $in
  | ($in.file_path // $in.path // .extra.path) as $p
  | ($in.operation // .extra.operation) as $o
  | [$k, ($p|sub("^'"$ROOT"'/";"")), $o, (($in.new_path // "")|sub("^'"$ROOT"'/";""))] | @tsv'
events() { jq -r "$norm" "$LOG" 2>/dev/null; }

hsrun() { # dialect, command string
	local d=$1; shift
	( cd "$ROOT" && "$HOOKSHIM" run --dialect "$d" -c "$TMP/$d.json" --root "$ROOT" -- bash -c "$1" )
}

# has DIALECT CASE KIND PATH OP [NEW]
has() {
	local want
	want=$(printf '%s\t%s\t%s\t%s' "$3" "$4" "$5" "${6:-}")
	if grep -qxF "$want" <<<"$EV"; then pass "$1: $2 fires $3 $5 $4"; else
		fail "$1: $2 fires $3 $5 $4"; note "events: $(printf %q "$EV")"; fi
}
hasnt() { # DIALECT CASE PATTERN
	if grep -q "$3" <<<"$EV"; then fail "$1: $2: no event matching $3"; note "events: $(printf %q "$EV")"
	else pass "$1: $2: no event matching $3"; fi
}
case_() { # dialect name command
	: > "$LOG"
	hsrun "$1" "$3" >"$TMP/out" 2>"$TMP/err"
	EV=$(events)
}

node_ok=1; command -v node >/dev/null || node_ok=0
tree_hash() { (cd "$ROOT" && find . -path ./.git -prune -o -print0 | sort -z | xargs -0 -r sh -c 'for f; do if [ -f "$f" ]; then echo "$f $(sha1sum <"$f")"; else echo "$f"; fi; done' sh | sha1sum); }

for d in claude memcode mnemoai memoh; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets" "$TMP/src"
	echo keep > "$ROOT/secrets/old"
	(cd "$TMP/src" && mkdir -p t/sub && echo a > t/a && echo b > t/sub/b && tar cf "$TMP/t.tar" t)

	case_ $d redirect 'echo x > f'
	has $d 'echo x > f' pre f create; has $d 'echo x > f' post f create
	case_ $d append 'echo y >> f'
	has $d 'echo y >> f' pre f append; has $d 'echo y >> f' post f append
	# sed and git are started by the session's own command here (role
	# agent, not a shell): a non-empty file replaced in place is an edit
	# (docs/dialects.md, "Edit or Write"); the shell's own redirections stay writes.
	case_ $d sed 'sed -i s/x/z/ f'
	has $d 'sed -i' pre f edit; has $d 'sed -i' post f edit
	hasnt $d 'sed -i (temp file silent)' $'\tsed'
	case_ $d cp 'cp f g'
	has $d cp pre g create; has $d cp post g create
	case_ $d mv 'mv g h'
	has $d mv pre g rename h; has $d mv post g rename h
	case_ $d tee 'echo hi | tee t1 >/dev/null'
	has $d tee pre t1 create
	case_ $d touch 'touch t2'
	has $d touch pre t2 create
	case_ $d mkdir 'mkdir -p d1/d2'
	has $d 'mkdir -p' pre d1 mkdir; has $d 'mkdir -p' pre d1/d2 mkdir
	case_ $d rm 'rm -rf d1'
	has $d 'rm -rf' pre d1/d2 rmdir; has $d 'rm -rf' pre d1 rmdir
	case_ $d ln 'ln -s f l1'
	has $d 'ln -s' pre l1 symlink f
	# truncate opens O_WRONLY without O_TRUNC, then ftruncates: as Bun
	# and Copilot CLI write a whole file, so from a process of the
	# agent's an edit too
	case_ $d truncate 'truncate -s 0 h'
	has $d truncate pre h edit
	case_ $d tar "tar xf $TMP/t.tar"
	has $d 'tar x' pre t/a create; has $d 'tar x' pre t/sub/b create; has $d 'tar x' pre t/sub mkdir
	case_ $d python "python3 -c \"
import os, pathlib
open('p1', 'w').write('1')
os.replace('p1', 'p2')
pathlib.Path('p3').write_text('3')\""
	has $d 'python open(w)' pre p1 create; has $d 'python open(w)' post p1 create
	has $d 'os.replace' pre p1 rename p2
	has $d 'pathlib.write_text' pre p3 create; has $d 'pathlib.write_text' post p3 create
	# glibc's exported __open/__open64, called by name (issue 15 row 8)
	case_ $d open-alias "python3 -c \"
import ctypes, os
libc = ctypes.CDLL(None)
for f, name in ((libc.__open64, b'o64'), (libc.__open, b'o32')):
    fd = f(name, 0o1101, 0o644)
    os.write(fd, b'P'); os.close(fd)\""
	has $d __open64 pre o64 create; has $d __open64 post o64 create
	has $d __open pre o32 create; has $d __open post o32 create
	if [ $node_ok = 1 ]; then
		case_ $d node "node -e \"
const fs = require('fs');
fs.writeFileSync('n1', 'a');
fs.renameSync('n1', 'n3');
fs.rmSync('n3');
fs.promises.writeFile('n2', 'b').then(() => {});\""
		has $d writeFileSync pre n1 create; has $d writeFileSync post n1 create
		has $d 'fs.promises.writeFile' pre n2 create; has $d 'fs.promises.writeFile' post n2 create
		has $d renameSync pre n1 rename n3
		has $d rmSync pre n3 delete
	else
		skip "$d: node missing"
	fi

	# git: a repository made outside the session, checkout and commit in it
	if command -v git >/dev/null; then
		( cd "$ROOT" && git init -q . && git -c user.email=a@b -c user.name=t add f && \
		  git -c user.email=a@b -c user.name=t commit -qm one && git branch other && \
		  echo two > f && git -c user.email=a@b -c user.name=t commit -qam two ) >/dev/null 2>&1
		case_ $d git-checkout 'git checkout -q other'
		has $d 'git checkout' pre f create
		case_ $d git-commit 'echo three > f && git -c user.email=a@b -c user.name=t commit -qam three'
		has $d 'git commit' pre .git/index edit
		if grep -q $'^pre\t.git/objects/' <<<"$EV"; then pass "$d: git commit writes objects"; else fail "$d: git commit writes objects"; note "$EV"; fi
	fi

	# --- deny: nothing changes, reason shown, errno EACCES ---------------
	echo f > "$ROOT/plain"
	before=$(tree_hash)
	case_ $d deny-redirect 'echo x > secrets/a'
	expect_contains "$d: deny reason on stderr" "$(cat "$TMP/err")" "secrets are protected"
	expect_contains "$d: bash sees EACCES" "$(cat "$TMP/err")" "Permission denied"
	case_ $d deny-cp 'cp plain secrets/b; mv plain secrets/c; rm -f secrets/old; ln -s x secrets/l; mkdir secrets/d; truncate -s0 secrets/old; sed -i s/k/K/ secrets/old'
	case_ $d deny-python "python3 -c \"
import errno, os
for f in (lambda: open('secrets/p', 'w'), lambda: os.replace('plain', 'secrets/p'), lambda: os.unlink('secrets/old')):
    try: f(); print('wrote')
    except OSError as e: print(errno.errorcode[e.errno])\""
	expect_eq "$d: python gets EACCES for open, replace, unlink" "EACCES EACCES EACCES" "$(tr '\n' ' ' < "$TMP/out" | sed 's/ $//')"
	if [ $node_ok = 1 ]; then
		case_ $d deny-node "node -e \"
const fs = require('fs');
try { fs.writeFileSync('secrets/n', 'x'); console.log('wrote'); } catch (e) { console.log(e.code); }\""
		expect_eq "$d: node gets EACCES" "EACCES" "$(cat "$TMP/out")"
	fi
	# Bun's atomic save: a temp file, then rename through /proc/self/fd/N
	case_ $d deny-procfd "python3 -c \"
import errno, os
r, d = os.open('.', os.O_PATH), os.open('secrets', os.O_PATH)
t, f = '/proc/self/fd/%d/k.tmp.1' % r, '/proc/self/fd/%d/k' % d
open(t, 'w').write('x')
try: os.rename(t, f); print('renamed')
except OSError as e: print(errno.errorcode[e.errno])
os.unlink(t)\""
	expect_eq "$d: a rename through /proc/self/fd/N is seen and denied" "EACCES" "$(cat "$TMP/out")"
	case_ $d deny-open-alias "python3 -c \"
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
for f in (libc.__open64, libc.__open):
    fd = f(b'secrets/f', 0o1101, 0o644)
    print(errno.errorcode[ctypes.get_errno()] if fd < 0 else 'opened')\""
	expect_eq "$d: __open64 and __open on secrets/ fail with EACCES" "EACCES EACCES" "$(tr '\n' ' ' < "$TMP/out" | sed 's/ $//')"
	after=$(tree_hash)
	expect_eq "$d: denied writes leave the tree byte-identical" "$before" "$after"
done

# --- temp-looking names in a protected directory ----------------------------
# Temp files fire nothing of their own (their rename does). With
# writes.judge_temp_files, where a hook's own path filter names the place
# (Claude's `if`, memoh's path matcher), a file that merely looks like a
# temp is judged: it must not slip past a policy on secrets/.
echo '{"hookshim":{"writes":{"judge_temp_files":true}}}' > "$TMP/judge-temps.json"
temp_cmd="echo x > secrets/k.tmp; echo y > secrets/k~; python3 -c \"
import errno, tempfile
for f in (lambda: tempfile.mkstemp(dir='secrets'), lambda: tempfile.NamedTemporaryFile(dir='secrets', delete=False), lambda: tempfile.mkdtemp(dir='secrets')):
    try: f(); print('made')
    except OSError as e: print(errno.errorcode[e.errno])\""
for d in claude memoh; do
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets"; echo keep > "$ROOT/secrets/old"
	# by default (as the spec asks) temp files are silent, even there
	# (python's mkdtemp is a plain mkdir, which is always judged)
	case_ $d temp-names-default "$temp_cmd"
	expect_eq "$d: by default temp files fire nothing" "made made EACCES" \
		"$(tr '\n' ' ' < "$TMP/out" | sed 's/ $//')"
	hasnt $d 'temp files by default' $'^pre\tsecrets/k'
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets"; echo keep > "$ROOT/secrets/old"
	before=$(tree_hash)
	: > "$LOG"
	( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/$d.json" -c "$TMP/judge-temps.json" \
		--root "$ROOT" -- bash -c "$temp_cmd" ) >"$TMP/out" 2>"$TMP/err"
	EV=$(events)
	expect_eq "$d: judge_temp_files: temp names under a protected path are denied (EACCES)" \
		"EACCES EACCES EACCES" "$(tr '\n' ' ' < "$TMP/out" | sed 's/ $//')"
	expect_contains "$d: judge_temp_files: the shell's temp-named redirect is denied" \
		"$(cat "$TMP/err")" "secrets/k.tmp: Permission denied"
	expect_eq "$d: judge_temp_files: the tree is byte-identical" "$before" "$(tree_hash)"
	# elsewhere a temp file is still silent, and its rename is the event
	: > "$LOG"
	( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/$d.json" -c "$TMP/judge-temps.json" \
		--root "$ROOT" -- python3 -c "
import os
open('a.tmp.1', 'w').write('x'); os.rename('a.tmp.1', 'a')" ) >"$TMP/out" 2>"$TMP/err"
	EV=$(events)
	hasnt $d 'judge_temp_files: a temp file outside the protected path' $'\ta.tmp.1\t'
	has $d 'judge_temp_files: its rename publishes' pre a create
done
