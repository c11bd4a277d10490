# Issue 23 item 5: the supervisor's own files. The transcript hooks read
# (transcript_path) is one of the session's protected files, so the agent
# cannot forge it, through the shim or the floor; and the files the
# supervisor writes (--log, its transcript copy, --junit,
# $GITHUB_STEP_SUMMARY) are opened without following a symlink at their
# name, in directories held from before the agent started, so a symlink
# the agent (or an earlier session's agent) plants does not make the
# supervisor write through it.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
command -v jq >/dev/null || { skip "supervisor files: jq missing"; exit 0; }
# a private TMPDIR: the transcripts of this test's sessions only
export TMPDIR=$TMP/tmpdir; mkdir -p "$TMPDIR"
ROOT=$TMP/root; mkdir -p "$ROOT"
cat > "$TMP/hook.sh" <<'S'
#!/bin/sh
# what a hook reading the transcript sees: lines not written by hookshim
tp=$(jq -r .transcript_path)
grep -c FORXGED "$tp" >> "$HOOKSEEN"
exit 0
S
chmod 755 "$TMP/hook.sh"
export HOOKSEEN=$TMP/hookseen
echo '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"'"$TMP"'/hook.sh"}]}]}}' > "$TMP/p.json"
hsrun() { ( cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$TMP/p.json" "$@" ) >"$TMP/out" 2>"$TMP/err"; }

# the forged line, FORXGED, is made at run time: no command text (which
# the transcript records) holds it
cat > "$TMP/forge.sh" <<'S'
d=$(echo "$TMPDIR"/hookshim-*/hookshim-session-*); export tp=$d/transcript.jsonl
export M=$(printf '{"FOR%sGED":1}' X)
[ -f "$tp" ] || { echo "no transcript"; exit 0; }
echo "$M" > "$tp.new"
echo "$M" >> "$tp" 2>/dev/null; echo "append=$?"
busybox sh -c 'echo "$M" >> "$tp"' 2>/dev/null; echo "bbappend=$?"
python3 -c 'import os,sys; os.replace(sys.argv[1] + ".new", sys.argv[1])' "$tp" 2>/dev/null; echo "replace=$?"
rm -f "$tp" 2>/dev/null; echo "rm=$?"
busybox rm -f "$tp" 2>/dev/null; echo "bbrm=$?"
mv "$d" "$d.x" 2>/dev/null; echo "mvdir=$?"
# the user's directory above it (TMPDIR/hookshim-UID)
mv "${d%/*}" "${d%/*}.x" 2>/dev/null; echo "mvuserdir=$?"
busybox mv "${d%/*}" "${d%/*}.y" 2>/dev/null; echo "bbmvuserdir=$?"
ln -sf /dev/null "$tp" 2>/dev/null; echo "symlink=$?"
bash -c 'true'
S
: > "$HOOKSEEN"
hsrun --log "$TMP/s.log" -- bash "$TMP/forge.sh"
for k in append bbappend replace rm bbrm mvdir mvuserdir bbmvuserdir symlink; do
	case "$(cat "$TMP/out")" in
	*"$k=0"*) fail "transcript: $k went through";;
	*"$k="*) pass "transcript: $k denied";;
	*) fail "transcript: $k: no result"; note "$(cat "$TMP/out" "$TMP/err")";;
	esac
done
expect_eq "the hook reading transcript_path saw no forged line" "0" "$(sort -u "$HOOKSEEN" | tr '\n' ' ' | sed 's/ $//')"
check "the kept transcript holds no forged line" test -s "$TMP/s.log.transcript.jsonl" -a "$(grep -c FORXGED "$TMP/s.log.transcript.jsonl")" = 0
expect_contains "the reason says what the file is" "$(cat "$TMP/err")" "(the transcript hooks read)"

