# Issue 23 item 1/3: when hookshim does not run as root, the floor can read
# a stopped caller only if the kernel lets it ptrace that process; one
# line (prctl(PR_SET_DUMPABLE, 0)) took a process out of its reach, and
# its notified writes went to the kernel unjudged. In enforce mode the
# agent now runs in a user namespace of its own that maps only the user's
# ids (floor/floor_userns.c): the supervisor, its owner one level up,
# reads every session process. Run as an unprivileged user (uid 12345,
# when the suite runs as root: not 65534, the overflow id every unmapped
# owner shows as): the non-dumpable write judged, the agent's view of
# itself, the settings, the kernel refusing a namespace, the floor's own
# opens still done for the agent's processes (the swap race) but never
# through another process's /proc links, and the receiver's stop signal
# out of the agent's reach.
. "$HOOKSHIM_TOP/tests/lib.sh"
ND=$HOOKSHIM_PROBES/floor_static_nodump
P=$HOOKSHIM_PROBES/floor_static_open
[ -x "$ND" ] && [ -x "$P" ] || { skip "agent userns: probes not built"; exit 0; }
"$HOOKSHIM" run --enforce -c /dev/null -- true 2>/dev/null ||
	{ skip "agent userns: no syscall floor on this machine"; exit 0; }
AS=()
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid=12345 --regid=12345 --clear-groups true 2>/dev/null ||
		{ skip "agent userns: setpriv cannot drop to uid 12345 here"; exit 0; }
	AS=(setpriv --reuid=12345 --regid=12345 --clear-groups)
elif [ "$(id -u)" = "$(cat /proc/sys/kernel/overflowuid)" ]; then
	skip "agent userns: running as the overflow uid (no namespace then)"; exit 0
fi
"${AS[@]}" unshare -U --map-current-user true 2>/dev/null ||
	{ skip "agent userns: no unprivileged user namespace here"; exit 0; }
uid=$("${AS[@]}" id -u)

W=$(mktemp -d /tmp/hookshim-userns.XXXXXX); chmod 755 "$W"
trap 'rm -rf "$TMP" "$W"' EXIT
cp "$ND" "$W/nodump"; cp "$P" "$W/open"; chmod 755 "$W/nodump" "$W/open"
pol() { # NAME SETTINGS
	printf '{"hookshim":{%s},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"echo secret is protected >&2; exit 2"},{"type":"command","if":"Write(aaaaaa/**)","command":"exit 0"}]}]}}\n' "$2" > "$W/$1.json"
	chmod 644 "$W/$1.json"
}
pol auto '"floor":"require"'
pol on '"floor":"require","floor_userns":"on"'
pol off '"floor":"require","floor_userns":"off"'
printf '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(d/**)","command":"exit 0"}]}]}}\n' > "$W/d.json"
chmod 644 "$W/d.json"
fresh() {
	rm -rf "$W/root"; mkdir -p "$W/root/secret" "$W/root/aaaaaa"
	echo keep > "$W/root/secret/f"; chmod -R a+rwX "$W/root"
}
# hs MODE POLICY CMD...: the agent's command as the user, in the root
hs() {
	local mode=$1 p=$2; shift 2
	(cd "$W/root" && timeout -k 5 120 "${AS[@]}" "$HOOKSHIM" run --$mode --no-notices \
		-c "$W/$p.json" -- "$@") 2>"$TMP/err"
}

# ---- enforce mode: the non-dumpable process is read, judged, denied ----
fresh
out=$(hs enforce auto "$W/nodump" secret/f)
expect_eq "enforce, not root: a non-dumpable process's unlink is judged and denied" "unlink=13" "$out"
check "... the file stays" test -f "$W/root/secret/f"
expect_contains "... and the hook's reason is said" "$(cat "$TMP/err")" "secret is protected"

# the agent's view: the same uid, one line of map, its files its own
fresh
out=$(hs enforce auto sh -c 'id -u; cat /proc/self/uid_map; echo x > mine')
expect_eq "enforce: inside, the agent is the same uid" "$uid" "$(echo "$out" | sed -n 1p)"
expect_eq "enforce: ... in a namespace mapping only that uid to itself" "$uid $uid 1" \
	"$(echo "$out" | sed -n 2p | tr -s ' ' | sed 's/^ //')"
expect_eq "enforce: ... and what it writes is the user's" "$uid" "$(stat -c %u "$W/root/mine")"

