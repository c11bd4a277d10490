/* engine/netdest.c: a destination as written -- a URL or HOST[:PORT] --
 * and whether a name (a glob, without case) names a connection. */
#include <string.h>

#include "engine/netdest.h"
#include "check.h"

int main(void)
{
	static const struct {
		const char *s, *host;
		int port, scheme_port;
		bool udp, ok;
	} rows[] = {
		{ "https://example.com/", "example.com", -1, 443, false, true },
		{ "HTTPS://Example.com", "Example.com", -1, 443, false, true },
		{ "http://user:pw@h:8080/x?y", "h", 8080, 80, false, true },
		{ "tcp://[::1]:22", "::1", 22, 80, false, true },
		{ "udp://10.0.0.1:53", "10.0.0.1", 53, 80, true, true },
		{ "127.0.0.1:11434", "127.0.0.1", 11434, -1, false, true },
		{ "registry.npmjs.org", "registry.npmjs.org", -1, -1, false, true },
		{ "[fe80::1]:443", "fe80::1", 443, -1, false, true },
		{ "::1", "::1", -1, -1, false, true },
		{ "http://h:/", "h", 0, 80, false, true },
		{ "https:///x", "", -1, 443, false, false },
		{ "tcp://[::1", "", -1, 80, false, false },
		{ "", "", -1, -1, false, false },
	};
	struct hs_event ev = { .host = "API.Example.com", .address = "10.1.2.3",
			       .port = 443 };
	char name[160];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hs_netdest d;
		bool ok = hs_netdest_parse(rows[i].s, &d);

		snprintf(name, sizeof(name), "parse '%s'", rows[i].s);
		CHECK(name, ok == rows[i].ok &&
				    (!ok || (strcmp(d.host, rows[i].host) == 0 &&
					     d.port == rows[i].port &&
					     d.scheme_port == rows[i].scheme_port &&
					     d.udp == rows[i].udp)));
	}
	CHECK("names: a glob without case", hs_netdest_names("*.example.COM", 13, &ev));
	CHECK("names: the address", hs_netdest_names("10.1.2.*", 8, &ev));
	CHECK("names: only its first n bytes", hs_netdest_names("api.example.comX", 15, &ev));
	CHECK("names: not another host", !hs_netdest_names("example.com", 11, &ev));
	CHECK("names: not a longer glob than fits", !hs_netdest_names("x", 300, &ev));
	CHECK_DONE();
}
