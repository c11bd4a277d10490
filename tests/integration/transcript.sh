# transcript_path (issue 17 item 4): a real JSONL file in Claude Code's
# transcript shape, one tool_use per tool call written before its hooks
# run, a tool_result after; removed at session end unless --log keeps it,
# and by a later session when its supervisor was killed.
. "$HOOKSHIM_TOP/tests/lib.sh"
hs() { "$HOOKSHIM" "$@"; }
export HOME=$TMP/home; mkdir -p "$HOME"
export TMPDIR=$TMP/tmpdir; mkdir -p "$TMPDIR"

# A public-style transcript reader: the last entry is the current call.
cat > reader.py <<'PY'
import json, os, sys
p = json.load(sys.stdin)
entries = [json.loads(l) for l in open(p["transcript_path"])]
last = entries[-1]
use = last["message"]["content"][0]
inp = use["input"]
with open(sys.argv[1], "a") as f:
    f.write(json.dumps({"n": len(entries), "type": last["type"],
        "block": use["type"], "name": use["name"],
        "arg": inp.get("command", inp.get("file_path")),
        "same_id": use["id"] == p["tool_use_id"],
        "session": last["sessionId"] == p["session_id"],
        "path": p["transcript_path"],
        "modes": [oct(os.stat(p["transcript_path"]).st_mode & 0o777),
                  oct(os.stat(os.path.dirname(p["transcript_path"])).st_mode & 0o777)]}) + "\n")
if "forbidden" in json.dumps(inp):
    print("transcript reader: forbidden word in the current call", file=sys.stderr)
    sys.exit(2)
PY
cat > t.json <<J
{"hooks":{
 "PreToolUse":[{"matcher":"Bash|Write|Edit","hooks":[{"type":"command","command":"python3 $TMP/reader.py $TMP/seen.jsonl"}]}],
 "PostToolUse":[{"matcher":"Bash|Write","hooks":[{"type":"command","command":"true"}]}],
 "SessionStart":[{"hooks":[{"type":"command","command":"jq -r .transcript_path > $TMP/start.txt"}]}]}}
J
# Several tool calls, as an agent makes them: python3 is the agent, each
# bash -c a tool call; one write by the agent itself.
cat > agent.py <<'PY'
import subprocess
subprocess.run(["bash", "-c", "echo first"])
subprocess.run(["bash", "-c", "echo forbidden > should-not-exist"])
open("note.txt", "w").write("hello\n")
subprocess.run(["bash", "-c", "echo last; bash -c 'echo nested'"])
PY
hs run -c t.json --log "$TMP/s.log" -- python3 agent.py > out.txt 2>err.txt
tp=$(jq -r 'select(.event=="session_start") | .transcript_path' s.log)
check "the log's session_start names the transcript" test -n "$tp"
expect_eq "SessionStart gets the same transcript_path" "$tp" "$(cat start.txt)"
expect_eq "the hooks read that file" "$tp" "$(jq -sr 'map(.path) | unique | .[]' seen.jsonl)"
expect_eq "a private file in a private directory" '["0o600","0o700"]' "$(jq -sc '.[0].modes' seen.jsonl)"
check "the session's file is gone at its end" test ! -e "$tp"
check "its directory too" test ! -e "$(dirname "$tp")"
check "--log FILE kept its lines in FILE.transcript.jsonl" test -s s.log.transcript.jsonl
tp=$TMP/s.log.transcript.jsonl
expect_eq "every hook saw the current call as the last entry" \
	'["assistant","tool_use",true,true]' \
	"$(jq -sc '[.[0].type, .[0].block, (all(.[]; .same_id)), (all(.[]; .session))]' seen.jsonl)"
expect_eq "tool calls in order, Claude's names" \
	'[["Bash","echo first"],["Bash","echo forbidden > should-not-exist"],["Write","'"$TMP"'/note.txt"],["Bash","echo last; bash -c '"'"'echo nested'"'"'"]]' \
	"$(jq -sc '[.[] | [.name, .arg]]' seen.jsonl)"
check "the reader's deny holds" test ! -e should-not-exist
expect_contains "the deny reason reached the caller" "$(cat err.txt)" "forbidden word"
expect_eq "the commands ran" "$(printf 'first\nlast\nnested')" "$(cat out.txt)"

