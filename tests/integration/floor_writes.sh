# The syscall floor with real programs the shim cannot enter: a static
# binary, raw syscalls, openat2, a static busybox. Under `hookshim run`
# with a Write hook denying secrets/**: nothing under secrets/ changes,
# each call gets EACCES with the reason on its stderr, writes elsewhere
# succeed byte-identically, and the hook runs exactly once per call --
# also for dynamic programs, where the shim decides first.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor: jq missing"; exit 0; }
SW=$HOOKSHIM_PROBES/floor_static_writes
RAW=$HOOKSHIM_PROBES/floor_rawsyscall
[ -x "$SW" ] && [ -x "$RAW" ] || { skip "floor: probes not built"; exit 0; }
ROOT=$TMP/root
HLOG=$TMP/hook.log

cat > "$TMP/hooks.json" <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"jq -c '[.tool_input.file_path,.tool_input.operation]' >> $HLOG; echo 'secrets are protected' >&2; exit 2"}]},
 {"matcher":"Bash","hooks":[{"type":"command",
   "command":"jq -r .tool_input.command | grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}
J

fresh() {
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets/dir"
	echo keep > "$ROOT/secrets/old"; : > "$HLOG"
}
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %Y' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
hsrun() { ( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/hooks.json" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"; }
hooks_ran() { wc -l < "$HLOG" | tr -d ' '; }

# ---- a static binary, every write-class syscall ----
fresh; before=$(tree_hash)
ops="open:secrets/a openat:secrets/b creat:secrets/c append:secrets/old trunc:secrets/old
 rename:secrets/old:moved unlink:secrets/old mkdir:secrets/d rmdir:secrets/dir
 link:secrets/old:secrets/l symlink:x:secrets/s mknod:secrets/n fifo:secrets/ff
 openat2:secrets/o rename:out0:secrets/in"
echo 0 > "$ROOT/out0"
hsrun "$SW" $ops write:out.txt:hello-floor
n=$(echo $ops | wc -w)
expect_eq "floor: static binary leaves secrets/ unchanged" "$before" "$(tree_hash)"
expect_eq "floor: static binary: each of $n calls EACCES" "$n" "$(grep -c ': EACCES$' "$TMP/out")"
expect_eq "floor: static binary: the reason on its stderr, once per call" "$n" \
	"$(grep -c 'denied: secrets are protected' "$TMP/err")"
expect_eq "floor: static binary: the hook ran once per call" "$n" "$(hooks_ran)"
expect_eq "floor: static binary: a write outside secrets/ is byte-identical" "hello-floor" "$(cat "$ROOT/out.txt")"
expect_contains "floor: static binary: operations as the shim names them" "$(cat "$HLOG")" \
	'"create"]'
for op in append truncate rename delete mkdir rmdir link symlink mknod; do
	expect_contains "floor: static binary: $op fires as $op" "$(cat "$HLOG")" "\"$op\"]"
done
expect_contains "floor: a rename into secrets/ fires for its target" "$(cat "$HLOG")" \
	"[\"$ROOT/secrets/in\",\"create\"]"
expect_eq "floor: reads are not judged" "read secrets/old: ok" "$(hsrun "$SW" read:secrets/old; cat "$TMP/out")"

# ---- io_uring is refused, so io_uring programs fall back to syscalls ----
hsrun "$SW" uring
expect_eq "floor: io_uring_setup returns ENOSYS" "uring : ENOSYS" "$(cat "$TMP/out")"
cat > "$TMP/uring.json" <<J
{"hookshim":{"io_uring":"allow"},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}
J
out=$(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/uring.json" --root "$ROOT" -- "$SW" uring 2>&1)
expect_eq "floor: \"io_uring\": \"allow\" lets it through" "uring : ok" "$out"

# ---- raw syscalls from a dynamic program (the shim is loaded, bypassed) ----
fresh; before=$(tree_hash)
hsrun "$RAW" secrets/r1 2:secrets/r2 raw-ok
expect_eq "floor: raw syscall(SYS_openat) and openat2 leave secrets/ unchanged" "$before" "$(tree_hash)"
expect_eq "floor: raw syscalls get EACCES" "2" "$(grep -c ': EACCES$' "$TMP/out")"
expect_eq "floor: raw syscalls: reason on stderr" "2" "$(grep -c 'denied: secrets are protected' "$TMP/err")"
expect_eq "floor: raw syscalls: the hook ran once each" "2" "$(hooks_ran)"
expect_eq "floor: raw syscall outside secrets/ writes" "raw" "$(cat "$ROOT/raw-ok")"

# ---- dynamic programs: the shim decides, the floor must not again ----
fresh; before=$(tree_hash)
hsrun bash -c 'echo x > secrets/a; echo y >> secrets/old; mkdir secrets/d; rm secrets/old; python3 -c "open(\"secrets/p\",\"w\")"; echo fine > ok.txt'
expect_eq "floor+shim: dynamic writes leave secrets/ unchanged" "$before" "$(tree_hash)"
expect_eq "floor+shim: exactly one hook run per denied call (5 calls)" "5" "$(hooks_ran)"
expect_eq "floor+shim: exactly one reason per denied call" "5" "$(grep -c 'denied: secrets are protected' "$TMP/err")"
expect_eq "floor+shim: writes elsewhere succeed" "fine" "$(cat "$ROOT/ok.txt")"
fresh
hsrun bash -c 'cp secrets/old copy && cat > /dev/null < secrets/old; sed -i s/k/K/ copy; printf "%s" c > c.txt'
expect_eq "floor+shim: writes no hook matches run no hook at all" "0" "$(hooks_ran)"
expect_eq "floor+shim: ... and still happen" "Keep c" "$(cat "$ROOT/copy") $(cat "$ROOT/c.txt")"

# ---- a static busybox: its shell, rm, mv, mkdir ----
if ! "$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1; then
	skip "floor: busybox-static not installed (apt-get install busybox-static)"
else
	BB=/bin/busybox
	fresh; before=$(tree_hash)
	hsrun $BB sh -c 'echo P > secrets/f; rm secrets/old; mv secrets/old secrets/m; mkdir secrets/d; echo ok > bb.txt'
	expect_eq "floor: busybox sh/rm/mv/mkdir leave secrets/ unchanged" "$before" "$(tree_hash)"
	expect_eq "floor: busybox: the hook ran once per call (4)" "4" "$(hooks_ran)"
	expect_eq "floor: busybox: the reason on its stderr (4)" "4" "$(grep -c 'denied: secrets are protected' "$TMP/err")"
	expect_contains "floor: busybox: the redirect fails with EACCES" "$(cat "$TMP/err")" "Permission denied"
	expect_eq "floor: busybox: writes elsewhere succeed" "ok" "$(cat "$ROOT/bb.txt")"
	fresh; before=$(tree_hash)
	hsrun $BB sh -c 'python3 -c "import os; os.open(\"secrets/py\", os.O_WRONLY|os.O_CREAT)"; python3 -c "import os; os.close(os.open(\"py-ok\", os.O_WRONLY|os.O_CREAT))"'
	expect_eq "floor: python3 os.open under a static busybox sh leaves secrets/ unchanged" "$before" "$(tree_hash)"
	expect_contains "floor: python3 under busybox gets EACCES" "$(cat "$TMP/err")" "PermissionError"
	expect_eq "floor: python3 under busybox: the hook ran once" "1" "$(hooks_ran)"
	check "floor: python3 under busybox: a write elsewhere succeeds" test -f "$ROOT/py-ok"
fi

# ---- the reason is escaped and goes nowhere when quiet on a terminal ----
cat > "$TMP/esc.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","if":"Write(secrets/**)","command":"printf 'bad\\\\033[31mred' >&2; exit 2"}]}]}}
J
fresh
(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/esc.json" --root "$ROOT" -- "$SW" open:secrets/e) >"$TMP/out" 2>"$TMP/err"
expect_contains "floor: control characters in the reason are escaped" "$(cat "$TMP/err")" 'bad\x1b[31mred'

# ---- the cookie is a capability: a process that digs it out skips the floor ----
fresh
hsrun "$RAW" c:secrets/cookie
expect_eq "floor limit (guard mode): a raw syscall carrying the session's cookie is not judged (documented; enforce mode: security/enforce_env.sh)" \
	"secrets/cookie: ok" "$(cat "$TMP/out")"
