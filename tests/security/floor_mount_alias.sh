# A mount namespace of the session's own (unshare -rm; bubblewrap, which
# Codex's default sandbox bundles) could give a protected directory a name
# no hook matches: a bind mount there, and a write through it. By default
# the floor refuses the namespace and the mount (docs/floor.md, "Refused
# calls"), with the reason and the setting that allows them: nothing
# lands. With "floor_allow": ["namespaces", "mount"] (what an agent's
# sandbox needs) the limit is back, shown: the write straight into
# secrets/ is denied (the floor, a static busybox); the same write through
# the namespace's bind mount lands. docs/limits.md, "Under the floor".
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
policy() { # file, settings
	cat > "$1" <<J
{"hookshim":{"floor":"require"$2},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command",
  "if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
}
policy "$TMP/hooks.json" ''
policy "$TMP/allow.json" ', "floor_allow": ["namespaces", "mount"]'
if ! "$HOOKSHIM" run -c "$TMP/hooks.json" -- /bin/true 2>/dev/null; then
	skip "mount alias: no syscall floor here"; exit 0
fi
alias_write() { # policy
	rm -f "$ROOT/secrets/a" "$ROOT/secrets/b"
	(cd "$ROOT" && timeout 30 "$HOOKSHIM" run -c "$1" --root "$ROOT" -- $BB sh -c \
		"echo A > secrets/a; unshare -rm $BB sh -c 'mount --bind $ROOT/secrets $ROOT/alias && echo B > $ROOT/alias/b'") \
		>"$TMP/out" 2>"$TMP/err"
}

alias_write "$TMP/hooks.json"
check "mount alias: the write straight into secrets/ is denied" test ! -e "$ROOT/secrets/a"
expect_contains "mount alias: ... with the reason" "$(cat "$TMP/err")" "denied: secrets are protected"
check "mount alias: by default nothing lands through a namespace's bind mount" \
	test ! -e "$ROOT/secrets/b"
expect_contains "mount alias: ... the namespace is refused, the setting named" "$(cat "$TMP/err")" \
	'hookshim: unshare denied: a mount, user, cgroup or PID namespace of its own, where paths and parents can be given other meanings (allow with "hookshim": {"floor_allow": ["namespaces"]}; a sandbox such as bubblewrap needs "mount" too)'

alias_write "$TMP/allow.json"
check "mount alias, namespaces and mounts allowed: the write straight into secrets/ is denied" \
	test ! -e "$ROOT/secrets/a"
expect_eq "mount alias, namespaces and mounts allowed: through a bind mount it lands (the limit)" \
	"B" "$(cat "$ROOT/secrets/b" 2>/dev/null)"
