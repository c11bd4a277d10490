# hookshim started by a parent that ignores SIGCHLD (an ignored
# disposition survives exec): the kernel would reap the session's children
# itself, and every status with them -- the agent's exit code read as 0, a
# hook's `exit 2` lost, so a denied command was neither run nor reported.
# hookshim waits for what it starts: SIGCHLD is back to the default in it,
# and so in the agent.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" root/secrets
command -v python3 >/dev/null || { skip "SIGCHLD ignored: python3 missing"; exit 0; }

cat > deny.json <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0"}]},
 {"matcher":"Write","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
# ignored SIGCHLD, then exec: hookshim run ARGS...
ign() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])' "$HOOKSHIM" run --no-notices --root "$TMP/root" -c "$TMP/deny.json" -- "$@"
}
cd root || exit 1

ign sh -c 'exit 3' >"$TMP/out" 2>"$TMP/err"; rc=$?
expect_eq "SIGCHLD ignored: the agent's exit status passes through" 3 "$rc"

# the agent a script (not itself a tool call): its `bash -c` is one
cat > "$TMP/agent.sh" <<'A'
bash -c "rm -rf x; echo RAN"
echo "after=$?"
A
ign bash "$TMP/agent.sh" >"$TMP/out" 2>"$TMP/err"; rc=$?
expect_eq "SIGCHLD ignored: the session ends as the agent does" 0 "$rc"
expect_not_contains "SIGCHLD ignored: the denied tool call did not run" "$(cat "$TMP/out")" "RAN"
expect_contains "SIGCHLD ignored: ... it failed with the deny status" "$(cat "$TMP/out")" "after=126"
expect_contains "SIGCHLD ignored: ... and the hook's reason was said" "$(cat "$TMP/out" "$TMP/err")" "no rm -rf"

ign bash -c 'echo x > secrets/a; echo "w=$?"' >"$TMP/out" 2>"$TMP/err"
expect_contains "SIGCHLD ignored: a denied write fails" "$(cat "$TMP/out")" "w=1"
check "SIGCHLD ignored: ... and wrote nothing" test ! -e secrets/a

# the agent gets the default disposition (bit 17 of SigIgn clear)
ign python3 -c 'import signal; print("ign" if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN else "dfl")' >"$TMP/out" 2>"$TMP/err"
expect_eq "SIGCHLD ignored: the agent runs with SIGCHLD at its default" "dfl" "$(cat "$TMP/out")"
