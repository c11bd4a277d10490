# PostToolUse for writes only the floor saw (docs/floor.md, "PostToolUse"):
# a static program's and a raw syscall's writes fire the same post event
# the shim fires for the same libc call, exactly once, at the close or when
# the call's change is done; a failed call fires the post-failure; a slow
# post hook holds up no other process; writes no post hook's path names
# fire nothing; a dynamic program's writes still fire once (the shim's).
# lane: alone -- a slow post must not hold its writer (< 2 s)
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor post: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor post: jq missing"; exit 0; }
SW=$HOOKSHIM_PROBES/floor_static_writes
DW=$HOOKSHIM_PROBES/floor_dynamic_writes
[ -x "$SW" ] && [ -x "$DW" ] || { skip "floor post: probes not built"; exit 0; }
ROOT=$TMP/root
PLOG=$TMP/post.log

# Every post payload, less what differs between two runs by nature.
cat > "$TMP/hooks.json" <<J
{"hooks":{
 "PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command",
   "command":"jq -c 'del(.tool_use_id,.session_id,.transcript_path)' >> $PLOG"}]}],
 "PostToolUseFailure":[{"matcher":"Write|Edit","hooks":[{"type":"command",
   "command":"jq -c 'del(.tool_use_id,.session_id,.transcript_path)' >> $PLOG"}]}]}}
J
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT"; : > "$PLOG"; }
hsrun() { ( cd "$ROOT" && "$HOOKSHIM" run -c "${CFG:-$TMP/hooks.json}" --root "$ROOT" -- "$@" ) >"$TMP/out" 2>"$TMP/err"; }
# one line per post: event, tool, path, operation
posts() { jq -r '[.hook_event_name,.tool_name,.tool_input.file_path,.tool_input.operation] | join(" ")' "$PLOG" | sed "s|$ROOT/||" | sort; }

# ---- a static binary: each call one post, as the shim names it ----
ops="write:a:hello append:a open:a trunc:a rename:a:b link:b:c symlink:x:s mkdir:d
 mknod:n unlink:c rmdir:d openat2:o creat:cr openat:o"
fresh; hsrun "$SW" $ops
expect_eq "floor post: the static calls all succeeded" "0" "$(grep -vc ': ok$' "$TMP/out")"
want="PostToolUse Edit a append
PostToolUse Edit a edit
PostToolUse Edit a rename
PostToolUse Edit a truncate
PostToolUse Edit c delete
PostToolUse Edit c link
PostToolUse Edit d mkdir
PostToolUse Edit d rmdir
PostToolUse Edit s symlink
PostToolUse Write a create
PostToolUse Write cr create
PostToolUse Write n create
PostToolUse Write o create
PostToolUse Write o overwrite"
# (the openat of o truncates an empty file: an overwrite, as the shim names
# an empty file replaced; open:a replaces a non-empty one from the agent's
# own process, not a shell: an edit)
expect_eq "floor post: a static binary's 14 calls fire 14 posts, each once" "$(sort <<<"$want")" "$(posts)"
static_payloads=$(jq -c 'del(.cwd)' "$PLOG" | sed "s|$ROOT/||g" | sort)
expect_contains "floor post: tool_response as the shim's" "$(cat "$PLOG")" \
	"\"tool_response\":{\"filePath\":\"$ROOT/a\",\"success\":true}"

# ---- the same calls through libc in a dynamic build: the shim's posts ----
# (its open/openat/creat/openat2 are raw syscalls: the floor's, as above)
fresh; hsrun "$DW" $ops
expect_eq "floor post: the dynamic build fires the same 14 posts, once each (shim + floor)" \
	"$(sort <<<"$want")" "$(posts)"
expect_eq "floor post: and the same payloads, field for field" "$static_payloads" \
	"$(jq -c 'del(.cwd)' "$PLOG" | sed "s|$ROOT/||g" | sort)"

