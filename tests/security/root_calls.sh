# Issue 23 item 6: root inside the session. Under the floor, the calls that
# change what a path means (mount and the new mount API, pivot_root,
# chroot, a mount, user or cgroup namespace) or reach files and the kernel
# below every path check (open_by_handle_at, bpf, modules, userfaultfd, a block
# device or /proc/sys, /sys opened for writing, acct and swapon, whose file
# the kernel writes) are refused with EPERM, the
# reason and the "floor_allow" group that allows them on the caller's
# stderr, a denial in the log and in CI mode's summary; the protected file
# is untouched. Each is first made plainly (it works without hookshim, so
# every case can fail), then under `hookshim run` with a Write hook, then
# with its group allowed, where it behaves as plain. As root, and as an
# unprivileged user (setpriv) for what one can do. And SIGTERM ends a
# session whose floor is held on a userfaultfd page (allowed) within 2 s.
# lane: alone -- SIGTERM ends a stalled session within 2 s
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
P=$HOOKSHIM_PROBES/floor_static_rootcalls
[ -x "$HOOKSHIM" ] || { skip "root calls: no hookshim build"; exit 0; }
[ -x "$P" ] || { skip "root calls: probes not built"; exit 0; }
command -v jq >/dev/null || { skip "root calls: jq missing"; exit 0; }
[ "$(id -u)" = 0 ] || { skip "root calls: needs root (CI runs as root)"; exit 0; }
chmod 755 "$TMP"
ALL='"mount", "chroot", "namespaces", "open_by_handle", "bpf", "modules", "userfaultfd", "block_devices", "proc_sys", "landlock", "kernel_files", "process_image", "fanotify", "cgroups", "outside_processes"'
policy() { # file, floor_allow list
	cat >"$1" <<J
{"hookshim":{"floor":"require","floor_allow":[$2]},"hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command",
  "if":"Write(secrets/**)","command":"echo 'secrets are protected' >&2; exit 2"}]}]}}
J
	chmod 644 "$1"
}
policy "$TMP/deny.json" ''
policy "$TMP/all.json" "$ALL"
policy "$TMP/mount.json" '"mount"'
# a name that is no group is a config error at that name, listing the groups
echo '{"hookshim":{"floor_allow":["mount", "namespace"]},"hooks":{}}' >"$TMP/bad.json"
"$HOOKSHIM" check -c "$TMP/bad.json" >"$TMP/out" 2>&1; rc=$?
check "floor_allow: an unknown name fails check" test "$rc" != 0
expect_contains "floor_allow: ... an error at its line and column, naming the groups" "$(cat "$TMP/out")" \
	'bad.json:1:38: hookshim.floor_allow[1] is not one of "mount", "chroot", "namespaces", "open_by_handle", "bpf", "modules", "userfaultfd", "block_devices", "proc_sys", "landlock", "kernel_files", "process_image", "fanotify", "cgroups", "outside_processes" (ignored)'
echo '{"hookshim":{"floor_allow":"mount"},"hooks":{}}' >"$TMP/bad.json"
expect_contains "floor_allow: not a list: an error" "$("$HOOKSHIM" check -c "$TMP/bad.json" 2>&1)" \
	'bad.json:1:14: hookshim.floor_allow must be an array of names'
policy "$TMP/two.json" '"mount", "namespaces"'
expect_contains "floor_allow: check lists what is refused and what is allowed" \
	"$("$HOOKSHIM" check -c "$TMP/two.json" 2>&1)" \
	"refused (EPERM, with the reason): mount (allowed by floor_allow), chroot, namespaces (allowed by floor_allow), open_by_handle, bpf, modules, userfaultfd, block_devices, proc_sys"
if ! "$HOOKSHIM" run -c "$TMP/deny.json" -- /bin/true 2>"$TMP/require.err"; then
	skip "root calls: no syscall floor here ($(head -1 "$TMP/require.err"))"; exit 0
