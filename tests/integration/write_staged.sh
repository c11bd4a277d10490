# Staged writes (docs/staged-writes.md): a PreToolUse content scanner
# (python3, reading tool_input.content, detected from its script) denies
# writes holding AKIA... by bash, python3, node and cp; inotify on the
# directory for the whole run sees nothing at a denied target; each
# program gets the error where it really does; allowed writes are
# byte-identical and atomic; append keeps the old content; `hookshim test`
# and live agree.
. "$HOOKSHIM_TOP/tests/lib.sh"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "staged: no build"; exit 0; }
mkdir -p "$TMP/p" && cd "$TMP/p" || exit 1
cat > ../scan.py <<'P'
import json, sys
d = json.load(sys.stdin)
c = d.get("tool_input", {}).get("content", "")
if "AKIA" in c:
    print("Blocked: AWS key in content", file=sys.stderr)
    sys.exit(2)
P
cat > ../s.json <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"python3 $TMP/scan.py"}]}]}}
J
hs() { "$HOOKSHIM" run -c ../s.json -- "$@"; }

# inotify on the directory for the whole run
python3 "$HOOKSHIM_TOP/tests/fixtures/inotify_watch.py" "$PWD" ../ready ../events ../stop & W=$!
for _ in $(seq 100); do [ -f ../ready ] && break; sleep 0.05; done

printf 'AKIAIOSFODNN7EXAMPLE\n' > ../secret.txt
out=$(hs bash -c 'echo AKIAIOSFODNN7EXAMPLE > bash.txt; echo "rc=$?"' 2>&1)
expect_contains "bash: the denial and its reason on stderr" "$out" "Blocked: AWS key"
expect_contains "bash: a builtin's redirection still reports success (the dup2 restoring stdout decides)" "$out" "rc=0"
out=$(hs python3 -c '
f = open("py.txt", "w"); f.write("key AKIAIOSFODNN7EXAMPLE")
try:
    f.close(); print("closed")
except OSError as e:
    print("close raised", e.errno)' 2>&1)
expect_contains "python3: close() raises EACCES" "$out" "close raised 13"
if command -v node >/dev/null; then
	out=$(hs node -e 'try { require("fs").writeFileSync("node.txt", "AKIAIOSFODNN7EXAMPLE") } catch (e) { console.log(e.code, e.syscall) }' 2>&1)
	expect_contains "node: writeFileSync throws EACCES at close" "$out" "EACCES close"
fi
hs cp ../secret.txt cp.txt 2>../cp.err; rc=$?
expect_eq "cp: fails" 1 "$rc"
expect_contains "cp: reports the close" "$(cat ../cp.err)" "Permission denied"
for f in bash.txt py.txt node.txt cp.txt; do
	check "denied $f never appears" test ! -e "$f"
done

# allowed: binary content (NUL, 0xff), 10 MB, byte-identical
python3 -c 'import os; open("../bin", "wb").write(bytes(range(256)) * 40960)'
hs cp ../bin bin.out
check "an allowed 10 MB binary write is byte-identical" cmp -s ../bin bin.out
printf 'old\n' > app.log
hs bash -c 'echo new >> app.log'
expect_eq "append keeps the old content" "old
new" "$(cat app.log)"
printf 'keep\n' > mode.txt; chmod 640 mode.txt
hs bash -c 'echo changed > mode.txt'
expect_eq "an overwrite keeps the target's mode" 640 "$(stat -c %a mode.txt)"
hs bash -c 'echo AKIAIOSFODNN7EXAMPLE >> app.log' 2>/dev/null
expect_eq "a denied append leaves the file as it was" "old
new" "$(cat app.log)"

# atomic: a reader never sees a partial file
python3 -c 'open("big.txt","w").write("a"*4000000)'
( while [ ! -f ../stop ]; do s=$(stat -c %s big.txt 2>/dev/null); [ -n "$s" ] && [ "$s" != 4000000 ] && echo "$s" >> ../partial; done ) & R=$!
hs python3 -c '
for i in range(5):
    with open("big.txt", "w") as f:
        for k in range(40): f.write("b" * 100000)'
touch ../stop; wait $R $W 2>/dev/null
check "a reader never saw a partial file" test ! -s ../partial
bad=$(grep -E ' (bash|py|node|cp)\.txt$' ../events)
expect_eq "inotify: no event at all for a denied target" "" "$bad"

# hookshim test with content agrees with live
"$HOOKSHIM" test -c ../s.json PreToolUse --tool Write --input '{"file_path":"a-test","content":"AKIAIOSFODNN7EXAMPLE"}' >/dev/null 2>&1
expect_eq "hookshim test with content denies as live does" 2 "$?"
"$HOOKSHIM" test -c ../s.json PreToolUse --tool Write --input '{"file_path":"a-test","content":"fine"}' >/dev/null 2>&1
expect_eq "hookshim test allows benign content as live does" 0 "$?"

# check says which hooks are staged; "content": false switches the guess off
expect_contains "check names the content hook" "$("$HOOKSHIM" check -c ../s.json)" "reads the content"
cat > ../off.json <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","content":false,"command":"python3 $TMP/scan.py"}]}]}}
J
"$HOOKSHIM" run -c ../off.json -- bash -c 'echo AKIAIOSFODNN7EXAMPLE > off.txt' 2>/dev/null
check '"content": false: not staged, the scanner sees no content and the write goes through' test -s off.txt