# ---- a failed call: the post-failure, once ----
fresh; mkdir -p "$ROOT/full"; echo x > "$ROOT/full/f"
hsrun "$SW" rmdir:full mkdir:full unlink:nothere
expect_eq "floor post: a failed rmdir fires PostToolUseFailure, once" \
	"PostToolUseFailure Edit full rmdir" "$(posts)"

# ---- a static busybox: its shell's redirects, mv, rm, mkdir ----
if [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; then
	BB=/bin/busybox
	fresh
	hsrun $BB sh -c 'echo x > f; echo y > f; echo z >> f; mv f g; mkdir d; rm g; rmdir d'
	expect_eq "floor post: busybox sh/mv/rm/mkdir: one post per write" \
		"$(printf '%s\n' "PostToolUse Write f create" "PostToolUse Write f overwrite" \
			"PostToolUse Edit f append" "PostToolUse Edit f rename" "PostToolUse Edit d mkdir" \
			"PostToolUse Edit g delete" "PostToolUse Edit d rmdir" | sort)" "$(posts)"
	# the same as bash, where the shim fires them
	fresh
	hsrun bash -c 'echo x > f; echo y > f; echo z >> f; mv f g; mkdir d; rm g; rmdir d'
	bash_posts=$(posts)
	fresh
	hsrun $BB sh -c 'echo x > f; echo y > f; echo z >> f; mv f g; mkdir d; rm g; rmdir d'
	expect_eq "floor post: busybox's posts are bash's (shim) posts" "$bash_posts" "$(posts)"

	# a post's additionalContext reaches the static caller's stderr, as
	# the shim writes it to the tool's
	cat > "$TMP/ctx.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command",
 "command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"formatted by the hook\"}}'"}]}]}}
J
	fresh; CFG=$TMP/ctx.json hsrun $BB sh -c 'echo x > f; sleep 1'
	expect_contains "floor post: additionalContext on the static caller's stderr" "$(cat "$TMP/err")" \
		"formatted by the hook"
	# "content": true: the file as written, as the shim's post carries it
	cat > "$TMP/content_post.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","content":true,
   "command":"jq -c .tool_input.content >> $PLOG"}]}]}}
J
	fresh; CFG=$TMP/content_post.json hsrun $BB sh -c 'echo hello-content > f'
	expect_eq "floor post: a content post hook gets the file as written" '"hello-content\n"' "$(cat "$PLOG")"
else
	skip "floor post: busybox-static not installed (apt-get install busybox-static)"
fi

# ---- a process killed mid-write: the kernel's close still ends it ----
fresh; hsrun "$SW" killed:k:partial
expect_eq "floor post: SIGKILLed with the file open: one post at the kernel's close" \
	"PostToolUse Write k create" "$(posts)"
expect_eq "floor post: ... the bytes it wrote are there" "partial" "$(cat "$ROOT/k")"

# ---- paths no post hook names fire nothing ----
cat > "$TMP/only.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(src/**)",
   "command":"jq -c 'del(.tool_use_id,.session_id,.transcript_path)' >> $PLOG"}]}]}}
J
fresh; mkdir -p "$ROOT/src" "$ROOT/out"
CFG=$TMP/only.json hsrun "$SW" write:out/a:1 mkdir:out/d rename:out/a:out/b write:src/a:1
expect_eq "floor post: only the path a post hook names fires" "PostToolUse Write src/a create" "$(posts)"

# ---- a slow post hook holds up no one else ----
cat > "$TMP/slow.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command",
   "command":"f=\$(jq -r .tool_input.file_path); case \$f in */slow) sleep 5;; esac; echo \$f >> $PLOG"}]}]}}
J
fresh
writes=""; for i in $(seq 1 20); do writes="$writes write:w$i:x"; done
CFG=$TMP/slow.json hsrun bash -c "
	s=\$(date +%s%N); $SW write:slow:x >/dev/null; e=\$(date +%s%N); echo slow-writer \$(( (e - s) / 1000000 ))
	s=\$(date +%s%N); $SW $writes >/dev/null; e=\$(date +%s%N); echo others \$(( (e - s) / 1000000 ))"
