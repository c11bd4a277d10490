/* A DNS query for a name, type A, as a stub resolver sends it: for the
 * probe that looks names up as musl does (net_static_connect.c) and the
 * unit test of the floor's query reader (tests/unit/test_dns_query.c). */
#ifndef HOOKSHIM_TESTS_DNS_QUERY_H
#define HOOKSHIM_TESTS_DNS_QUERY_H

#include <string.h>

/* name (dotted) as a query into q (at least 12 + strlen + 6 bytes): its
 * length. */
static size_t dns_query(const char *name, unsigned char *q)
{
	size_t n = 12;

	memset(q, 0, 12);
	q[0] = 0x12, q[1] = 0x34, q[2] = 0x01, q[5] = 1; /* RD, one question */
	for (const char *p = name; *p;) {
		size_t k = strcspn(p, ".");

		q[n++] = (unsigned char)k;
		memcpy(q + n, p, k);
		n += k;
		p += k + (p[k] == '.');
	}
	q[n++] = 0;
	q[n++] = 0, q[n++] = 1, q[n++] = 0, q[n++] = 1; /* A, IN */
	return n;
}

#endif