# As a user who runs the session, in guard and in enforce mode (issue 23:
# as root and as an unprivileged user): the transcript is the user's own
# file, which the agent of that user still cannot forge
if as_user "supervisor files"; then
	mkdir -p "$TMP/u"
	chown -R $AS_ID:$AS_ID "$TMP/u" "$TMPDIR" "$ROOT"
	for mode in guard enforce; do
		# (forge.sh's own temp file keeps an earlier session's directory)
		rm -rf "$TMPDIR"/hookshim-*
		: > "$HOOKSEEN"; chown $AS_ID:$AS_ID "$HOOKSEEN"
		( cd "$ROOT" && timeout 60 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices -c "$TMP/p.json" \
			--log "$TMP/u/$mode.log" -- bash "$TMP/forge.sh" ) >"$TMP/out" 2>"$TMP/err"
		for k in append bbappend replace rm bbrm mvdir mvuserdir bbmvuserdir symlink; do
			case "$(cat "$TMP/out")" in
			*"$k=0"*) fail "user $mode: transcript: $k went through";;
			*"$k="*) pass "user $mode: transcript: $k denied";;
			*) fail "user $mode: transcript: $k: no result"; note "$(cat "$TMP/out" "$TMP/err")";;
			esac
		done
		expect_eq "user $mode: the hook reading transcript_path saw no forged line" "0" \
			"$(sort -u "$HOOKSEEN" | tr '\n' ' ' | sed 's/ $//')"
		check "user $mode: the kept transcript holds no forged line" \
			test -s "$TMP/u/$mode.log.transcript.jsonl" -a "$(grep -c FORXGED "$TMP/u/$mode.log.transcript.jsonl")" = 0
	done
	chown -R 0:0 "$TMPDIR" "$ROOT" "$HOOKSEEN"
fi

# A symlink at a name the supervisor writes, planted before the session
# (an earlier session's agent): not followed.
echo keep > "$TMP/victim"
ln -s "$TMP/victim" "$ROOT/report.xml"
ln -s "$TMP/victim" "$TMP/l.log"
hsrun --log "$TMP/l.log" -- true
expect_contains "--log through a symlink: refused" "$(cat "$TMP/err")" "--log $TMP/l.log"
rm "$TMP/l.log"
ln -s "$TMP/victim" "$TMP/k.log.transcript.jsonl"
hsrun --log "$TMP/k.log" --junit report.xml -- bash -c 'true'
expect_contains "--junit through a symlink: not written" "$(cat "$TMP/err")" "--junit report.xml"
expect_contains "the transcript's copy through a symlink: not written" "$(cat "$TMP/err")" "cannot keep the transcript in $TMP/k.log.transcript.jsonl"
expect_eq "the symlinks' target unchanged" keep "$(cat "$TMP/victim")"

# $GITHUB_STEP_SUMMARY is not a protected file (the agent's own steps
# may write it): the agent replaces it with a symlink, or its directory
# with one, during the session.
mkdir -p "$TMP/gh" "$TMP/victimdir"
export GITHUB_STEP_SUMMARY=$TMP/gh/summary.md
: > "$GITHUB_STEP_SUMMARY"
hsrun --ci -- bash -c 'rm -f "$GITHUB_STEP_SUMMARY"; ln -s "$1" "$GITHUB_STEP_SUMMARY"' _ "$TMP/victim"
expect_eq "step summary replaced by a symlink: its target unchanged" keep "$(cat "$TMP/victim")"
expect_contains "... and the supervisor says why" "$(cat "$TMP/err")" "GITHUB_STEP_SUMMARY $TMP/gh/summary.md"
rm -f "$GITHUB_STEP_SUMMARY"; : > "$GITHUB_STEP_SUMMARY"
hsrun --ci -- bash -c 'mv "$1/gh" "$1/gh.old" && ln -s "$1/victimdir" "$1/gh"' _ "$TMP"
check "step summary's directory replaced by a symlink: nothing written there" test ! -e "$TMP/victimdir/summary.md"
expect_contains "... the summary went to the directory named at the start" "$(cat "$TMP/gh.old/summary.md" 2>/dev/null)" "### hookshim"
rm -f "$TMP/gh"; mv "$TMP/gh.old" "$TMP/gh"
# ... or a hard link to another file at its name, or at --junit's, in
# a directory reached through a symlink of the agent's (guard mode
# judges names as written): the supervisor appended the summary to, or
# emptied and wrote the JUnit XML into, ~/.bashrc (session 38's attack
# run). A file with other names is not written, and said; a FIFO put
# there holds nothing.
echo 'export IMPORTANT=1' > "$HOME/.bashrc"
hsrun --ci -- bash -c 'rm -f "$GITHUB_STEP_SUMMARY"; ln "$HOME/.bashrc" "$GITHUB_STEP_SUMMARY"'
expect_eq "step summary replaced by a hard link: its other file unchanged" "export IMPORTANT=1" "$(cat "$HOME/.bashrc")"
expect_contains "... and the supervisor says why" "$(cat "$TMP/err")" "GITHUB_STEP_SUMMARY $TMP/gh/summary.md: Too many links"
rm -f "$GITHUB_STEP_SUMMARY"; : > "$GITHUB_STEP_SUMMARY"
mkdir -p "$ROOT/reports"
hsrun --guard --junit reports/j.xml -- bash -c 'ln -s reports al && ln "$HOME/.bashrc" al/j.xml'
expect_eq "--junit's name hard-linked through an alias: the other file unchanged" "export IMPORTANT=1" "$(cat "$HOME/.bashrc")"
expect_contains "... the link denied (the --junit file is the session's, by its directory's identity too)" \
	"$(cat "$TMP/err")" "reports/j.xml is part of this session's policy (the --junit file)"
