# The trust model a session runs in (README, "Guard and enforce"): the
# "mode" setting, --enforce/--guard, what CI mode, "strict" and "floor":
# "require" imply, what happens without a floor, and `check` saying what
# `run` does.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v jq >/dev/null || { skip "trust mode: jq missing"; exit 0; }
mkdir -p secrets
W='{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo no >&2; exit 2"}]}'
echo "{\"hooks\":{\"PreToolUse\":[$W]}}" > p.json
echo "{\"hookshim\":{\"mode\":\"enforce\"},\"hooks\":{\"PreToolUse\":[$W]}}" > enforce.json
echo "{\"hookshim\":{\"strict\":true},\"hooks\":{\"PreToolUse\":[$W]}}" > strict.json
printf '{"hookshim":{\n  "mode": "paranoid"}}\n' > bad.json

out=$("$HOOKSHIM" check -c p.json)
expect_contains "check: guard by default, enforce in CI" "$out" "trust model: guard (the default); enforce under --ci and CI=true"
expect_contains "check: \"mode\": \"enforce\"" "$("$HOOKSHIM" check -c enforce.json)" 'trust model: enforce ("mode")'
expect_contains "check: strict implies enforce" "$("$HOOKSHIM" check -c strict.json)" 'trust model: enforce ("strict")'
out=$("$HOOKSHIM" check -c bad.json 2>&1)
expect_contains "check: a mode that is neither, with file:line:col" "$out" 'bad.json:2:3: hookshim.mode must be "guard" or "enforce"'
out=$("$HOOKSHIM" run -c bad.json -- true 2>&1)
expect_contains "run: says the same" "$out" 'bad.json:2:3: hookshim.mode must be "guard" or "enforce"'

# without a floor: explicit enforce refuses, implied enforce falls back
out=$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" run --enforce -c p.json -- touch ran 2>&1); rc=$?
check "no floor, --enforce: does not start" test "$rc" != 0 -a ! -e ran
expect_contains "no floor, --enforce: says why" "$out" "enforce mode needs the syscall floor, which is not available"
expect_contains "no floor, \"mode\": \"enforce\": check says run would refuse" \
	"$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" check -c enforce.json)" "enforce would refuse to start here: no syscall floor"
out=$(HOOKSHIM_TEST_NO_FLOOR=1 "$HOOKSHIM" run --ci --no-notices -c p.json -- touch ran 2>&1); rc=$?
check "no floor, --ci: runs in guard mode" test "$rc" = 0 -a -e ran
expect_eq "no floor, --ci: one line says so" 1 "$(grep -c 'no syscall floor.*guard mode, not enforce' <<<"$out")"

# with a floor: --guard keeps CI mode's session on the fast path, --enforce
# needs no CI; each decides the forged filter accordingly
if "$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null; then
	forge() { echo keep > secrets/f; "$HOOKSHIM" run --no-notices "$@" -c p.json -- \
		bash -c "busybox env HOOKSHIM_WRITE='$(printf 'hsw1\n+/x/**\n')' bash -c 'echo P > secrets/f'" >/dev/null 2>&1; cat secrets/f; }
	if command -v busybox >/dev/null; then
		expect_eq "--ci: enforce" keep "$(forge --ci)"
		expect_eq "--ci --guard: guard" P "$(forge --ci --guard)"
		expect_eq "--enforce: enforce" keep "$(forge --enforce)"
		expect_eq "\"strict\": enforce" keep "$(echo keep > secrets/f; "$HOOKSHIM" run --no-notices -c strict.json -- \
			bash -c "busybox env HOOKSHIM_WRITE='$(printf 'hsw1\n+/x/**\n')' bash -c 'echo P > secrets/f'" >/dev/null 2>&1; cat secrets/f)"
		expect_eq "default: guard" P "$(forge)"
	else
		skip "trust mode: busybox missing"
	fi
	expect_contains "doctor names both models" "$("$HOOKSHIM" doctor 2>&1)" "enforce                    available"
else
	skip "trust mode: no syscall floor here"
fi
