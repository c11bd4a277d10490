# Network egress as tool calls (issue 28, docs/network.md): every connect
# a command makes is a PreToolUse event of the dialect's WebFetch tool,
# with the host the process resolved; a hook that allows only one
# destination lets curl, python's urllib, node's fetch and git clone
# fetch from it byte for byte as without hookshim, and every other
# connection fails with the hook's reason on stderr (the model's tool
# result); each destination asks the hook once per session.
#
# Names come from a DNS server the test starts (tests/netlab.sh), the
# system's resolver pointed at it in a private mount namespace (root and
# unshare needed; without them the test skips).
. "$HOOKSHIM_TOP/tests/lib.sh"
export HOME=$TMP/home; mkdir -p "$HOME"
unset CI GITHUB_ACTIONS http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY no_proxy
for p in curl node git python3 jq unshare; do
	command -v $p >/dev/null || { skip "network: no $p"; exit 0; }
done
[ "$(id -u)" = 0 ] || { skip "network: a private /etc/resolv.conf needs root"; exit 0; }
unshare -m true 2>/dev/null || { skip "network: unshare -m refused here"; exit 0; }

# two web servers: A allowed, B not
mkdir -p www && head -c 65536 /dev/urandom > www/data.bin
git init -q src && git -C src -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
	git clone -q --bare src www/repo.git && git -C www/repo.git update-server-info
. "$HOOKSHIM_TOP/tests/netlab.sh"
netlab_start
cat > hook.sh <<SH
#!/bin/sh
in=\$(cat)
# printf, not echo: dash's echo turns a JSON string's \\n into a newline
printf '%s\n' "\$in" | jq -r '[.tool_name, .tool_input.host, .tool_input.port, .tool_input.protocol, .tool_input.url] | join(" ")' >> $TMP/net.log
port=\$(printf '%s\n' "\$in" | jq -r .tool_input.port); addr=\$(printf '%s\n' "\$in" | jq -r .tool_input.address)
[ "\$port" = $A ] && exit 0
[ "\$port" = 53 ] && [ "\$addr" = $DNS ] && exit 0
echo "NET-DENIED: only port $A may be reached" >&2
exit 2
SH
chmod +x hook.sh
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/hook.sh"}]}]}}\n' "$TMP" > net.json

# client.sh TARGET: each tool fetches from TARGET (HOST:PORT); one line
# per tool, "tool rc sha", stderr kept apart
cat > client.sh <<'SH'
t=$1
sum() { sha256sum | cut -c1-16; }
curl -sS "http://$t/data.bin" >out.bin 2>>err.txt; echo "curl $? $(sum <out.bin)"
python3 -c 'import sys, urllib.request as u; sys.stdout.buffer.write(u.urlopen("http://'"$t"'/data.bin", timeout=10).read())' >out.bin 2>>err.txt; echo "python $? $(sum <out.bin)"
node -e 'fetch("http://'"$t"'/data.bin").then(r => r.arrayBuffer()).then(b => process.stdout.write(Buffer.from(b))).catch(e => { console.error("node:", e.cause ? e.cause.message : e.message); process.exit(3); })' >out.bin 2>>err.txt; echo "node $? $(sum <out.bin)"
rm -rf clone; git clone -q "http://$t/repo.git" clone 2>>err.txt; echo "git $? $(git -C clone log --format=%s 2>/dev/null)"
SH
# in a mount namespace of its own: the resolver asks our DNS server

: > err.txt
plain_ok=$(ns bash client.sh "allowed.test:$A")
plain_bad=$(ns bash client.sh "evil.test:$B")
expect_eq "plain: every tool fetches from both servers" \
	"$(printf 'curl 0\ngit 0\nnode 0\npython 0')" "$(printf '%s\n%s\n' "$plain_ok" "$plain_bad" | cut -d' ' -f1-2 | sort -u)"
