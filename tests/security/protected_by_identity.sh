# Issue 23 items 4 and 5: a protected file (a hook script, the policy
# file) is protected by what it is, not only by its names. A symlink that
# was there before the session (a cloned repository brings one, or an
# earlier session made it), pointing at the file or at a directory above
# it, is a name the kernel follows to the file: a write through it is a
# write to that file, denied with the reason, in guard and enforce mode,
# through the shim (bash, python: open, truncate, a directory descriptor
# outside the root) and the floor (a static busybox), from inside the
# root and from outside it; and the hook script's directory, protected
# whole, is by the identity of its directories too: through a symlinked
# directory nothing is created, made, linked, renamed in or out of it,
# or removed. A symlink to any other file still works. In
# enforce mode, a symlink swapped back and forth while a static program
# writes through it never lets a write reach the hook script: what an
# open on the caller's behalf reached is looked at before it is handed
# over, and its O_TRUNC waits until then.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v python3 >/dev/null || { skip "identity: python3 missing"; exit 0; }
BB=$(command -v busybox || true)
[ -n "$BB" ] && ! file -L "$BB" 2>/dev/null | grep -q 'statically linked' && BB=
chmod 755 "$TMP"
ROOT=$TMP/root OUT=$TMP/out
mkdir -p "$ROOT/.hookshim/hooks" "$OUT"
printf '#!/bin/sh\nexit 0\n' > "$ROOT/.hookshim/hooks/ok.sh"
chmod 755 "$ROOT/.hookshim/hooks/ok.sh"
cat > "$ROOT/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./.hookshim/hooks/ok.sh"}]}]}}
J
echo benign > "$ROOT/other.txt"
# the names made before the session
ln -s .hookshim/hooks/ok.sh "$ROOT/evil"
ln -s policy.json "$ROOT/evilpol"
ln -s .hookshim/hooks "$ROOT/d"
ln -s "$ROOT/.hookshim/hooks/ok.sh" "$OUT/abs"
ln -s other.txt "$ROOT/fine"
state() { sha256sum "$ROOT/.hookshim/hooks/ok.sh" "$ROOT/policy.json"; stat -c '%i %s' "$ROOT/.hookshim/hooks/ok.sh" "$ROOT/policy.json"; ls -a "$ROOT/.hookshim/hooks"; }
before=$(state)

floor_here=1
(cd "$ROOT" && "$HOOKSHIM" run --enforce -c policy.json -- true) 2>/dev/null || floor_here=0
[ $floor_here = 0 ] && BB= # no floor: a static program is nobody's to judge

cat > "$TMP/agent.sh" <<'S'
for n in evil evilpol d/ok.sh "$OUT/abs"; do
	echo P > "$n" 2>/dev/null; echo "bash-redir $n=$?"
	echo P >> "$n" 2>/dev/null; echo "bash-append $n=$?"
	python3 -c 'import sys; open(sys.argv[1], "w").write("P")' "$n" 2>/dev/null; echo "py-open $n=$?"
	python3 -c 'import os, sys; os.truncate(sys.argv[1], 0)' "$n" 2>/dev/null; echo "py-truncate $n=$?"
	if [ -n "$BB" ]; then
		"$BB" sh -c 'echo P > "$1"' _ "$n" 2>/dev/null; echo "bb-redir $n=$?"
		"$BB" truncate -s 0 "$n" 2>/dev/null; echo "bb-truncate $n=$?"
	fi
