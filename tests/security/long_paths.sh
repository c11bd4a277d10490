# Issue 15 row 5: a relative path the kernel takes (under PATH_MAX as
# given) but that is PATH_MAX or longer once joined to the working
# directory. Folded ("./", "x/..") it usually fits again, and is judged by
# its real name; when it does not fit, or the working directory itself is
# deeper than PATH_MAX, nobody can name the file: the write is denied
# with ENAMETOOLONG and logged, never let through unjudged. The shim
# (bash, python) and the floor (a static busybox) both.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v python3 >/dev/null || { skip "long paths: python3 missing"; exit 0; }
ROOT=$TMP/root; mkdir -p "$ROOT/secrets" "$ROOT/pub" "$ROOT/x"
cat > "$TMP/hooks.json" <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)",
   "command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
BB=
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && BB=$b && break
done
export BB
hsrun() { ( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/hooks.json" --log "$TMP/log.jsonl" "$@" ) >"$TMP/out" 2>"$TMP/err"; }
files() { (cd "$ROOT/secrets" && find . -type f | sort | tr '\n' ' '); }

# 2040 "./" then secrets/f: 4090 bytes as given, over PATH_MAX once joined.
cat > "$TMP/dots.sh" <<'S'
p=$(printf './%.0s' $(seq 2040))
q=$(printf "x/../%.0s" $(seq 815))          # 4075 bytes of "x/.."
echo P > "${p}secrets/f"; echo "bash=$?"
echo P > "${q}secrets/g"; echo "bashdotdot=$?"
python3 -c 'import os, sys
for name, p in (("py", sys.argv[1]), ("pydotdot", sys.argv[2])):
    try: os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)); print(name + "=0")
    except OSError as e: print("%s=%d" % (name, e.errno))' "${p}secrets/f2" "${q}secrets/g2"
echo ok > "${p}pub/ok"; echo "pub=$?"
echo ok > "${q}pub/ok2"; echo "pubdotdot=$?"
if [ -n "$BB" ]; then
	"$BB" sh -c 'echo P > "$1"; echo "bb=$?"; echo P > "$2"; echo "bbdotdot=$?"; echo ok > "$3"; echo "bbpub=$?"' - \
		"${p}secrets/f3" "${q}secrets/g3" "${p}pub/ok3"
fi
S
hsrun -- bash "$TMP/dots.sh"
out=$(cat "$TMP/out")
each_denied "shim: " "$out" bash bashdotdot py pydotdot
expect_contains "shim: judged by its folded name" "$(cat "$TMP/err")" "write to $ROOT/secrets/f denied: secrets are protected"
expect_contains "shim: the x/.. path too" "$(cat "$TMP/err")" "write to $ROOT/secrets/g denied: secrets are protected"
expect_contains "shim: a long path outside secrets/ is allowed" "$out" "pub=0"
expect_contains "shim: and one full of x/.." "$out" "pubdotdot=0"
expect_eq "shim: it landed" "ok ok" "$(cat "$ROOT/pub/ok" "$ROOT/pub/ok2" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
if [ -z "$BB" ]; then
	skip "long paths, floor: busybox-static not installed"
elif grep -q "no syscall floor" "$TMP/err"; then
	skip "long paths, floor: $(grep 'no syscall floor' "$TMP/err")"
else
	each_denied "floor: " "$out" bb bbdotdot
	expect_contains "floor: judged by its folded name" "$(cat "$TMP/err")" "write to $ROOT/secrets/f3 denied: secrets are protected"
	expect_contains "floor: a long path outside secrets/ is allowed" "$out" "bbpub=0"
fi
expect_eq "nothing was written in secrets/" "" "$(files)"

# A chain of 250-byte directories under secrets/: from 10 levels down, 7
# more levels are 1758 bytes as given and over 4096 joined (nothing to
# fold); 17 levels down the working directory itself is deeper than
# PATH_MAX (getcwd fails, /proc/self/cwd has no name).
python3 - "$ROOT/secrets" <<'P'
import os, sys
os.chdir(sys.argv[1])
for i in range(17):
    os.mkdir("d" * 250); os.chdir("d" * 250)
