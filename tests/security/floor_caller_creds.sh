# Issue 23, enforce mode, a root session: a process of the session whose
# credentials are not the supervisor's -- it dropped a capability, added a
# group, became a user (one line of setpriv or capsh) -- had every call
# continued in the kernel, which read its path again: a thread swapping
# a harmless name for secret/x landed there. The supervisor now makes
# such a caller's calls in a thread that took on its fs ids, groups and
# effective capabilities (floor/floor_identity.c, hs_fl_become), so the
# kernel's checks are the caller's and the swap lands nothing. Shown
# with the static probe; what the calls do is the kernel's own (the same
# results and tree plain and under the floor, for each identity); and the
# supervisor's threads get their own credentials back.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "caller credentials: probe not built"; exit 0; }
need_floor "caller credentials"
[ "$(id -u)" = 0 ] || { skip "caller credentials: a root session's (not root here)"; exit 0; }
as_user "caller credentials" || exit 0
command -v capsh >/dev/null || { skip "caller credentials: no capsh"; exit 0; }
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
N=${FLOOR_RACE_N:-1500}
ROOT=$TMP/root
tree() { (cd "$1" && find . -printf '%p %M %u %s %l %n\n' | LC_ALL=C sort); }

# the identities: a capability dropped (from the bounding set: root's
# effective set after exec), a group added, a user
declare -A who=(
	[caps]="setpriv --inh-caps=-net_raw --bounding-set=-net_raw"
	[groups]="setpriv --reuid=0 --regid=0 --groups=0,4"
	[user]="setpriv --reuid=$AS_ID --regid=$AS_ID --clear-groups"
)
for w in caps groups user; do
	# shellcheck disable=SC2206 # the command's words
	as=(${who[$w]})
	owner=0; [ $w = user ] && owner=$AS_ID
	"${as[@]}" grep CapEff /proc/self/status >"$TMP/capeff"
	# ---- the race ----
	for op in mem rename; do
		rm -rf "$ROOT"; mkdir -p "$ROOT/secret" "$ROOT/aaaaaa"
		chown -R $owner "$ROOT"
		if [ $op = mem ]; then arg=race-mem:aaaaaa/x:secret/x:$N; else arg=race-call:rename:aaaaaa/x:secret/x:$N; fi
		( cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
			"${as[@]}" "$P" $arg ) >"$TMP/out" 2>"$TMP/err"
		note "$w $op: $(cat "$TMP/out"), in secret/: $(ls -A "$ROOT/secret" | wc -l)"
		expect_contains "$w: enforce, $op with the path swapped by a thread: the calls ran" \
			"$(cat "$TMP/out")" "race-"
		expect_eq "$w: enforce, $op with the path swapped by a thread: nothing lands in secret/ ($N calls)" \
			"" "$(ls -A "$ROOT/secret")"
	done
	# ---- the kernel's own results ----
	for run in paths specials; do
		rm -rf "$TMP/plain" "$TMP/floor"; mkdir -p "$TMP/plain" "$TMP/floor"
		chown $owner "$TMP/plain" "$TMP/floor"
		( cd "$TMP/plain" && "${as[@]}" "$P" $run:"$TMP/plain" ) >"$TMP/plain.out" 2>&1
		( cd "$TMP/floor" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
			"${as[@]}" "$P" $run:"$TMP/floor" ) >"$TMP/floor.out" 2>"$TMP/err"
		expect_eq "$w: $run under enforce: every result as the kernel's own" \
			"$(sed "s#$TMP/plain#D#g" "$TMP/plain.out")" "$(sed "s#$TMP/floor#D#g" "$TMP/floor.out")"
		[ $run = paths ] && expect_eq "$w: $run under enforce: the same tree (modes, owners, sizes, links)" \
			"$(tree "$TMP/plain")" "$(tree "$TMP/floor")"
	done
done

