# An agent's own sandbox around the model's commands (Codex's bubblewrap
# --unshare-net, `unshare -n`): inside, the supervisor's abstract socket
# does not exist (abstract names are per network namespace), so the shim
# cannot ask it. Under the syscall floor the shim hands those calls to the
# floor instead (shim/client.h, hs_ask_or_floor): its matched writes go
# without the cookie, and it asks the floor about its execs
# (HS_FLOOR_ASK). Inside each sandbox: `rm -rf` is denied by the Bash hook
# with its reason, a write to secrets/ by the Write hook, an allowed
# command runs and prints byte for byte, and each hook fires exactly once
# -- through a dynamic sandbox (the shim's exec wrapper), a static parent
# (the new image's constructor judges itself, as under Codex's static
# bwrap), posix_spawn, nested execs. Without the floor the documented
# limit: the commands run unchecked, and the shim says why.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "agent sandbox: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "agent sandbox: jq missing"; exit 0; }
RAWX=$HOOKSHIM_PROBES/exec_static_rawexec
[ -x "$RAWX" ] || { skip "agent sandbox: probes not built"; exit 0; }
echo '{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}' >"$TMP/require.json"
if ! "$HOOKSHIM" run -c "$TMP/require.json" -- /bin/true 2>"$TMP/require.err"; then
	skip "agent sandbox: no syscall floor here ($(head -1 "$TMP/require.err"))"
	exit 0
fi

# The sandboxes: unshare(1) needs only user namespaces; bubblewrap is
# Debian's, else the static one Codex bundles.
SANDBOXES=()
if unshare -rn true 2>/dev/null; then
	SANDBOXES+=("unshare -rn")
else
	skip "agent sandbox: unshare -rn: no user namespaces here"
fi
BWRAP=$(command -v bwrap || ls "$HOOKSHIM_TOP"/tests/e2e/node_modules/@openai/codex-linux-x64/vendor/*/codex-resources/bwrap 2>/dev/null | head -1)
if [ -n "$BWRAP" ] && "$BWRAP" --unshare-net --dev-bind / / true 2>/dev/null; then
	SANDBOXES+=("$BWRAP --unshare-net --dev-bind / /")
	# a pid namespace too, with its own /proc: the supervisor's pid is
	# not there to look at
	SANDBOXES+=("$BWRAP --unshare-net --unshare-pid --dev-bind / / --proc /proc")
else
	skip "agent sandbox: bubblewrap missing or not working (apt-get install bubblewrap)"
fi
[ ${#SANDBOXES[@]} -gt 0 ] || exit 0

ROOT=$TMP/root
HLOG=$TMP/hooks.log
conf() { # name, settings
	jq -n --arg log "$HLOG" --argjson set "{$2}" '{hookshim: $set, hooks: {PreToolUse: [
	  {matcher: "Bash", hooks: [{type: "command", command:
	    ("c=$(jq -r .tool_input.command); printf \"bash:%s\\n\" \"$c\" >> " + $log +
	     "; case \"$c\" in *\"rm -rf\"*) echo \"no rm -rf here\" >&2; exit 2;; esac")}]},
	  {matcher: "Write|Edit", hooks: [{type: "command", "if": "Write(secrets/**)", command:
	    ("printf \"write:%s\\n\" \"$(jq -r .tool_input.file_path)\" >> " + $log +
	     "; echo \"secrets are read-only\" >&2; exit 2")}]}]}}' >"$TMP/$1.json"
}
# A sandbox makes a user and a mount namespace and mounts in it, which
# the floor refuses unless "floor_allow" names them (docs/floor.md,
# "Refused calls"): these sessions allow them; "refused" shows the default.
SB='"floor_allow": ["namespaces", "mount"]'
conf plain "$SB"
conf nested "$SB, \"nested_exec\": true"
conf lossdeny "$SB, \"on_supervisor_loss\": \"deny\""
conf refused ''
fresh() {
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets" "$ROOT/x"
	echo keep >"$ROOT/x/f"; : >"$HLOG"
}
hsrun() { # config, command...   (MODE=--enforce|--guard)
	local c=$1; shift
	(cd "$ROOT" && timeout 60 "$HOOKSHIM" run ${MODE:-} -c "$TMP/$c.json" --root "$ROOT" -- "$@") \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
}
hooks() { tr '\n' '|' <"$HLOG"; }

# What the allowed command prints outside any session: the reference.
ALLOWED='printf "a\0b\377\n"; printf "to err\n" >&2'
bash -c "$ALLOWED" >"$TMP/want.out" 2>"$TMP/want.err"

for sb in "${SANDBOXES[@]}"; do
	read -ra S <<<"$sb"
	n="agent sandbox [${S[0]##*/} ${S[*]:1}]"

	# guard mode's default lets a sandbox make its namespaces and mount
	# in them (hs_settings_floor_defaults) ...
	fresh
	hsrun refused "${S[@]}" bash -c 'echo inside'
	expect_eq "$n: guard mode's default: the sandbox starts" "inside" "$(cat "$TMP/out")"
	# ... enforce mode's refuses it, with the setting named
	fresh
	MODE=--enforce hsrun refused "${S[@]}" bash -c 'echo inside'
	expect_eq "$n: enforce mode's default: the sandbox cannot start" "" "$(cat "$TMP/out")"
	check "$n: ... it fails" test "$rc" != 0
	expect_contains "$n: ... the floor says why and what allows it" "$(cat "$TMP/err")" \
		'denied: a mount, user, cgroup or PID namespace of its own, where paths and parents can be given other meanings (allow with "hookshim": {"floor_allow": ["namespaces"]}; a sandbox such as bubblewrap needs "mount" too)'

	fresh
	hsrun plain "${S[@]}" bash -c 'rm -rf x'
	check "$n: rm -rf is denied (x is still there)" test -f "$ROOT/x/f"
	expect_contains "$n: ... with the hook's reason" "$(cat "$TMP/err")" "no rm -rf here"
	check "$n: ... the command fails" test "$rc" != 0
	expect_eq "$n: ... the Bash hook fired once" "bash:rm -rf x|" "$(hooks)"
	expect_not_contains "$n: ... no word of an unreachable supervisor" \
		"$(cat "$TMP/err")" "unreachable"

	fresh
	hsrun plain "${S[@]}" bash -c 'echo x > secrets/k'
	check "$n: a write to secrets/ is denied" test ! -e "$ROOT/secrets/k"
	expect_contains "$n: ... with the hook's reason" "$(cat "$TMP/err")" \
		"hookshim: write to $ROOT/secrets/k denied: secrets are read-only"
	expect_eq "$n: ... the Bash hook and the Write hook fired once each" \
		"bash:echo x > secrets/k|write:$ROOT/secrets/k|" "$(hooks)"

	fresh
	hsrun plain "${S[@]}" bash -c "$ALLOWED"
	check "$n: an allowed command prints byte for byte" cmp -s "$TMP/want.out" "$TMP/out"
	expect_eq "$n: ... its stderr is its own" "$(cat "$TMP/want.err")" "$(cat "$TMP/err")"
	expect_eq "$n: ... exit status 0" 0 "$rc"
	expect_eq "$n: ... the Bash hook fired once" "bash:$ALLOWED|" "$(hooks)"

	# a static parent runs bash bypassing libc (Codex's bwrap is static):
	# bash's constructor judges itself, through the floor
	fresh
	hsrun plain "${S[@]}" "$RAWX" /bin/bash bash -c 'rm -rf x'
	check "$n: static parent, bash's own constructor: rm -rf denied" test -f "$ROOT/x/f"
	expect_contains "$n: ... with the reason" "$(cat "$TMP/err")" "no rm -rf here"
	expect_eq "$n: ... once" "bash:rm -rf x|" "$(hooks)"
	fresh
	hsrun plain "${S[@]}" "$RAWX" /bin/bash bash -c 'echo via-constructor; echo y > secrets/c'
	expect_eq "$n: static parent, allowed: runs" "via-constructor" "$(cat "$TMP/out")"
	check "$n: ... its write to secrets/ is denied" test ! -e "$ROOT/secrets/c"
	expect_eq "$n: ... each hook once" \
		"bash:echo via-constructor; echo y > secrets/c|write:$ROOT/secrets/c|" "$(hooks)"

	# python as the agent inside the sandbox: posix_spawn, and its own
	# write
	fresh
	hsrun plain "${S[@]}" python3 -c '
