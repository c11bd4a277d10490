# A documented limit of the floor, shown (docs/limits.md, "The floor"):
# when hookshim does not run as root and the agent has no user namespace
# of its own (guard mode by default, "floor_userns": "off", or a kernel
# that refuses one: tests/security/agent_userns.sh shows enforce mode's
# default), a process the supervisor may not read -- one that made itself
# non-dumpable (prctl PR_SET_DUMPABLE 0, as ssh-agent and gpg-agent do)
# -- has its notified calls left to the kernel, unjudged: its memory
# holds the path, and failing every call of such a process would break
# those programs. As root the supervisor reads it (CAP_SYS_PTRACE) and
# judges the call as any other; and as the user, the same static call
# from a dumpable process is judged.
. "$HOOKSHIM_TOP/tests/lib.sh"
ND=$HOOKSHIM_PROBES/floor_static_nodump
BB=$(command -v busybox || true)
file -L "$BB" 2>/dev/null | grep -q 'statically linked' || BB=
[ -x "$ND" ] || { skip "nodump limit: probe not built"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "nodump limit: no syscall floor on this machine"; exit 0; }

W=$(mktemp -d /tmp/hookshim-nodump.XXXXXX); chmod 755 "$W"
trap 'rm -rf "$TMP" "$W"' EXIT
cat > "$W/policy.json" <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[
 {"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
sed 's/^{/{"hookshim":{"floor_userns":"off"},/' "$W/policy.json" > "$W/off.json"
chmod 644 "$W/policy.json" "$W/off.json"
cp "$ND" "$W/nodump"; chmod 755 "$W/nodump"

fresh() { rm -rf "$W/root"; mkdir -p "$W/root/secrets"; echo keep > "$W/root/secrets/f"; chmod -R a+rwX "$W/root"; }
# run AS CMD...: the agent's command in the root; prints the probe's line
run_as() {
	local as=$1 pol=${POL:-policy}; shift
	local pre=()
	[ -n "$as" ] && pre=(setpriv --reuid="$as" --regid="$as" --clear-groups)
	(cd "$W/root" && timeout -k 5 60 "${pre[@]}" "$HOOKSHIM" run --enforce --no-notices \
		-c "$W/$pol.json" -- "$@") 2>"$TMP/err"
}

# root: read, judged, denied
fresh
out=$(run_as "" "$W/nodump" secrets/f)
expect_eq "root: a non-dumpable process's unlink is judged and denied" "unlink=13" "$out"
check "root: ... the file stays" test -f "$W/root/secrets/f"

if id nobody >/dev/null 2>&1 && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	uid=$(id -u nobody)
	# the same user, a dumpable static process: judged
	if [ -n "$BB" ]; then
		fresh
		run_as "$uid" "$BB" rm -f secrets/f >/dev/null
		check "as nobody: a dumpable static rm is judged (the file stays)" test -f "$W/root/secrets/f"
	fi
	# the limit: not dumpable, not readable, left to the kernel
	fresh
	out=$(POL=off run_as "$uid" "$W/nodump" secrets/f)
	expect_eq "as nobody: the limit: a non-dumpable process's unlink goes to the kernel" "unlink=0" "$out"
	check "as nobody: ... and the file is gone (docs/limits.md)" test ! -e "$W/root/secrets/f"
else
	skip "nodump limit as nobody: setpriv cannot drop to nobody here"
fi