# ---- the settings ----
fresh
out=$(hs guard auto sh -c 'cat /proc/self/uid_map; exec "$0" secret/f' "$W/nodump")
check "guard mode (\"auto\"): no namespace of its own" \
	test "$(echo "$out" | sed -n 1p | tr -s ' ' | sed 's/^ //')" != "$uid $uid 1"
expect_eq "guard mode (\"auto\"): the documented limit shows (left to the kernel)" "unlink=0" \
	"$(echo "$out" | sed -n 2p)"
fresh
out=$(hs guard on "$W/nodump" secret/f)
expect_eq "guard mode, \"floor_userns\": \"on\": judged and denied" "unlink=13" "$out"
check "... the file stays" test -f "$W/root/secret/f"
fresh
out=$(hs enforce off "$W/nodump" secret/f)
expect_eq "enforce, \"floor_userns\": \"off\": the limit (docs/limits.md)" "unlink=0" "$out"

# the kernel refusing one (no user namespaces left to make): said, the
# session goes on with the limit. Lowered inside a namespace of our own,
# whose limit binds its children; whether that worked is asked first.
lowered() { # CMD...: run with user.max_user_namespaces 0 above it
	"${AS[@]}" unshare -U --map-current-user --keep-caps sh -c \
		'echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --inh-caps=-all --ambient-caps=-all "$@"' sh "$@"
}
if lowered unshare -U true 2>/dev/null || ! lowered true 2>/dev/null; then
	skip "agent userns: user.max_user_namespaces cannot be lowered here"
else
	fresh
	out=$(cd "$W/root" && lowered timeout -k 5 60 "$HOOKSHIM" run --enforce --no-notices \
		-c "$W/auto.json" -- "$W/nodump" secret/f 2>"$TMP/err")
	expect_contains "no namespace to be had: said, with the limit it leaves" "$(cat "$TMP/err")" \
		"no user namespace for the agent"
	expect_contains "... the limit named" "$(cat "$TMP/err")" \
		"has its calls left to the kernel, unjudged"
	expect_eq "... and the session runs on" "unlink=0" "$out"
fi

# ---- the floor's own opens hold for the agent's processes ----
# An open a hook judged is done by the supervisor (floor_opens "judged"),
# for a caller whose access is its own: the agent's namespace counts as
# ours. Without that the swap race lands (hundreds of 1,500). The two
# names are as long (8 bytes and the NUL): swapped whole, as
# floor_open_emulated.sh's are; a name the swap leaves half-made is one no
# hook watches, the documented limit of "judged" (docs/limits.md).
fresh
hs enforce auto "$W/open" race-mem:aaaaaa/x:secret/x:1500 >"$TMP/out"
note "memory swap as uid $uid: $(cat "$TMP/out"), $(cat "$W/root/aaaaaa/x" 2>/dev/null | wc -c) landed in aaaaaa/"
expect_contains "the race ran (the agent started, its opens worked)" "$(cat "$TMP/out")" "race-mem: "
check "... and wrote where the hook allows" test -s "$W/root/aaaaaa/x"
expect_eq "a thread swapping the path bytes lands nothing in secret/ (1,500 opens)" 0 \
	"$(cat "$W/root/secret/x" 2>/dev/null | wc -c | tr -d ' ')"

# ... but not through another process's directory: a process of the
# user outside the session, its cwd in d/; the agent cannot go through
# /proc/PID/cwd itself (no ptrace across the namespace), and an open a
# hook allowed there must not be done for it by the supervisor.
fresh; mkdir -p "$W/root/d"; chmod 777 "$W/root/d"
(cd "$W/root/d" && exec "${AS[@]}" sleep 30) & outside=$!
for i in $(seq 50); do [ "$(readlink /proc/$outside/cwd 2>/dev/null)" = "$W/root/d" ] && break; sleep 0.05; done
BB=$(command -v busybox || true)
if [ -n "$BB" ] && file -L "$BB" | grep -q 'statically linked'; then
	out=$(hs enforce d "$BB" sh -c "echo x > /proc/$outside/cwd/x; echo rc=\$?; echo y > d/y; echo own=\$?")
	expect_contains "through another process's /proc/PID/cwd: refused as the kernel refuses the agent" "$out" "rc=1"
	expect_contains "... with the kernel's error (EACCES), not a hook's denial" "$(cat "$TMP/err")" "Permission denied"
	check "... nothing written there" test ! -e "$W/root/d/x"
	expect_contains "... while the same hook lets the agent's own write through" "$out" "own=0"
else
	skip "agent userns: busybox-static not installed"