done
# openat from a descriptor of a directory outside the root, where no
# hook's path can match (the shim's quick path)
python3 -c '
import os, sys
d = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
os.write(os.open("abs", os.O_WRONLY | os.O_TRUNC, dir_fd=d), b"P")' "$OUT" 2>/dev/null
echo "py-dirfd abs=$?"
# O_NOFOLLOW stops at a symlink in the last component only: the
# symlinked directory above the file is followed all the same
python3 -c 'import os; os.write(os.open("d/ok.sh", os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW), b"P")' 2>/dev/null
echo "py-nofollow d/ok.sh=$?"
"$PROBES/ident_dynamic" nofollow:d/ok.sh 2>/dev/null | grep -q ': ok$'; echo "dyn-nofollow d/ok.sh=$?"
if [ -n "$BB" ]; then
	"$PROBES/ident_static" nofollow:d/ok.sh 2>/dev/null | grep -q ': ok$'; echo "static-nofollow d/ok.sh=$?"
	"$PROBES/ident_static" rdtrunc:evil 2>/dev/null | grep -q ': ok$'; echo "static-rdtrunc evil=$?"
fi
# the hook script's directory is protected whole: through the symlinked
# directory, nothing new in it, nothing taken out of it
echo P > d/json.py 2>/dev/null; echo "tree-create d/json.py=$?"
mkdir d/sub 2>/dev/null; echo "tree-mkdir d/sub=$?"
ln -s x d/lnk 2>/dev/null; echo "tree-symlink d/lnk=$?"
mv d/ok.sh moved 2>/dev/null; echo "tree-rename-out d/ok.sh=$?"
echo P > newfile; mv newfile d/json.py 2>/dev/null; echo "tree-rename-in d/json.py=$?"
rm -f d/ok.sh 2>/dev/null; echo "tree-unlink d/ok.sh=$?"
python3 -c 'open("d/util.py", "x").write("P")' 2>/dev/null; echo "tree-py-create d/util.py=$?"
python3 -c 'import tempfile; tempfile.mkstemp(dir="d")' 2>/dev/null; echo "tree-py-mkstemp d/tmp*=$?"
mktemp d/tmp.XXXXXX >/dev/null 2>&1; echo "tree-mktemp d/tmp.*=$?"
if [ -n "$BB" ]; then
	"$BB" sh -c 'echo P > d/json2.py' 2>/dev/null; echo "tree-bb-create d/json2.py=$?"
	"$BB" mkdir d/sub2 2>/dev/null; echo "tree-bb-mkdir d/sub2=$?"
fi
echo fine > fine; echo "benign=$?"
S
# As root, and as a user who owns the project (issue 23: items 4 and 5
# hold as root and as an unprivileged user; as a user in enforce mode the
# agent runs in a user namespace of its own)
for who in root user; do
	AS=()
	if [ $who = user ]; then
		as_user identity || break
		chown -R $AS_ID:$AS_ID "$ROOT" "$OUT"
		before=$(state)
	fi
	for mode in guard enforce; do
		if [ $mode = enforce ] && [ $floor_here = 0 ]; then
			skip "identity/enforce: no syscall floor here"; continue
		fi
		out=$(cd "$ROOT" && OUT=$OUT BB=$BB PROBES=$HOOKSHIM_PROBES timeout 120 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c policy.json -- bash "$TMP/agent.sh" 2>"$TMP/err")
		n=0
		while read -r line; do
			case $line in
			benign=*) continue ;;
			*=0) fail "$who $mode: $line: went through" ;;
			*=*) n=$((n + 1)) ;;
			esac
		done <<<"$out"
		want=$((4 * 4 + 1 + 2 + 9)); [ -n "$BB" ] && want=$((want + 4 * 2 + 2 + 2))
		expect_eq "$who $mode: every write through another name failed" "$want" "$n"
		expect_eq "$who $mode: the hook script and the policy unchanged" "$before" "$(state)"
		# (guard mode names the symlink and what it leads to; enforce
		# mode, which follows symlinks, the file written)
		if [ $mode = guard ]; then
			hook="$ROOT/evil is $ROOT/.hookshim/hooks/ok.sh,"
			pol="$ROOT/evilpol is $ROOT/policy.json,"
		else
			hook="write to $ROOT/.hookshim/hooks/ok.sh denied: $ROOT/.hookshim/hooks/ok.sh is"
			pol="write to $ROOT/policy.json denied: $ROOT/policy.json is"
		fi
		expect_contains "$who $mode: the reason names the file the name leads to" "$(cat "$TMP/err")" \
			"$hook part of this session's policy (hook script of PreToolUse[Bash]#1)"
		expect_contains "$who $mode: and the policy file's" "$(cat "$TMP/err")" \
			"$pol part of this session's policy (config file)"
		expect_contains "$who $mode: a symlink to another file still works" "$out" "benign=0"
		expect_eq "$who $mode: its target written" "fine" "$(cat "$ROOT/other.txt")"
		echo benign > "$ROOT/other.txt"
	done