import os
pid = os.posix_spawn("/bin/bash", ["bash", "-c", "rm -rf x"], os.environ)
print("status", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
try:
    open("secrets/p", "w")
except OSError as e:
    print("open:", e.errno)
'
	check "$n: posix_spawn of rm -rf: denied" test -f "$ROOT/x/f"
	check "$n: ... the agent's own write to secrets/: denied" test ! -e "$ROOT/secrets/p"
	expect_contains "$n: ... it got EACCES" "$(cat "$TMP/out")" "open: 13"
	expect_eq "$n: ... each hook once" "bash:rm -rf x|write:$ROOT/secrets/p|" "$(hooks)"

	# nested execs: the tool's own rm asks the floor as role "tool", and
	# the hooks see what they see outside the sandbox
	NESTED='echo start; f=-rf; rm $f x; echo rc=$?'
	fresh
	hsrun nested env bash -c "$NESTED"
	want=$(hooks)
	fresh
	hsrun nested "${S[@]}" bash -c "$NESTED"
	check "$n: nested: the tool's rm -rf is denied" test -f "$ROOT/x/f"
	expect_eq "$n: nested: ... the shell goes on" "start|rc=126|" "$(tr '\n' '|' <"$TMP/out")"
	expect_eq "$n: nested: the tool call, then the nested rm, once each, as outside" \
		"$want" "$(hooks)"
	expect_contains "$n: nested: ... (the nested event names rm)" "$want" "|bash:rm -rf x|"

	# on_supervisor_loss "deny" is for a lost supervisor, not a hidden one
	fresh
	hsrun lossdeny "${S[@]}" bash -c 'echo judged'
	expect_eq "$n: on_supervisor_loss deny: an allowed command still runs" "judged" "$(cat "$TMP/out")"
	expect_eq "$n: ... judged once" "bash:echo judged|" "$(hooks)"

	# ---- without the floor: the documented limit ----
	fresh
	HOOKSHIM_TEST_NO_FLOOR=1 hsrun plain "${S[@]}" bash -c 'rm -rf x; echo x > secrets/k'
	check "$n, no floor: rm -rf runs unchecked (the limit)" test ! -e "$ROOT/x"
	check "$n, no floor: ... and the write lands" test -f "$ROOT/secrets/k"
	expect_eq "$n, no floor: no hook fired" "" "$(hooks)"
	expect_contains "$n, no floor: the shim says the sandbox hides the socket" \
		"$(cat "$TMP/err")" "supervisor unreachable (the agent's sandbox hides the supervisor's socket from this process; no syscall floor here)"
done
