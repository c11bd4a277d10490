# `hookshim wrap` and PATH wrappers: hooks on a tool with no LD_PRELOAD.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
real_git=$(command -v git) || { skip "run_wrap: git not installed"; exit 0; }
real_ver=$(git --version)

# memcode's format, as its users write a force-push guard.
cat > guard.json <<'J'
{"hooks":{"pre_tool_use":[{"matcher":"bash","command":"jq -e '.input.command | test(\"push[^|;]*( --force|-f)\")' >/dev/null && { echo 'force-push is blocked by policy' >&2; exit 2; } || exit 0"}]}}
J
echo '{"hookshim":{"wrap":["git"]}}' > wrap.json

# --- hookshim wrap -----------------------------------------------------------
hs wrap "$TMP/w/bin" git ls; rc=$?
expect_eq "wrap exits 0" 0 "$rc"
check "wrapper is a symlink to hookshim" test -L "$TMP/w/bin/git" -a "$TMP/w/bin/git" -ef "$HOOKSHIM"
hs wrap "$TMP/w/bin" git; expect_eq "wrap is idempotent" 0 "$?"
touch "$TMP/w/bin/mine"
hs wrap "$TMP/w/bin" mine 2>err.txt; rc=$?
check "wrap leaves a non-symlink alone" test "$rc" != 0 -a ! -L "$TMP/w/bin/mine"
hs wrap "$TMP/w/bin" a/b 2>/dev/null; check "wrap refuses a path as tool name" test "$?" != 0
hs wrap 2>/dev/null; expect_eq "wrap without args is a usage error" 64 "$?"
out=$(hs wrap "$TMP/w/bin" git 2>err.txt)
expect_contains "wrap says what it made" "$out" "wrapped $TMP/w/bin/git"
expect_contains "wrap says loudly when no hook would judge its wrappers" "$(cat err.txt)" \
	"no hook loads from here"
out=$(HOOKSHIM_CONFIG=$TMP/guard.json hs wrap "$TMP/w/bin" git 2>err.txt)
expect_contains "wrap counts the hooks of HOOKSHIM_CONFIG" "$out" "outside a session, 1 hook(s) judge them"

# --- a wrapper outside a session reads HOOKSHIM_CONFIG, as a bare preload does
(cd "$TMP" && mkdir -p nocfg && cd nocfg &&
	HOOKSHIM_CONFIG=$TMP/guard.json PATH=$TMP/w/bin:$PATH git push --force origin main 2>err.txt
	echo "rc=$?" > rc.txt)
expect_eq "HOOKSHIM_CONFIG: the wrapped force-push is denied (126)" "rc=126" "$(cat "$TMP/nocfg/rc.txt")"
expect_contains "HOOKSHIM_CONFIG: with the hook's reason" "$(cat "$TMP/nocfg/err.txt")" \
	"force-push is blocked by policy"

# --- under hookshim run, shim disabled: settings.wrap --------------------------
export HOOKSHIM_LIB=   # no LD_PRELOAD at all: only the wrapper can see git
# The "agent" is a script (not `sh -c`, which hookshim run would judge as a
# tool call itself): only the wrapper sees its git.
cat > agent.sh <<'A'
echo "[${LD_PRELOAD-unset}]"; git push --force origin main; echo "rc=$?"
A
out=$(hs run --dialect memcode -c guard.json --dialect claude -c wrap.json -- \
	sh ./agent.sh 2>err.txt)
