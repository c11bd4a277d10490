# Issue 23: a forged HOOKSHIM_FDS record (shim/fdcarry.h: the staged
# writes an exec hands to its new image) must never make the shim itself
# publish anything. The agent opens a file of its own, writes what it
# likes into it, and execs a dynamic program with a raw execve (the
# shim's exec would drop the variable) carrying a record that calls that
# descriptor a staged write of a file a hook guards. At the new image's
# exit its shim asks the content hooks and publishes -- over the guarded
# file -- unless the supervisor knows the record is not one it allowed.
# Guard and enforce mode, by every publishing way (rename, O_EXCL link,
# copy), and a real staged write across an exec still lands.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" hooks

# A path guard (no content hook: nothing is asked at a publish but
# content hooks) and a content scanner on other files.
cat > hooks/guard.sh <<'S'
#!/bin/sh
p=$(jq -r .tool_input.file_path)
case $p in */guarded*) echo "guarded: $p" >&2; exit 2;; esac
exit 0
S
cat > hooks/scan.sh <<'S'
#!/bin/sh
jq -r .tool_input.content | grep -q SECRET && { echo "secret in content" >&2; exit 2; }
exit 0
S
chmod +x hooks/*.sh
cat > policy.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]},
 {"matcher":"Write|Edit","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/hooks/scan.sh","content":true}]}]}}
J

# forge.py FLAGS TARGET: a descriptor of ours with EVIL in it, handed to
# /bin/true as a staged write of TARGET (fdtrack.h: 2 staged, 4 O_EXCL,
# 8 copy).
cat > forge.py <<'S'
import ctypes, os, sys
flags, target = sys.argv[1], os.path.abspath(sys.argv[2])
fd = os.open(".", os.O_TMPFILE | os.O_RDWR, 0o644)
os.write(fd, b"EVIL\n")
os.set_inheritable(fd, True)
def field(s):
    return "%d:%s" % (len(s.encode()), s)
rec = "%d/%d:%s:%s%s%s" % (os.getpid(), fd, flags, field("overwrite"),
                           field("hs-forged-1"), field(target))
env = [k + "=" + v for k, v in os.environ.items() if k != "HOOKSHIM_FDS"]
env.append("HOOKSHIM_FDS=" + rec)
libc = ctypes.CDLL(None, use_errno=True)
argv = (ctypes.c_char_p * 2)(b"/bin/true", None)
envp = (ctypes.c_char_p * (len(env) + 1))(*[e.encode() for e in env], None)
libc.syscall(59, b"/bin/true", argv, envp)   # raw execve: the shim's
print("execve failed", ctypes.get_errno())   # exec would drop the record
S

# As root, and as a user who owns the project (issue 23: item 3 holds in
# both modes, run as root and as an unprivileged user).
mine() { [ "$who" = user ] && chown $AS_ID:$AS_ID "$@"; :; }
for who in root user; do
	AS=()
	if [ $who = user ]; then
		as_user "forged records" || break
		chown -R $AS_ID:$AS_ID .
	fi
	for m in guard enforce; do
		for way in 2:rename 6:excl 10:copy; do
			flags=${way%%:*} name=${way#*:}
			echo original > guarded.txt; mine guarded.txt
			[ $name = excl ] && rm -f guarded.txt
			timeout 30 "${AS[@]}" "$HOOKSHIM" run --$m --no-notices -c policy.json \
				--log log.jsonl -- python3 forge.py "$flags" guarded.txt \
				>out.txt 2>err.txt
			got=$(cat guarded.txt 2>/dev/null || echo absent)
			want=original; [ $name = excl ] && want=absent
			expect_eq "$who $m $name: a forged record publishes nothing" "$want" "$got"
			expect_contains "$who $m $name: the publish is denied, and says why" \
				"$(cat err.txt)" "guarded: $PWD/guarded.txt"
			check "$who $m $name: no staging name left behind" \
				bash -c '! ls -a | grep -q "^\.hs-stage-"'
		done
		# the same forged record for a file no hook guards: judged as any
		# write, so the content hook sees it
		rm -f free.txt
		timeout 30 "${AS[@]}" "$HOOKSHIM" run --$m --no-notices -c policy.json \
			-- python3 forge.py 2 free.txt >out.txt 2>err.txt
		expect_eq "$who $m: a forged record for a free file is judged as a write (allowed)" "EVIL" "$(cat free.txt 2>/dev/null)"

		# a real staged write across an exec: `cmd > f`, cmd's exit publishes
		rm -f real.txt scanned.txt
		timeout 30 "${AS[@]}" "$HOOKSHIM" run --$m --no-notices -c policy.json \
			-- bash -c 'echo fine > real.txt; /bin/echo SECRET > scanned.txt; /bin/echo ok > real2.txt' \
			>out.txt 2>err.txt
		expect_eq "$who $m: a real staged write still lands" "fine" "$(cat real.txt 2>/dev/null)"
		expect_eq "$who $m: a real staged write across an exec lands" "ok" "$(cat real2.txt 2>/dev/null)"
		check "$who $m: its content hook still denies" test ! -e scanned.txt
	done
done
