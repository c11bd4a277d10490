# Read events from the syscall floor: the agent's opens for reading that
# no shim sees -- a static program, a dynamic one's raw syscalls (what Bun
# does, so Claude Code's Read tool) -- are PreToolUse Read events under a
# Read hook, with the shim's rules: an agent-role caller, an existing
# regular file, the hooks' Read(...) globs. A denied read fails with EACCES
# and the reason on the caller's stderr; an allowed one reads the file
# unchanged; a tool call's static `cat .env` is its command's, not a Read;
# a dynamic program's reads are decided once (by its shim); without a Read
# hook the floor sends no read at all.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor reads: no hookshim build"; exit 0; }
command -v python3 >/dev/null && command -v jq >/dev/null ||
	{ skip "floor reads: python3 or jq missing"; exit 0; }
"$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1 && [ -x /bin/busybox ] ||
	{ skip "floor reads: busybox-static not installed (apt-get install busybox-static)"; exit 0; }
ROOT=$TMP/root
mkdir -p "$ROOT/secrets" "$ROOT/dir"
echo 'API_KEY=sk-floor-123' >"$ROOT/.env"
printf 'fine\nline two\n' >"$ROOT/ok.txt"
echo 'hidden' >"$ROOT/secrets/k"
BB=/bin/busybox

GUARD=$HOOKSHIM_TOP/tests/fixtures/read_guard.sh
export PAYLOADS=$TMP/payloads.jsonl
cfg() { # cfg FILE MATCHER [IF]
	jq -n --arg m "$2" --arg c "$GUARD" --arg rule "${3:-}" \
		'{hookshim: {floor: "require"}, hooks: {PreToolUse: [{matcher: $m, hooks: [
		  {type: "command", command: $c} + (if $rule == "" then {} else {"if": $rule} end)]}]}}' >"$1"
}
cfg "$TMP/read.json" "Read"
cfg "$TMP/write.json" "Write|Edit"
cfg "$TMP/rule.json" "Read" "Read(secrets/**)"