# The file itself: Claude Code's entry shape.
check "every line is JSON" jq -e . "$tp" >/dev/null
expect_eq "types: tool_use, then its result" \
	"assistant user assistant user assistant user assistant user" \
	"$(jq -r .type "$tp" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "parentUuid chains each entry to the one before" true \
	"$(jq -s '[.[0].parentUuid == null] + [range(1; length) as $i | .[$i].parentUuid == .[$i-1].uuid] | all' "$tp")"
expect_eq "each entry has sessionId, cwd, timestamp, uuid" true \
	"$(jq -s 'all(.[]; (.sessionId|length) > 0 and .cwd == "'"$TMP"'" and (.timestamp|test("^[0-9-]+T[0-9:.]+Z$")) and (.uuid|test("^[0-9a-f-]{36}$")))' "$tp")"
expect_eq "a tool_result answers its tool_use" true \
	"$(jq -s '[range(0; length; 2) as $i | .[$i].message.content[0].id == .[$i+1].message.content[0].tool_use_id] | all' "$tp")"
expect_eq "the denied call's result is the reason, as an error" \
	'[true,"transcript reader: forbidden word in the current call"]' \
	"$(jq -sc '.[3].message.content[0] | [.is_error, (.content|rtrimstr("\n"))]' "$tp")"
expect_eq "an allowed command's result is its output" '[false,"first\n"]' \
	"$(jq -sc '.[1].message.content[0] | [.is_error, .content]' "$tp")"
expect_eq "toolUseResult in Claude Code's Bash shape" '{"stdout":"first\n","stderr":"","interrupted":false}' \
	"$(jq -sc '.[1].toolUseResult | {stdout, stderr, interrupted}' "$tp")"
expect_eq "the write's result" "File created successfully at: $TMP/note.txt" \
	"$(jq -sr '.[5].message.content[0].content' "$tp")"
expect_not_contains "nested commands are no tool calls" "$(cat "$tp")" '"command":"echo nested"'

# Without --log nothing of it is left.
rm -f seen.jsonl
hs run -c t.json -- bash -c 'echo one' >/dev/null 2>&1
tp2=$(jq -r .path seen.jsonl)
check "a transcript existed during the session" test -n "$tp2"
check "without --log: removed at session end" test ! -e "$(dirname "$tp2")"
expect_eq "without --log: nothing left in TMPDIR" "" "$(ls "$TMPDIR")"