P
cat > "$TMP/deep.py" <<'P'
import os, subprocess, sys
D = "d" * 250
bb = os.environ.get("BB")
def try_open(name, p):
    try: os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)); print(name + "=0")
    except OSError as e: print("%s=%d" % (name, e.errno))
def try_bb(name, p):
    if bb: subprocess.run([bb, "sh", "-c", 'echo P > "$1" 2>/dev/null; echo "%s=$?"' % name, "-", p])
os.chdir("secrets")
for i in range(10): os.chdir(D)
rel = "/".join([D] * 7) + "/f"
try_open("pylong", rel)
try_bb("bblong", rel)
for i in range(7): os.chdir(D)
try_open("pydeep", "f")
try_bb("bbdeep", "f")
sys.stdout.flush()
P
hsrun -- python3 "$TMP/deep.py"
out=$(cat "$TMP/out")
expect_contains "shim: a path too long even folded fails with ENAMETOOLONG" "$out" "pylong=36"
expect_contains "shim: so does a write in a working directory deeper than PATH_MAX" "$out" "pydeep=36"
expect_contains "shim: the reason says why" "$(cat "$TMP/err")" "PATH_MAX or longer once joined to its directory, so no hook can judge what it names"
if [ -n "$BB" ] && ! grep -q "no syscall floor" "$TMP/err"; then
	case "$out" in *"bblong=0"*) fail "floor: a path too long even folded went through";; *"bblong="*) pass "floor: a path too long even folded is denied";; *) fail "floor: bblong: no result";; esac
	case "$out" in *"bbdeep=0"*) fail "floor: a write in a too-deep cwd went through";; *"bbdeep="*) pass "floor: a write in a too-deep cwd is denied";; *) fail "floor: bbdeep: no result";; esac
	n=4
else
	skip "long paths, floor: no static busybox or no floor"
	n=2
fi
expect_eq "nothing was written in the chain" "" "$(files)"
expect_eq "each unnamed write is logged as denied" "$n" \
	"$(jq -c 'select(.operation == "name-too-long" and .decision == "deny")' "$TMP/log.jsonl" | wc -l)"

# The agent's own reads, with a Read hook on secrets/: the folded name is
# judged; one that cannot be named is denied (ENAMETOOLONG), not read.
echo hidden > "$ROOT/secrets/k"; echo plain > "$ROOT/pub/r"
cat > "$TMP/reads.json" <<'J'
{"hooks":{"PreToolUse":[
 {"matcher":"Read","hooks":[{"type":"command","if":"Read(secrets/**)",
   "command":"echo 'no reading secrets' >&2; exit 2"}]}]}}
J
cat > "$TMP/reads.py" <<'P'
import os
D = "d" * 250
def try_read(name, p):
    try: os.close(os.open(p, os.O_RDONLY)); print(name + "=0")
    except OSError as e: print("%s=%d" % (name, e.errno))
dots = "./" * 2040
try_read("rdots", dots + "secrets/k")
try_read("rpub", dots + "pub/r")
os.chdir("secrets")
for i in range(17): os.chdir(D)
try_read("rdeep", "f")
P
python3 -c 'import os, sys
os.chdir(sys.argv[1])
for i in range(17): os.chdir("d" * 250)
open("f", "w").write("deep\n")' "$ROOT/secrets"     # there to be read
( cd "$ROOT" && "$HOOKSHIM" run --no-notices -c "$TMP/reads.json" --log "$TMP/reads.jsonl" -- python3 "$TMP/reads.py" ) >"$TMP/out" 2>"$TMP/err"
out=$(cat "$TMP/out")
expect_contains "read: judged by its folded name and denied" "$out" "rdots=13"
expect_contains "read: the hook's reason" "$(cat "$TMP/err")" "read of $ROOT/secrets/k denied: no reading secrets"
expect_contains "read: a long path outside secrets/ is read" "$out" "rpub=0"
expect_contains "read: in a working directory deeper than PATH_MAX, denied with ENAMETOOLONG" "$out" "rdeep=36"
expect_eq "read: the unnamed read is logged as denied" 1 \
	"$(jq -c 'select(.op == "read" and .operation == "name-too-long" and .decision == "deny")' "$TMP/reads.jsonl" | wc -l)"
