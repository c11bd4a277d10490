# Issue 23 item 6: a core file is a file the kernel writes by a name of
# its own making -- core_pattern "core" in the crashing process's
# directory -- below every path check. `cd secret; ulimit -c unlimited`
# and a SIGSEGV made secret/core, the process's memory, in enforce mode
# too (until session 28). The agent now starts with RLIMIT_CORE 0, soft
# and hard, in both modes under the floor (whatever core_pattern is: a
# '|' handler may write the core there itself), its hooks with a soft
# limit of 0; a new limit other than none is refused
# with the reason (the kernel refuses it too without CAP_SYS_RESOURCE,
# but says nothing of why), setting none goes on, and "floor_allow":
# ["kernel_files"] leaves the limits as they were. From bash and a static
# busybox (prlimit64), python's raw setrlimit syscall, as root and as an
# unprivileged user.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
need_floor "core files"
# (a '|' core_pattern: no core lands plainly, but the limits are the
# same: a handler may write one in the directory itself)
pattern=$(cat /proc/sys/kernel/core_pattern 2>/dev/null)
[ "$(ulimit -Hc)" = 0 ] && { skip "core files: this test's own hard core limit is 0"; exit 0; }
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
for m in enforce guard; do
	echo "{\"hookshim\":{\"mode\":\"$m\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/$m.json"