# hsrun CFG CMD...: sets OUT, ERR, RC, READS (the Read payloads' paths)
hsrun() {
	local c=$1; shift
	: >"$PAYLOADS"
	( cd "$ROOT" && "$HOOKSHIM" run -c "$c" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"
	RC=$?
	OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
	READS=$(jq -r 'select(.tool_name == "Read") | .tool_input.file_path' "$PAYLOADS" | sed "s#^$ROOT/##" | sort | tr '\n' ' ')
}

need_floor "floor reads"
# (a session with a Read hook that cannot start where the floor can is a
# failure, not a skip: a supervisor that crashed on the agent's first read
# once looked like "no floor here")
(cd "$ROOT" && "$HOOKSHIM" run -c "$TMP/read.json" --root "$ROOT" -- true) 2>"$TMP/err"
expect_eq "a session with a Read hook starts and ends cleanly" 0 "$?"

# ---- a static busybox cat as the agent ----
hsrun "$TMP/read.json" $BB cat .env
expect_eq "static cat .env: fails" 1 "$RC"
expect_eq "static cat .env: nothing on stdout (the key never read)" "" "$OUT"
expect_contains "static cat .env: the hook's reason on its stderr" "$ERR" \
	"hookshim: read of $ROOT/.env denied: Blocked: .env holds secrets; use .env.example"
expect_contains "static cat .env: EACCES (busybox's own words)" "$ERR" "cat: can't open '.env': Permission denied"
expect_eq "static cat .env: one Read event, the shim's payload" \
	"Read $ROOT/.env PreToolUse" \
	"$(jq -r '"\(.tool_name) \(.tool_input.file_path) \(.hook_event_name)"' "$PAYLOADS")"
hsrun "$TMP/read.json" $BB cat ok.txt
expect_eq "static cat ok.txt: allowed, content unchanged" "$(printf 'fine\nline two')" "$OUT"
expect_eq "static cat ok.txt: exit 0, nothing on stderr" "0:" "$RC:$ERR"
expect_eq "static cat ok.txt: one Read event" "ok.txt " "$READS"

# what is not a Read: a directory listed, a missing file, a file out of
# the root, /proc; a write is not a Read either
hsrun "$TMP/read.json" $BB sh -c "ls dir >/dev/null; cat nope 2>/dev/null; cat /etc/hostname >/dev/null; cat /proc/self/status >/dev/null; echo x > w.txt; cat ok.txt >/dev/null"
expect_eq "static: only the regular file under the root is a Read" "ok.txt " "$READS"

# Read(secrets/**): other reads never reach a hook
hsrun "$TMP/rule.json" $BB sh -c 'cat .env ok.txt secrets/k'
expect_eq "Read(secrets/**): the only Read event is secrets/k" "secrets/k " "$READS"
expect_contains "Read(secrets/**): .env is outside the rule" "$OUT" "API_KEY=sk-floor-123"

# ---- a dynamic program's raw syscalls (Bun's way) ----
cat >"$TMP/raw.py" <<'PY'
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
def show(name, fd):
    if fd < 0: print(name, "!", os.strerror(ctypes.get_errno()))
    else: print(name, "=", os.read(fd, 100).decode().split("\n")[0]); os.close(fd)
for p in sys.argv[1:]:
    if p.startswith("2:"):  # openat2(O_RDONLY)
        how = ctypes.create_string_buffer(struct.pack("QQQ", 0, 0, 0), 24)
        show(p, libc.syscall(437, -100, p[2:].encode(), how, 24))
    else:
        show(p, libc.syscall(257, -100, p.encode(), 0, 0))
PY
hsrun "$TMP/read.json" python3 "$TMP/raw.py" .env ok.txt 2:.env 2:ok.txt
expect_contains "raw openat .env: EACCES" "$OUT" ".env ! Permission denied"
expect_contains "raw openat ok.txt: read unchanged" "$OUT" "ok.txt = fine"
expect_contains "raw openat2 .env: EACCES" "$OUT" "2:.env ! Permission denied"
expect_contains "raw openat2 ok.txt: read unchanged" "$OUT" "2:ok.txt = fine"
expect_not_contains "raw syscalls: the key never reached the program" "$OUT" "sk-floor-123"
expect_eq "raw syscalls: the reason on stderr, once per denied read" 2 \
	"$(grep -c "read of $ROOT/.env denied: Blocked: .env holds secrets" "$TMP/err")"
expect_eq "raw syscalls: one Read event per open" ".env .env ok.txt ok.txt " "$READS"

# ---- the shim's own reads are decided once, by the shim ----
hsrun "$TMP/read.json" python3 -c '
for p in [".env", "ok.txt"]:
    try: print(p, "=", open(p).read().split()[0])
    except OSError as e: print(p, "!", e.strerror)'
expect_contains "dynamic open(.env): denied by the shim" "$OUT" ".env ! Permission denied by hookshim: Blocked"
expect_eq "dynamic open(): one Read event per file, not two" ".env ok.txt " "$READS"
expect_eq "dynamic open(): the reason on stderr once" 1 "$(grep -c 'read of .*denied' "$TMP/err")"

# ---- a tool call's static cat is its command's, not a Read ----
hsrun "$TMP/read.json" python3 -c '
import subprocess
r = subprocess.run(["bash", "-c", "'"$BB"' cat .env; cat ok.txt"], capture_output=True, text=True)
print(r.stdout, r.stderr)'
expect_contains "tool call: static cat .env reads the file" "$OUT" "API_KEY=sk-floor-123"
expect_eq "tool call: no Read event from the shell or its static child" "" "$READS"

# ---- no Read hook: the floor sends no read ----
hsrun "$TMP/write.json" $BB sh -c 'cat .env; cat ok.txt'
expect_contains "Write hook only: static cat .env reads" "$OUT" "API_KEY=sk-floor-123"
check "Write hook only: no payload at all" [ ! -s "$PAYLOADS" ]
hsrun "$TMP/write.json" python3 "$TMP/raw.py" 2:ok.txt
expect_eq "Write hook only: openat2 for reading is no write event" "2:ok.txt = fine" "$OUT"
check "Write hook only: ... no payload" [ ! -s "$PAYLOADS" ]
chk=$(cd "$ROOT" && "$HOOKSHIM" check -c "$TMP/read.json" --root "$ROOT" 2>&1)
expect_contains "hookshim check: the floor decides reads with a Read hook" "$chk" "reads"
chk=$(cd "$ROOT" && "$HOOKSHIM" check -c "$TMP/write.json" --root "$ROOT" 2>&1)
expect_not_contains "hookshim check: ... and not without" "$chk" "reads"

# ---- the supervisor killed: with a Read hook, reads fail closed ----
# (ENOSYS for every notified open: the key stays unread, and a new dynamic
# program cannot even load its libraries; docs/floor.md, "Failure modes")
( cd "$ROOT" && exec "$HOOKSHIM" run -c "$TMP/read.json" --root "$ROOT" -- $BB sh -c \
	'sleep 1; cat .env; cat ok.txt; echo done >&2' ) >"$TMP/out" 2>"$TMP/err" &
hs=$!
sleep 0.4
kill -9 "$hs"; wait "$hs" 2>/dev/null
for _ in $(seq 30); do grep -q done "$TMP/err" && break; sleep 0.1; done
expect_eq "supervisor gone: nothing read" "" "$(cat "$TMP/out")"
# (busybox runs its cat applet by exec'ing /proc/self/exe: with protected
# files, execs of programs without the shim are notified too, and fail the
# same way as the read would, before it)
expect_contains "supervisor gone: the read of .env (or the exec of cat) fails with ENOSYS" "$(cat "$TMP/err")" \
	"Function not implemented"
