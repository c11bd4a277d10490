# A catch-all PreToolUse hook (matcher "" or "*") does not make reads
# events by itself (docs/how-it-works.md, "Read events": a config without Read hooks
# pays nothing), unless its command or script compares tool_name with the
# read tool as a quoted word ('Read'), as disler's pre_tool_use.py does
# (`tool_name in ['Read', 'Edit', ...]`, matcher ""): then it is a Read
# hook, and the agent's read of .env is judged (config/content_use.c).
. "$HOOKSHIM_TOP/tests/lib.sh"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "read-named: no build"; exit 0; }
command -v python3 >/dev/null || { skip "read-named: python3 missing"; exit 0; }
mkdir -p "$TMP/p" && cd "$TMP/p" || exit 1
echo 'API_KEY=sk-named' >.env
cat >../names_read.py <<'P'
import json, sys
d = json.load(sys.stdin)
if d.get("tool_name") in ("Read", "Write") and ".env" in d.get("tool_input", {}).get("file_path", ""):
    print("BLOCKED: .env", file=sys.stderr)
    sys.exit(2)
P
sed -e 's/("Read", "Write")/("Write",)/' ../names_read.py >../names_write.py # reads nothing
for m in "" "*"; do
	for s in names_read names_write; do
		printf '{"hooks":{"PreToolUse":[{"matcher":"%s","hooks":[{"type":"command","command":"python3 %s/%s.py"}]}]}}\n' \
			"$m" "$TMP" "$s" >../$s.json
	done
	out=$("$HOOKSHIM" run -c ../names_read.json -- python3 -c '
try:
    print("read:", open(".env").read().strip())
except OSError as e:
    print("denied:", e)' 2>/dev/null)
	expect_contains "matcher \"$m\", script says 'Read': the read is denied with the reason" "$out" \
		"denied: [Errno 13] Permission denied by hookshim: BLOCKED: .env"
	out=$("$HOOKSHIM" run -c ../names_write.json -- python3 -c 'print("read:", open(".env").read().strip())' 2>/dev/null)
	expect_eq "matcher \"$m\", script does not name Read: reads stay no events" "read: API_KEY=sk-named" "$out"
done
expect_contains "check says so" "$("$HOOKSHIM" check -c ../names_read.json 2>&1)" "names Read in its script: reads are events for it"
expect_not_contains "... only for the hook that does" "$("$HOOKSHIM" check -c ../names_write.json 2>&1)" "names Read"
