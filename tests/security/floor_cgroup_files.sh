# Issue 23, enforce mode: a cgroup's file was left to the kernel (its
# writes to cgroup.procs check the opener's cgroup namespace), so any of
# them was a decoy: an openat2 read of /sys/fs/cgroup/.../cgroup.procs,
# its flags and path flipped by a thread to O_WRONLY|O_CREAT on
# secret/..., was continued and the kernel read the flipped ones (a few
# hundred of 1,500 landed, cgroup v1 and v2, on the build before). The
# supervisor now opens a cgroup's file as it opens any other -- a read
# always, a write where the caller is in its cgroup namespace (and, v1, of
# its effective uid) -- and enforce mode refuses a cgroup namespace of
# the session's own (tests/security/root_calls.sh), as it refuses mount
# and user namespaces. What the opens give is the kernel's own: the same
# reads plain and under enforce with a Read hook, and a write to a v2
# cgroup.procs moves the writer as it does plain.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "cgroup files: probe not built"; exit 0; }
need_floor "cgroup files"
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
# (a cgroup's file opened for writing is refused unless "cgroups" is
# allowed, tests/security/root_calls.sh: what is shown here is how the
# supervisor opens one where it is)
echo "{\"hookshim\":{\"mode\":\"enforce\",\"floor_allow\":[\"cgroups\"]},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
echo '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","if":"Read(secret/**)","command":"exit 2"}]}]}}' >"$TMP/read.json"
N=${FLOOR_RACE_N:-1500}
ROOT=$TMP/root
chmod 755 "$TMP"

# the first mount of each version (v1: a hierarchy's root, v2: the
# unified one)
V1=$(awk '$3 == "cgroup" { print $2; exit }' /proc/self/mounts)
V2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$V1$V2" ] || { skip "cgroup files: no cgroup file system mounted"; exit 0; }

# ---- the decoy: a read of cgroup.procs flipped to a write of secret/... ----
decoy() { # LABEL FILE [as user...]
	local label=$1 a=$2 b
	shift 2
	# the name swapped in has the decoy's length
	b=secret/$(printf '%*s' $((${#a} - 7)) '' | tr ' ' x)
	rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; chown -R "${OWNER:-0}" "$ROOT"
	( cd "$ROOT" && timeout 120 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		"$P" race-how:"$a":"$b":$N ) >"$TMP/out" 2>"$TMP/err"
	note "$label: $(cat "$TMP/out"), in secret/: $(ls -A "$ROOT/secret" | wc -l)"
	expect_contains "$label: enforce, $a as the decoy: the opens ran" "$(cat "$TMP/out")" "race-how: "
	expect_eq "$label: enforce, a decoy $a flipped to a write of secret/... lands nothing ($N opens)" \
		"" "$(ls -A "$ROOT/secret")"
}
for f in ${V1:+$V1/cgroup.procs} ${V2:+$V2/cgroup.procs}; do
	decoy "as root" "$f"
	if as_user "cgroup decoy"; then
		OWNER=$AS_ID decoy "as a user" "$f" "${AS[@]}"
	fi
done

# ---- cgroup v1: a process of another effective uid ----
# A v1 write that moves a task checks the effective uid the file was
# opened with, which the supervisor's thread does not take on: such an
# open went to the kernel, and a root session's process that switched
# its effective uid but kept its capabilities (SECBIT_NO_SETUID_FIXUP)
# had its decoy land (a file in secret/ of 1,500 on 64c4b74). Now the
# open is refused (EACCES, where the kernel's own would open: the one
# difference, docs/limits.md).
if [ -n "$V1" ] && [ "$(id -u)" = 0 ]; then
	f=$V1/cgroup.procs
	RACE_EUID=65534 "$P" err:"$f":1 >"$TMP/out" 2>&1
	expect_eq "v1, effective uid 65534 with root's capabilities: plain, the open for writing is made" \
		"err $f: ok" "$(cat "$TMP/out")"
	RACE_EUID=65534 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- "$P" err:"$f":1 >"$TMP/out" 2>&1
	expect_eq "v1, ... under enforce: refused, EACCES" "err $f: EACCES" "$(cat "$TMP/out")"
	RACE_EUID=65534 decoy "v1, effective uid 65534 with root's capabilities" "$f"
fi

# ---- reads: the kernel's own ----
for f in ${V1:+$V1/cgroup.clone_children $V1/cgroup.procs} \
	${V2:+$V2/cgroup.controllers $V2/cgroup.subtree_control}; do
	[ -r "$f" ] || continue
	# (the content of cgroup.procs changes with the processes: its
	# first line, a process that outlives both runs, and whether it
	# reads at all; the others whole)
	case $f in
	*/cgroup.procs) want=$(head -n1 "$f"); cmd="head -n1 $f" ;;
	*) want=$(cat "$f"); cmd="cat $f" ;;
	esac
	got=$("$HOOKSHIM" run --no-notices -c "$TMP/read.json" -- sh -c "$cmd" 2>"$TMP/err")
	expect_eq "enforce with a Read hook: $f reads as plain" "$want" "$got"
done

# ---- a write to a v2 cgroup.procs, by the supervisor's open ----
if [ -n "$V2" ] && [ "$(id -u)" = 0 ] && mkdir "$V2/hookshim-test-$$" 2>/dev/null; then
	G=$V2/hookshim-test-$$
	move='echo $$ > '"$G"'/cgroup.procs && grep "^0::" /proc/self/cgroup'
	want=$(sh -c "$move" 2>&1)
	got=$("$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- sh -c "$move" 2>&1)
	expect_contains "plain: a shell moves itself into a v2 cgroup" "$want" "/hookshim-test-$$"
	expect_eq "enforce: ... and the same under the floor, through the supervisor's open" "$want" "$got"
	rmdir "$G" 2>/dev/null
else
	skip "cgroup files: no v2 cgroup this test may make (not root, or none mounted)"
fi

# ---- the refusal raced: a name flipped to a cgroup's file ----
# A cgroup's file opened for writing is refused unless "cgroups" is
# allowed (root_calls.sh), by the name judged: a symlink flipped, from
# outside the session, between a plain file and a cgroup.procs between
# that look and the supervisor's open reached the cgroup's file (34 of
# 20,000 writable, the probe moved into the cgroup, on the build before:
# session 37's review). What the supervisor's open reached is looked at
# now, and judged again by what it names.
echo '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"exit 2"}]}]}}' >"$TMP/refuse.json"
CGV=${V1:-$V2}
if [ -n "$CGV" ] && mkdir -p "$CGV/hookshim-race-$$" 2>/dev/null; then
	rm -rf "$ROOT"; mkdir -p "$ROOT"; echo x >"$ROOT/decoy"; ln -s decoy "$ROOT/L"
	"$P" flip:"$ROOT/L":"$ROOT/decoy":"$CGV/hookshim-race-$$/cgroup.procs":30000 2>/dev/null &
	flipper=$!
	out=$(cd "$ROOT" && timeout 120 "$HOOKSHIM" run --no-notices -c "$TMP/refuse.json" -- \
		"$P" cgroup-opens:"$ROOT/L":${CG_RACE_N:-20000} 2>/dev/null)
	kill $flipper 2>/dev/null; wait $flipper 2>/dev/null
	expect_eq "enforce: a name flipped to a cgroup's file: never opened for writing" \
		"cgroup-opens: 0 of a cgroup's" "$out"
	rmdir "$CGV/hookshim-race-$$"
else
	skip "cgroup files: no cgroup to make for the race"
fi