check "plain: the names resolved through the test's DNS server" grep -q "^evil.test 1" dns.log

: > err.txt; rm -f net.log
# as a command an agent runs (a shell with a command string: a tool call);
# the agent's own connections are its own (network_agent, below)
cmd() { echo "bash -c 'bash client.sh $1'"; }
hs_ok=$(ns "$HOOKSHIM" run --log run.jsonl -c net.json -- bash -c "$(cmd "allowed.test:$A")")
expect_eq "under hookshim: the allowed destination, byte for byte as plain" "$plain_ok" "$hs_ok"
hs_bad=$(ns "$HOOKSHIM" run --log run2.jsonl -c net.json -- bash -c "$(cmd "evil.test:$B")")
for tool in curl python node git; do
	rc=$(awk -v t=$tool '$1 == t { print $2 }' <<<"$hs_bad")
	check "under hookshim: $tool's connection to evil.test:$B fails (exit $rc)" test "$rc" != 0
done
expect_eq "the reason reaches each tool's stderr (the model's tool result)" 4 \
	"$(grep -c "connection to evil.test:$B denied: NET-DENIED: only port $A may be reached" err.txt)"
expect_contains "python's own error carries it too" "$(cat err.txt)" "Connection refused by hookshim: NET-DENIED"
expect_eq "the hook saw the destination by its name, once for four programs" 1 \
	"$(grep -c "^WebFetch evil.test $B tcp tcp://evil.test:$B\$" net.log)"
expect_eq "... and the allowed one once per session" 1 "$(grep -c "^WebFetch allowed.test $A tcp" net.log)"
# glibc's resolver connects through its internal __connect, which only
# the floor sees: queries to the system's resolvers are no events (a
# policy on destinations would have to allow them by address)
check "the system resolver's DNS queries are no events" \
	test -z "$(grep " 53 udp" net.log)"
expect_eq "the log records the denial" deny \
	"$(jq -r 'select(.op == "connect" and .host == "evil.test") | .decision' run2.jsonl | sort -u)"
expect_contains "... with the command that connected" \
	"$(jq -r 'select(.op == "connect" and .host == "evil.test") | .command' run2.jsonl)" "curl -sS http://evil.test:$B/data.bin"

# a policy with no WebFetch hook: no connection asks anything
printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}\n' > bash.json
rm -f net.log
out=$(ns "$HOOKSHIM" run -c bash.json -- bash -c "$(cmd "evil.test:$B")")
expect_eq "no WebFetch hook: every fetch works" "$plain_bad" "$out"

# hookshim test says what live does
out=$("$HOOKSHIM" test -c net.json PreToolUse --tool WebFetch --input "{\"url\":\"http://127.0.0.1:$B/\"}" 2>&1)
expect_eq "test: a connection to B is denied" 2 "$?"
"$HOOKSHIM" test -c net.json PreToolUse --tool WebFetch --input "{\"url\":\"http://127.0.0.1:$A/\"}" >/dev/null 2>&1
expect_eq "test: a connection to A is allowed" 0 "$?"

# a rule, not a script: WebFetch(domain:...) as Claude Code writes it
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","if":"WebFetch(domain:*.test)","command":"echo no .test hosts >&2; exit 2"}]}]}}\n' > rule.json
: > err.txt
out=$(ns "$HOOKSHIM" run -c rule.json -- bash -c "bash -c 'curl -sS -o /dev/null http://evil.test:$B/data.bin; echo name=\$?; curl -sS -o /dev/null http://127.0.0.1:$B/data.bin; echo addr=\$?'" 2>>err.txt)
expect_contains "WebFetch(domain:*.test): a name under .test is denied" "$out" "name=7"
expect_contains "... an address no rule names is let through" "$out" "addr=0"
expect_contains "... with the rule's reason" "$(cat err.txt)" "no .test hosts"

