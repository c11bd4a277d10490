/* engine/netdest.c: the name a DNS query asks for, read from what a
 * program sends (the floor's only sight of a static program's lookups);
 * anything that is not a one-question standard query gives no name. */
#include <string.h>

#include "engine/netdest.h"
#include "check.h"
#include "tests/probes/dns_query.h"

int main(void)
{
	unsigned char q[512];
	char out[256];
	size_t n;
	char long_label[80];

	n = dns_query("Evil.Example.com", q);
	CHECK("a query for a name: read", hs_dns_query_name(q, n, out));
	CHECK_STR("... lowercase", "evil.example.com", out);
	n = dns_query("_dmarc.a-b.test", q);
	CHECK("'_' and '-' are a name's", hs_dns_query_name(q, n, out) &&
					   strcmp(out, "_dmarc.a-b.test") == 0);
	/* cut short: no type and class after the name */
	CHECK("cut short: none", !hs_dns_query_name(q, n - 2, out));
	/* a response (QR set), another opcode, two questions */
	n = dns_query("a.test", q);
	q[2] |= 0x80;
	CHECK("a response: none", !hs_dns_query_name(q, n, out));
	q[2] = 0x01 | (2 << 3);
	CHECK("another opcode: none", !hs_dns_query_name(q, n, out));
	q[2] = 0x01;
	q[5] = 2;
	CHECK("two questions: none", !hs_dns_query_name(q, n, out));
	/* a label over 63 bytes, one running past the end, a byte no name
	 * has, an empty name (the root) */
	memset(long_label, 'a', 70);
	long_label[70] = '\0';
	n = dns_query(long_label, q);
	CHECK("a label over 63 bytes: none", !hs_dns_query_name(q, n, out));
	n = dns_query("a.test", q);
	q[12] = 60;
	CHECK("a label past the end: none", !hs_dns_query_name(q, n, out));
	n = dns_query("a b.test", q);
	CHECK("a space: none", !hs_dns_query_name(q, n, out));
	n = dns_query("", q);
	CHECK("the root: none", !hs_dns_query_name(q, n, out));
	CHECK("HTTP bytes: none",
	      !hs_dns_query_name((const unsigned char *)"GET / HTTP/1.1\r\n"
						      "Host: x\r\n\r\n",
			       27, out));
	CHECK_DONE();
}
