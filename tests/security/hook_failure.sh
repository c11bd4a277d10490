# Issues 23 and 24: a hook that does not run to a verdict -- killed,
# crashed, timed out, missing, not executable, or not even started
# because the agent used up the user's processes (RLIMIT_NPROC) -- is a
# failed decision, and what it means is the user's choice: guard mode
# keeps the dialects' rule (a warning, the call goes on); enforce mode,
# CI mode and "strict" deny the call; "on_hook_failure" says it for the
# session and a handler's "failClosed" for one hook. The reason, the
# log, the summary and JUnit say which hook failed and how. Exit 1 stays
# the dialects' non-blocking error in every mode. Each row: did the command run, did the write land, the
# exit status of `hookshim run`, what the log and the reason say.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" hooks
XSD=$HOOKSHIM_TOP/tests/fixtures/junit.xsd

policy() { # SCRIPT [TIMEOUT_S] [HANDLER_EXTRA] [SETTINGS]
	local set=
	[ -n "${4:-}" ] && set="\"hookshim\":{$4},"
	printf '{%s"hooks":{"PreToolUse":[{"matcher":"Bash|Write","hooks":[{"type":"command","command":"\\"$CLAUDE_PROJECT_DIR\\"/hooks/%s"%s%s}]}]}}\n' \
		"$set" "$1" "${2:+,\"timeout\":$2}" "${3:+,$3}" > policy.json
}
script() { # NAME BODY (executable)
	printf '#!/bin/sh\ncat >/dev/null\n%s\n' "$2" > "hooks/$1"; chmod +x "hooks/$1"
}
script killed.sh 'kill -9 $$'
script crash.sh 'kill -SEGV $$'
script exit1.sh 'echo broken >&2; exit 1'
script slow.sh 'sleep 5'
script noexec.sh 'exit 0'; chmod -x hooks/noexec.sh
script ok.sh 'exit 0'
# a JSON decision past what is kept of a hook's stdout (1 MiB): cut, no
# decision can be read -- a failed run (session 38's attack run: one of
# 70 KB, over the 64 KiB kept then, was taken for plain output and the
# call allowed, in --ci too)
script cut.sh 'printf "{\"decision\":\"block\",\"reason\":\""; head -c 1100000 /dev/zero | tr "\\0" x; printf "\"}"'
script long.sh 'printf "{\"decision\":\"block\",\"reason\":\"LONG-REASON "; head -c 70000 /dev/zero | tr "\\0" x; printf "\"}"'

cat > agent.sh <<'S'
bash -c 'touch ran'; echo "cmd=$?"
echo data > target.txt; echo "write=$?"
exit 0
S

# row SCRIPT TIMEOUT WANT_FAILURE_TEXT: each failure kind in each way a
# session or a hook says what a failure means:
#   guard       the default outside CI: the call goes on
#   enforce     --enforce: denies ("enforce mode fails closed")
#   ci          --ci (enforce with the floor): denies
#   fc-true     guard, the handler's "failClosed": true: denies
#   fc-false    --ci, the handler's "failClosed": false: the call goes on
#   on-deny     guard, "on_hook_failure": "deny": denies
#   on-allow    --ci, "on_hook_failure": "allow": the call goes on
# A program that is missing or not executable is a config error: CI
# mode refuses to start on it, at the command's line:column.
row() {
	local s=$1 t=$2 what=$3 m out rc log why deny
	for m in guard enforce ci fc-true fc-false on-deny on-allow; do
		rm -f ran target.txt log.jsonl j.xml
		case $m in
		guard) policy "$s" "$t"; set -- --guard ;;
		enforce) policy "$s" "$t"; set -- --enforce ;;
		ci) policy "$s" "$t"; set -- --ci --junit j.xml ;;
		fc-true) policy "$s" "$t" '"failClosed":true'; set -- --guard ;;
		fc-false) policy "$s" "$t" '"failClosed":false'; set -- --ci --junit j.xml ;;
		on-deny) policy "$s" "$t" "" '"on_hook_failure":"deny"'; set -- --guard ;;
		on-allow) policy "$s" "$t" "" '"on_hook_failure":"allow"'; set -- --ci --junit j.xml ;;
		esac
		case $m in
		enforce|ci) why="enforce mode fails closed" ;;
		fc-true) why="failClosed" ;;
		on-deny) why="on_hook_failure: deny" ;;
		*) why= ;;
		esac
		out=$(timeout 60 "$HOOKSHIM" run "$@" --no-notices -c policy.json \
			--log log.jsonl -- bash agent.sh 2>err.txt)
		rc=$?
		log=$(cat log.jsonl 2>/dev/null)
		if [[ $s == missing.sh || $s == noexec.sh ]]; then
			expect_contains "$s $m: a config error at the command's line:col" \
				"$(cat err.txt)" "hookshim: error: policy.json:1:"
			if [[ $* == *--ci* ]]; then
				expect_eq "$s $m: CI mode refuses to start" 1 "$rc"
				check "$s $m: nothing ran" test ! -e ran
				continue
			fi
		fi
		if [ -z "$why" ] || [ "$s" = exit1.sh ]; then
			check "$s $m: the command ran" test -e ran
			check "$s $m: the write landed" test -e target.txt
		else
			check "$s $m: the command was denied" test ! -e ran
			check "$s $m: the write was denied" test ! -e target.txt
			expect_contains "$s $m: the reason says what failed" \
				"$(cat err.txt)" "hook failed: \`\"\$CLAUDE_PROJECT_DIR\"/hooks/$s\` (policy.json) $what"
			expect_contains "$s $m: the reason says why it denies" \
				"$(cat err.txt)" ": denied ($why)"
		fi
		expect_eq "$s $m: hookshim run exits as the agent did" 0 "$rc"
		if [ "$s" != exit1.sh ]; then
			expect_contains "$s $m: the log says the hook failed and how" "$log" "\"failure\":\"hook failed: $what"
		else
			expect_not_contains "$s $m: exit 1 is no failure to decide" "$log" '"failure"'
		fi
		if [ "$m" = ci ]; then
			expect_not_contains "$s ci: the summary counts the failed runs" "$(cat err.txt)" "hook runs, 0 failed"
			if [ "$s" != exit1.sh ]; then
				msg=$(xmllint --xpath 'string(//testcase[failure][1]/failure/@message)' j.xml 2>/dev/null)
				expect_contains "$s ci: junit's failure says the hook failed" "$msg" "hook failed: "
				check "$s ci: the junit file validates" \
					xmllint --noout --schema "$XSD" j.xml
			fi
		fi
	done
}

