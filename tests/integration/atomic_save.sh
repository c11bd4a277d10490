# Atomic saves judged at their temp file (supervisor/atomic_save.h): a
# temp file named for the file it will become ("x.txt.tmp.PID.HEX", Claude
# Code's Write and Edit) fires that file's Write where the temp file is
# created, so a denied save leaves nothing under secrets/, not even the
# temp file (inotify on the directory for the whole run); an allowed save
# fires one PreToolUse and one PostToolUse with one tool_use_id, its
# rename answered from the verdict. Through the shim (python3) and the
# floor (a static busybox), which must agree.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "atomic save: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "atomic save: jq missing"; exit 0; }
ROOT=$TMP/root
LOG=$TMP/events.log

cat > "$TMP/hooks.json" <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"jq -c '[.hook_event_name,.tool_name,.tool_input.file_path,.tool_input.operation,.tool_use_id]' >> $LOG"}]},
   {"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}],
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"jq -c '[.hook_event_name,.tool_name,.tool_input.file_path,.tool_input.operation,.tool_use_id]' >> $LOG"}]}]}}
J
# the same policy, with a content scanner on secrets/: content exists
# only once the temp file is written, so such a save is judged at its
# rename (docs/staged-writes.md)
cat > "$TMP/scan.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"d=\$(cat); printf %s \"\$d\" | jq -c '[.hook_event_name,.tool_input.file_path,.tool_input.content]' >> $LOG; printf %s \"\$d\" | jq -r .tool_input.content | grep -q AKIA && { echo 'a key in content' >&2; exit 2; }; exit 0"}]}]}}
J


