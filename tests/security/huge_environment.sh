# Issue 15 row 6: an environment of any size is repaired on exec. With
# 20,000 or 100,000 variables, or one huge value, `env -u LD_PRELOAD` still
# runs its command with the shim, so the Write hook on secrets/ still
# denies, and the tree is unchanged.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME" proj/secrets
echo S > proj/secrets/f
echo '{"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && { echo secret >&2; exit 2; }; exit 0"}]}]}}' >deny.json
tree_hash() { (cd proj && find . -printf '%p %s\n' | sort; find . -type f -exec sha256sum {} + | sort) | sha256sum; }
before=$(tree_hash)

# The variables come from outside (python3 makes them); the agent is
# `env -u LD_PRELOAD python3`, the attempt to shed the shim (python, not
# bash: bash takes minutes to start with 100,000 variables). 100 kB is
# near the kernel's limit for one string (MAX_ARG_STRLEN, 128 kB).
cat > agent.py <<'S'
import os
try:
    open("secrets/f", "w").write("P")
    print("in-secrets=written")
except OSError as e:
    print("in-secrets=%d" % e.errno)
open("open", "w").write("ok")
print("n=%d" % len(os.environ))
print("preload=%s" % ("libhookshim" in os.environ.get("LD_PRELOAD", "")))
S
with_env() { # count|value N, command...
	python3 -c 'import os, sys
kind, n = sys.argv[1], int(sys.argv[2])
env = dict(os.environ)
if kind == "count":
    env.update(("V%d" % i, "1") for i in range(n))
else:
    env["BIG"] = "x" * n
os.execvpe(sys.argv[3], sys.argv[3:], env)' "$@"
}
for spec in "count 20000" "count 100000" "value 100000"; do
	rm -f proj/open
	out=$(cd proj && with_env $spec "$HOOKSHIM" run --no-notices -c ../deny.json -- env -u LD_PRELOAD /usr/bin/python3 ../agent.py 2>&1)
	expect_contains "$spec: the shim is back in the program" "$out" "preload=True"
	expect_contains "$spec: the write into secrets/ was judged and denied" "$out" "in-secrets=13"
	check "$spec: an ordinary write still works" test -s proj/open
	rm -f proj/open
	expect_eq "$spec: secrets/ unchanged" "$before" "$(tree_hash)"
	if [ "${spec% *}" = count ]; then
		n=$(sed -n 's/^n=//p' <<<"$out")
		check "$spec: the variables reached the program" test "${n:-0}" -ge "${spec#* }"
	fi
done
