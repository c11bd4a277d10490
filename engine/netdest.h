/* A connection's destination as people write it (docs/network.md): a URL
 * ("https://host/", "tcp://[v6]:port", user:pass@ skipped) or, without a
 * scheme, HOST[:PORT] ("[v6]:PORT", or a bare IPv6 address with no
 * port); and whether a name written so names a connection. Shared by the
 * model-endpoint and network_exclude exclusions (supervisor/net_cache.c),
 * `hookshim test --tool WebFetch` (cli/test_call.c) and WebFetch(domain:)
 * rules (engine/match.c); and the name a DNS query asks for. */
#ifndef HOOKSHIM_ENGINE_NETDEST_H
#define HOOKSHIM_ENGINE_NETDEST_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"

struct hs_netdest {
	char host[256];  /* without brackets */
	int port;        /* as written, or -1 */
	int scheme_port; /* the scheme's (443 for https, else 80), or -1
			  * without a scheme */
	bool udp;        /* udp:// */
};

/* s into d; false when it names no host or the host does not fit. */
bool hs_netdest_parse(const char *s, struct hs_netdest *d);

/* Does glob (n bytes, matched without case) name ev's connection: its
 * host or its address? */
bool hs_netdest_names(const char *glob, size_t n, const struct hs_event *ev);

/* The name a DNS query (buf, n bytes: what a program sends to a
 * resolver) asks for, lowercase, into out (256 bytes); false when buf is
 * no one-question standard query. For the floor, which sees the queries
 * a static program's resolver sends (floor/floor_net.c). */
bool hs_dns_query_name(const unsigned char *buf, size_t n, char *out);

#endif