rm -f "$ROOT/al" "$ROOT/reports/j.xml"
# ... one there before the session (an earlier session's agent): the
# supervisor's own write refuses it
ln "$HOME/.bashrc" "$ROOT/reports/j.xml"
hsrun --guard --junit reports/j.xml -- true
expect_eq "--junit's name a hard link made before: the other file unchanged" "export IMPORTANT=1" "$(cat "$HOME/.bashrc")"
expect_contains "... and the supervisor says why" "$(cat "$TMP/err")" "--junit reports/j.xml: Too many links"
rm -f "$ROOT/reports/j.xml"
mkfifo "$ROOT/reports/j.xml"
hsrun --guard --junit reports/j.xml -- true
expect_contains "--junit's name a FIFO: not written, nothing held" "$(cat "$TMP/err")" "--junit reports/j.xml: "
rm -f "$ROOT/reports/j.xml"
unset GITHUB_STEP_SUMMARY
# what must still work: plain files
hsrun --log "$TMP/ok.log" --junit ok.xml -- bash -c 'true'
check "a plain --junit file is written" grep -q "<testsuites" "$ROOT/ok.xml"
check "a plain --log and its transcript copy are written" test -s "$TMP/ok.log" -a -s "$TMP/ok.log.transcript.jsonl"

# The audit records exported to a file ("otlp": {"file": PATH}), which
# `hookshim log` reads as it reads --log: a protected file of the session,
# as --log is. The agent renamed it away and left an empty one, in both
# modes (the supervisor kept writing to its descriptor, of the file
# moved), so no record of its denial was found there (issue 23, session
# 37); appended to, it took forged records.
mkdir -p "$TMP/audit"
cat > "$TMP/otlp.json" <<J
{"hookshim":{"otlp":{"file":"$TMP/audit/otlp.jsonl"}},
 "hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secrets/**)","command":"exit 2"}]}]}}
J
cat > "$TMP/otlp.sh" <<S2
mkdir -p secrets; echo x > secrets/f 2>/dev/null; echo "write=\$?"
mv "$TMP/audit/otlp.jsonl" "$TMP/audit/moved" 2>/dev/null; echo "mv=\$?"
busybox mv "$TMP/audit/otlp.jsonl" "$TMP/audit/moved" 2>/dev/null; echo "bbmv=\$?"
: > "$TMP/audit/otlp.jsonl" 2>/dev/null; echo "trunc=\$?"
echo '{"forged":1}' >> "$TMP/audit/otlp.jsonl" 2>/dev/null; echo "append=\$?"
busybox sh -c 'echo "{}" >> "$TMP/audit/otlp.jsonl"' 2>/dev/null; echo "bbappend=\$?"
S2
for mode in guard enforce; do
	rm -rf "$TMP/audit"/*
	( cd "$ROOT" && timeout 60 "$HOOKSHIM" run --$mode --no-notices -c "$TMP/otlp.json" -- bash "$TMP/otlp.sh" ) >"$TMP/out" 2>"$TMP/err"
	each_denied "$mode: the otlp file: " "$(cat "$TMP/out")" write mv bbmv trunc append bbappend
	check "$mode: the otlp file records the denied write" \
		sh -c "'$HOOKSHIM' log '$TMP/audit/otlp.jsonl' --denied 2>/dev/null | grep -q secrets/f"
	check "$mode: ... and nothing forged" test "$(grep -c forged "$TMP/audit/otlp.jsonl")" = 0
done
