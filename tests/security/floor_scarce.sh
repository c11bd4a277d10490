# Issue 23, enforce mode: the supervisor out of descriptors. Where one of
# its own steps failed for want of descriptors or memory (EMFILE, ENFILE,
# ENOMEM), a call it would have made for the caller went to the kernel,
# which reads the path again: a session that filled the supervisor's
# table -- a few hundred writers waiting in fifo opens, each waited in by
# a thread of the supervisor's holding a descriptor -- had its decoys
# land (a file in secret/ of 1,500 swapped opens, on the build before).
# Enforce mode now fails such a call (ENFILE, "too many open files in
# system"; ENOMEM) rather than continue it; the session goes on and ends.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$P" ] || { skip "scarce: probe not built"; exit 0; }
need_floor "scarce"
command -v prlimit >/dev/null || { skip "scarce: no prlimit"; exit 0; }
hook='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$hook]}}" >"$TMP/enforce.json"
N=${FLOOR_RACE_N:-1500}
ROOT=$TMP/root
rm -rf "$ROOT"; mkdir -p "$ROOT/secret" "$ROOT/aaaaaa" "$ROOT/ff"; echo a >"$ROOT/aaaaaa/x"
# the agent: 300 writers wait in fifo opens (the supervisor's waits, 256
# at most, each a descriptor of its table of 200), then the swap race
cat >"$TMP/agent.sh" <<'S'
i=0; pids=
while [ $i -lt 300 ]; do
	mkfifo ff/f$i 2>/dev/null
	(echo x >ff/f$i) 2>/dev/null &
	pids="$pids $!"; i=$((i + 1))
done
sleep 1
"$1" race-mem:aaaaaa/x:secret/x:"$2"
kill $pids 2>/dev/null
exit 0
S
race() {
	( cd "$ROOT" && timeout -s KILL 120 prlimit --nofile=200:200 "$HOOKSHIM" run --no-notices -c "$TMP/enforce.json" -- \
		sh "$TMP/agent.sh" "$P" "$N" ) >"$TMP/out" 2>"$TMP/err"
	rc=$?
	note "rc $rc: $(cat "$TMP/out"); in secret/: $(ls -A "$ROOT/secret" | wc -l); $(sort "$TMP/err" | uniq -c | sort -rn | head -2 | tr '\n' ' ')"
}
race
# Whether a decoy's open meets the table full is the machine's timing
# (the writers' opens, the hooks' own descriptors): on a loaded machine
# every decoy may find a free slot and only the hooks fail to start (a
# denial too, "could not start"). Once more then; what landed in either
# run fails the test.
if ! grep -q "Too many open files in system" "$TMP/err"; then
	landed=$(ls -A "$ROOT/secret")
	note "no call of ours failed for want of descriptors this run; once more"
	expect_eq "enforce, the supervisor's table full (first run): nothing landed" "" "$landed"
	race
fi
expect_contains "enforce, the supervisor's table full: the swap race ran" "$(cat "$TMP/out")" "race-mem: "
expect_eq "enforce, the supervisor's table full: a decoy swapped for secret/x lands nothing ($N opens)" \
	"" "$(ls -A "$ROOT/secret")"
expect_contains "enforce, ... its calls failed closed (ENFILE), not continued" "$(cat "$TMP/err")" \
	"Too many open files in system"
check "enforce, ... and the session ended (not killed by the test's timeout)" test "$rc" != 137

# A caller's /proc/<tid> not opened for want of descriptors (the table
# full, by chance: one run of the race above in five on a loaded
# machine) was taken for the caller's end, and its call never answered:
# the caller waited for good, and the session with it. Made to fail at
# will here (HOOKSHIM_TEST_FLOOR_SCARCE "task"): enforce mode fails the
# call (ENFILE), guard mode leaves it to the kernel, and both end.
T2=$TMP/scarce_task; mkdir -p "$T2/secret"; cp "$TMP/enforce.json" "$T2/p.json"
task() { # MODE: the probe's line and the session's status
	(cd "$T2" && rm -f secret/y && HOOKSHIM_TEST_FLOOR_SCARCE=task timeout -s KILL 60 \
		"$HOOKSHIM" run "--$1" --no-notices -c p.json -- "$P" err:secret/y:1101 2>&1)
	echo "rc=$?"
}
out=$(task enforce)
expect_contains "enforce, a caller's /proc not opened: its call fails closed (ENFILE)" "$out" \
	"err secret/y: Too many open files in system"
expect_contains "enforce, ... answered: the session ended" "$out" "rc=0"
check "enforce, ... and nothing was made" test ! -e "$T2/secret/y"
out=$(task guard)
expect_contains "guard, the same: the call is the kernel's, as documented" "$out" "err secret/y: ok"
expect_contains "guard, ... answered: the session ended" "$out" "rc=0"

# The steps no session can starve at will, made to fail as if the
# supervisor were out of descriptors or memory (HOOKSHIM_TEST_FLOOR_SCARCE,
# read by the supervisor only): the controlling terminal's lookup for an
# open of /dev/tty ("ctty"), and the receiver's file system state of its
# own that a create's umask is set in ("umask"). Both continued the call
# in either mode, the kernel reading its path again; enforce mode fails
# them now, as every other step of ours out of descriptors (a static
# program's calls, on a pty as the controlling terminal: script(1)).
if command -v script >/dev/null; then
	S=$TMP/scarce_steps; mkdir -p "$S"
	cp "$TMP/enforce.json" "$S/p.json"
	steps() { # MODE: the probe's three lines, plain of the terminal's CRs
		(cd "$S" && rm -f f && HOOKSHIM_TEST_FLOOR_SCARCE=ctty,umask timeout -s KILL 60 \
			script -qec "$HOOKSHIM run --$1 --no-notices -c p.json -- $P err:/dev/tty:1 err:/dev/tty:101 mode:f:0644:077" \
			/dev/null </dev/null | tr -d '\r')
	}
	plain=$(cd "$S" && rm -f f && timeout 60 script -qec "$P err:/dev/tty:1 err:/dev/tty:101 mode:f:0644:077" /dev/null </dev/null | tr -d '\r')
	if [ "$plain" != "$(printf 'err /dev/tty: ok\nerr /dev/tty: ok\nmode: 0600')" ]; then
		skip "scarce steps: /dev/tty on script(1)'s pty does not open plainly here: $plain"
	else
		out=$(steps enforce)
		expect_contains "enforce, the terminal's lookup out of descriptors: an open of /dev/tty fails closed (ENFILE)" \
			"$out" "err /dev/tty: Too many open files in system"
		expect_contains "enforce, no umask of our own to create with: a create fails closed (ENOMEM)" \
			"$out" "mode: Cannot allocate memory"
		check "enforce, ... and nothing was made" test ! -e "$S/f"
		expect_eq "guard, the same steps failing: the calls are the kernel's, as documented" \
			"$plain" "$(steps guard)"
	fi
else
	skip "scarce steps: no script(1) for a controlling pty"
fi