fi
kill $outside 2>/dev/null; wait $outside 2>/dev/null

# ... and through a process of the session's own (a child whose cwd is
# aaaaaa/), the supervisor opens it: with "floor_opens": "all" a thread
# swapping the bytes for a denied name of the same length lands nothing
# (had it gone back to the kernel, which reads the path again, it would)
fresh
printf '{"hookshim":{"floor":"require","floor_opens":"all"},"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","if":"Write(secret/**)","command":"exit 2"}]}]}}\n' > "$W/all.json"
chmod 644 "$W/all.json"
out=$(hs enforce all sh -c '(cd aaaaaa && exec sleep 30) & c=$!; sleep 0.2
a=/proc/$c/cwd/x; b=secret/$(printf "%*s" $((${#a} - 7)) "" | tr " " x)
"$0" race-mem:$a:$b:1500; kill $c' "$W/open")
note "memory swap through /proc/CHILD/cwd: $out, $(cat "$W/root/aaaaaa/x" 2>/dev/null | wc -c) landed in aaaaaa/"
check "through the session's own /proc/CHILD/cwd: the race ran" test -s "$W/root/aaaaaa/x"
expect_eq "... and nothing landed in secret/" "" "$(ls -A "$W/root/secret" | grep -v '^f$')"

# a non-dumpable process going through its own /proc/PID/cwd: the kernel
# lets a process through its own /proc always, and so does the
# supervisor's open for it ("all": every open is the supervisor's)
fresh
out=$(hs enforce all "$W/nodump" --create-own aaaaaa/own)
expect_eq "a non-dumpable process creates through its own /proc/PID/cwd" "create=0" "$out"
check "... the file is there" test -e "$W/root/aaaaaa/own"

# a staged write (a content hook reads what is written) keeps the
# file's group, one of the user's supplementary groups, which the
# namespace does not map (it shows as 65534 inside)
if [ "$(id -u)" = 0 ]; then
	fresh; mkdir -p "$W/root/g"; echo old > "$W/root/g/f"
	chown 12345:12346 "$W/root/g" "$W/root/g/f"; chmod 775 "$W/root/g"; chmod 664 "$W/root/g/f"
	printf 'import json, sys\nc = json.load(sys.stdin).get("tool_input", {}).get("content", "")\nsys.exit(2 if "AKIA" in c else 0)\n' > "$W/scan.py"
	chmod 644 "$W/scan.py"
	printf '{"hooks":{"PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"python3 %s"}]}]}}\n' "$W/scan.py" > "$W/scan.json"
	chmod 644 "$W/scan.json"
	out=$(cd "$W/root" && timeout -k 5 60 setpriv --reuid=12345 --regid=12345 --groups=12346 \
		"$HOOKSHIM" run --enforce --no-notices -c "$W/scan.json" -- \
		python3 -c 'import os; open("g/f", "w").write("new\n"); print(os.stat("g/f").st_gid)' 2>"$TMP/err")
	expect_eq "a staged write: the content is the new one" "new" "$(cat "$W/root/g/f")"
	expect_eq "... the file keeps its group (seen outside)" 12346 "$(stat -c %g "$W/root/g/f")"
	note "inside, the group showed as $out"
fi

# the receiver's stop signal (floor.c) sent to the supervisor's process
# group, which the agent shares: refused, the session goes on
fresh
out=$(hs enforce auto bash -c 'kill -s RTMIN+2 0; echo rc=$?; echo after')
expect_contains "the floor's stop signal to the supervisor's group is refused" "$out" "rc=1"
expect_contains "... and the session goes on" "$out" "after"

# ---- check and doctor say it; a bad value is an error at its place ----
out=$(cd "$W/root" && "${AS[@]}" "$HOOKSHIM" check -c "$W/auto.json" 2>&1)
expect_contains "check: the agent's namespace in enforce mode" "$out" \
	"the agent runs in a user namespace of its own in enforce mode"
out=$(cd "$W/root" && "${AS[@]}" "$HOOKSHIM" doctor 2>&1)
expect_contains "doctor: the namespace row, available" "$out" "ok  agent user namespace"
echo '{"hookshim":{"floor_userns":"maybe"},"hooks":{}}' >"$TMP/bad.json"
"$HOOKSHIM" check -c "$TMP/bad.json" >"$TMP/out" 2>&1
expect_contains "floor_userns: a bad value is an error naming the choices" "$(cat "$TMP/out")" \
	'bad.json:1:14: hookshim.floor_userns must be "auto", "on" or "off"'
