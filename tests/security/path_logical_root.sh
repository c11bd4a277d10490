# Issue 15 row 10: a session started from a symlinked directory. The root
# is the physical directory (getcwd), the shell's $PWD its logical name;
# an absolute path built from $PWD must be judged as the same file: by
# the shim (bash), by the floor (a static busybox), and by the
# supervisor's `if` rules, also when a rule names the logical form.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "logical root: jq missing"; exit 0; }
mkdir -p proj/secrets proj/sub; echo keep > proj/secrets/old
ln -s proj plink
HLOG=$TMP/hook.log
cat > hooks.json <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"jq -r .tool_input.file_path >> $HLOG; echo 'secrets are protected' >&2; exit 2"}]},
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(/$TMP/plink/sub/guarded)",
   "command":"echo 'guarded by its logical name' >&2; exit 2"}]}]}}
J
tree_hash() { (cd "$TMP/proj/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %Y' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
# cd through the symlink: the shell keeps PWD=$TMP/plink
hsrun() { ( cd "$TMP/plink" && "$HOOKSHIM" run --no-notices -c "$TMP/hooks.json" "$@" ) >"$TMP/out" 2>"$TMP/err"; }

before=$(tree_hash)
hsrun -- bash -c 'echo "$PWD" > pwd.txt; echo P > "$PWD/secrets/k"; echo P >> "$PWD/secrets/old"; echo ok > "$PWD/benign.txt"'
expect_eq "bash's PWD is the logical name" "$TMP/plink" "$(cat proj/pwd.txt)"
expect_eq "shim: writes through \$PWD into secrets/ change nothing" "$before" "$(tree_hash)"
expect_contains "shim: the denial names the file" "$(cat "$TMP/err")" "secrets/k denied: secrets are protected"
expect_eq "shim: the hook saw the physical path" "$TMP/proj/secrets/k" "$(head -1 "$HLOG")"
expect_eq "shim: a benign write through \$PWD lands" ok "$(cat proj/benign.txt 2>/dev/null)"

: > "$HLOG"
hsrun -- bash -c 'echo P > "$PWD/sub/guarded"; echo P > sub/guarded2'
check "an absolute rule naming the logical root holds for the physical write" test ! -e proj/sub/guarded
expect_eq "other files beside it are written" P "$(cat proj/sub/guarded2 2>/dev/null)"

: > "$HLOG"
hsrun --root "$TMP/plink" -- bash -c 'echo P > "$TMP/plink/secrets/r"' 
check "--root given as the logical name: judged the same" test ! -e proj/secrets/r

BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	: > "$HLOG"
	cat > "$TMP/floor.json" <<J
{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"jq -r .tool_input.file_path >> $HLOG; echo 'secrets are protected' >&2; exit 2"}]}]}}
J
	( cd "$TMP/plink" && "$HOOKSHIM" run --no-notices -c "$TMP/floor.json" -- "$BB" sh -c \
		'echo P > "$PWD/secrets/k"; echo P >> "$PWD/secrets/old"; echo ok > "$PWD/bb.txt"' ) >"$TMP/out" 2>"$TMP/err"
	if grep -q "floor" "$TMP/err" && ! grep -q denied "$TMP/err"; then
		skip "logical root, floor: $(head -1 "$TMP/err")"
	else
		expect_eq "floor: a static busybox writing through \$PWD changes nothing in secrets/" "$before" "$(tree_hash)"
		expect_contains "floor: the reason reaches busybox's stderr" "$(cat "$TMP/err")" "secrets/k denied: secrets are protected"
		expect_eq "floor: a benign write through \$PWD lands" ok "$(cat proj/bb.txt 2>/dev/null)"
	fi
else
	skip "logical root, floor: busybox-static not installed"
fi
