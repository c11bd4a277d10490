# Issue 15 row 7 (link names): a hard link whose new name is unwatched but
# whose source is protected is a write to the source, judged at the
# source: `ln secrets/f h; echo P > h` no longer escapes, by the shim
# (coreutils ln) or the floor (a static busybox ln). A rename already
# judges both names. Pre-existing hard links are a documented limit: the
# last case shows it.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "hard link: jq missing"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secrets"; echo keep > "$ROOT/secrets/f"
cat > "$TMP/hooks.json" <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %Y %h' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
hsrun() { ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/hooks.json" "$@" ) >"$TMP/out" 2>"$TMP/err"; }

before=$(tree_hash)
echo benign > "$ROOT/b"
hsrun -- bash -c 'ln secrets/f h; echo P > h; mv secrets/f out; ln b b2'
expect_eq "shim: ln secrets/f h is denied, nothing changes" "$before" "$(tree_hash)"
check "shim: no second name was made (h, if any, is a new file)" test "$(stat -c %h "$ROOT/secrets/f")" = 1 -a "$(stat -c %i "$ROOT/h")" != "$(stat -c %i "$ROOT/secrets/f")"
expect_contains "shim: judged at the source" "$(cat "$TMP/err")" "$ROOT/secrets/f denied"
check "shim: a benign hard link is made" test "$(stat -c %h "$ROOT/b")" = 2

BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
if [ -n "$BB" ]; then
	hsrun -- "$BB" sh -c 'ln secrets/f h2; echo P > h2'
	if grep -q "no syscall floor" "$TMP/err"; then
		skip "hard link, floor: no floor here"
	else
		expect_eq "floor: busybox ln secrets/f h2 is denied" "$before" "$(tree_hash)"
		check "floor: no second name was made" test "$(stat -c %h "$ROOT/secrets/f")" = 1 -a "$(stat -c %i "$ROOT/h2")" != "$(stat -c %i "$ROOT/secrets/f")"
	fi
else
	skip "hard link, floor: busybox-static not installed"
fi

# As a user who owns the project, in guard and in enforce mode (issue 23:
# as root and as an unprivileged user)
if as_user "hard link"; then
	rm -f "$ROOT/h" "$ROOT/h2" "$ROOT/b2"; chown -R $AS_ID:$AS_ID "$ROOT"
	before=$(tree_hash)
	for mode in guard enforce; do
		hsrun_user() { ( cd "$ROOT" && "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices \
			-c "$TMP/hooks.json" "$@" ) >"$TMP/out" 2>"$TMP/err"; }
		hsrun_user -- bash -c 'ln secrets/f h; echo P > h; mv secrets/f out'
		expect_eq "user $mode, shim: ln secrets/f h is denied, nothing changes" "$before" "$(tree_hash)"
		check "user $mode, shim: no second name was made" test "$(stat -c %h "$ROOT/secrets/f")" = 1
		expect_contains "user $mode, shim: judged at the source" "$(cat "$TMP/err")" "$ROOT/secrets/f denied"
		if [ -n "$BB" ] && ! grep -q "no syscall floor" "$TMP/err"; then
			hsrun_user -- "$BB" sh -c 'ln secrets/f h2; echo P > h2'
			expect_eq "user $mode, floor: busybox ln secrets/f h2 is denied" "$before" "$(tree_hash)"
			check "user $mode, floor: no second name was made" test "$(stat -c %h "$ROOT/secrets/f")" = 1
		fi
		rm -f "$ROOT/h" "$ROOT/h2"
	done
	chown -R 0:0 "$ROOT"
fi

# The limit (docs/limits.md): a hard link made before the session is another name
# for the same file that nothing maps back to secrets/.
ln "$ROOT/secrets/f" "$ROOT/old_link"
hsrun -- bash -c 'echo P >> old_link'
expect_eq "limit: a pre-existing hard link still writes the protected file" "keep
P" "$(cat "$ROOT/secrets/f")"
