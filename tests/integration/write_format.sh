# A memcode post hook that formats files (gofmt -w style, here a script
# that upper-cases *.fmt) rewrites a file saved by python's and node's
# atomic-save patterns exactly once, before the writer's next read.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "write format: no hookshim build"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT"
export FMTLOG=$TMP/fmt.log
cat > "$TMP/memcode.json" <<J
{"hooks":{"post_tool_use":[{"matcher":"edit_file","command":"$HOOKSHIM_TOP/tests/fixtures/upcase_fmt.sh"}]}}
J
run() { (cd "$ROOT" && "$HOOKSHIM" run --dialect memcode -c "$TMP/memcode.json" --root "$ROOT" -- "$@"); }

: > "$FMTLOG"
out=$(run python3 -c "
import os, tempfile
fd, tmp = tempfile.mkstemp(dir='.', suffix='.part')
os.write(fd, b'hello python\n'); os.close(fd)
os.replace(tmp, 'a.fmt')
with tempfile.NamedTemporaryFile('w', dir='.', delete=False) as t:
    t.write('second save\n')
os.replace(t.name, 'b.fmt')
print(open('a.fmt').read().strip())")
expect_eq "python mkstemp+os.replace: formatted before the next read" "HELLO PYTHON" "$out"
expect_eq "python atomic saves: formatter ran once per file" "$ROOT/a.fmt $ROOT/b.fmt" "$(tr '\n' ' ' < "$FMTLOG" | sed 's/ $//')"
expect_eq "python NamedTemporaryFile save formatted" "SECOND SAVE" "$(cat "$ROOT/b.fmt")"

if command -v node >/dev/null; then
	: > "$FMTLOG"
	out=$(run node -e "
const fs = require('fs');
const tmp = 'c.fmt.tmp.' + process.pid + '.' + Date.now();
fs.writeFileSync(tmp, 'hello node\n');
fs.renameSync(tmp, 'c.fmt');
console.log(fs.readFileSync('c.fmt', 'utf8').trim());
(async () => {
  await fs.promises.writeFile('d.fmt.tmp', 'promise save\n');
  await fs.promises.rename('d.fmt.tmp', 'd.fmt');
  console.log(fs.readFileSync('d.fmt', 'utf8').trim());
})();")
	expect_eq "node writeFileSync+renameSync and promises: formatted before the next read" "HELLO NODE
PROMISE SAVE" "$out"
	expect_eq "node atomic saves: formatter ran once per file" "$ROOT/c.fmt $ROOT/d.fmt" "$(tr '\n' ' ' < "$FMTLOG" | sed 's/ $//')"
else
	skip "node missing"
fi

: > "$FMTLOG"
run bash -c 'echo plain > e.fmt; cat e.fmt > /dev/null'
expect_eq "a plain redirect is formatted once" "PLAIN/1" "$(cat "$ROOT/e.fmt")/$(wc -l < "$FMTLOG")"