# what is no event: the agent's model endpoint (its environment names
# it), network_exclude entries; check says so
rm -f net.log
out=$(ANTHROPIC_BASE_URL=http://127.0.0.1:$B "$HOOKSHIM" run -c net.json -- \
	bash -c "bash -c 'curl -sS -o /dev/null http://127.0.0.1:$B/data.bin; echo model=\$?'" 2>/dev/null)
expect_contains "the agent's model endpoint (ANTHROPIC_BASE_URL) is no event" "$out" "model=0"
check "... no hook asked" test ! -s net.log
printf '{"hookshim":{"network_exclude":["127.0.0.1:%s"]},"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/hook.sh"}]}]}}\n' "$B" "$TMP" > excl.json
out=$("$HOOKSHIM" run -c excl.json -- bash -c "bash -c 'curl -sS -o /dev/null http://127.0.0.1:$B/data.bin; echo excl=\$?; curl -sS -o /dev/null http://[::1]:$B/ 2>/dev/null; echo v6=\$?'" 2>/dev/null)
expect_contains "network_exclude: 127.0.0.1:B is no event" "$out" "excl=0"
expect_contains "... [::1]:B still is (another address): the hook is asked" "$(cat net.log 2>/dev/null)" "WebFetch ::1 $B tcp"
expect_contains "check: connections judged, with the exclusions" "$("$HOOKSHIM" check -c excl.json)" \
	"connections judged (WebFetch): every connect and datagram sent of the commands' programs, once per destination; a denied one fails with ECONNREFUSED; except the agent's model endpoint from its environment, 127.0.0.1:$B"
expect_contains "check: no WebFetch hook, no events" "$("$HOOKSHIM" check -c bash.json)" \
	"connections: no event (no hook for WebFetch)"

