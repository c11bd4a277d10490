# The CLI behaves like one (issue 26, item 2): `hookshim VERB --help`,
# `-h` and `hookshim help VERB` print the same text to stdout and exit 0
# for every public verb (taken from the general usage, so a new verb is
# covered); a misspelt verb gets "did you mean" and exit 64; `help` of an
# unknown verb exits 64 too.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }

verbs=$(hs --help | sed -n 's/^  hookshim \([a-z]*\) .*/\1/p')
check "the general usage lists the verbs" test "$(wc -w <<<"$verbs")" -ge 8
for v in $verbs; do
	a=$(hs "$v" --help 2>err.txt); ra=$?
	b=$(hs help "$v" 2>/dev/null); rb=$?
	c=$(hs "$v" -h 2>/dev/null); rc=$?
	expect_eq "$v --help exits 0" 0 "$ra"
	expect_eq "help $v exits 0" 0 "$rb"
	expect_eq "$v --help is help $v, byte for byte" "$a" "$b"
	expect_eq "$v -h is the same" "$a" "$c"
	expect_contains "$v --help starts with its usage line" "$(head -1 <<<"$a")" "usage: hookshim $v"
	expect_eq "$v --help writes nothing to stderr" "" "$(cat err.txt)"
done

out=$(hs rnu 2>&1); rc=$?
expect_eq "a misspelt verb: exit 64" 64 "$rc"
expect_contains "a misspelt verb: did you mean" "$out" "unknown command 'rnu'; did you mean 'run'?"
out=$(hs chek 2>&1)
expect_contains "a missing letter: did you mean" "$out" "did you mean 'check'?"
out=$(hs exp 2>&1)
expect_contains "a prefix: did you mean" "$out" "did you mean 'explain'?"
out=$(hs zzzzzz 2>&1); rc=$?
expect_eq "nothing near: exit 64" 64 "$rc"
expect_not_contains "nothing near: no guess" "$out" "did you mean"
hs help nope >/dev/null 2>&1; expect_eq "help of an unknown verb: exit 64" 64 "$?"
hs help __exec >/dev/null 2>&1; expect_eq "an internal verb has no help" 64 "$?"
hs --help >/dev/null; expect_eq "--help: exit 0" 0 "$?"
hs >/dev/null 2>&1; expect_eq "no verb: a usage error (64)" 64 "$?"

# --- every option with a value takes --opt=VALUE as well as --opt VALUE -----
export HOME=$TMP/home; mkdir -p "$HOME"
cat > p.json <<'J'
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"grep -q forbidden && { echo no >&2; exit 2; }; exit 0"}]}]}}
J
hs test --config=p.json PreToolUse --tool=Bash --command='echo forbidden' >/dev/null 2>&1
expect_eq "test: --config= --tool= --command= (deny)" 2 "$?"
hs test -c p.json PreToolUse --tool Bash --command 'echo forbidden' >/dev/null 2>&1
expect_eq "test: the same with separate values" 2 "$?"
hs test --config=p.json --dialect=claude PreToolUse --tool=Bash --input='{"command":"ls"}' --exit=0 >/dev/null 2>&1
expect_eq "test: --dialect= --input= --exit=" 0 "$?"
hs test -c p.json PreToolUse --tool 2>err.txt >/dev/null
expect_eq "test: a value missing is a usage error" 64 "$?"
expect_contains "test: ... saying which" "$(cat err.txt)" "--tool needs a value"
hs run --config=p.json --log=l.jsonl --root="$TMP" -- bash -c 'echo forbidden' >/dev/null 2>&1
expect_eq "run: --config= --log= --root=" 126 "$?"
out=$(hs log l.jsonl --tool=Bash --since=1d --json)
expect_contains "log: --tool= --since=" "$out" '"decision":"deny"'
out=$(hs check --config=p.json --import=claude --root="$TMP" 2>&1)
expect_contains "check: --config= --import= --root=" "$out" "from p.json"

# a misspelt option: exit 64, "did you mean" the nearest option the
# verb's help names (issue 26 item 2)
for vo in "run --trust-projet --trust-project" "check --importt --import" \
	"log --deniedd --denied" "test --tol --tool" "init --prest --preset"; do
	set -- $vo
	out=$("$HOOKSHIM" "$1" "$2" x -- true 2>&1); rc=$?
	expect_eq "$1 $2: exit 64" 64 "$rc"
	expect_contains "$1 $2: did you mean $3" "$out" "unknown option '$2'; did you mean '$3'? (hookshim help $1)"
done
out=$("$HOOKSHIM" run --zzzzzz -- true 2>&1)
expect_not_contains "an option near none: no guess" "$out" "did you mean"

# --- getopt_long everywhere (issue 26 item 2) --------------------------------
# Every verb's file parses with hs_cli_getopt (getopt_long under it), none
# walks argv by hand.
for f in "$HOOKSHIM_TOP"/cli/{run,check,test,init,trust,wrap,log,doctor,explain,learn,supervised_exec,supervise}.c; do
	n=$(basename "$f" .c)
	check "$n.c parses its options with hs_cli_getopt" grep -q 'hs_cli_getopt(' "$f"
	check "$n.c walks no argv by hand" bash -c "! grep -qE 'strcmp\\(argv\\[i\\]|for \\(int i = 1; i < argc' '$f'"
done
# what getopt_long gives: unique prefixes, values in either form, options
# after operands, a missing value named
out=$(hs check --conf=p.json --root "$TMP" 2>&1)
expect_contains "check: a unique prefix of --config" "$out" "from p.json"
hs test PreToolUse -c p.json --tool Bash --command 'echo forbidden' >/dev/null 2>&1
expect_eq "test: options after the event" 2 "$?"
out=$(hs log l.jsonl --since 2>&1); rc=$?
expect_eq "log: --since without a value is a usage error" 64 "$rc"
expect_contains "log: ... saying which" "$out" "--since needs a value"
out=$(hs explain --zz l.jsonl 2>&1); rc=$?
expect_eq "explain: an unknown option is a usage error" 64 "$rc"
expect_contains "explain: ... named" "$out" "unknown option '--zz'"
out=$(hs doctor --nope 2>&1); rc=$?
expect_eq "doctor: an unknown option is a usage error" 64 "$rc"
out=$(hs run -c p.json --root "$TMP" -- bash -c 'echo "$1"' sh --ci 2>/dev/null)
expect_eq "run: options after CMD are CMD's" "--ci" "$out"
out=$(hs run --enforce=1 -- true 2>&1); rc=$?
expect_eq "run: a value given to an option that takes none is a usage error" 64 "$rc"
expect_contains "... naming the option as written" "$out" "unknown option '--enforce=1'"