done

chown -R 0:0 "$ROOT" "$OUT"

# Enforce mode with "floor_opens": "all": the symlink flips between a
# benign file and the hook script (flipped from outside the session:
# inside it, a symlink to a protected file cannot be made) while a static
# program truncates and writes through it; the hook script never changes:
# a flip after the judging is caught at the descriptor the supervisor
# opened, before its O_TRUNC. (By default an open no hook was asked about
# continues in the kernel, which walks the name again: the decoy-swap
# limit of docs/limits.md, "Under the floor".)
if [ -z "$BB" ]; then
	skip "identity/race: no static busybox or no syscall floor"
else
	cat > "$TMP/flip.py" <<'P'
import os, sys, time
root = sys.argv[1]
end = time.time() + float(sys.argv[2])
while time.time() < end:
    for t in (".hookshim/hooks/ok.sh", "other.txt"):
        try:  # left by a flipper killed between the two calls
            os.unlink(root + "/flip.tmp")
        except FileNotFoundError:
            pass
        os.symlink(t, root + "/flip.tmp")
        os.replace(root + "/flip.tmp", root + "/flip")
P
	sed 's/^{/{"hookshim":{"floor_opens":"all"},/' "$ROOT/policy.json" > "$ROOT/all.json"
	before=$(state)
	ln -sf other.txt "$ROOT/flip"
	python3 "$TMP/flip.py" "$ROOT" 20 & flipper=$!
	(cd "$ROOT" && timeout 120 "$HOOKSHIM" run --enforce --no-notices -c all.json -- \
		"$BB" sh -c 'i=0; while [ $i -lt 1000 ]; do echo X > flip; i=$((i + 1)); done') >/dev/null 2>"$TMP/race.err"
	kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
	expect_eq "enforce/race: the hook script unchanged while a symlink flipped under 1,000 writes" "$before" "$(state)"
	check "enforce/race: writes that found the benign file landed" grep -qx X "$ROOT/other.txt"
	# O_RDONLY|O_TRUNC truncates too: the same race, read-only opens
	python3 "$TMP/flip.py" "$ROOT" 20 & flipper=$!
	(cd "$ROOT" && timeout 120 "$HOOKSHIM" run --enforce --no-notices -c all.json -- \
		"$HOOKSHIM_PROBES/ident_static" $(for i in $(seq 600); do echo rdtrunc:flip; done)) >/dev/null 2>&1
	kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
	expect_eq "enforce/race: the hook script unchanged under 600 O_RDONLY|O_TRUNC opens through the flipping link" "$before" "$(state)"
	# what the supervisor opens for the caller keeps the kernel's O_TRUNC
	echo keep > "$ROOT/t1"; echo keep > "$ROOT/t2"; : > "$ROOT/t3"
	(cd "$ROOT" && "$HOOKSHIM" run --enforce --no-notices -c all.json -- \
		"$HOOKSHIM_PROBES/ident_static" rdtrunc:t1 nofollow:t2 rdtrunc:t3) > "$TMP/emu.out" 2>&1
	expect_eq "enforce: an emulated O_RDONLY|O_TRUNC truncates, O_WRONLY|O_TRUNC replaces" "0 P" \
		"$(stat -c %s "$ROOT/t1") $(cat "$ROOT/t2")"
	expect_eq "enforce: ...and each call says ok" 3 "$(grep -c ': ok$' "$TMP/emu.out")"
	note "writes denied at the hook script: $(grep -c 'is .*ok.sh, part of' "$TMP/race.err")"
fi