# --- from a review (each failed before its fix) ---
# the agent's own connections (its model, its telemetry) are its own by
# default; network_agent judges them too
rm -f net.log
out=$("$HOOKSHIM" run -c net.json -- python3 -c "
import urllib.request as u
try: u.urlopen('http://127.0.0.1:$B/data.bin'); print('agent=0')
except Exception as e: print('agent=1')" 2>/dev/null)
expect_contains "the agent's own connection is no event by default" "$out" "agent=0"
printf '{"hookshim":{"network_agent":true},"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/hook.sh"}]}]}}\n' "$TMP" > agent.json
out=$("$HOOKSHIM" run -c agent.json -- python3 -c "
import urllib.request as u
try: u.urlopen('http://127.0.0.1:$B/data.bin'); print('agent=0')
except Exception as e: print('agent=1')" 2>/dev/null)
expect_contains "network_agent: the agent's own connection is judged, denied" "$out" "agent=1"
# a catch-all hook written before connections were calls does not fire
printf '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"echo only shells and files >&2; exit 2"}]}]}}\n' > all.json
out=$("$HOOKSHIM" run -c all.json -- python3 -c "
import subprocess; print(subprocess.run(['curl','-sS','-o','/dev/null','http://127.0.0.1:$A/data.bin']).returncode)" 2>/dev/null)
expect_eq "a catch-all hook: a command's connection is no event" 0 "$out"
# a nested hookshim run keeps both sessions' policies
printf 'curl -sS -o /dev/null http://127.0.0.1:%s/data.bin; echo nested=$?\n' "$B" > inner.sh
out=$("$HOOKSHIM" run -c net.json -- bash -c "bash -c '\"$HOOKSHIM\" run -c bash.json -- bash -c \"bash inner.sh\"'" 2>/dev/null)
expect_contains "nested run: the outer session's WebFetch hook still decides" "$out" "nested=7"
# a process controls its own resolver: the name it claims is checked
rm -f net.log
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","if":"WebFetch(domain:allowed.test)","command":"exit 0"},{"type":"command","command":"%s/hook2.sh"}]}]}}\n' "$TMP" > named.json
cat > hook2.sh <<SH
#!/bin/sh
in=\$(cat); h=\$(echo "\$in" | jq -r .tool_input.host)
[ "\$(echo "\$in" | jq -r .tool_input.port)" = 53 ] && exit 0
echo "\$h" >> $TMP/net.log
[ "\$h" = allowed.test ] && exit 0
echo "only allowed.test" >&2; exit 2
SH
chmod +x hook2.sh
out=$(ns "$HOOKSHIM" run -c named.json -- bash -c "bash -c 'LOCALDOMAIN=evil.test RES_OPTIONS=ndots:3 curl -sS -o /dev/null http://allowed.test:$B/data.bin; echo forged=\$?'" 2>/dev/null)
expect_contains "a name the resolver was steered to (LOCALDOMAIN) is judged as its address: denied" "$out" "forged=7"
expect_eq "... the hook saw the address, not the claimed name" 127.0.0.2 "$(sort -u net.log)"
# the shim takes an IPv6 address of the RFC 2133 length (24 bytes)
out=$("$HOOKSHIM" run -c net.json -- bash -c "bash -c 'python3 -c \"
import ctypes, socket, struct
s = socket.socket(socket.AF_INET6)
sa = struct.pack(\\\"<HH16sI\\\", socket.AF_INET6, socket.htons($B), socket.inet_pton(socket.AF_INET6, \\\"::ffff:127.0.0.1\\\"), 0)
print(\\\"short=%d\\\" % ctypes.CDLL(None).connect(s.fileno(), sa, 24))\"'" 2>/dev/null)
expect_contains "a 24-byte IPv6 sockaddr is judged too: denied" "$out" "short=-1"
# a bare WebFetch permission rule: said aloud
printf '{"permissions":{"deny":["WebFetch"]}}\n' > bare.json
expect_contains "check: a bare WebFetch deny takes every connection, said" "$("$HOOKSHIM" check -c bare.json 2>&1)" \
	"WebFetch with no domain: every connection the session's commands open is judged by this rule"

# static programs and raw syscalls: the floor judges their connects
if command -v busybox >/dev/null && file -L "$(command -v busybox)" | grep -q static; then
	for mode in guard enforce; do
		sed "s/\"hooks\"/\"hookshim\":{\"mode\":\"$mode\"},\"hooks\"/" net.json > "net-$mode.json"
		rm -f net.log; : > err.txt
		out=$(ns "$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c 'busybox wget -q -O ok.bin http://allowed.test:$A/data.bin; echo ok=\$?; busybox wget -q -O bad.bin http://evil.test:$B/data.bin; echo bad=\$?'" 2>err.txt)
		if grep -q "no syscall floor" err.txt; then skip "static wget ($mode): $(head -1 err.txt)"; continue; fi
		expect_contains "static busybox wget ($mode): the allowed destination works" "$out" "ok=0"
		expect_eq "... byte for byte" "$(sha256sum < www/data.bin)" "$(sha256sum < ok.bin)"
		expect_contains "static busybox wget ($mode): the other is denied (the floor)" "$out" "bad=1"
		# glibc's static resolver sends its queries by sendmmsg, which
		# the floor reads: the name the connect follows is known
		expect_contains "... with the hook's reason on its stderr, by the name it looked up" "$(cat err.txt)" \
			"connection to evil.test:$B denied: NET-DENIED"
		expect_eq "... the hook saw both by their names (the floor read the DNS queries)" \
			"$(printf 'WebFetch allowed.test %s tcp tcp://allowed.test:%s\nWebFetch evil.test %s tcp tcp://evil.test:%s' $A $A $B $B)" \
			"$(grep -v " 53 udp" net.log | sort)"
	done
	# enforce mode: the shim's connect is notified too, and answered from
	# the shim's own request -- one hook run, not one per side
	rm -f net.log
	ns "$HOOKSHIM" run -c net-enforce.json -- bash -c "bash -c 'curl -sS -o /dev/null http://allowed.test:$A/data.bin'" 2>/dev/null
	expect_eq "enforce: a dynamic curl's connect asks the hook once, by its name" \
		"WebFetch allowed.test $A tcp tcp://allowed.test:$A" "$(grep -v " 53 udp" net.log)"
fi
out=$("$HOOKSHIM" run -c net.json -- bash -c "bash -c 'python3 -c \"
import ctypes, socket, struct
s = socket.socket()
sa = struct.pack(\\\"<HH4s8x\\\", socket.AF_INET, socket.htons($B), socket.inet_aton(\\\"127.0.0.1\\\"))
r = ctypes.CDLL(None, use_errno=True).syscall(42, s.fileno(), sa, 16)
print(\\\"raw=%d errno=%d\\\" % (r, ctypes.get_errno()))\"'" 2>/dev/null)
if grep -q "raw=" <<<"$out"; then
	expect_contains "a raw connect syscall is judged (the floor): ECONNREFUSED" "$out" "raw=-1 errno=111"
fi

# ways a command could hide a connect from the floor (a review's): a
# stripped role, a thread whose process's main thread is gone
if [ -x "$HOOKSHIM_PROBES/net_static_connect" ]; then
	: > err.txt
	out=$("$HOOKSHIM" run -c net.json -- bash -c "bash -c 'busybox env -u HOOKSHIM_ROLE busybox wget -q -O /dev/null http://127.0.0.1:$B/data.bin; echo norole=\$?; $HOOKSHIM_PROBES/net_static_connect $B leaderless'" 2>err.txt)
	if ! grep -q "no syscall floor" err.txt; then
		expect_contains "a command that strips its role is still judged: denied" "$out" "norole=1"
		expect_contains "a thread connecting after its main thread exited: judged, denied" "$out" "connect=111"
	fi
fi

# datagrams sent without a connect (sendto, sendmsg, sendmmsg) and TCP
# Fast Open are events too: from python (the shim) and from a static
# program (the floor), in both modes; a denied one fails with the reason
P=$HOOKSHIM_PROBES/net_static_connect
cat > sends.py <<PY
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for port in ($A, $B):
    try:
        s.sendto(b"x", ("127.0.0.1", port)); print("sendto", port, 0)
    except OSError as e:
        print("sendto", port, e.errno)
try:
    s.sendmsg([b"x"], [], 0, ("127.0.0.1", $B)); print("sendmsg", 0)
except OSError as e:
    print("sendmsg", e.errno)
t = socket.socket()
try:
    t.sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", $B)); print("fastopen", 0)
except OSError as e:
    print("fastopen", e.errno)
PY
for mode in guard enforce; do
	sed "s/\"hooks\"/\"hookshim\":{\"mode\":\"$mode\"},\"hooks\"/" net.json > "net-$mode.json"
	rm -f net.log; : > err.txt
	out=$("$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c 'python3 sends.py'" 2>err.txt)
	expect_eq "python's datagrams ($mode): the allowed port sent, the others refused with the reason" \
		"$(printf 'sendto %s 0\nsendto %s 111\nsendmsg 111\nfastopen 111' $A $B)" "$out"
	expect_contains "... the reason on stderr" "$(cat err.txt)" "datagram to 127.0.0.1:$B denied: NET-DENIED"
	expect_eq "... the hook saw each destination once: udp sends, and the Fast Open connect" \
		"$(printf 'WebFetch 127.0.0.1 %s tcp tcp://127.0.0.1:%s\nWebFetch 127.0.0.1 %s udp udp://127.0.0.1:%s\nWebFetch 127.0.0.1 %s udp udp://127.0.0.1:%s' $B $B $A $A $B $B | sort)" \
		"$(sort net.log)"
	[ -x "$P" ] || continue
	rm -f net.log; : > err.txt
	out=$("$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c '$P $A sendto; $P $B sendto; $P $B sendmsg; $P $A sendmmsg; $P $B fastopen'" 2>err.txt)
	if grep -q "no syscall floor" err.txt; then skip "static sends ($mode): $(head -1 err.txt)"; continue; fi
	expect_eq "a static program's datagrams ($mode, the floor): allowed, refused, refused, sendmmsg both allowed, Fast Open refused" \
		"$(printf 'connect=0\nconnect=111\nconnect=111\nconnect=2\nconnect=111')" "$out"
	expect_contains "... the reason on stderr" "$(cat err.txt)" "datagram to 127.0.0.1:$B denied: NET-DENIED"
	check "... each of sendmmsg's two destinations asked" grep -q "^WebFetch 127.0.0.2 $A udp" net.log
	rm -f net.log; : > err.txt
	out=$("$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c '$P $B sendmmsg'" 2>err.txt)
	expect_eq "... a sendmmsg with a denied destination is refused as a whole (the floor cannot send part)" \
		"connect=-111" "$out"
	# what the kernel reads otherwise than it is written: a msghdr name
	# over 128 bytes (cut to 128), a length with high bits (an int), a
	# raw socket (the port is in the packet: judged by address, port 0)
	out=$("$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c '$P $B namelen; $P $B lenhigh; $P $B raw'" 2>err.txt)
	expect_eq "... a 5000-byte msg_namelen, a 64-bit length, a raw socket: each judged, refused ($mode)" \
		"$(printf 'connect=111\nconnect=111\nconnect=111')" "$out"
	expect_contains "... the raw one by address" "$(cat err.txt)" "datagram to 127.0.0.1:0 denied"
	# a lookup made as musl makes it (a query by sendto, no connect):
	# the floor reads the name it asks for, and the connect that follows
	# is judged by it
	rm -f net.log; : > err.txt
	out=$(ns "$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c '$P $A allowed.test; $P $B evil.test'" 2>err.txt)
	expect_eq "a musl-style lookup then connect ($mode): allowed, denied" "$(printf 'connect=0\nconnect=111')" "$out"
	expect_eq "... the hook saw them by the names looked up" \
		"$(printf 'WebFetch allowed.test %s tcp tcp://allowed.test:%s\nWebFetch evil.test %s tcp tcp://evil.test:%s' $A $A $B $B)" \
		"$(grep -v " 53 udp" net.log | sort)"
	expect_contains "... and the reason names it" "$(cat err.txt)" "connection to evil.test:$B denied"
	# a query no DNS server sees (a socketpair) names nothing: the
	# connect that follows is judged by its address, and the supervisor
	# looks nothing up for it
	rm -f net.log
	out=$(ns "$HOOKSHIM" run -c "net-$mode.json" -- bash -c "bash -c '$P $A fake:allowed.test'" 2>err.txt)
	expect_eq "a DNS query sent on a socketpair names no connection ($mode)" \
		"WebFetch 127.0.0.1 $A tcp tcp://127.0.0.1:$A" "$(grep -v " 53 udp" net.log)"
done

# a connection's close is its PostToolUse (PostToolUseFailure when it
# never reached its peer), with the bytes TCP carried; the denied one
# has none, as a denied tool call has none
cat > post.sh <<SH
#!/bin/sh
jq -c '[.hook_event_name, .tool_input.host, .tool_input.port, .tool_response.bytes_received, .error]' >> $TMP/post.log
SH
chmod +x post.sh
printf '{"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/hook.sh"}]}],"PostToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/post.sh"}]}],"PostToolUseFailure":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/post.sh"}]}]}}\n' "$TMP" "$TMP" "$TMP" > post.json
closed=$(netlab_port)
rm -f post.log
ns "$HOOKSHIM" run --log post.jsonl -c post.json -- bash -c "bash -c 'curl -sS -o /dev/null http://allowed.test:$A/data.bin; curl -sS -o /dev/null http://evil.test:$B/data.bin'" >/dev/null 2>&1
# (no pre hook: the closed port is not denied before it is tried)
jq '{hooks: {PostToolUseFailure: .hooks.PostToolUseFailure}}' post.json > failure.json
"$HOOKSHIM" run -c failure.json -- bash -c "bash -c 'python3 -c \"import socket; socket.create_connection((\\\"127.0.0.1\\\", $closed))\"; curl -s http://127.0.0.1:$closed/'" >/dev/null 2>&1
got=$(jq -r 'select(.[0] == "PostToolUse") | .[3]' post.log 2>/dev/null)
check "PostToolUse after curl's connection closed, with the bytes received (>= the 64 KiB file: $got)" \
	test "${got:-0}" -ge 65536
expect_eq "... by the name it looked up; none for the denied connection" \
	"allowed.test $A" "$(jq -r 'select(.[0] == "PostToolUse") | "\(.[1]) \(.[2])"' post.log)"
expect_eq "a connection refused by its peer: PostToolUseFailure (python's blocking connect, curl's non-blocking one)" \
	"$(printf '["PostToolUseFailure","127.0.0.1",%s,null,"the connection failed: errno 111"]\n' $closed $closed)" \
	"$(grep PostToolUseFailure post.log)"
expect_contains "hookshim log shows the close with its counts" "$("$HOOKSHIM" log post.jsonl)" \
	"post         WebFetch   allow connect tcp://allowed.test:$A (sent "
out=$("$HOOKSHIM" check -c post.json 2>&1)
expect_contains "check says connections are reported at their close" "$out" "connections reported (PostToolUse WebFetch)"

# network_cache: false asks every time, N seconds keeps a decision that
# long; network_deny_errno is what a denied connection fails with
for keep in false 1; do
	sed "s/\"hooks\"/\"hookshim\":{\"network_cache\":$keep,\"network_deny_errno\":\"ENETUNREACH\"},\"hooks\"/" net.json > keep.json
	rm -f net.log
	out=$("$HOOKSHIM" run -c keep.json -- bash -c "bash -c 'for i in 1 2; do python3 -c \"
import socket
for p in ($A, $B):
    try:
        socket.create_connection((\\\"127.0.0.1\\\", p)).close(); print(p, 0)
    except OSError as e:
        print(p, e.errno)\"; [ $keep = 1 ] && sleep 1.2; done'" 2>/dev/null)
	expect_eq "network_cache $keep: the allowed port connects, the other fails with ENETUNREACH (101)" \
		"$(printf '%s 0\n%s 101\n%s 0\n%s 101' $A $B $A $B)" "$out"
	expect_eq "... the hook asked again in the second process (4 runs)" 4 "$(wc -l < net.log)"
done
out=$(printf '{"hookshim":{"network_cache":"always"}}' > badkeep.json; "$HOOKSHIM" check -c badkeep.json 2>&1)
expect_contains "a network_cache that is no boolean or number: file:line:col" "$out" "badkeep.json:1:"

# enforce mode: the grant that lets the floor pass a connect the shim of
# the same process was allowed is kept under the pid the kernel names as
# the asker (SO_PEERCRED), never the one a request claims: a process that
# asks in another's name (here: a static program's, whose connect by
# address a name-based policy denies) grants it nothing
if [ -x "$P" ]; then
	cat > byname.sh <<SH
#!/bin/sh
host=\$(jq -r .tool_input.host)
[ "\$host" = allowed.test ] && exit 0
echo "BY-NAME: only allowed.test" >&2; exit 2
SH
	chmod +x byname.sh
	printf '{"hookshim":{"mode":"enforce"},"hooks":{"PreToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/byname.sh"}]}]}}\n' "$TMP" > byname.json
	cat > forge.py <<'PY'
import os, socket, struct, sys
def field(tag, v):
    v = str(v).encode()
    return tag.encode() + struct.pack("<I", len(v)) + v
s = socket.socket(socket.AF_UNIX)
s.connect("\0" + os.environ["HOOKSHIM_SOCK"].lstrip("@"))
s.sendall(field("o", "connect") + field("p", "pre") + field("i", sys.argv[1]) +
          field("h", "allowed.test") + field("A", "127.0.0.1") + field("P", sys.argv[2]) +
          field("j", "tcp") + b"\0" + struct.pack("<I", 0))
print("forged:", "allow" if b"allow" in s.recv(4096) else "deny")
PY
	rm -f go
	out=$(ns "$HOOKSHIM" run -c byname.json -- bash -c "bash -c '$P $A after $TMP/go & python3 forge.py \$! $A; touch $TMP/go; wait'" 2>err.txt)
	if grep -q "no syscall floor" err.txt; then
		skip "forged grant: $(head -1 err.txt)"
	else
		expect_eq "a request in a static program's name (enforce): allowed for the asker, no grant for the static program's connect" \
			"$(printf 'forged: allow\nconnect=111')" "$out"
	fi
fi

# the ways a descriptor ends besides close(): each connection's post
# fires once, when it ends, with its own counts; close(-1) ends none
cat > ends.py <<PY
import os, socket, time
def fetch():
    s = socket.create_connection(("127.0.0.1", $A))
    s.sendall(b"GET /data.bin HTTP/1.0\r\n\r\n")
    while s.recv(65536): pass
    return s
a = fetch()
try: os.close(-1)
except OSError: pass
fd = a.fileno(); os.closerange(fd, fd + 1); a.detach()      # close_range
b = fetch(); null = os.open("/dev/null", os.O_RDONLY)
os.dup2(null, b.fileno()); print("dup2 done", flush=True)   # dup2 over it
c = fetch(); c.close()                                      # close
d = fetch()                                                 # open at exit
PY
printf '{"hooks":{"PostToolUse":[{"matcher":"WebFetch","hooks":[{"type":"command","command":"%s/post.sh"}]}]}}\n' "$TMP" > ends.json
rm -f post.log
"$HOOKSHIM" run -c ends.json -- bash -c "bash -c 'python3 ends.py'" >/dev/null 2>&1
expect_eq "close_range, dup2, close and exit each end one connection: four posts, each with the whole reply" \
	"4" "$(jq -r 'select(.[3] >= 65536) | .[0]' post.log | grep -c PostToolUse)"
expect_eq "... and no other post (close(-1) ends none)" 4 "$(wc -l < post.log)"
# an AF_UNSPEC destination is an IPv4 one to an IPv4 UDP socket: judged
# (the shim, and the floor for a raw syscall); a zero length is EINVAL,
# as without hookshim
cat > unspec.py <<PY
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sa = (ctypes.c_char * 16)(*(bytes([0, 0]) + socket.htons($B).to_bytes(2, "little") + socket.inet_aton("127.0.0.1") + bytes(8)))
for name, call in (("libc", lambda: libc.sendto(u.fileno(), b"x", 1, 0, sa, 16)),
                   ("raw", lambda: libc.syscall(44, u.fileno(), b"x", 1, 0, sa, 16)),
                   ("len0", lambda: libc.sendto(u.fileno(), b"x", 1, 0, sa, 0))):
    r = call(); print(name, r, ctypes.get_errno() if r < 0 else 0)
PY
plain=$(python3 unspec.py | grep len0)
out=$("$HOOKSHIM" run -c net.json -- bash -c "bash -c 'python3 unspec.py'" 2>err.txt)
expect_contains "an AF_UNSPEC datagram (libc): judged, denied" "$out" "libc -1 111"
if grep -q "no syscall floor" err.txt; then
	skip "AF_UNSPEC by a raw syscall: $(head -1 err.txt)"
else
	expect_contains "... by a raw syscall (the floor): denied" "$out" "raw -1 111"
fi
expect_contains "... a zero length: what the kernel says without hookshim" "$out" "$plain"