done
echo "{\"hookshim\":{\"mode\":\"enforce\",\"floor_allow\":[\"kernel_files\"]},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/allowed.json"
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Write\",\"hooks\":[{\"type\":\"command\",\"command\":\"sh -c 'kill -SEGV \$\$'; exit 0\"}]}]}}" >"$TMP/hookcrash.json"
chmod 644 "$TMP"/*.json; chmod 755 "$TMP"
ROOT=$TMP/root
crash='cd secret && ulimit -c unlimited; echo "raise $?"; sh -c "kill -SEGV \$\$"; ls secret 2>/dev/null; ls'
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT/secret"; chmod -R 777 "$ROOT"; }
# who, prefix...: the crash plainly, under each mode and allowed
run_as() {
	local who=$1; shift
	local plain=1 resource=
	# may the caller raise a hard limit (CAP_SYS_RESOURCE, bit 24)?
	[ $(( 0x$("$@" sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) = 1 ] && resource=1
	fresh
	(cd "$ROOT" && "$@" bash -c "$crash") >"$TMP/out" 2>&1
	if ! ls "$ROOT/secret" | grep -q core; then
		skip "$who: no core file plainly here ($pattern): only the limits are tested"
		plain=
	fi
	for m in enforce guard; do
		fresh
		: >"$TMP/log.jsonl"; chmod 666 "$TMP/log.jsonl"
		(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" \
			--log "$TMP/log.jsonl" -- bash -c "$crash") >"$TMP/out" 2>"$TMP/err"
		expect_eq "$who, $m: a crash in secret/ leaves no core there" "" "$(ls -A "$ROOT/secret")"
		expect_contains "$who, $m: ulimit -c unlimited fails" "$(cat "$TMP/out")" "raise 1"
		expect_contains "$who, $m: ... with the reason and its floor_allow group" "$(cat "$TMP/err")" \
			'hookshim: prlimit64 of RLIMIT_CORE denied: a core file is one the kernel writes in the crashing process'"'"'s directory, below every path check (allow with "hookshim": {"floor_allow": ["kernel_files"]})'
		expect_contains "$who, $m: ... a denial in the log" "$(cat "$TMP/log.jsonl")" \
			'"operation":"prlimit64","decision":"deny"'
		(cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- \
			bash -c 'ulimit -c 0 && echo "none $(ulimit -c) $(ulimit -Hc)"') >"$TMP/out" 2>/dev/null
		expect_eq "$who, $m: ulimit -c 0 goes on, the limits none" "none 0 0" "$(cat "$TMP/out")"
		# the raw setrlimit syscall (libc calls prlimit64), a raise
		(cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- python3 -c '
import ctypes, os
l = ctypes.CDLL(None, use_errno=True)
lim = (ctypes.c_ulong * 2)(2**64 - 1, 2**64 - 1)
r = l.syscall(160, 4, lim)
print("setrlimit", r, os.strerror(ctypes.get_errno()) if r else "")') >"$TMP/out" 2>"$TMP/err"
		expect_eq "$who, $m: the setrlimit syscall raising it fails" "setrlimit -1 Operation not permitted" "$(cat "$TMP/out")"
		expect_contains "$who, $m: ... with the reason" "$(cat "$TMP/err")" \
			"hookshim: setrlimit of RLIMIT_CORE denied: "
		# a raise the supervisor cannot read (a memfd_secret page, which
		# the kernel's own copy reads): refused as a raise, not continued
		(cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- python3 -c '
import ctypes, mmap, os
l = ctypes.CDLL(None, use_errno=True)
fd = l.syscall(447, 0)                         # memfd_secret
if fd < 0:
    print("no memfd_secret", os.strerror(ctypes.get_errno())); raise SystemExit
os.ftruncate(fd, 4096)
m = mmap.mmap(fd, 4096)
lim = (ctypes.c_ulong * 2).from_buffer(m)
lim[0] = lim[1] = 2**64 - 1
r = l.syscall(302, 0, 4, lim, None)            # prlimit64
print("secret", r, os.strerror(ctypes.get_errno()) if r else "")') >"$TMP/out" 2>"$TMP/err"
		if grep -q "no memfd_secret" "$TMP/out"; then
			skip "$who, $m: $(cat "$TMP/out")"
		else
			expect_eq "$who, $m: a raise from a memfd_secret page fails" "secret -1 Operation not permitted" "$(cat "$TMP/out")"
			# refused by the floor where the caller could raise it; the
			# kernel's own refusal otherwise (this machine's root has
			# no CAP_SYS_RESOURCE to raise it with)
			if [ -n "$resource" ]; then
				expect_contains "$who, $m: ... refused by the floor, with the reason" "$(cat "$TMP/err")" \
					"hookshim: prlimit64 of RLIMIT_CORE denied: "
			fi
		fi
		# a process the supervisor may not read (not dumpable, as
		# ssh-agent makes itself) setting none: goes on (ssh-agent
		# exits when it cannot)
		(cd "$ROOT" && "$@" "$HOOKSHIM" run --no-notices -c "$TMP/$m.json" -- python3 -c '
import ctypes, resource
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)        # PR_SET_DUMPABLE 0
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
print("none set")') >"$TMP/out" 2>&1
		expect_contains "$who, $m: a process not dumpable sets none (ssh-agent)" "$(cat "$TMP/out")" "none set"
	done
	fresh
	(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/allowed.json" -- bash -c "$crash") >"$TMP/out" 2>&1
	[ -n "$plain" ] && check "$who, kernel_files allowed: the core lands as plain" sh -c "ls '$ROOT/secret' | grep -q core"
	# a hook that crashes while it judges a call (in the project's
	# directory, or the caller's for a dialect that asks): no core of its
	# memory, the caller's payload in it, there either -- its soft limit
	# 0, whatever ours was (one landed in the project's directory before)
	fresh
	(cd "$ROOT" && timeout 60 "$@" bash -c 'ulimit -c unlimited; exec "$0" run --no-notices -c "$1" -- bash -c "cd secret && echo x > ../y"' \
		"$HOOKSHIM" "$TMP/hookcrash.json") >"$TMP/out" 2>&1
	check "$who: a hook whose child crashes judging a write: the write ran (the hook exits 0)" test -e "$ROOT/y"
	expect_eq "$who: ... and left no core" "" "$(find "$ROOT" -name 'core*')"
	BB=$(command -v busybox || true)
	if [ -n "$BB" ] && file -L "$BB" | grep -q 'statically linked'; then
		fresh
		(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
			"$BB" sh -c 'cd secret && ulimit -c unlimited; echo "raise $?"; kill -SEGV $$') >"$TMP/out" 2>"$TMP/err"
		expect_eq "$who, static busybox: no core in secret/" "" "$(ls -A "$ROOT/secret")"
		expect_contains "$who, static busybox: its raise refused with the reason" "$(cat "$TMP/err")" \
			"of RLIMIT_CORE denied: "
	fi
}
run_as root
if [ "$(id -u)" = 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	run_as nobody setpriv --reuid=65534 --regid=65534 --clear-groups
fi

# A caller that could raise the limit (CAP_SYS_RESOURCE: root with it, or
# any process in a user namespace of its own, as an agent's sandbox is)
# setting none and asking for the old value (python's resource.prlimit):
# set by the supervisor, the old value copied out to it (refused, EPERM,
# before session 30); a pointer it may not write, EFAULT and the limit
# set, as the kernel does
if unshare -r true 2>/dev/null; then
	for m in enforce guard; do
		echo "{\"hookshim\":{\"mode\":\"$m\",\"floor_allow\":[\"namespaces\"]},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/ns-$m.json"
		out=$("$HOOKSHIM" run --no-notices -c "$TMP/ns-$m.json" -- unshare -r python3 -c '
import ctypes, os, resource
print("old", resource.prlimit(0, resource.RLIMIT_CORE, (0, 0)))
l = ctypes.CDLL(None, use_errno=True)
none = (ctypes.c_ulong * 2)(0, 0)
r = l.syscall(302, 0, 4, none, ctypes.c_void_p(8))        # prlimit64, old unmapped
print("bad", r, os.strerror(ctypes.get_errno()), resource.getrlimit(resource.RLIMIT_CORE))
# a page the caller may read, not write: EFAULT, the page untouched (the
# supervisor writes no more than the caller could)
l.mmap.restype = ctypes.c_void_p
l.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
ro = l.mmap(None, 4096, 1, 0x22, -1, 0)                  # PROT_READ, private, anonymous
r = l.syscall(302, 0, 4, none, ctypes.c_void_p(ro))
print("ro", r, os.strerror(ctypes.get_errno()), ctypes.string_at(ro, 16) == bytes(16))
try:
    resource.prlimit(0, resource.RLIMIT_CORE, (1, 1))
    print("raised")
except OSError as e:
    print("raise", e.errno)' 2>"$TMP/err")
		expect_eq "user namespace, $m: none set, the old limit given back; a bad or read-only pointer EFAULT; a raise refused" \
			"old (0, 0)
bad -1 Bad address (0, 0)
ro -1 Bad address True
raise 1" "$out"
		expect_contains "$m: ... the raise with the reason" "$(cat "$TMP/err")" "prlimit64 of RLIMIT_CORE denied: "
	done
	# ...but another process's limit is not ours to set for it: the
	# supervisor's rights are not the caller's (a user in a namespace of
	# its own setting a root process's hard limit to none succeeded
	# before session 30: the kernel refuses it, EPERM); a process that
	# is not there, ESRCH
	if [ "$(id -u)" = 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r true 2>/dev/null; then
		sleep 60 & victim=$!
		hard=$(awk '/core file/ {print $5}' /proc/$victim/limits)
		for m in enforce guard; do
			out=$("$HOOKSHIM" run --no-notices -c "$TMP/ns-$m.json" -- \
				setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r python3 -c '
import ctypes, os, sys
l = ctypes.CDLL(None, use_errno=True)
none = (ctypes.c_ulong * 2)(0, 0)
for pid in (int(sys.argv[1]), 999999999):
    r = l.syscall(302, pid, 4, none, None)                 # prlimit64, no old
    print(r, os.strerror(ctypes.get_errno()))' $victim 2>/dev/null)
			expect_eq "user in a namespace, $m: a root process's core limit refused (EPERM), a missing one ESRCH" \
				"-1 Operation not permitted
-1 No such process" "$out"
			expect_eq "user in a namespace, $m: ... that process's hard limit unchanged" "$hard" \
				"$(awk '/core file/ {print $5}' /proc/$victim/limits)"
		done
		kill $victim 2>/dev/null; wait $victim 2>/dev/null || :
	else
		skip "core files: no user namespace for nobody here"
	fi
else
	skip "core files: no user namespace here (unshare -r)"
fi
