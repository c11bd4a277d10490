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