fi
ROOT=$TMP/root
mkdir -p "$ROOT/secrets" "$ROOT/alias"
chmod -R 777 "$ROOT"
fresh() { echo keep >"$ROOT/secrets/k"; chmod 666 "$ROOT/secrets/k"; rm -f "$ROOT/alias/k"; : >"$TMP/log.jsonl"; chmod 666 "$TMP/log.jsonl"; }
khash() { sha256sum <"$ROOT/secrets/k"; }
KEEP=$(echo keep | sha256sum)
# hs POLICY CMD...: under hookshim run in ROOT, as whoever runs it: $TMP/out, $TMP/err, rc
hs() {
	local pol=$1; shift
	(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --no-notices -c "$pol" --root "$ROOT" \
		--log "$TMP/log.jsonl" -- "$@") >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
logged() { # the log's refusal records: "operation decision" per line
	echo -n '|'
	jq -r 'select(.op == "syscall") | "\(.operation) \(.decision)"' "$TMP/log.jsonl" | sort -u | tr '\n' '|'
}

# ---- each call, harmless arguments (a missing path, a bad descriptor) ----
# probe's name : the syscall the floor names : its group
CALLS="mount:mount:mount umount2:umount2:mount pivot_root:pivot_root:mount
open_tree:open_tree:mount move_mount:move_mount:mount fsopen:fsopen:mount
fsconfig:fsconfig:mount fsmount:fsmount:mount fspick:fspick:mount
mount_setattr:mount_setattr:mount chroot:chroot:chroot
unshare_mnt:unshare:namespaces unshare_user:unshare:namespaces
unshare_cgroup:unshare:namespaces unshare_pid:unshare:namespaces
clone_mnt:clone:namespaces clone_parent:clone:namespaces
clone_user:clone:namespaces clone_cgroup:clone:namespaces
setns_any:setns:namespaces setns_mnt:setns:namespaces
setns_cgroup:setns:namespaces
open_by_handle_at:open_by_handle_at:open_by_handle bpf:bpf:bpf
init_module:init_module:modules finit_module:finit_module:modules
delete_module:delete_module:modules kexec_load:kexec_load:modules
kexec_file_load:kexec_file_load:modules userfaultfd:userfaultfd:userfaultfd
acct:acct:kernel_files swapon:swapon:kernel_files
fanotify_init:fanotify_init:fanotify"
NAMES=$(for c in $CALLS; do echo "${c%%:*}"; done)
# not refused: no mount, user, cgroup or PID namespace, plain clone,
# threads
FREE="unshare_net clone_plain setns_net thread"
line() { grep "^$1 " "$2"; }

calls_as() { # who ("root" or "nobody"), runner prefix...
	local who=$1; shift
	fresh
	"$@" "$P" call $NAMES $FREE clone3_mnt >"$TMP/plain.out" 2>&1
	hs "$TMP/deny.json" "$@" "$P" call $NAMES $FREE clone3_mnt
	cp "$TMP/out" "$TMP/deny.out"; cp "$TMP/err" "$TMP/deny.err"; denylog=$(logged)
	hs "$TMP/all.json" "$@" "$P" call $NAMES $FREE clone3_mnt
	cp "$TMP/out" "$TMP/all.out"; cp "$TMP/err" "$TMP/all.err"
	for c in $CALLS; do
		local n=${c%%:*} rest=${c#*:}
		local sc=${rest%%:*} g=${rest#*:}
		local plain; plain=$(line "$n" "$TMP/plain.out")
		if [ "$plain" = "$n errno=EPERM" ]; then
			# the kernel refuses it too (no capability): only the
			# floor's words tell the two apart
			expect_contains "$who: $n: refused with the reason (the kernel's EPERM too)" \
				"$(cat "$TMP/deny.err")" "hookshim: $sc denied: "
			continue
		fi
		expect_eq "$who: $n: refused" "$n errno=EPERM" "$(line "$n" "$TMP/deny.out")"
		expect_contains "$who: $n: ... the reason names the setting" "$(cat "$TMP/deny.err")" \
			"hookshim: $sc denied: "
		expect_contains "$who: $n: ... group $g" "$(grep "hookshim: $sc denied: " "$TMP/deny.err")" \
			"(allow with \"hookshim\": {\"floor_allow\": [\"$g\"]}"
		expect_contains "$who: $n: ... a denial in the log" "$denylog" "|$sc deny|"
		expect_eq "$who: $n: allowed, as plain" "$plain" "$(line "$n" "$TMP/all.out")"
	done
	for n in $FREE; do
		expect_eq "$who: $n: not refused, as plain" "$(line "$n" "$TMP/plain.out")" \
			"$(line "$n" "$TMP/deny.out")"
	done
	# clone3 keeps its flags where BPF cannot read them: ENOSYS, and
	# libc falls back to clone (threads above), whose flags it reads
	expect_eq "$who: clone3: ENOSYS by default" "clone3_mnt errno=ENOSYS" "$(line clone3_mnt "$TMP/deny.out")"
	expect_eq "$who: clone3: with namespaces allowed, as plain" "$(line clone3_mnt "$TMP/plain.out")" \
		"$(line clone3_mnt "$TMP/all.out")"
	expect_not_contains "$who: nothing refused with everything allowed" "$(cat "$TMP/all.err")" "denied"
}

calls_as root
note "root, plain: $(tr '\n' ' ' <"$TMP/plain.out")"

# ---- process_image: refused in enforce mode, whose roles it serves ----
# prctl(PR_SET_MM) (no privilege needed for PR_SET_MM_MAP) and
# personality(ADDR_NO_RANDOMIZE) move or fix where an image is, by which
# enforce mode tells a command's process from one that only says it is
# (floor/floor_lineage.c); prctl(PR_SET_CHILD_SUBREAPER) would take the
# orphans below the caller that are the supervisor's (floor_orphans.c);
# guard mode lets them through as it does landlock. Giving orphans up is
# not refused. As root and as nobody.
IMG="prctl_mm personality_norand prctl_subreaper prctl_name personality_query prctl_subreaper_off"
img_as() { # who, runner prefix...
	local who=$1 m n plain
	shift
	"$@" "$P" call $IMG >"$TMP/plain.out" 2>&1
	for m in enforce guard; do
		: >"$TMP/log.jsonl"; chmod 666 "$TMP/log.jsonl"
		(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --$m --no-notices -c "$TMP/deny.json" --root "$ROOT" \
			--log "$TMP/log.jsonl" -- "$P" call $IMG) \
			>"$TMP/$m.out" 2>"$TMP/$m.err"
	done
	for n in prctl_mm personality_norand prctl_subreaper; do
		plain=$(line "$n" "$TMP/plain.out")
		expect_eq "$who: $n: plain, the kernel lets it through" "$n ok" "$plain"
		expect_eq "$who: $n: refused in enforce mode" "$n errno=EPERM" "$(line "$n" "$TMP/enforce.out")"
		expect_eq "$who: $n: guard mode, as plain" "$plain" "$(line "$n" "$TMP/guard.out")"
	done
	expect_contains "$who: ... said, naming the group" "$(cat "$TMP/enforce.err")" \
		'hookshim: personality denied: moves what the kernel shows of a process'"'"'s image'
	expect_contains "$who: ... the prctl too" "$(cat "$TMP/enforce.err")" "hookshim: prctl denied: "
	expect_contains "$who: ... allow with process_image" "$(cat "$TMP/enforce.err")" '["process_image"]'
	expect_contains "$who: ... the orphans' reason" "$(cat "$TMP/enforce.err")" \
		"or takes orphans: what says what, and whose, a process is (allow with"
	for n in prctl_name personality_query prctl_subreaper_off; do
		expect_eq "$who: $n: not refused in enforce mode, as plain" "$(line "$n" "$TMP/plain.out")" \
			"$(line "$n" "$TMP/enforce.out")"
	done
	(cd "$ROOT" && timeout 60 "$@" "$HOOKSHIM" run --enforce --no-notices -c "$TMP/all.json" --root "$ROOT" \
		-- "$P" call prctl_mm personality_norand prctl_subreaper) >"$TMP/eall.out" 2>/dev/null
	expect_eq "$who: allowed by floor_allow in enforce mode, as plain" \
		"$(grep -E '^(prctl_mm|personality_norand|prctl_subreaper) ' "$TMP/plain.out")" "$(cat "$TMP/eall.out")"
}
img_as root
sed 's/"floor":"require"/"floor":"require","mode":"enforce"/' "$TMP/deny.json" >"$TMP/deny-enf.json"
expect_contains "check: process_image refused in enforce mode" \
	"$("$HOOKSHIM" check -c "$TMP/deny-enf.json" 2>&1)" "kernel_files, process_image"
sed 's/"floor":"require",//' "$TMP/deny.json" >"$TMP/deny-guard.json"
expect_contains "check: ... allowed in guard mode" \
	"$("$HOOKSHIM" check -c "$TMP/deny-guard.json" 2>&1)" "process_image (allowed in guard mode)"

# one group allowed lets that group alone through
fresh
"$P" call mount fsopen chroot unshare_mnt >"$TMP/plain.out"
hs "$TMP/mount.json" "$P" call mount fsopen chroot unshare_mnt
expect_eq "\"mount\" alone: mount as plain" "$(line mount "$TMP/plain.out")" "$(line mount "$TMP/out")"
expect_eq "\"mount\" alone: fsopen as plain" "$(line fsopen "$TMP/plain.out")" "$(line fsopen "$TMP/out")"
expect_eq "\"mount\" alone: chroot still refused" "chroot errno=EPERM" "$(line chroot "$TMP/out")"
expect_eq "\"mount\" alone: a mount namespace still refused" "unshare_mnt errno=EPERM" "$(line unshare_mnt "$TMP/out")"

# CI mode's summary lists the refusal as a denial
fresh
(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --ci -c "$TMP/deny.json" --root "$ROOT" -- "$P" call mount) >"$TMP/out" 2>"$TMP/err"
expect_contains "CI summary: counted as denied" "$(cat "$TMP/err")" "1 tool event, 0 allowed, 1 denied"
expect_contains "CI summary: the refusal listed with its reason" "$(cat "$TMP/err")" \
	"syscall    DENY  mount"

# ---- what they would do: the protected file, through another name ----
# bind mount in a mount namespace of the probe's own (as root: no user
# namespace; the mount dies with it)
fresh
"$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind >/dev/null 2>&1
check "root: bind alias, plain: the write lands in secrets/k" grep -q via-bind "$ROOT/secrets/k"
fresh
hs "$TMP/deny.json" "$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind
expect_eq "root: bind alias: secrets/k untouched" "$KEEP" "$(khash)"
expect_contains "root: bind alias: the namespace refused, said" "$(cat "$TMP/err")" "hookshim: unshare denied: "
fresh
hs "$TMP/all.json" "$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind
check "root: bind alias, allowed: lands as plain (the documented limit)" grep -q via-bind "$ROOT/secrets/k"

# util-linux's mount --bind and a shell's write through it, the session
# itself in a private mount namespace of the test's
fresh
unshare -m --propagation private sh -c "mount --bind '$ROOT/secrets' '$ROOT/alias' && echo via-mount >> '$ROOT/alias/k'"
check "root: mount --bind, plain: the write lands in secrets/k" grep -q via-mount "$ROOT/secrets/k"
fresh
fresh
unshare -m --propagation private "$HOOKSHIM" run -c "$TMP/deny.json" --root "$ROOT" -- \
	bash -c "mount --bind '$ROOT/secrets' '$ROOT/alias'; echo via-mount >> '$ROOT/alias/k'" >"$TMP/out" 2>"$TMP/err"
expect_eq "root: mount --bind in a session: secrets/k untouched" "$KEEP" "$(khash)"
expect_contains "root: mount --bind: refused, said" "$(cat "$TMP/err")" \
	'hookshim: mount denied: changes what paths mean inside the session (allow with "hookshim": {"floor_allow": ["mount"]})'
fresh
unshare -m --propagation private "$HOOKSHIM" run -c "$TMP/mount.json" --root "$ROOT" -- \
	bash -c "mount --bind '$ROOT/secrets' '$ROOT/alias'; echo via-mount >> '$ROOT/alias/k'" >"$TMP/out" 2>"$TMP/err"
check "root: mount --bind, allowed: lands as plain (the documented limit)" grep -q via-mount "$ROOT/secrets/k"

# chroot into secrets/: "/k" is no name a hook matches
fresh
"$P" chrootwrite "$ROOT/secrets" k via-chroot >/dev/null
check "root: chroot, plain: the write lands in secrets/k" grep -q via-chroot "$ROOT/secrets/k"
fresh
hs "$TMP/deny.json" "$P" chrootwrite "$ROOT/secrets" k via-chroot
expect_eq "root: chroot: secrets/k untouched" "$KEEP" "$(khash)"
expect_contains "root: chroot: refused, said" "$(cat "$TMP/err")" "hookshim: chroot denied: "
fresh
hs "$TMP/all.json" "$P" chrootwrite "$ROOT/secrets" k via-chroot
check "root: chroot, allowed: lands as plain" grep -q via-chroot "$ROOT/secrets/k"
# coreutils' chroot
chroot / /bin/true; plain=$?
hs "$TMP/deny.json" chroot / /bin/true
expect_eq "root: chroot(1): plain works" 0 "$plain"
check "root: chroot(1): refused" test "$rc" != 0
expect_contains "root: chroot(1): ... said" "$(cat "$TMP/err")" "hookshim: chroot denied: "
hs "$TMP/all.json" chroot / /bin/true
expect_eq "root: chroot(1): allowed, as plain" 0 "$rc"

# a file by its handle: no name at all
fresh
"$P" handlewrite "$ROOT/secrets/k" via-handle >/dev/null
check "root: open_by_handle_at, plain: the write lands in secrets/k" grep -q via-handle "$ROOT/secrets/k"
fresh
hs "$TMP/deny.json" "$P" handlewrite "$ROOT/secrets/k" via-handle
expect_eq "root: open_by_handle_at: secrets/k untouched" "$KEEP" "$(khash)"
expect_contains "root: open_by_handle_at: refused, said" "$(cat "$TMP/err")" "hookshim: open_by_handle_at denied: "
fresh
hs "$TMP/all.json" "$P" handlewrite "$ROOT/secrets/k" via-handle
check "root: open_by_handle_at, allowed: lands as plain" grep -q via-handle "$ROOT/secrets/k"

# fanotify: an event's descriptor is the watched file opened as the group
# asked (O_RDWR), after a read of it that nothing judges: secrets/k
# appended to with no open for writing (session 37's attack run)
fresh
"$P" fanowrite "$ROOT/secrets/k" via-fanotify >/dev/null
check "root: fanotify, plain: the write lands in secrets/k" grep -q via-fanotify "$ROOT/secrets/k"
for m in guard enforce; do
	fresh
	(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --$m --no-notices -c "$TMP/deny.json" --root "$ROOT" -- \
		"$P" fanowrite "$ROOT/secrets/k" via-fanotify) >"$TMP/out" 2>"$TMP/err"
	expect_eq "root, $m: fanotify: secrets/k untouched" "$KEEP" "$(khash)"
	expect_contains "root, $m: fanotify: refused, said" "$(cat "$TMP/err")" \
		'hookshim: fanotify_init denied: hands over the files it watches opened as it asks'
done
fresh
hs "$TMP/all.json" "$P" fanowrite "$ROOT/secrets/k" via-fanotify
check "root: fanotify, allowed: lands as plain" grep -q via-fanotify "$ROOT/secrets/k"

# a cgroup's files: a process written to cgroup.procs is moved (the
# supervisor, into a freezer cgroup then frozen: the session never ended,
# SIGKILL neither), and v1's release_agent names a program the kernel
# runs as root outside the session when a cgroup empties (it wrote
# secrets/ and ran rm -rf, no hook asked: session 37's attack run).
# Opened for writing: refused in both modes; reads are not. The probe
# moves itself into a cgroup of the test's, and writes release_agent's
# own value back (plainly both work).
CG1=$(awk '$3 == "cgroup" { print $2; exit }' /proc/self/mounts)
if [ -n "$CG1" ] && [ -w "$CG1" ] && mkdir -p "$CG1/hookshim-test-$$"; then
	CGT=$CG1/hookshim-test-$$
	ra=$(cat "$CG1/release_agent" 2>/dev/null)
	"$P" openwrite "$CGT/cgroup.procs" 0 >"$TMP/plain.out" 2>&1
	expect_contains "root: cgroup.procs, plain: the write works" "$(cat "$TMP/plain.out")" "write ok"
	"$P" openwrite "$CG1/release_agent" "$ra" >"$TMP/plain.out" 2>&1
	expect_contains "root: release_agent, plain: opened for writing" "$(cat "$TMP/plain.out")" "open ok"
	for m in guard enforce; do
		fresh
		(cd "$ROOT" && timeout 60 "$HOOKSHIM" run --$m --no-notices -c "$TMP/deny.json" --root "$ROOT" -- \
			sh -c "'$P' openwrite '$CGT/cgroup.procs' 0; '$P' openwrite '$CG1/release_agent' '$ra';
			echo \$\$ > '$CGT/cgroup.procs' && echo shell-moved; cat '$CGT/cgroup.procs' >/dev/null && echo read-ok") \
			>"$TMP/out" 2>"$TMP/err"
		expect_eq "root, $m: cgroup.procs and release_agent refused (static), a shell's too; reads not" \
			"open errno=EPERM|open errno=EPERM|read-ok|" "$(tr '\n' '|' <"$TMP/out")"
		expect_contains "root, $m: ... said, naming the group" "$(cat "$TMP/err")" \
			"a cgroup's file: it moves processes (the supervisor and its hooks too)"
		expect_contains "root, $m: ... allow with cgroups" "$(cat "$TMP/err")" '["cgroups"]'
	done
	hs "$TMP/all.json" sh -c "'$P' openwrite '$CGT/cgroup.procs' 0; '$P' openwrite '$CG1/release_agent' '$ra'"
	expect_eq "root: cgroups allowed: both as plain" "open ok|write ok|open ok|write ok|" "$(tr '\n' '|' <"$TMP/out")"
	expect_eq "root: release_agent as it was" "$ra" "$(cat "$CG1/release_agent")"
	rmdir "$CGT" 2>/dev/null
else
	skip "root: cgroup files: no writable cgroup v1 hierarchy"
fi

# process accounting into secrets/k: the kernel appends a record of each
# process that ends (acct(2), root's; allowed until session 28)
if [ -e /proc/sys/kernel/acct ]; then
	fresh
	"$P" acctwrite "$ROOT/secrets/k" >"$TMP/plain.out" 2>&1
	if [ "$(khash)" = "$KEEP" ]; then
		skip "root: acct: plainly no record was written here ($(tr '\n' ' ' <"$TMP/plain.out"))"
	else
		fresh
		hs "$TMP/deny.json" "$P" acctwrite "$ROOT/secrets/k"
		expect_eq "root: acct: secrets/k untouched" "$KEEP" "$(khash)"
		expect_eq "root: acct: refused" "acct errno=EPERM" "$(head -1 "$TMP/out")"
		expect_contains "root: acct: ... said, with its group" "$(cat "$TMP/err")" \
			'hookshim: acct denied: has the kernel write the file it names, below every path check (allow with "hookshim": {"floor_allow": ["kernel_files"]})'
		fresh
		hs "$TMP/all.json" "$P" acctwrite "$ROOT/secrets/k"
		check "root: acct, allowed: a record lands as plain" test "$(khash)" != "$KEEP"
	fi
else
	skip "root: acct: no process accounting in this kernel"
fi

# a block device: a loop device on a file of the test's
head -c 65536 /dev/zero >"$TMP/disk.img"
if LOOP=$(losetup -f --show "$TMP/disk.img" 2>/dev/null); then
	zero=$(sha256sum <"$TMP/disk.img")
	"$P" openwrite "$LOOP" via-block >/dev/null
	check "root: block device, plain: the write lands" grep -q via-block "$TMP/disk.img"
	head -c 65536 /dev/zero | dd of="$LOOP" conv=fsync status=none
	hs "$TMP/deny.json" "$P" openwrite "$LOOP" via-block
	expect_eq "root: block device (static): refused" "open errno=EPERM" "$(cat "$TMP/out")"
	expect_contains "root: block device: ... said" "$(cat "$TMP/err")" \
		"hookshim: write to $LOOP denied: a block device, below every file's path check (allow with \"hookshim\": {\"floor_allow\": [\"block_devices\"]})"
	hs "$TMP/deny.json" bash -c "echo via-block-sh > $LOOP"
	expect_contains "root: block device (bash, through the shim): refused" "$(cat "$TMP/err")" \
		"hookshim: write to $LOOP denied: "
	expect_eq "root: block device: the disk untouched" "$zero" "$(sha256sum <"$TMP/disk.img")"
	# a node of its own, opened O_PATH and unlinked: a descriptor with
	# no name, reopened for writing through /proc/self/fd
	read -r maj min < <(stat -c '%t %T' "$LOOP")
	mknod "$TMP/blk" b $((16#$maj)) $((16#$min))
	hs "$TMP/deny.json" "$P" fdwrite "$TMP/blk" via-fd
	expect_eq "root: block device by an unlinked node's descriptor: refused" \
		"open_path ok|unlink ok|open errno=EPERM|" "$(tr '\n' '|' <"$TMP/out")"
	expect_contains "root: ... said" "$(cat "$TMP/err")" "hookshim: write to $TMP/blk (deleted) denied: a block device"
	expect_eq "root: block device: the disk still untouched" "$zero" "$(sha256sum <"$TMP/disk.img")"
	mknod "$TMP/blk" b $((16#$maj)) $((16#$min))
	"$P" fdwrite "$TMP/blk" via-fd >/dev/null
	check "root: ... plainly, that write lands" grep -q via-fd "$TMP/disk.img"
	hs "$TMP/all.json" "$P" openwrite "$LOOP" via-block
	check "root: block device, allowed: lands as plain" grep -q via-block "$TMP/disk.img"
	losetup -d "$LOOP"
else
	skip "root calls: block device: no loop device here"
fi

# the kernel's settings: /proc/sys and /sys, by a static program and by bash
PS=/proc/sys/kernel/printk_ratelimit
if v=$(cat $PS 2>/dev/null) && echo "$v" >$PS 2>/dev/null; then
	hs "$TMP/deny.json" "$P" openwrite $PS "$((v + 1))"
	expect_eq "root: /proc/sys (static): refused" "open errno=EPERM" "$(cat "$TMP/out")"
	expect_contains "root: /proc/sys: ... said" "$(cat "$TMP/err")" \
		"hookshim: write to $PS denied: changes the kernel's own settings (allow with \"hookshim\": {\"floor_allow\": [\"proc_sys\"]})"
	hs "$TMP/deny.json" bash -c "echo $((v + 1)) > $PS"
	expect_contains "root: /proc/sys (bash, through the shim): refused" "$(cat "$TMP/err")" "hookshim: write to $PS denied: "
	expect_eq "root: /proc/sys: the setting unchanged" "$v" "$(cat $PS)"
	hs "$TMP/all.json" bash -c "echo $((v + 1)) > $PS"
	expect_eq "root: /proc/sys, allowed: written as plain" "$((v + 1))" "$(cat $PS)"
	echo "$v" >$PS
	# /proc/sysrq-trigger: only opened (no key written)
	if [ -e /proc/sysrq-trigger ]; then
		hs "$TMP/deny.json" "$P" openwrite /proc/sysrq-trigger
		expect_eq "root: /proc/sysrq-trigger: refused" "open errno=EPERM" "$(cat "$TMP/out")"
		expect_contains "root: ... said" "$(cat "$TMP/err")" \
			"hookshim: write to /proc/sysrq-trigger denied: changes the kernel's own settings"
	else
		skip "root calls: no /proc/sysrq-trigger in this kernel"
	fi
	hs "$TMP/deny.json" "$P" openwrite /proc/self/comm
	expect_eq "root: a process's own /proc/self/comm: not refused" "open ok" "$(cat "$TMP/out")"
	hs "$TMP/deny.json" bash -c "cat $PS >/dev/null; echo x > /dev/null"
	expect_eq "root: reading /proc/sys, writing /dev/null: not refused" "0 " "$rc $(cat "$TMP/err")"
else
	skip "root calls: $PS not writable here"
fi
SY=/sys/module/printk/parameters/time
if v=$(cat $SY 2>/dev/null) && echo "$v" >$SY 2>/dev/null; then
	other=N; [ "$v" = N ] && other=Y
	hs "$TMP/deny.json" bash -c "echo $other > $SY"
	expect_contains "root: /sys: refused, said" "$(cat "$TMP/err")" "hookshim: write to $SY denied: "
	expect_eq "root: /sys: unchanged" "$v" "$(cat $SY)"
	hs "$TMP/all.json" bash -c "echo $other > $SY"
	expect_eq "root: /sys, allowed: written as plain" "$other" "$(cat $SY)"
	echo "$v" >$SY
else
	skip "root calls: $SY not writable here"
fi

# /dev/userfaultfd: its open by name goes to the floor; a relative name
# stays the shim's (cookied), and the descriptor's USERFAULTFD_IOC_NEW is
# refused by number
if [ -c /dev/userfaultfd ]; then
	UF='import fcntl, os
fd = os.open("userfaultfd", os.O_RDWR)
try:
    os.close(fcntl.ioctl(fd, 0xAA00, 0)); print("ioctl ok")
except OSError as e:
    print("ioctl errno", e.errno)'
	(cd /dev && python3 -c "$UF") >"$TMP/plain.out" 2>&1
	expect_eq "root: /dev/userfaultfd, plain: works" "ioctl ok" "$(cat "$TMP/plain.out")"
	hs "$TMP/deny.json" bash -c "cd /dev && python3 -c '$UF'"
	# refused at its ioctl, or already at the open when the shim hands
	# the open to the floor (a relative name it cannot place)
	check "root: /dev/userfaultfd (python): no descriptor made" test "$(cat "$TMP/out")" != "ioctl ok"
	expect_contains "root: ... said" "$(cat "$TMP/err")" \
		"denied: could hold the floor's reading of a caller's memory"
	hs "$TMP/deny.json" "$P" call uffd_dev
	expect_eq "root: /dev/userfaultfd opened by name (static): refused" "uffd_dev errno=EPERM" "$(cat "$TMP/out")"
	expect_contains "root: ... said" "$(cat "$TMP/err")" "hookshim: write to /dev/userfaultfd denied: "
	hs "$TMP/all.json" bash -c "cd /dev && python3 -c '$UF'"
	expect_eq "root: /dev/userfaultfd, allowed: as plain" "ioctl ok" "$(cat "$TMP/out")"
fi

# ---- a userfaultfd page as a path: the floor's reader would wait ----
# (allowed, by then the watchdog started another receiver:
# floor_receivers.sh)
(cd "$ROOT" && timeout -s KILL 10 "$HOOKSHIM" run -c "$TMP/deny.json" --root "$ROOT" -- "$P" uffdstall x) \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "uffd stall: refused by default, nothing waits" "userfaultfd errno=EPERM" "$(cat "$TMP/out")"
holder=$(sed -n 's/^holder //p' "$TMP/out")
[ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null
# The page's holder outlives the stalled caller. In enforce mode ("floor":
# "require" makes it) it is the session's orphan, killed when the session
# ends at the signal (floor/floor_orphans.c), which frees the receiver it
# held; guard mode leaves it, and the receiver is said to be held.
sed 's/"floor":"require"/"floor":"require","mode":"guard"/' "$TMP/all.json" >"$TMP/all-guard.json"
uffd_stall() { # MODE POLICY
	local m=$1 hpid t0 ms holder
	"$HOOKSHIM" run -c "$2" --root "$ROOT" -- "$P" uffdstall x >"$TMP/out" 2>"$TMP/err" &
	hpid=$!
	for _ in $(seq 50); do grep -q stalling "$TMP/out" && break; sleep 0.1; done
	sleep 0.5
	holder=$(sed -n 's/^holder //p' "$TMP/out")
	if grep -q stalling "$TMP/out" && kill -0 $hpid 2>/dev/null; then
		t0=$(date +%s%N)
		kill -TERM $hpid
		for _ in $(seq 50); do kill -0 $hpid 2>/dev/null || break; sleep 0.1; done
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		if kill -0 $hpid 2>/dev/null; then
			fail "uffd stall, allowed, $m: SIGTERM ends hookshim run within 2 s (alive after ${ms} ms)"
			kill -KILL $hpid
		else
			check "uffd stall, allowed, $m: SIGTERM ends hookshim run within 2 s (${ms} ms)" test "$ms" -lt 2000
		fi
		wait $hpid 2>/dev/null
		if [ "$m" = enforce ]; then
			expect_eq "uffd stall, enforce: the holder, the session's orphan, is not left (running)" "" \
				"$( [ -n "$holder" ] && sed 's/.*) //' "/proc/$holder/stat" 2>/dev/null | grep -v '^Z' | cut -c1)"
			expect_not_contains "uffd stall, enforce: ... so no receiver is left held" "$(cat "$TMP/err")" \
				"the syscall floor's receiver is held"
		else
			expect_contains "uffd stall, guard: the receiver left held, said" "$(cat "$TMP/err")" \
				"the syscall floor's receiver is held"
		fi
	else
		fail "uffd stall, allowed, $m: the probe did not stall ($(cat "$TMP/out" "$TMP/err" | tr '\n' ' '))"
		kill -KILL $hpid 2>/dev/null; wait $hpid 2>/dev/null
	fi
	[ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null
}
uffd_stall enforce "$TMP/all.json"
uffd_stall guard "$TMP/all-guard.json"

# ---- as an unprivileged user ----
NB=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if ! "${NB[@]}" "$P" call thread >/dev/null 2>&1; then
	skip "root calls: setpriv to nobody not possible here"; exit 0
fi
hsnb() { # policy, command...: hookshim run as nobody
	local pol=$1; shift
	: >"$TMP/log.jsonl"; chmod 666 "$TMP/log.jsonl"
	(cd "$ROOT" && timeout 60 "${NB[@]}" "$HOOKSHIM" run --no-notices -c "$pol" --root "$ROOT" \
		--log "$TMP/log.jsonl" -- "$@") >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
(cd "$ROOT" && "${NB[@]}" "$P" call $NAMES $FREE clone3_mnt) >"$TMP/plain.out" 2>&1
hsnb "$TMP/deny.json" "$P" call $NAMES $FREE clone3_mnt
cp "$TMP/out" "$TMP/deny.out"; cp "$TMP/err" "$TMP/deny.err"; denylog=$(logged)
hsnb "$TMP/all.json" "$P" call $NAMES $FREE clone3_mnt
cp "$TMP/out" "$TMP/all.out"; cp "$TMP/err" "$TMP/all.err"
note "nobody, plain: $(tr '\n' ' ' <"$TMP/plain.out")"
for c in $CALLS; do
	n=${c%%:*} rest=${c#*:}; sc=${rest%%:*}; g=${rest#*:}
	plain=$(line "$n" "$TMP/plain.out")
	if [ "$plain" = "$n errno=EPERM" ]; then
		expect_contains "nobody: $n: refused with the reason (the kernel's EPERM too)" \
			"$(cat "$TMP/deny.err")" "hookshim: $sc denied: "
		continue
	fi
	expect_eq "nobody: $n: refused" "$n errno=EPERM" "$(line "$n" "$TMP/deny.out")"
	expect_contains "nobody: $n: ... group $g" "$(grep "hookshim: $sc denied: " "$TMP/deny.err")" \
		"[\"$g\"]"
	expect_contains "nobody: $n: ... a denial in the log" "$denylog" "|$sc deny|"
	expect_eq "nobody: $n: allowed, as plain" "$plain" "$(line "$n" "$TMP/all.out")"
done
# unprivileged, a network namespace comes with a user namespace: refused
for n in clone_plain setns_net thread; do
	expect_eq "nobody: $n: not refused, as plain" "$(line "$n" "$TMP/plain.out")" "$(line "$n" "$TMP/deny.out")"
done
expect_eq "nobody: unshare_net (with a user namespace): refused" "unshare_net errno=EPERM" \
	"$(line unshare_net "$TMP/deny.out")"
img_as nobody "${NB[@]}"

# util-linux's unshare -r, and the alias through a user and mount
# namespace of its own
if "${NB[@]}" unshare -r true 2>/dev/null; then
	hsnb "$TMP/deny.json" unshare -r true
	check "nobody: unshare -r: refused" test "$rc" != 0
	expect_contains "nobody: unshare -r: ... said" "$(cat "$TMP/err")" \
		'hookshim: unshare denied: a mount, user, cgroup or PID namespace of its own, where paths and parents can be given other meanings (allow with "hookshim": {"floor_allow": ["namespaces"]}; a sandbox such as bubblewrap needs "mount" too)'
	hsnb "$TMP/all.json" unshare -r true
	expect_eq "nobody: unshare -r, allowed: as plain" 0 "$rc"
	fresh
	"${NB[@]}" "$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind >/dev/null 2>&1
	check "nobody: bind alias, plain: the write lands in secrets/k" grep -q via-bind "$ROOT/secrets/k"
	fresh
	hsnb "$TMP/deny.json" "$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind
	expect_eq "nobody: bind alias: secrets/k untouched" "$KEEP" "$(khash)"
	expect_contains "nobody: bind alias: refused, said" "$(cat "$TMP/err")" "hookshim: unshare denied: "
	fresh
	hsnb "$TMP/all.json" "$P" bindwrite "$ROOT/secrets" "$ROOT/alias" k via-bind
	check "nobody: bind alias, allowed: lands as plain (the documented limit)" grep -q via-bind "$ROOT/secrets/k"
else
	skip "root calls: unprivileged user namespaces not allowed here"
fi