fresh() {
	rm -rf "$ROOT"; mkdir -p "$ROOT/secrets" "$ROOT/ok"
	echo keep > "$ROOT/secrets/old"; echo old > "$ROOT/ok/e.txt"; : > "$LOG"
}
tree_hash() { (cd "$ROOT/secrets" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %s %Y' | sha1sum; cat $(find . -type f | sort) | sha1sum); }
watch_start() {
	rm -f "$TMP/ready" "$TMP/stop" "$TMP/seen"
	python3 "$HOOKSHIM_TOP/tests/fixtures/inotify_watch.py" "$ROOT/secrets" "$TMP/ready" "$TMP/seen" "$TMP/stop" &
	WATCH=$!
	for _ in $(seq 100); do [ -f "$TMP/ready" ] && break; sleep 0.05; done
}
watch_stop() { touch "$TMP/stop"; wait "$WATCH" 2>/dev/null; }
# the names that appeared in the watched directory (not the directory's
# own events, such as a listing)
seen() { awk 'NF > 1 { print $2 }' "$TMP/seen" | sort -u; }
hsrun() { # config, program...
	local c=$1; shift
	( cd "$ROOT" && "$HOOKSHIM" run -c "$c" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"
}
count() { grep -c -F -- "$1" "$LOG"; }

# A save as Claude Code makes one: write NAME.tmp.PID.HEX, rename it
# over NAME. Prints the errno name of the step that failed, or "saved".
save_py='
import errno, os, sys
def temp(path):  # Claude Code: NAME.tmp.PID.HEX; Qwen Code: NAME.HEX12.tmp
    if os.environ.get("SHAPE") == "qwen":
        return "%s.%x.tmp" % (path, 0x1a3cf3574147)
    return "%s.tmp.%d.%x" % (path, os.getpid(), 0x19a2b3c)
def save(path, data):
    t = temp(path)
    try:
        with open(t, "w") as f: f.write(data)
    except OSError as e: return "open:" + errno.errorcode[e.errno]
    try: os.rename(t, sys.argv[2] if len(sys.argv) > 2 else path)
    except OSError as e: os.unlink(t); return "rename:" + errno.errorcode[e.errno]
    return "saved"
print(save(sys.argv[1], "hello\n"))'

for via in shim floor; do
	if [ $via = shim ]; then
		run_save() { hsrun "$1" python3 -c "$save_py" "${@:2}"; }
	else
		# a static busybox: the shim cannot enter it, the floor decides
		if ! "$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1 || [ ! -x /bin/busybox ]; then
			skip "atomic save: floor: busybox-static not installed"; continue
		fi
		run_save() {
			local t="$2.tmp.$$.19a2b3c"
			hsrun "$1" /bin/busybox sh -c "if ! echo hello > $t; then echo open:EACCES; elif ! mv $t ${3:-$2}; then rm -f $t; echo rename:EACCES; else echo saved; fi"
		}
	fi

	# ---- denied: not even the temp file appears ----
	fresh; before=$(tree_hash); watch_start
	run_save "$TMP/hooks.json" secrets/k.txt
	watch_stop
	expect_eq "$via: a denied save fails at the temp file's open" "open:EACCES" "$(cat "$TMP/out")"
	expect_eq "$via: no name ever appeared under secrets/ (inotify)" "" "$(seen)"
	expect_eq "$via: secrets/ is byte-identical" "$before" "$(tree_hash)"
	expect_contains "$via: the reason is on stderr, naming the file the save was for" \
		"$(cat "$TMP/err")" "write to $ROOT/secrets/k.txt denied: secrets are protected"
	expect_eq "$via: one PreToolUse, for the file (not the temp)" "1 0" \
		"$(count "[\"PreToolUse\",\"Write\",\"$ROOT/secrets/k.txt\",\"create\"") $(count .tmp.)"

	# ---- allowed: one pre, one post, one id; the file byte-identical ----
	fresh
	run_save "$TMP/hooks.json" ok/n.txt
	expect_eq "$via: an allowed save lands" "saved hello" "$(cat "$TMP/out") $(cat "$ROOT/ok/n.txt" 2>/dev/null)"
	expect_eq "$via: one PreToolUse and one PostToolUse for the file, none for the temp" "1 1 0" \
		"$(count "[\"PreToolUse\",\"Write\",\"$ROOT/ok/n.txt\",\"create\"") $(count "[\"PostToolUse\",\"Write\",\"$ROOT/ok/n.txt\",\"create\"") $(count .tmp.)"
	expect_eq "$via: the pre and the post share one tool_use_id" "1" \
		"$(jq -r '.[4]' "$LOG" | sort -u | grep -c .)"
	expect_eq "$via: no temp file is left" "" "$(ls "$ROOT/ok" | grep tmp)"

	# ---- an existing file: the operation the rename would have had ----
	fresh
	run_save "$TMP/hooks.json" ok/e.txt
	if [ $via = shim ]; then op='"Edit","'$ROOT'/ok/e.txt","edit"'; else op='"Write","'$ROOT'/ok/e.txt","overwrite"'; fi
	expect_eq "$via: replacing a file: one pre and one post with the rename's operation" "1 1" \
		"$(count "[\"PreToolUse\",$op") $(count "[\"PostToolUse\",$op")"

	# ---- renamed elsewhere than its name says: judged at the rename ----
	fresh; before=$(tree_hash)
	run_save "$TMP/hooks.json" ok/m.txt secrets/m.txt
	expect_eq "$via: a temp file renamed into secrets/ under another name is denied at the rename" \
		"rename:EACCES" "$(cat "$TMP/out")"
	expect_eq "$via: ... secrets/ unchanged" "$before" "$(tree_hash)"
	expect_eq "$via: ... its rename fired its own pre" "1" \
		"$(count "[\"PreToolUse\",\"Write\",\"$ROOT/secrets/m.txt\",\"create\"")"
done

# ---- Qwen Code's shape, NAME.HEX.tmp (through the shim) ----
fresh; watch_start
SHAPE=qwen hsrun "$TMP/hooks.json" python3 -c "$save_py" secrets/q.txt
watch_stop
expect_eq "qwen shape: a denied save fails at the temp file's open, nothing appeared" "open:EACCES " \
	"$(cat "$TMP/out") $(seen)"
fresh
SHAPE=qwen hsrun "$TMP/hooks.json" python3 -c "$save_py" ok/q.txt
expect_eq "qwen shape: an allowed save: one pre, one post, for the file" "saved 1 1 0" \
	"$(cat "$TMP/out") $(count "[\"PreToolUse\",\"Write\",\"$ROOT/ok/q.txt\",\"create\"") $(count "[\"PostToolUse\",\"Write\",\"$ROOT/ok/q.txt\",\"create\"") $(count .tmp)"

# ---- a content hook: the save waits for its rename, with the content ----
fresh
hsrun "$TMP/scan.json" python3 -c "$save_py" secrets/c.txt
expect_eq "content hook: a clean save lands" "saved hello" "$(cat "$TMP/out") $(cat "$ROOT/secrets/c.txt" 2>/dev/null)"
expect_eq "content hook: asked once, with the content" '["PreToolUse","'$ROOT'/secrets/c.txt","hello\n"]' "$(cat "$LOG")"
fresh
hsrun "$TMP/scan.json" python3 -c "${save_py/hello/AKIAIOSFODNN7EXAMPLE}" secrets/c.txt
expect_eq "content hook: a key in the content is denied at the rename" "rename:EACCES" "$(cat "$TMP/out")"
# the temp file was there meanwhile (the directory's mtime tells): only
# its name, never the target's
expect_eq "content hook: ... secrets/ holds what it held once the temp file is gone" \
	"old keep" "$(ls -A "$ROOT/secrets") $(cat "$ROOT/secrets/old")"

# ---- names that do not say their file stay silent until their rename ----
fresh
hsrun "$TMP/hooks.json" python3 -c "
import os
open('ok/plain.tmp', 'w').write('x'); os.rename('ok/plain.tmp', 'ok/plain')"
expect_eq "a bare NAME.tmp fires nothing at its open, one pre at its rename" "1 0" \
	"$(count "[\"PreToolUse\",\"Write\",\"$ROOT/ok/plain\",\"create\"") $(count plain.tmp)"
