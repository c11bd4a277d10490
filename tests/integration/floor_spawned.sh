# A static agent's commands (Codex is one, Go and Rust agents are): it
# starts each the way Rust's and Go's standard libraries do
# (tests/probes/spawn_static.c), reading the command's output only when
# the spawn succeeded. Where the floor decides the exec -- every exec in
# enforce mode, a static target in guard mode -- a denied tool call must
# still read as a failed command whose output is the hook's reason: the
# agent's fork child ends in its exec (SIGKILL, nothing of the command
# runs) after the reason went to its stderr. The agent's own process, or
# a child of two threads, gets the errno as before. And the agent's own
# shells (config/agents.json) fire no hook, Pre or Post, in either mode,
# only under the agent they belong to.
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
[ -x "$HOOKSHIM" ] && [ -f "$HOOKSHIM_LIB" ] || { skip "floor spawned: no hookshim build"; exit 0; }
command -v jq >/dev/null || { skip "floor spawned: jq missing"; exit 0; }
P=$HOOKSHIM_PROBES/spawn_static
[ -x "$P" ] || { skip "floor spawned: probes not built"; exit 0; }
"$HOOKSHIM_TOP/scripts/ensure-deps.sh" >/dev/null 2>&1 ||
	{ skip "floor spawned: busybox-static not installed (apt-get install busybox-static)"; exit 0; }
need_floor "floor spawned"
# busybox as "sh": a static shell by its name
mkdir -p "$TMP/bin"; ln -s /bin/busybox "$TMP/bin/sh"
ROOT=$TMP/root
PRE=$TMP/pre.log POST=$TMP/post.log
cat >"$TMP/hooks.json" <<J
{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
   "command":"c=\$(jq -r .tool_input.command); echo \"\$c\" >> $PRE; case \"\$c\" in *'rm -rf'*) echo 'no rm -rf here' >&2; exit 2;; esac"}]}],
 "PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command >> $POST"}]}]}}
J
jq '{hooks: {PreToolUse: .hooks.PreToolUse}}' "$TMP/hooks.json" >"$TMP/pre-only.json"
cat >"$TMP/post-only.json" <<J
{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"jq -r .tool_input.command >> $POST"}]}]}}
J
fresh() { rm -rf "$ROOT"; mkdir -p "$ROOT/gone"; : >"$PRE"; : >"$POST"; }
hsrun() { # mode config agent-args...
	local mode=$1 conf=$2; shift 2
	(cd "$ROOT" && "$HOOKSHIM" run --"$mode" --no-notices -c "$conf" --root "$ROOT" -- "$@") \
		>"$TMP/out" 2>"$TMP/err"
}

# ---- a denied tool call reads as a failed command with its reason ----
for mode in enforce guard; do
	# guard mode leaves a dynamic shell to the shim in it: a static one
	# is the floor's there
	shell=/bin/sh; [ $mode = guard ] && shell=$TMP/bin/sh
	fresh
	SPAWN_SHELL=$shell hsrun $mode "$TMP/hooks.json" "$P" "rm -rf gone" "echo fine"
	check "floor spawned ($mode): the denied command did not run" test -d "$ROOT/gone"
	expect_contains "floor spawned ($mode): the agent reads the reason as the command's output" \
		"$(cat "$TMP/out")" "out: no rm -rf here|"
	expect_contains "floor spawned ($mode): ... and the command as killed" \
		"$(cat "$TMP/out")" "status: signal 9"
	expect_contains "floor spawned ($mode): the next command runs" \
		"$(cat "$TMP/out")" "out: fine|"
	expect_eq "floor spawned ($mode): the hook ran once per command" \
		"rm -rf gone|echo fine" "$(paste -sd'|' "$PRE")"
	# the agent's own process replacing itself: the errno, not a kill
	fresh
	SPAWN_SHELL=$shell hsrun $mode "$TMP/hooks.json" "$P" "exec:rm -rf gone"
	check "floor spawned ($mode): exec in place: not run" test -d "$ROOT/gone"
	expect_eq "floor spawned ($mode): exec in place: the agent lives on with EACCES" \
		"exec: failed: Permission denied" "$(cat "$TMP/out")"
	# a child of two threads is no plain spawn: the errno too
	fresh
	SPAWN_SHELL=$shell hsrun $mode "$TMP/hooks.json" "$P" "thread:rm -rf gone"
	check "floor spawned ($mode): two threads: not run" test -d "$ROOT/gone"
	expect_eq "floor spawned ($mode): two threads: the spawn fails with EACCES" \
		"spawn: failed: Permission denied" "$(cat "$TMP/out")"
	# a chain (env) that makes the exec in place after the agent's own
	# exec of it: no plain spawn either (its command line is env's)
	fresh
	SPAWN_SHELL=$shell SPAWN_ENV=/bin/busybox hsrun $mode "$TMP/hooks.json" "$P" "env:rm -rf gone"
	check "floor spawned ($mode): through env: not run" test -d "$ROOT/gone"
	expect_contains "floor spawned ($mode): through env: the reason, then env's own error" \
		"$(cat "$TMP/out")" "out: no rm -rf here|"
	expect_contains "floor spawned ($mode): through env: env fails with 126" \
		"$(cat "$TMP/out")" "status: exit 126"
