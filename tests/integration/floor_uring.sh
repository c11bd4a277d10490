# io_uring under the floor, with a real liburing program (built here,
# static and dynamic, from tests/probes/uring/uring_write.c): it writes
# through a ring (IORING_OP_OPENAT + IORING_OP_WRITE) and falls back to
# open(2) + write(2) when io_uring_setup fails, as real programs do.
# - Under the floor (default "io_uring": "deny"), io_uring_setup gets
#   ENOSYS, the program falls back, and its write into secrets/ is judged
#   and denied (by the floor for the static build, by the shim for the
#   dynamic one); its write elsewhere lands.
# - With "io_uring": "allow" the ring works and its writes are not seen
#   by anyone: the limit docs/limits.md states.
# - Without the floor nothing refuses io_uring: the same, unseen.
# - A ring made before the session by whoever starts `hookshim run`
#   (tests/probes/uring/uring_inherit.c, session 38's attack run: its
#   writes into secrets/ landed unseen) is closed before the agent starts
#   (said on stderr), and io_uring_enter/io_uring_register are refused
#   with io_uring_setup; with "allow" it is kept.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor-uring: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor-uring: jq missing"; exit 0; }
if ! "$HOOKSHIM_TOP/scripts/ensure-deps.sh" uring >/dev/null 2>&1; then
	skip "floor-uring: liburing-dev not installed (apt-get install liburing-dev)"
	exit 0
fi
src=$HOOKSHIM_TOP/tests/probes/uring/uring_write.c
cc -std=gnu11 -Wall -Wextra -Werror -O2 -static -o "$TMP/uw-static" "$src" -luring &&
	cc -std=gnu11 -Wall -Wextra -Werror -O2 -o "$TMP/uw-dynamic" "$src" -luring &&
	cc -std=gnu11 -Wall -Wextra -Werror -O2 -static -o "$TMP/ui" \
		"$HOOKSHIM_TOP/tests/probes/uring/uring_inherit.c" -luring ||
	{ fail "floor-uring: the liburing program does not build"; exit 0; }
# The ring itself must work here, else "allow" shows nothing.
mkdir -p "$TMP/plain" && (cd "$TMP/plain" && "$TMP/uw-static" f:x) >"$TMP/plain.out"
if [ "$(cat "$TMP/plain.out")" != "f: ring ok" ]; then
	skip "floor-uring: io_uring unavailable on this kernel ($(cat "$TMP/plain.out"))"
	exit 0
fi
ROOT=$TMP/root
HLOG=$TMP/hook.log
conf() { # IO_URING: the hooks file for that setting
	cat > "$TMP/hooks-$1.json" <<J
{"hookshim":{"io_uring":"$1"},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"jq -c '[.tool_input.file_path,.tool_input.operation]' >> $HLOG; echo 'secrets are protected' >&2; exit 2"}]}]}}
J
}
conf deny; conf allow
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT/secrets"; echo keep > "$ROOT/secrets/old"; : > "$HLOG"; }
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
hsrun() { # IO_URING PROGRAM ARGS...
	local u=$1; shift
	( cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/hooks-$u.json" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"
}
hooks_ran() { wc -l < "$HLOG" | tr -d ' '; }

for kind in static dynamic; do
	uw=$TMP/uw-$kind
	judge=floor; [ $kind = dynamic ] && judge=shim

	# ---- the floor refuses the ring: the fallback is judged ----
	fresh; before=$(tree_hash)
	hsrun deny "$uw" secrets/u:S secrets/old:S out.txt:hello-ring
	expect_eq "floor-uring/$kind: io_uring_setup refused, the fallback is denied in secrets/" \
		"secrets/u: syscalls EACCES
secrets/old: syscalls EACCES
out.txt: syscalls ok" "$(cat "$TMP/out")"
	expect_eq "floor-uring/$kind: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_eq "floor-uring/$kind: the write elsewhere lands" "hello-ring" "$(cat "$ROOT/out.txt")"
	expect_eq "floor-uring/$kind: the $judge ran the hook once per denied write" 2 "$(hooks_ran)"
	expect_contains "floor-uring/$kind: ... with the path" "$(cat "$HLOG")" "[\"$ROOT/secrets/u\",\"create\"]"
	expect_eq "floor-uring/$kind: the reason on its stderr, once per write" 2 \
		"$(grep -c 'denied: secrets are protected' "$TMP/err")"

	# ---- "io_uring": "allow": the ring works, its writes are unseen ----
	fresh
	hsrun allow "$uw" secrets/u:RING out.txt:hello-ring
	expect_eq "floor-uring/$kind: \"allow\": the ring is used" "secrets/u: ring ok
out.txt: ring ok" "$(cat "$TMP/out")"
	expect_eq "floor-uring/$kind: \"allow\": its write into secrets/ lands (the limit)" \
		"RING" "$(cat "$ROOT/secrets/u" 2>/dev/null)"
	expect_eq "floor-uring/$kind: \"allow\": no hook saw it" 0 "$(hooks_ran)"

	# ---- no floor at all: nothing refuses io_uring ----
	fresh
	HOOKSHIM_TEST_NO_FLOOR=1 hsrun deny "$uw" secrets/u:RING
	expect_eq "floor-uring/$kind: no floor: the ring is used" "secrets/u: ring ok" "$(cat "$TMP/out")"
	expect_eq "floor-uring/$kind: no floor: its write into secrets/ lands unseen" \
		"RING 0" "$(cat "$ROOT/secrets/u" 2>/dev/null) $(hooks_ran)"
done

# ---- a ring made before the session, inherited ----
fresh; before=$(tree_hash)
(cd "$ROOT" && "$TMP/ui" launch "$TMP/ui" use plain.txt:P) >"$TMP/out"
expect_eq "floor-uring/inherited: the ring works without hookshim" "ring: ok P" \
	"$(cat "$TMP/out") $(cat "$ROOT/plain.txt" 2>/dev/null)"
for mode in guard enforce; do
	fresh; before=$(tree_hash)
	( cd "$ROOT" && "$TMP/ui" launch "$HOOKSHIM" run --$mode -c "$TMP/hooks-deny.json" --root "$ROOT" -- \
		"$TMP/ui" use secrets/x:PWNED ) >"$TMP/out" 2>"$TMP/err"
	expect_eq "floor-uring/inherited/$mode: the agent has no ring" "ring: closed" "$(cat "$TMP/out")"
	expect_eq "floor-uring/inherited/$mode: secrets/ unchanged" "$before" "$(tree_hash)"
	expect_contains "floor-uring/inherited/$mode: said" "$(cat "$TMP/err")" \
		"descriptor 9, an io_uring ring made before the session, closed"
done
fresh
( cd "$ROOT" && "$TMP/ui" launch "$HOOKSHIM" run -c "$TMP/hooks-allow.json" --root "$ROOT" -- \
	"$TMP/ui" use secrets/x:RING ) >"$TMP/out" 2>"$TMP/err"
expect_eq "floor-uring/inherited: \"allow\" keeps it, unseen (the limit)" "ring: ok RING 0" \
	"$(cat "$TMP/out") $(cat "$ROOT/secrets/x" 2>/dev/null) $(hooks_ran)"
