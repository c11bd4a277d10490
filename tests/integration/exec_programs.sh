#!/bin/bash
# Real programs acting as the agent: bash, sh, python3 subprocess, node
# child_process (execSync, spawn), make, git, xargs. An allowed command
# behaves byte-for-byte as without the shim; a denied one exactly like a
# command that printed the hook's reason and exited 126, with no effect.
. "$HOOKSHIM_TOP/tests/lib.sh"
P=$HOOKSHIM_PROBES
FS=$HOOKSHIM_TOP/tests/integration/fake_supervisor.py
export HOOKSHIM_FAKEBIN=$P/exec_fakebin
if [ ! -f "$HOOKSHIM_LIB" ]; then
	skip "exec_programs: shim not built"; exit 0
fi
PY=$(python3 -c 'import sys; print(sys.executable)')
sup() { rm -f "$TMP/log"; timeout 60 "$PY" "$FS" --log "$TMP/log" "$@"; }
events() { if [ -f "$TMP/log" ]; then wc -l <"$TMP/log"; else echo 0; fi; }
REASON="fake supervisor: denied (HS_DENY)"
ALLOW='rm -f sentinel; echo "out 1"; echo "err 1" >&2; exit 3'
DENY='rm -f sentinel # HS_DENY'
AS_DENIED="echo '$REASON' >&2; exit 126" # what a denied command looks like
git init -q repo && git -C repo commit -q --allow-empty -m init \
	-c user.name=t -c user.email=t@t 2>/dev/null

# argv_for RUNNER CMD: sets A to the program (the agent) that runs CMD its
# own way; stdin is "a\nb\n" for xargs.
argv_for() {
	case $1 in
	bash) A=(bash -c 'sh -c "$1"; echo "rc=$?"' bash "$2") ;;
	sh) A=(sh -c 'sh -c "$1"; echo "rc=$?"' sh "$2") ;;
	python) A=("$PY" -c 'import subprocess, sys
r = subprocess.run(sys.argv[1], shell=True)
print("rc=%d" % r.returncode)' "$2") ;;
	python_list) A=("$PY" -c 'import subprocess, sys
r = subprocess.run(["bash", "-c", sys.argv[1]], capture_output=True)
print(r.returncode, r.stdout, r.stderr)' "$2") ;;
	node_execsync) A=(node -e 'const cp = require("child_process");
try { process.stdout.write(cp.execSync(process.argv[1], {stdio: ["ignore", "pipe", "inherit"]})); console.log("rc=0"); }
catch (e) { process.stdout.write(e.stdout); console.log("rc=" + e.status); }' "$2") ;;
	node_spawn) A=(node -e 'const c = require("child_process").spawn("sh", ["-c", process.argv[1]], {stdio: "inherit"});
c.on("exit", s => console.log("rc=" + s));' "$2") ;;
	make) printf 'all:\n\t@%s\n' "$2" >Makefile.t; A=(make -s -f Makefile.t) ;;
	git) A=(git -C repo -c alias.hs="!cd .. && $2" hs) ;;
	xargs) A=(xargs sh -c "$2" sh) ;;
	esac
}

for r in bash sh python python_list node_execsync node_spawn make git xargs; do
	case $r in python*) ;; *) command -v "${r%%_*}" >/dev/null 2>&1 || {
		skip "$r: not installed"; continue; } ;; esac
	touch sentinel
	argv_for "$r" "$ALLOW"
	printf 'a\nb\n' | "${A[@]}" >want.out 2>want.err
	want="$? $(cat want.out) | $(cat want.err)"
	check "$r: bare run removed the sentinel" test ! -e sentinel
	touch sentinel
	printf 'a\nb\n' | sup -- "${A[@]}" >got.out 2>got.err
	expect_eq "$r: allowed runs byte-for-byte" "$want" "$? $(cat got.out) | $(cat got.err)"
	check "$r: allowed command ran" test ! -e sentinel
	expect_eq "$r: one event" 1 "$(events)"

	argv_for "$r" "$AS_DENIED"
	printf 'a\nb\n' | "${A[@]}" >want.out 2>want.err
	want="$? $(cat want.out) | $(cat want.err)"
	touch sentinel
	argv_for "$r" "$DENY"
	printf 'a\nb\n' | sup -- "${A[@]}" >got.out 2>got.err
	expect_eq "$r: denied = failed with the reason, exit 126" "$want" "$? $(cat got.out) | $(cat got.err)"
	check "$r: denied command had no effect" test -e sentinel
done

# the agent's own non-shell execs are not tool calls (Claude's rg/git)
sup -- git -C repo status --short >got.out 2>got.err
expect_eq "git status: no event" "0 0" "$? $(events)"
git -C repo status --short >want.out 2>want.err
expect_eq "git status: unchanged" "$(cat want.out)$(cat want.err)" "$(cat got.out)$(cat got.err)"