done

# ---- a tool call's own shells are no tool calls of their own ----
# A dynamic shell a static agent starts judges itself (shim/init.c); the
# role it takes must reach what it forks and what it execs in place
# (a $(...), its last command), in enforce mode read by the floor from
# the initial environment -- also with no post hook, which would start
# it again under `hookshim __exec` anyway.
for mode in guard enforce; do
	for conf in pre-only hooks; do
		fresh
		SPAWN_SHELL=/bin/bash hsrun $mode "$TMP/$conf.json" "$P" \
			'x=$(sh -c "echo in"); echo $x; sh -c "echo last"'
		expect_eq "floor spawned ($mode, $conf): inner sh -c runs" "out: in|last|" "$(head -1 "$TMP/out")"
		expect_eq "floor spawned ($mode, $conf): one PreToolUse, for the model's command" \
			'x=$(sh -c "echo in"); echo $x; sh -c "echo last"' "$(cat "$PRE")"
	done
	expect_eq "floor spawned ($mode): one PostToolUse" \
		'x=$(sh -c "echo in"); echo $x; sh -c "echo last"' "$(cat "$POST")"
done

# ---- the agent's own shells: no hook, under their agent only ----
# Codex's snapshot check (config/agents.json), by a static program named
# codex, then a command of the model's
mkdir -p "$TMP/agent" "$HOME/.codex/shell_snapshots"
ln -s "$P" "$TMP/agent/codex"
ln -s "$P" "$TMP/agent/other"
snap=$HOME/.codex/shell_snapshots/s1.sh
echo 'true' >"$snap"
check_cmd="set -e; . \"$snap\""
# own_fires_none LABEL CONF: after a run of the snapshot check and
# `echo model`, only the model's command fired a hook
own_fires_none() {
	expect_contains "floor spawned ($1, $2): codex's shells run" "$(cat "$TMP/out")" "out: model|"
	[ "$2" = hooks ] && expect_eq "floor spawned ($1): codex's snapshot check fires no PreToolUse" \
		"echo model" "$(cat "$PRE")"
	expect_eq "floor spawned ($1, $2): ... and no PostToolUse" \
		"echo model" "$(cat "$POST")"
}
for mode in guard enforce; do
	for conf in hooks post-only; do
		fresh
		hsrun $mode "$TMP/$conf.json" "$TMP/agent/codex" "$check_cmd" "echo model"
		own_fires_none $mode $conf
	done
	# the same shell under a program of another name is a tool call
	fresh
	hsrun $mode "$TMP/hooks.json" "$TMP/agent/other" "$check_cmd"
	expect_eq "floor spawned ($mode): the same shell under another program is a tool call" \
		"$check_cmd" "$(cat "$PRE")"
	expect_eq "floor spawned ($mode): ... with its post" "$check_cmd" "$(cat "$POST")"
done

# ---- nested: the outer session's hooks do not fire for them either ----
# (the inner session asks the outer; only the inner knows who made the
# exec, docs/nested.md)
echo '{"hooks":{}}' >"$TMP/none.json"
for conf in hooks post-only; do
	fresh
	hsrun guard "$TMP/$conf.json" "$HOOKSHIM" run --no-notices -c "$TMP/none.json" -- \
		"$TMP/agent/codex" "$check_cmd" "echo model"
	own_fires_none nested $conf
done
