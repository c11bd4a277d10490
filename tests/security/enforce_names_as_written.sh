# Enforce mode: the shim reads a written name as written first and walks
# it (follow_symlinks, identity stats) only where that name may fire a
# hook; the floor names and judges every call anyway. So a write that a
# symlink in a directory no hook watches leads to a watched file is the
# floor's to judge: it must still be denied, its hook run once, its reason
# said, and nothing land -- from bash, python and coreutils (the shim's
# processes), as root and as a user. The reverse (a watched name that is
# a symlink to a free file) is still the shim's: allowed, no hook, lands
# where it leads. A watched name with no symlink runs its hook once
# (the shim asks, the floor's notification consumes the ticket).
. "$HOOKSHIM_TOP/tests/lib.sh"
need_floor "names as written"
export HOME=$TMP/home; mkdir -p "$HOME"
# the hook logs each run (to a file outside the tree the agent writes)
cat > hook.sh <<'H'
#!/bin/sh
jq -r .tool_input.file_path >> "$HOOKLOG"
echo "no writes under secrets/" >&2
exit 2
H
chmod +x hook.sh
echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Write|Edit\",\"hooks\":[{\"type\":\"command\",\"if\":\"Write(secrets/**)\",\"command\":\"$PWD/hook.sh\"}]}]}}" > policy.json
cat > agent.sh <<'S'
cd work
echo P > lnk 2>>err.txt; echo "bash=$?"
python3 -c 'open("lnk", "w").write("P")' 2>>err.txt; echo "python=$?"
echo P | tee lnk >/dev/null 2>>err.txt; echo "tee=$?"
cp ../src.txt lnk 2>>err.txt; echo "cp=$?"
echo P > dirlnk/new 2>>err.txt; echo "newfile=$?"
: > dirlnk/k 2>>err.txt; echo "trunc=$?"
echo free > ../secrets/out; echo "reverse=$?"
echo P > ../secrets/direct 2>>err.txt; echo "direct=$?"
S
run_case() { # TAG PREFIX...
	local tag=$1
	shift
	rm -rf tree && mkdir -p tree/secrets tree/work tree/free && cd tree || return
	echo keep > secrets/k
	echo src > src.txt
	ln -s ../secrets/k work/lnk
	ln -s ../secrets work/dirlnk
	ln -s ../free/f secrets/out
	chmod -R a+rwX . 2>/dev/null
	before=$(cd secrets && ls -lA --time-style=full-iso && cat k | sha256sum)
	: > "$TMP/hook.log"; chmod 666 "$TMP/hook.log"
	out=$(HOOKLOG=$TMP/hook.log "$@" "$HOOKSHIM" run --enforce --no-notices -c ../policy.json -- bash ../agent.sh 2>"$TMP/run.err")
	each_denied "$tag: " "$out" bash python tee cp newfile trunc direct
	expect_eq "$tag: secrets/ unchanged" "$before" "$(cd secrets && ls -lA --time-style=full-iso && cat k | sha256sum)"
	expect_eq "$tag: the hook ran once for each (7), on the file written" \
		"$(printf '%s\n' k k k k new k direct | sed "s|^|$PWD/secrets/|")" "$(cat "$TMP/hook.log")"
	expect_contains "$tag: the hook's reason is said" "$(cat "$TMP/run.err")" "no writes under secrets/"
	expect_contains "$tag: a watched name that leads to a free file is allowed" "$out" "reverse=0"
	expect_eq "$tag: ... and lands where it leads" free "$(cat free/f 2>&1)"
	cd ..
}
run_case root env
if as_user "names as written"; then
	run_case user "${AS[@]}"
fi

# ... so the floor makes more of the shim's opens itself: their flags get
# the kernel's own answers (O_CREAT|O_DIRECTORY is EINVAL before any walk
# on 6.4 and later; the floor's open, made without O_CREAT on a directory
# that is there, said EISDIR)
mkdir -p fl/sub
cat > flags.py <<'P'
import os
for name, fl in (("O_CREAT|O_DIRECTORY", os.O_WRONLY | os.O_CREAT | os.O_DIRECTORY),
                 ("O_RDONLY|O_CREAT|O_DIRECTORY", os.O_RDONLY | os.O_CREAT | os.O_DIRECTORY)):
    for p in ("fl/sub", "fl/none"):
        try:
            os.close(os.open(p, fl, 0o644)); print(name, p, "ok")
        except OSError as e:
            print(name, p, e.strerror)
P
plain=$(python3 flags.py 2>&1)
expect_eq "flags: O_CREAT|O_DIRECTORY under enforce as the kernel answers it" \
	"$plain" "$("$HOOKSHIM" run --enforce --no-notices -c policy.json -- python3 flags.py 2>&1)"