expect_contains "no LD_PRELOAD in the session" "$out" "[unset]"
expect_contains "git push --force denied via the wrapper: 126" "$out" "rc=126"
expect_contains "the hook's reason on stderr" "$(cat err.txt)" "force-push is blocked by policy"
out=$(hs run --dialect memcode -c guard.json --dialect claude -c wrap.json -- git --version)
expect_eq "git --version passes through unchanged" "$real_ver" "$out"
out=$(hs run --dialect memcode -c guard.json --dialect claude -c wrap.json -- sh -c 'command -v git')
check "the wrapper dir is first on PATH" test "$(basename "$(dirname "$out")")" != "$(basename "$(dirname "$real_git")")"
check "the wrapper dir is gone after the session" test ! -e "$out"
# The config snapshot holds for wrappers too: removing the guard mid-session
# changes nothing.
cp guard.json guard2.json
cat > agent2.sh <<'A'
echo "{}" > guard2.json; git push -f origin main 2>/dev/null; echo "rc=$?"
A
out=$(hs run --dialect memcode -c guard2.json --dialect claude -c wrap.json -- sh ./agent2.sh)
expect_eq "snapshot: guard still applies after its file was emptied" "rc=126" "$out"

# --- standalone wrappers: no session, config from the project ---------------
mkdir -p proj/.hookshim
cat > proj/.hookshim/hooks.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"c=$(jq -r .tool_input.command); echo \"$c\" >> ../seen; case \"$c\" in *'push --force'*) echo 'force-push is blocked by policy' >&2; exit 2;; esac; exit 0"}]}]}}
J
cd proj
# A hook file that came with the project loads once trusted (config/trust.h):
# before, the wrapper runs no hook of it and says so.
: > ../seen
PATH=$TMP/w/bin:$PATH git push --force origin main 2>../err.txt; rc=$?
expect_contains "untrusted project file: the wrapper says so" "$(cat ../err.txt)" \
	".hookshim/hooks.json: came with the project and is not trusted yet"
expect_eq "untrusted project file: its hook did not run" "" "$(cat ../seen)"
"$HOOKSHIM" trust >/dev/null
PATH=$TMP/w/bin:$PATH git push --force origin main 2>../err.txt; rc=$?
expect_eq "standalone wrapper denies: 126" 126 "$rc"
expect_contains "standalone wrapper: reason" "$(cat ../err.txt)" "force-push is blocked by policy"
expect_eq "the hook saw the command" "git push --force origin main" "$(tail -1 ../seen)"
out=$(PATH=$TMP/w/bin:$PATH git --version); expect_eq "standalone wrapper passes --version" "$real_ver" "$out"
out=$(HOOKSHIM_INERT=1 PATH=$TMP/w/bin:$PATH git push --force 2>&1)
expect_not_contains "HOOKSHIM_INERT=1 bypasses the hooks" "$out" "blocked by policy"

# --- no recursion ------------------------------------------------------------
mkdir -p "$TMP/farm"; ln -sf "$TMP/w/bin/git" "$TMP/farm/git"
ln -sf "$HOOKSHIM" "$TMP/farm/ls"
out=$(PATH=$TMP/w/bin:$TMP/w/bin:$TMP/farm:$TMP/w/bin:$PATH timeout 10 git --version); rc=$?
expect_eq "wrapper dir twice plus a symlink farm: real git found" "$real_ver" "$out"
out=$(PATH=$TMP/farm:$TMP/w/bin:$PATH timeout 10 ls -d /); rc=$?
expect_eq "farm symlink straight to hookshim: real ls found" "/" "$out"
PATH=$TMP/farm:$TMP/w/bin timeout 10 git --version 2>../err.txt; rc=$?
expect_eq "only wrappers on PATH: 127, not a loop" 127 "$rc"
expect_contains "only wrappers: says so" "$(cat ../err.txt)" "not found"
cd ..

# --- with the shim: a wrapper the shim already checked is not checked twice ---
if [ -f "${HOOKSHIM_TOP}/${BUILD:-build}/lib/libhookshim.so" ]; then
	: > seen
	(cd proj && HOOKSHIM_LIB=$HOOKSHIM_TOP/${BUILD:-build}/lib/libhookshim.so \
		PATH=$TMP/w/bin:$PATH "$HOOKSHIM" run -- python3 -c \
		'import subprocess; subprocess.run(["bash", "-c", "git --version"])' >/dev/null)
	expect_eq "shim + wrapper: one event for one tool call" 1 "$(grep -c . seen)"
else
	skip "shim + wrapper: libhookshim.so not built"
fi