row killed.sh "" "killed by signal 9 (SIGKILL)"
row crash.sh "" "killed by signal 11 (SIGSEGV)"
row exit1.sh "" ""
row slow.sh 1 "timed out after"
row missing.sh "" "exited 127: command not found"
row noexec.sh "" "exited 126: command not executable"
row cut.sh "" "its JSON answer was cut at 1048576 bytes: no decision can be read"
# ... and one of 70 KB is read whole: a deny in every mode
for m in guard enforce; do
	rm -f ran target.txt; policy long.sh
	timeout 60 "$HOOKSHIM" run --$m --no-notices -c policy.json -- bash agent.sh >/dev/null 2>err.txt
	check "long.sh $m: a JSON deny of 70 KB denies the command" test ! -e ran
	check "long.sh $m: ... and the write" test ! -e target.txt
	expect_contains "long.sh $m: ... with its reason" "$(head -c 300 err.txt)" "LONG-REASON xxx"
done

# CI mode and "strict" deny a failed hook's call in guard mode too, when
# enforce fell back to guard for want of the floor ("floor": "off")
for m in ci strict; do
	rm -f ran target.txt
	if [ $m = ci ]; then
		policy killed.sh "" "" '"floor":"off"'; set -- --ci
	else
		policy killed.sh "" "" '"floor":"off","strict":true'; set --
	fi
	timeout 60 "$HOOKSHIM" run "$@" --no-notices -c policy.json -- bash agent.sh >/dev/null 2>err.txt
	check "guard by want of a floor, $m: the command was denied" test ! -e ran
	why="strict fails closed"; [ $m = ci ] && why="CI mode fails closed"
	expect_contains "guard by want of a floor, $m: says why" "$(cat err.txt)" \
		": denied ($why)"
done

# ---- the agent uses up the user's processes ----------------------------
# Unprivileged only (RLIMIT_NPROC does not hold root back): the session
# runs under a low limit, the agent forks until it cannot, then writes
# and becomes a shell command (exec, no fork left). The hook cannot be
# forked: guard allows both, enforce denies both.
U=$(mktemp -d /tmp/hookshim-nproc.XXXXXX); chmod 755 "$U"
cp -r hooks "$U/"; policy ok.sh; cp policy.json "$U/"
cat > "$U/agent.py" <<'S'
import os, errno
r, w = os.pipe()
kids = 0
while True:
    try:
        pid = os.fork()
    except OSError as e:
        if e.errno != errno.EAGAIN:
            raise
        break
    if pid == 0:
        os.close(w)
        os.read(r, 1)   # until the agent is gone
        os._exit(0)
    kids += 1
print("forked=%d" % kids, flush=True)
try:
    with open("target.txt", "w") as f:
        f.write("data\n")
    print("write=0", flush=True)
except OSError as e:
    print("write=%d" % e.errno, flush=True)
os.execv("/bin/bash", ["bash", "-c", "touch ran"])
S
# a uid of its own: RLIMIT_NPROC counts every process of the uid
NP=$(( 62000 + RANDOM % 1000 ))
while pgrep -u "$NP" >/dev/null; do NP=$((NP + 1)); done
chown -R "$NP:$NP" "$U"
if ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
	skip "RLIMIT_NPROC rows: setpriv or prlimit missing"
else
	for m in guard enforce; do
		rm -f "$U/ran" "$U/target.txt" "$U/log.jsonl"
		out=$(cd "$U" && timeout 60 setpriv --reuid=$NP --regid=$NP \
			--clear-groups prlimit --nproc=40:40 "$HOOKSHIM" run --$m \
			--no-notices -c policy.json --log log.jsonl -- python3 agent.py 2>"$U/err.txt")
		rc=$?
		expect_contains "nproc $m: the agent used up its processes" "$out" "forked="
		log=$(cat "$U/log.jsonl" 2>/dev/null)
		expect_contains "nproc $m: the log says the hook could not start" "$log" \
			'"failure":"hook failed: could not start: Resource temporarily unavailable (errno 11)"'
		if [ $m = guard ]; then
			check "nproc guard: the write landed" test -e "$U/target.txt"
			check "nproc guard: the command ran" test -e "$U/ran"
			expect_eq "nproc guard: exit status of the command" 0 "$rc"
		else
			check "nproc enforce: the write was denied" test ! -e "$U/target.txt"
			check "nproc enforce: the command was denied" test ! -e "$U/ran"
			expect_contains "nproc enforce: the reason" "$(cat "$U/err.txt")" \
				"could not start: Resource temporarily unavailable (errno 11): denied (enforce mode fails closed)"
		fi
		# the agent's children end with it (bounded)
		for i in $(seq 50); do pgrep -u "$NP" >/dev/null || break; sleep 0.1; done
		if pgrep -u "$NP" >/dev/null; then fail "nproc $m: processes left behind"
		else pass "nproc $m: nothing left behind"; fi
	done
fi
rm -rf "$U"
