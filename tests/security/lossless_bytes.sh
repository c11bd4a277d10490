# Issue 15 row 13: bytes reach hooks unchanged. A file name holding 0xff,
# 0xfe and a newline is not UTF-8: the payload keeps "file_path" (each
# invalid byte as U+FFFD, valid JSON) and adds "file_path_b64", the exact
# bytes in base64, which the hook decodes back; the same for a command
# and its argv (argv_b64: every element). The payload is valid UTF-8.
. "$HOOKSHIM_TOP/tests/lib.sh"
command -v python3 >/dev/null || { skip "lossless_bytes: no python3"; exit 0; }
export HOME=$TMP/home; mkdir -p "$HOME" proj
cat > c.json <<J
{"hooks":{"PreToolUse":[
 {"matcher":"Write","hooks":[{"type":"command","command":"cat >> $TMP/write.jsonl; exit 0"}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"cat >> $TMP/bash.jsonl; exit 0"}]}]}}
J
cat > agent.py <<'S'
import os, subprocess
name = b"bad\xff\xfe\nname"
with open(name, "wb") as f:
    f.write(b"x")
subprocess.run([b"bash", b"-c", b"echo \xff\xfe > /dev/null"])
S
(cd proj && "$HOOKSHIM" run --no-notices -c ../c.json -- /usr/bin/python3 ../agent.py)
check "the file was written" test -e "proj/$(printf 'bad\xff\xfe\nname')"
res=$(python3 - "$TMP" <<'S'
import base64, json, sys
t = sys.argv[1]
w = [json.loads(l) for l in open(t + "/write.jsonl", "rb")]
ti = w[0]["tool_input"]
print("path-b64-exact=%s" % (base64.b64decode(ti["file_path_b64"]) == (t + "/proj/").encode() + b"bad\xff\xfe\nname"))
print("path-readable=%s" % ti["file_path"].endswith("bad\ufffd\ufffd\nname"))
b = [json.loads(l) for l in open(t + "/bash.jsonl", "rb")]
ci = b[0]["tool_input"]
print("cmd-b64-exact=%s" % (base64.b64decode(ci["command_b64"]) == b"echo \xff\xfe > /dev/null"))
print("argv-b64-exact=%s" % ([base64.b64decode(a) for a in ci["argv_b64"]][2] == b"echo \xff\xfe > /dev/null"))
print("plain-has-no-b64=%s" % ("cwd_b64" not in w[0]))
S
)
expect_contains "the hook decodes file_path_b64 to the exact bytes" "$res" "path-b64-exact=True"
expect_contains "file_path stays, with U+FFFD for the invalid bytes" "$res" "path-readable=True"
expect_contains "the hook decodes command_b64 to the exact bytes" "$res" "cmd-b64-exact=True"
expect_contains "argv_b64 holds every argument's exact bytes" "$res" "argv-b64-exact=True"
expect_contains "valid UTF-8 fields get no _b64" "$res" "plain-has-no-b64=True"
