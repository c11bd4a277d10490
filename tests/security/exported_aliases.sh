# Issue 15 item 5: glibc's exported aliases and fortify variants that
# create or change files, called by name from python3 ctypes (as a script
# the agent was tricked into running could), each into secrets/ under a
# Write hook, with the floor off so the shim alone must see them: each
# fails with EACCES and the tree is unchanged (the hook matches Write|Edit:
# a truncate is an Edit). (A libc whose symbol is
# missing skips that row.)
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v python3 >/dev/null || { skip "exported_aliases: no python3"; exit 0; }
export HOME=$TMP/home; mkdir -p "$HOME" proj/secrets
echo S > proj/secrets/f
cat > c.json <<'J'
{"hookshim":{"floor":"off"},"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","command":"jq -r .tool_input.file_path | grep -q /secrets/ && { echo secret >&2; exit 2; }; exit 0"}]}]}}
J
tree_hash() { (cd proj && find . -printf '%p %s\n' | sort; find . -type f -exec sha256sum {} + | sort) | sha256sum; }
before=$(tree_hash)
cat > calls.py <<'S'
import ctypes, os
c = ctypes.CDLL(None, use_errno=True)
W = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
calls = {
    "__open":       lambda f: f(b"secrets/a1", W, 0o644),
    "__open64":     lambda f: f(b"secrets/a2", W, 0o644),
    "__open_2":     lambda f: f(b"secrets/f", os.O_WRONLY | os.O_TRUNC),
    "__open64_2":   lambda f: f(b"secrets/f", os.O_WRONLY | os.O_TRUNC),
    "__openat_2":   lambda f: f(-100, b"secrets/f", os.O_WRONLY | os.O_TRUNC),
    "__openat64_2": lambda f: f(-100, b"secrets/f", os.O_WRONLY | os.O_TRUNC),
    "creat64":      lambda f: f(b"secrets/a3", 0o644),
    "fopen64":      lambda f: f(b"secrets/a4", b"w"),
    "_IO_fopen":    lambda f: f(b"secrets/a5", b"w"),
    "truncate64":   lambda f: f(b"secrets/f", ctypes.c_long(0)),
}
for name, call in calls.items():
    try:
        fn = getattr(c, name)
    except AttributeError:
        print("%s=missing" % name); continue
    fopen = "fopen" in name
    fn.restype = ctypes.c_void_p if fopen else ctypes.c_int
    ctypes.set_errno(0)
    r = call(fn)
    failed = not r if fopen else r == -1
    print("%s=%s" % (name, "errno%d" % ctypes.get_errno() if failed else "ok"))
S
out=$(cd proj && "$HOOKSHIM" run --no-notices -c ../c.json -- /usr/bin/python3 ../calls.py 2>/dev/null)
for name in __open __open64 __open_2 __open64_2 __openat_2 __openat64_2 creat64 fopen64 _IO_fopen truncate64; do
	line=$(grep "^$name=" <<<"$out")
	if [ "$line" = "$name=missing" ]; then skip "$name: not exported by this libc"; continue; fi
	expect_eq "$name into secrets/ fails with EACCES" "$name=errno13" "$line"
done
expect_eq "the tree is unchanged" "$before" "$(tree_hash)"