slow_ms=$(awk '/^slow-writer/ {print $2}' "$TMP/out"); others_ms=$(awk '/^others/ {print $2}' "$TMP/out")
note "a write whose post sleeps 5 s returned in ${slow_ms} ms; 20 writes of another process in ${others_ms} ms"
check "floor post: the writer is not held by its own slow post (< 2 s)" test "${slow_ms:-9999}" -lt 2000
check "floor post: another static process's 20 writes are not held by it (< 2 s)" test "${others_ms:-9999}" -lt 2000
expect_eq "floor post: all 21 posts ran, the slow one too, before the session ended" "21" "$(wc -l < "$PLOG" | tr -d ' ')"

# ---- what the file system cannot tell apart (docs/floor.md) ----
if [ -n "${BB:-}" ]; then
	# descriptors inherited across fork: the post comes at the last close
	cat > "$TMP/content.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command",
   "command":"echo \\"\$(cat \$(jq -r .tool_input.file_path))\\" >> $PLOG"}]}]}}
J
	fresh
	CFG=$TMP/content.json hsrun $BB sh -c 'exec 3> f; (sleep 0.3; echo child >&3) & exec 3>&-; wait'
	expect_eq "floor post: a descriptor a fork child inherited: one post, at the child's close (it sees what the child wrote)" \
		"child" "$(cat "$PLOG")"
	# another process's close of the same name is not taken for ours
	# while the opener still holds the file
	fresh
	hsrun $BB sh -c 'exec 3>> f; bash -c ": >> f"; sleep 0.5; wc -l < "'"$PLOG"'" > "'"$TMP/n"'"; exec 3>&-'
	expect_eq "floor post: another writer's close of the same file (the shim's) posts only its own" \
		"1" "$(tr -d ' ' < "$TMP/n")"
	expect_eq "floor post: ... and the static opener's close its own: one post per open" "2" "$(wc -l < "$PLOG" | tr -d ' ')"
	# but once the opener let go (its fork child still writes), another
	# writer's close ends the wait early
	fresh
	hsrun $BB sh -c 'exec 3> f; (sleep 4; echo late >&3) & exec 3>&-; bash -c ": >> f"; sleep 2; wc -l < "'"$PLOG"'" > "'"$TMP/n"'"; wait'
	expect_eq "floor post limit: opener gone, its fork child still writing: another writer's close fires the post early (documented)" \
		"2" "$(tr -d ' ' < "$TMP/n")"
	# a file moved to another directory before its close is not followed
	fresh; mkdir "$ROOT/sub"
	hsrun $BB sh -c 'exec 3> f; mv f sub/g; echo x >&3; exec 3>&-'
	expect_eq "floor post limit: renamed out of its directory before the close: its create fires no post (documented)" \
		"PostToolUse Edit f rename" "$(posts)"
fi

# ---- under load: 16 threads x 500 mixed calls, forks, SIGURG every ms ----
ST=$HOOKSHIM_PROBES/floor_static_stress
if [ -x "$ST" ]; then
	cat > "$TMP/hot.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(hot/**)","command":"echo x >> $PLOG"}]}]}}
J
	fresh; mkdir -p "$ROOT/hot" "$ROOT/cold"
	out=$(cd "$ROOT" && timeout 120 "$HOOKSHIM" run -c "$TMP/hot.json" --root "$ROOT" -- "$ST" 16 500 20 5 1 2>"$TMP/err")
	expect_eq "floor post stress: finished, no call failed" "0 failed=0" "$? ${out##* }"
	hot=${out#hot=}; hot=${hot%% *}
	expect_eq "floor post stress: every watched create posted exactly once ($hot)" "$hot" "$(wc -l < "$PLOG" | tr -d ' ')"
fi
