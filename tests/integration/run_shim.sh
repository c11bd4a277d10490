# `hookshim run` with the shim: commands an agent runs go through the hooks.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
if [ ! -f "${HOOKSHIM_LIB:-}" ]; then
	skip "run_shim: ${HOOKSHIM_LIB:-libhookshim.so} not built"
	exit 0
fi

cat > hooks.json <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"c=\$(jq -r .tool_input.command); printf '%s\\\\n' \"\$c\" >> $TMP/seen; case \"\$c\" in *'rm -rf'*) echo 'BLOCKED-BY-POLICY: no rm -rf' >&2; exit 2;; esac; exit 0"}]}],
 "PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat > $TMP/post.in; case \"\$(jq -r .tool_input.command $TMP/post.in)\" in *ctx-probe*) echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"CTX-MARKER\"}}';; esac"}]}]}}
J

# --- deny --------------------------------------------------------------------
mkdir -p victim; touch victim/keep
hs run -c hooks.json -- bash -c 'rm -rf victim' 2>err.txt; rc=$?
check "denied: victim survives" test -e victim/keep
expect_eq "denied: exit 126" 126 "$rc"
expect_contains "denied: the hook's reason on stderr" "$(cat err.txt)" "BLOCKED-BY-POLICY: no rm -rf"

# From an agent process (python's subprocess), as a tool call.
out=$(hs run -c hooks.json -- python3 -c '
import subprocess
r = subprocess.run(["bash", "-c", "rm -rf victim"], capture_output=True)
print(r.returncode, r.stderr.decode().strip())' 2>/dev/null)
expect_eq "python subprocess: denied with 126 and the reason" "126 BLOCKED-BY-POLICY: no rm -rf" "$out"
check "python subprocess: victim survives" test -e victim/keep

# --- allowed commands behave as without hookshim -------------------------------
cmd='echo out; printf "a\tb\n" >&2; exit 5'
bash -c "$cmd" > want.out 2> want.err; want_rc=$?
hs run -c hooks.json -- bash -c "$cmd" > got.out 2> got.err; got_rc=$?
check "allowed: same stdout" cmp -s want.out got.out
check "allowed: same stderr" cmp -s want.err got.err
expect_eq "allowed: same exit status" "$want_rc" "$got_rc"

# --- the model's command inside Claude Code's wrapper ---------------------------
: > seen
script="source $HOME/.claude/shell-snapshots/snapshot-bash-1-ab.sh 2>/dev/null || true && \\builtin shopt -u extglob 2>/dev/null || true && { \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; } >/dev/null 2>&1 || true && eval 'echo '\"'\"'it'\"'\"'\"'\"'\"'\"'\"'\"'s'\"'\"' && rm -rf victim' < /dev/null && pwd -P >| $TMP/claude-ab12-cwd"
hs run -c hooks.json -- /bin/bash -c -l "$script" 2>err.txt; rc=$?
expect_eq "Claude wrapper: the hook sees the model's command" \
	"echo 'it'\"'\"'s' && rm -rf victim" "$(head -1 seen)"
expect_eq "Claude wrapper: denied" 126 "$rc"
check "Claude wrapper: victim survives" test -e victim/keep

# --- post hooks through the shim --------------------------------------------------
out=$(hs run -c hooks.json --log "$TMP/s.log" -- python3 -c '
import subprocess
r = subprocess.run(["bash", "-c", "echo ctx-probe; echo e >&2"], capture_output=True)
print(r.returncode, repr(r.stdout.decode()), repr(r.stderr.decode()))
r = subprocess.run(["bash", "-c", "echo failing; exit 3"], capture_output=True)
print(r.returncode, repr(r.stdout.decode()), repr(r.stderr.decode()))' 2>/dev/null)
expect_eq "post: output and status unchanged, context appended to stderr" \
	"0 'ctx-probe\\n' 'e\\nCTX-MARKER\\n'
3 'failing\\n' ''" "$out"
ids=$(jq -r 'select(.command == "echo ctx-probe; echo e >&2") | .event + ":" + .tool_use_id' "$TMP/s.log")
pre_id=$(sed -n 's/^pre://p' <<<"$ids"); post_id=$(sed -n 's/^post://p' <<<"$ids")
check "log: pre and post share one tool_use_id" test -n "$pre_id" -a "$pre_id" = "$post_id"
expect_eq "log: a failing command logs post_failure" "post_failure 3" \
	"$(jq -r 'select(.command == "echo failing; exit 3" and .event != "pre") | "\(.event) \(.exit_code)"' "$TMP/s.log")"
out=$(hs run -c hooks.json -- python3 -c '
import subprocess
r = subprocess.run(["bash", "-c", "echo hello"], capture_output=True)
print(r.returncode, repr(r.stdout.decode()), repr(r.stderr.decode()))' 2>/dev/null)
expect_eq "post: a plain command is untouched" "0 'hello\\n' ''" "$out"
expect_eq "post payload: stdout" "hello" "$(jq -r .tool_response.stdout post.in)"
