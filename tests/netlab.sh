# A network for the connection tests (tests/integration/network.sh,
# tests/e2e/network.sh), sourced after tests/lib.sh, in $TMP:
#   netlab_start     two web servers on the loopback serving $TMP/www
#                    (fill it first): A on 127.0.0.1:$A, B on every
#                    address at port $B; and $TMP/ns.sh
#   ns CMD...        CMD in a mount namespace of its own whose resolver
#                    asks a DNS server the test starts
#                    (tests/fixtures/dns_server.py: *.test is 127.0.0.1,
#                    a name with "evil" in it 127.0.0.2) at $DNS, an
#                    address of its own on the loopback so that runs do
#                    not meet
# The caller checks for root and `unshare -m` first.
netlab_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

netlab_start() {
	A=$(netlab_port); B=$(netlab_port)
	python3 -m http.server "$A" --bind 127.0.0.1 --directory "$TMP/www" >/dev/null 2>&1 & netlab_a=$!
	python3 -m http.server "$B" --bind 0.0.0.0 --directory "$TMP/www" >/dev/null 2>&1 & netlab_b=$!
	trap 'kill $netlab_a $netlab_b 2>/dev/null' EXIT
	for _ in $(seq 50); do
		curl -s -o /dev/null "http://127.0.0.1:$A/" &&
			curl -s -o /dev/null "http://127.0.0.1:$B/" && break
		sleep 0.1
	done
	DNS=127.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1)).53
	printf 'nameserver %s\noptions attempts:2 timeout:1\n' $DNS > "$TMP/resolv.conf"
	cat > "$TMP/ns.sh" <<SH
rm -f $TMP/dns.ready
exec unshare -m bash -c 'mount --bind $TMP/resolv.conf /etc/resolv.conf || exit 99
python3 $HOOKSHIM_TOP/tests/fixtures/dns_server.py $DNS $TMP/dns.ready $TMP/dns.log & dns=\$!
for _ in \$(seq 50); do [ -f $TMP/dns.ready ] && break; sleep 0.1; done
"\$@"; rc=\$?; kill \$dns; exit \$rc' ns "\$@"
SH
}

ns() { bash "$TMP/ns.sh" "$@"; }
