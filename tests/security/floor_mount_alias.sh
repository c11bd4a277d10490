# A limit, shown: a process of the session that makes its own mount
# namespace (unshare -rm; bubblewrap, which Codex's default sandbox
# bundles) is judged by its paths as they read, and a bind mount made there
# gives a protected directory a name no hook matches. The write straight
# into secrets/ is denied (the floor, a static busybox); the same write
# through the namespace's bind mount lands. README "Limits", under the
# floor.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] || { skip "mount alias: no hookshim build"; exit 0; }
BB=/bin/busybox
{ [ -x $BB ] && ! ldd $BB >/dev/null 2>&1; } || { skip "mount alias: no static busybox"; exit 0; }
command -v unshare >/dev/null || { skip "mount alias: no unshare"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secrets" "$ROOT/alias"
if ! unshare -rm $BB sh -c "mount --bind $ROOT/secrets $ROOT/alias" 2>/dev/null; then
	skip "mount alias: unprivileged user and mount namespaces not allowed here"
	exit 0
fi
cat > "$TMP/hooks.json" <<J
{"hookshim":{"floor":"require"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command",
  "if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
if ! "$HOOKSHIM" run -c "$TMP/hooks.json" -- /bin/true 2>/dev/null; then
	skip "mount alias: no syscall floor here"; exit 0
fi
(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/hooks.json" --root "$ROOT" -- $BB sh -c \
	"echo A > secrets/a; unshare -rm $BB sh -c 'mount --bind $ROOT/secrets $ROOT/alias && echo B > $ROOT/alias/b'") \
	>"$TMP/out" 2>"$TMP/err"
check "mount alias: the write straight into secrets/ is denied" test ! -e "$ROOT/secrets/a"
expect_contains "mount alias: ... with the reason" "$(cat "$TMP/err")" "denied: secrets are protected"
expect_eq "mount alias: through a bind mount in its own namespace it lands (the limit)" \
	"B" "$(cat "$ROOT/secrets/b" 2>/dev/null)"