# ---- the caller's checks, not the supervisor's ----
rm -rf "$ROOT"; mkdir -p "$ROOT/closed/open" "$ROOT/mine"
chmod 700 "$ROOT/closed"; chmod 777 "$ROOT/closed/open"; chown $AS_ID "$ROOT/mine"
echo ro >"$ROOT/ro"; chmod 444 "$ROOT/ro"
script='for f in closed/open/f ro mine/f; do echo x >>$f 2>/dev/null; echo "$f=$?"; done'
( cd "$ROOT" && "${AS[@]}" bash -c "$script" ) >"$TMP/plain.out" 2>/dev/null
rm -f "$ROOT/mine/f"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "${AS[@]}" bash -c "$script" ) \
	>"$TMP/floor.out" 2>"$TMP/err"
expect_eq "a user under a root session: a directory it cannot pass, a file it cannot write, its own -- as plain" \
	"$(printf 'closed/open/f=1\nro=1\nmine/f=0')" "$(cat "$TMP/floor.out")"
expect_eq "  ... plain says the same" "$(cat "$TMP/plain.out")" "$(cat "$TMP/floor.out")"
expect_eq "  ... its file is its own, the others untouched" "$AS_ID ro" \
	"$(stat -c %u "$ROOT/mine/f") $(cat "$ROOT/ro")"
check "  ... nothing made where it may not pass" test ! -e "$ROOT/closed/open/f"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
	capsh --drop=cap_dac_override -- -c 'echo x >>ro; echo "ro=$?"' ) >"$TMP/out" 2>&1
expect_contains "root without CAP_DAC_OVERRIDE: a 0444 file is not written (as plain)" "$(cat "$TMP/out")" "ro=1"
expect_eq "  ... the file unchanged" ro "$(cat "$ROOT/ro")"

# a root process that drops to a user itself, without exec (not
# dumpable: the kernel would check a thread of ours against its /proc,
# not the caller itself): its own directory descriptor still leads the
# supervisor's walk, and the file is the user's
rm -rf "$ROOT"; mkdir -p "$ROOT/mine"; chown $AS_ID "$ROOT/mine"
cat >"$TMP/drop.py" <<PY
import os
os.setgroups([]); os.setresgid($AS_ID, $AS_ID, $AS_ID); os.setresuid($AS_ID, $AS_ID, $AS_ID)
d = os.open("mine", os.O_RDONLY)
fd = os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=d); os.write(fd, b"nd"); os.close(fd)
try:
    os.open("closed", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=os.open("/", os.O_RDONLY)); print("root dir: made")
except OSError as e:
    print("root dir:", e.strerror)
print("made", open("mine/f").read())
PY
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- python3 "$TMP/drop.py" ) >"$TMP/out" 2>"$TMP/err"
expect_eq "a process that dropped to a user without exec: made through its dirfd, refused in / (as plain)" \
	"$(printf 'root dir: Permission denied\nmade nd')" "$(cat "$TMP/out")"
expect_eq "  ... the file is the user's" "$AS_ID" "$(stat -c %u "$ROOT/mine/f")"
check "  ... nothing made in /" test ! -e /closed

# ---- the supervisor's credentials come back ----
# calls made as the user, then root's in the same session: root's still
# reach what only root may, and are root's; the session's log is written
rm -rf "$ROOT"; mkdir -p "$ROOT/mine" "$ROOT/rootonly"; chmod 700 "$ROOT/rootonly"; chown $AS_ID "$ROOT/mine"
( cd "$ROOT" && "$HOOKSHIM" run --no-notices --log "$TMP/log" -c "$TMP/enforce.json" -- bash -c '
	'"${AS[*]}"' bash -c "for i in 1 2 3; do echo u >mine/u\$i; done; mkdir mine/d; mkfifo mine/p; ln -s u1 mine/l"
	echo r >rootonly/r; mkdir rootonly/d; echo "root=$?"' ) >"$TMP/out" 2>"$TMP/err"
expect_eq "after calls made as a user, root's calls in the session are root's" "root=0" "$(cat "$TMP/out")"
expect_eq "  ... the user's files the user's, root's root's" "$AS_ID $AS_ID 0 0" \
	"$(stat -c %u "$ROOT/mine/u3" "$ROOT/mine/d" "$ROOT/rootonly/r" "$ROOT/rootonly/d" | tr '\n' ' ' | sed 's/ $//')"
expect_contains "  ... and the session's log written to its end" "$(cat "$TMP/log")" '"session_end"'
