# Issue 23 item 5, "identities, not only names": a call whose path is not
# the name of the file it changes is judged by that file, through the
# shim (a dynamic probe, python3) and the floor (the same probe static,
# raw syscalls):
#   - a hard link made from a descriptor of a protected file
#     (linkat(fd, "", AT_EMPTY_PATH), linkat("/proc/self/fd/N",
#     AT_SYMLINK_FOLLOW)) or through a symlink followed is a write to that
#     file: the hook sees its name as tool_input.file_path, and nothing
#     ever reaches it through the new name;
#   - renameat2(RENAME_EXCHANGE) replaces both names: judged at each;
#   - openat2(RESOLVE_IN_ROOT) is named from its directory, not from "/";
#   - the session root and its ancestors are not exchanged or moved away;
#   - a hard link to a policy file made before the session is that file.
# The supervisor's own files (transcript, JUnit, step summary) are in
# tests/security/supervisor_files.sh.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "identities: jq missing"; exit 0; }
DYN=$HOOKSHIM_PROBES/ident_dynamic ST=$HOOKSHIM_PROBES/ident_static
[ -x "$DYN" ] && [ -x "$ST" ] || { skip "identities: probes not built"; exit 0; }
chmod 755 "$TMP"
ROOT=$TMP/a/root; mkdir -p "$ROOT/secrets" "$ROOT/other" "$TMP/b"
# Two policies that protect secrets/: an `if` rule, and a script that
# reads only tool_input.file_path (issue 24 item 5) and writes every name
# it was shown to seen.txt.
cat > "$TMP/if.json" <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
cat > "$TMP/guard.sh" <<'S'
#!/bin/sh
p=$(jq -r .tool_input.file_path)
echo "$p" >> "$SEEN"
case "$p" in */secrets|*/secrets/*) echo "secrets are protected" >&2; exit 2;; esac
exit 0
S
chmod 755 "$TMP/guard.sh"
echo '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"'"$TMP"'/guard.sh"}]}]}}' > "$TMP/script.json"
export SEEN=$TMP/seen.txt

reset_tree() {
	rm -rf "$ROOT"/* "$ROOT"/.??* 2>/dev/null
	mkdir -p "$ROOT/secrets" "$ROOT/other"
	echo keep > "$ROOT/secrets/f"; echo keep > "$ROOT/secrets/g"
	echo o > "$ROOT/other/o"; echo evil > "$ROOT/x"
	ln -s secrets/f "$ROOT/lnk"
	: > "$SEEN"
}
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %h %i' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
hsrun() { # POLICY CMD...
	local p=$1; shift
	( cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/$p.json" "$@" ) >"$TMP/out" 2>"$TMP/err"
}
floor_here=1
hsrun if -- "$ST" append:x
grep -q "no syscall floor" "$TMP/err" && floor_here=0

# case NAME POLICY PROG ARGS...: the protected tree unchanged, every
# call denied, and (script policy) the hook shown secrets/f or secrets/g
case_() {
	local name=$1 pol=$2 prog=$3; shift 3
	if [ "$prog" = "$ST" ] && [ $floor_here = 0 ]; then
		skip "$name: no syscall floor here"; return
	fi
	reset_tree
	local before; before=$(tree_hash)
	hsrun "$pol" -- "$prog" "$@"
	expect_eq "$name: secrets/ unchanged" "$before" "$(tree_hash)"
	local bad; bad=$(grep -E '^(link|exchange|noreplace|whiteout|inroot|beneath|linkfd|linkproc|linkfollow)[a-z]* [^ ]*: ok$' "$TMP/out")
	expect_eq "$name: the call was denied" "" "$bad"
	if [ "$pol" = script ]; then
		expect_contains "$name: the hook saw the protected name" "$(cat "$SEEN")" "$ROOT/secrets"
	fi
}

for prog in "$DYN" "$ST"; do
	w=shim; [ "$prog" = "$ST" ] && w=floor
	for pol in if script; do
		case_ "$w/$pol: link of a read-only descriptor (AT_EMPTY_PATH), then a write through it" \
			$pol "$prog" linkfd:secrets/f:n1 append:n1
		case_ "$w/$pol: link of /proc/self/fd/N (AT_SYMLINK_FOLLOW), then a write" \
			$pol "$prog" linkproc:secrets/f:n2 append:n2
		case_ "$w/$pol: link through a symlink followed, then a write" \
			$pol "$prog" linkfollow:lnk:n3 append:n3
		case_ "$w/$pol: RENAME_EXCHANGE onto a protected file" $pol "$prog" exchange:x:secrets/f
		case_ "$w/$pol: RENAME_EXCHANGE of a protected file" $pol "$prog" exchange:secrets/f:x
		case_ "$w/$pol: RENAME_EXCHANGE of the protected directory" $pol "$prog" exchange:other:secrets
		case_ "$w/$pol: RENAME_NOREPLACE into secrets/" $pol "$prog" noreplace:x:secrets/new
		# a whiteout (an overlay's) needs CAP_MKNOD
		[ "$(id -u)" = 0 ] && case_ "$w/$pol: RENAME_WHITEOUT of a protected file" $pol "$prog" whiteout:secrets/f:y
		case_ "$w/$pol: openat2 RESOLVE_IN_ROOT /secrets/f" $pol "$prog" inroot:.:/secrets/f
		case_ "$w/$pol: openat2 RESOLVE_IN_ROOT ../../secrets/g" $pol "$prog" inroot:.:../../secrets/g
		case_ "$w/$pol: openat2 RESOLVE_IN_ROOT from secrets/, /../f" $pol "$prog" inroot:secrets:/../f
		case_ "$w/$pol: openat2 RESOLVE_BENEATH secrets/f" $pol "$prog" beneath:.:secrets/f
	done
	# what must still work
	[ "$prog" = "$ST" ] && [ $floor_here = 0 ] && continue
	reset_tree
	hsrun script -- "$prog" tmpfile:.:pub tmpfile:secrets:secrets/new linkfd:x:x2 \
		inroot:other:/o2 exchange:x:other/o
	expect_eq "$w: an O_TMPFILE published, a benign link, openat2 in root, an exchange: done" \
		"tmpfile .: ok|tmpfile secrets: EACCES|linkfd x: ok|inroot other: ok|exchange x: ok" \
		"$(tr '\n' '|' < "$TMP/out" | sed 's/|$//')"
	expect_eq "$w: ... and on disk" "P|evil|2|P|evil|o" \
		"$({ cat "$ROOT/pub" "$ROOT/x2"; stat -c %h "$ROOT/x2"; cat "$ROOT/other/o2" "$ROOT/other/o" "$ROOT/x"; } | tr '\n' '|' | sed 's/|$//')"
	check "$w: no secrets/new" test ! -e "$ROOT/secrets/new"
	reset_tree
	hsrun script --log "$TMP/l.jsonl" -- "$prog" exchange:x:other/o
	expect_eq "$w: an exchange is judged at both names, as an exchange" \
		"exchange $ROOT/other/o $ROOT/x|exchange $ROOT/x $ROOT/other/o" \
		"$(jq -r 'select(.event == "pre") | "\(.operation) \(.path) \(.new_path)"' "$TMP/l.jsonl" | sort | tr '\n' '|' | sed 's/|$//')"
	rm -f "$TMP/l.jsonl"
	# a link whose new name a hook watches too: both names are asked
	reset_tree
	hsrun script -- "$prog" linkfd:secrets/f:n4
	expect_eq "$w: a watched new name and its protected source are both asked" \
		"$ROOT/n4|$ROOT/secrets/f" "$(sort "$SEEN" | tr '\n' '|' | sed 's/|$//')"
	expect_eq "$w: the link event's payload at the source" "link $ROOT/secrets/f $ROOT/n5" \
		"$(hsrun script --log "$TMP/l.jsonl" -- "$prog" linkproc:secrets/f:n5; jq -r 'select(.path == "'"$ROOT"'/secrets/f") | "\(.operation) \(.path) \(.new_path)"' "$TMP/l.jsonl" | head -1)"
	rm -f "$TMP/l.jsonl"
done

# With follow_symlinks, a symlink inside an openat2 RESOLVE_IN_ROOT walk
# whose target is absolute is resolved inside the root, as the kernel
# does (openat2 is a raw syscall in both builds: the floor's).
sed 's/^{"hooks"/{"hookshim":{"writes":{"follow_symlinks":true}},"hooks"/' "$TMP/if.json" > "$TMP/follow.json"
if [ $floor_here = 1 ]; then
	reset_tree
	ln -s /secrets/f "$ROOT/al"; ln -s /secrets/new "$ROOT/dl"; ln -s /other/o "$ROOT/okl"
	before=$(tree_hash)
	hsrun follow -- "$ST" inroot:.:al inroot:.:dl inroot:.:okl
	expect_eq "follow_symlinks: in-root symlinks to /secrets/... denied, to /other/o done" \
		"inroot .: EACCES|inroot .: EACCES|inroot .: ok" "$(tr '\n' '|' < "$TMP/out" | sed 's/|$//')"
	expect_eq "follow_symlinks: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_eq "follow_symlinks: other/o written" P "$(cat "$ROOT/other/o")"
else
	skip "follow_symlinks in root: no floor"
fi

# python3: libc's linkat and renameat2 through the shim, raw syscalls
# (ctypes' syscall) through the floor
PY='
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def r(name, v):
    print("%s=%d" % (name, 0 if v == 0 else ctypes.get_errno()), flush=True)
fd = os.open("secrets/f", os.O_RDONLY)
r("pylinkfd", libc.linkat(fd, b"", -100, b"p1", 0x1000))
r("pylinkproc", libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, b"p2", 0x400))
r("pyexchange", libc.renameat2(-100, b"x", -100, b"secrets/f", 2))
r("pyrawexchange", libc.syscall(316, -100, b"secrets/g", -100, b"x", 2))
r("pyrawlink", libc.syscall(265, fd, b"", -100, b"p3", 0x1000))
class How(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]
h = How(os.O_WRONLY | os.O_TRUNC, 0, 0x10)
d = os.open(".", os.O_PATH)
r("pyinroot", 0 if libc.syscall(437, d, b"/secrets/g", ctypes.byref(h), 24) >= 0 else -1)
'
for pol in if script; do
	reset_tree
	before=$(tree_hash)
	hsrun $pol -- python3 -c "$PY"
	for k in pylinkfd pylinkproc pyexchange pyrawexchange pyrawlink pyinroot; do
		case "$(cat "$TMP/out")" in
		*"$k=0"*) fail "python3/$pol: $k went through";;
		*"$k="*) pass "python3/$pol: $k denied";;
		*) fail "python3/$pol: $k: no result"; note "$(cat "$TMP/err")";;
		esac
	done
	expect_eq "python3/$pol: secrets/ unchanged" "$before" "$(tree_hash)"
done

# The root and its ancestors: not exchanged with another directory, not
# renamed, whichever side of the call names them (a Bash-only policy:
# the built-in rule alone).
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}' > "$TMP/bash.json"
for prog in "$DYN" "$ST"; do
	w=shim; [ "$prog" = "$ST" ] && w=floor
	[ "$prog" = "$ST" ] && [ $floor_here = 0 ] && { skip "$w: root exchange: no floor"; continue; }
	reset_tree
	ino=$(stat -c %i "$ROOT"); aino=$(stat -c %i "$TMP/a")
	hsrun bash -- "$prog" exchange:"$ROOT":"$TMP/b" exchange:"$TMP/b":"$ROOT" \
		exchange:"$TMP/a":"$TMP/b" exchange:"$TMP/b":"$TMP/a"
	expect_eq "$w: the root and its parent stay where they are" "$ino $aino" \
		"$(stat -c %i "$ROOT") $(stat -c %i "$TMP/a")"
	expect_eq "$w: each exchange denied" "EACCES EACCES EACCES EACCES" \
		"$(sed 's/.*: //' "$TMP/out" | tr '\n' ' ' | sed 's/ $//')"
done
reset_tree
hsrun bash -- bash -c 'python3 -c "import os; os.rename(\"$1/a\", \"$1/a2\")" 2>/dev/null; echo "py=$?"; busybox mv "$1/a" "$1/a3" 2>/dev/null; echo "bb=$?"' _ "$TMP"
expect_eq "the root's ancestor is not renamed (python3, busybox)" "py=1 bb=1" "$(tr '\n' ' ' < "$TMP/out" | sed 's/ $//')"
check "... it is still there" test -d "$ROOT"

# A hard link to a policy file made before the session is that file (its
# identity, recorded at session start): a write through it is denied.
mkdir -p "$ROOT/hooks"
printf '#!/bin/sh\nexit 0\n' > "$ROOT/hooks/guard.sh"; chmod 755 "$ROOT/hooks/guard.sh"
ln "$ROOT/hooks/guard.sh" "$ROOT/old_link"
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]}]}}' > "$ROOT/policy.json"
before=$(sha1sum < "$ROOT/hooks/guard.sh")
for prog in "$DYN" "$ST"; do
	w=shim; [ "$prog" = "$ST" ] && w=floor
	[ "$prog" = "$ST" ] && [ $floor_here = 0 ] && { skip "$w: old hard link: no floor"; continue; }
	rm -f "$ROOT/n6"
	( cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c policy.json -- "$prog" append:old_link linkfd:old_link:n6 ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "$w: a write through an older hard link of a hook script, and a link of it, denied" \
		"append old_link: EACCES|linkfd old_link: EACCES" "$(tr '\n' '|' < "$TMP/out" | sed 's/|$//')"
	expect_eq "$w: the hook script unchanged" "$before" "$(sha1sum < "$ROOT/hooks/guard.sh")"
done
expect_contains "the reason names the policy file" "$(cat "$TMP/err")" "is $ROOT/hooks/guard.sh"

# Unprivileged: the same calls by a user that owns the tree.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	reset_tree
	chown -R 65534:65534 "$TMP/a" "$TMP/b"; chmod 755 "$TMP/a"
	before=$(tree_hash)
	( cd "$ROOT" && HOME=$TMP/a timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HOOKSHIM" run --no-notices -c "$TMP/if.json" -- "$DYN" linkproc:secrets/f:n1 append:n1 \
		exchange:x:secrets/f inroot:.:/secrets/f ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "unprivileged, shim: each denied" \
		"linkproc secrets/f: EACCES|append n1: ENOENT|exchange x: EACCES|inroot .: EACCES" \
		"$(tr '\n' '|' < "$TMP/out" | sed 's/|$//')"
	if [ $floor_here = 1 ]; then
		( cd "$ROOT" && HOME=$TMP/a timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$HOOKSHIM" run --no-notices -c "$TMP/if.json" -- "$ST" linkproc:secrets/f:n1 append:n1 \
			exchange:x:secrets/f inroot:.:/secrets/f ) >"$TMP/out" 2>"$TMP/err"
		expect_eq "unprivileged, floor: each denied" \
			"linkproc secrets/f: EACCES|append n1: ENOENT|exchange x: EACCES|inroot .: EACCES" \
			"$(tr '\n' '|' < "$TMP/out" | sed 's/|$//')"
	fi
	expect_eq "unprivileged: secrets/ unchanged" "$before" "$(tree_hash)"
	chown -R 0:0 "$TMP/a" "$TMP/b"
else
	skip "identities unprivileged: not root or no setpriv"
fi