# The supervisor writes it: never a write event, even where writes are
# watched (TMPDIR under the root, every write a hook's).
cat > w.json <<J
{"hookshim":{"writes":{"include":["**"]}},
 "hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"jq -r .tool_input.file_path >> $TMP/writes.txt"}]},
                        {"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}
J
rm -f writes.txt
hs run -c w.json -- bash -c 'echo a > a.txt; echo b' >/dev/null 2>&1
expect_eq "only the agent's write was an event" "$TMP/a.txt" "$(cat writes.txt)"

# A supervisor killed (SIGKILL: nothing runs at its end) leaves its
# transcript behind; the next session removes it -- only a dead one's
# (its flock free, untouched for 10 minutes), only our file in our
# directory, never through a link. A user's sessions make their
# directories in TMPDIR/hookshim-UID, which is all a sweep reads (not
# the whole of TMPDIR), and which the last session to end removes.
export TMPDIR=$TMP/sweep; mkdir -p "$TMPDIR"
U=$TMPDIR/hookshim-$(id -u)
# (killed from outside the session: inside, the floor refuses it,
# tests/security/supervisor_reach.sh)
rm -f kill.req
hs run -c t.json -- bash -c 'echo $PPID > kill.req; while kill -0 $PPID; do sleep 0.05; done' >/dev/null 2>&1 &
bg=$!
for i in $(seq 200); do [ -s kill.req ] && { kill -9 "$(cat kill.req)"; break; }; sleep 0.05; done
wait $bg
sleep 0.2
killed=$(ls -d "$U"/hookshim-session-* 2>/dev/null)
expect_eq "a killed supervisor leaves its transcript, in the user's directory" 1 "$(wc -w <<<"$killed")"
expect_eq "... and nothing else in TMPDIR" "hookshim-$(id -u)" "$(ls "$TMPDIR")"
mk() { # NAME [extra]: a dead session's directory, an hour old
	mkdir -p "$U/$1"; echo '{}' > "$U/$1/transcript.jsonl"
	[ -n "${2:-}" ] && echo x > "$U/$1/$2"
	touch -d '1 hour ago' "$U/$1/transcript.jsonl"
}
mk hookshim-session-dead01; mk hookshim-session-other1 notes.txt; mk hookshim-session-held01
touch -d '1 hour ago' $killed/transcript.jsonl
mkdir -p "$U/hookshim-session-young1"; echo '{}' > "$U/hookshim-session-young1/transcript.jsonl"
mkdir -p "$TMP/elsewhere"; echo '{}' > "$TMP/elsewhere/transcript.jsonl"
touch -d '1 hour ago' "$TMP/elsewhere/transcript.jsonl"
ln -s "$TMP/elsewhere" "$U/hookshim-session-link01"
# a live session of another version or namespace holds its lock
flock "$U/hookshim-session-held01/transcript.jsonl" sleep 30 & holder=$!
sleep 0.2
hs run -c t.json -- true >/dev/null 2>&1
kill $holder 2>/dev/null; wait $holder 2>/dev/null
check "the killed session's transcript is removed by the next session" test ! -e "$killed"
check "... and a dead one's of another name" test ! -e "$U/hookshim-session-dead01"
check "a directory holding another file stays" test -f "$U/hookshim-session-other1/notes.txt"
check "a transcript whose lock is held stays" test -f "$U/hookshim-session-held01/transcript.jsonl"
check "a link is not followed" test -f "$TMP/elsewhere/transcript.jsonl"
check "a recent one stays (a session just made it, before its lock)" test -f "$U/hookshim-session-young1/transcript.jsonl"
# what is left in the user's directory keeps it; once empty, the next
# session to end removes it
rm -rf "$U"/hookshim-session-*
hs run -c t.json -- true >/dev/null 2>&1
expect_eq "the last session to end removes the user's directory" "" "$(ls "$TMPDIR")"
# only the user's own, private directory is used: one another user
# made, or a link, leaves the session's directory in TMPDIR itself (and
# a dead one's there is removed, as before the user's directory)
kinds="link open"; [ "$(id -u)" = 0 ] && kinds="$kinds other"
for kind in $kinds; do
	case $kind in
	link) mkdir -p "$TMP/decoy"; ln -s "$TMP/decoy" "$U" ;;
	open) mkdir -m 0777 "$U"; chmod 0777 "$U" ;;
	other) mkdir -m 0700 "$U"; chown 12345:12345 "$U" ;; # another user's
	esac
	mkdir -p "$TMPDIR/hookshim-session-old$kind"; echo '{}' > "$TMPDIR/hookshim-session-old$kind/transcript.jsonl"
	touch -d '1 hour ago' "$TMPDIR/hookshim-session-old$kind/transcript.jsonl"
	rm -f seen.jsonl
	hs run -c t.json -- bash -c 'echo one' >/dev/null 2>&1
	tp3=$(jq -r .path seen.jsonl)
	expect_eq "a $kind at the user's directory: the session's directory in TMPDIR" "$TMPDIR" "$(dirname "$(dirname "$tp3")")"
	check "a $kind at the user's directory: a dead session's in TMPDIR removed" test ! -e "$TMPDIR/hookshim-session-old$kind"
	rm -rf "$U"
done
check "nothing was made through the link" test -z "$(ls "$TMP/decoy")"

# Sessions starting and ending at once share the user's directory: each
# gets its own transcript there (one made again when another session's
# end removed it meanwhile), and the last to end leaves nothing.
rm -f seen.jsonl
for i in $(seq 12); do
	hs run -c t.json -- bash -c "echo $i" >/dev/null 2>&1 &
done
wait
expect_eq "12 sessions at once: 12 transcripts, each its own" 12 "$(jq -r .path seen.jsonl | sort -u | wc -l)"
expect_eq "... all in the user's directory" "$U" "$(jq -r .path seen.jsonl | xargs -n1 dirname | xargs -n1 dirname | sort -u)"
expect_eq "... and nothing left when they ended" "" "$(ls "$TMPDIR")"
