/* See netdest.h. */
#include "netdest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/glob.h"

bool hs_netdest_parse(const char *s, struct hs_netdest *d)
{
	const char *p = strstr(s, "://"), *end, *colon = NULL, *at;
	size_t hl;

	memset(d, 0, sizeof(*d));
	d->port = d->scheme_port = -1;
	if (p) {
		d->scheme_port = strncasecmp(s, "https:", 6) == 0 ? 443 : 80;
		d->udp = strncasecmp(s, "udp:", 4) == 0;
		p += 3;
		end = p + strcspn(p, "/?#");
		if ((at = memchr(p, '@', (size_t)(end - p)))) /* user:pass@ */
			p = at + 1;
	} else {
		p = s;
		end = s + strlen(s);
	}
	if (p < end && *p == '[') { /* [v6] */
		const char *rb = memchr(p, ']', (size_t)(end - p));

		if (!rb)
			return false;
		hl = (size_t)(rb - p - 1);
		p++;
		if (rb + 1 < end && rb[1] == ':')
			colon = rb + 1;
	} else {
		colon = memchr(p, ':', (size_t)(end - p));
		/* two colons: a bare IPv6 address, no port */
		if (colon && memchr(colon + 1, ':', (size_t)(end - colon - 1)))
			colon = NULL;
		hl = (size_t)((colon ? colon : end) - p);
	}
	if (!hl || hl >= sizeof(d->host))
		return false;
	memcpy(d->host, p, hl);
	d->host[hl] = '\0';
	if (colon)
		d->port = atoi(colon + 1);
	return true;
}

bool hs_netdest_names(const char *glob, size_t n, const struct hs_event *ev)
{
	char pat[256], host[256];
	size_t i;

	if (n >= sizeof(pat))
		return false;
	for (i = 0; i < n; i++)
		pat[i] = (char)tolower((unsigned char)glob[i]);
	pat[n] = '\0';
	if (ev->host && strlen(ev->host) < sizeof(host)) {
		for (i = 0; ev->host[i]; i++)
			host[i] = (char)tolower((unsigned char)ev->host[i]);
		host[i] = '\0';
		if (hs_glob_match(pat, host, false))
			return true;
	}
	return ev->address && hs_glob_match(pat, ev->address, false);
}

/* The name a DNS query asks for (RFC 1035 4.1: a header saying one
 * question of a standard query, then its labels), lowercase, into out
 * (256 bytes); false when buf is no such query. Only letters, digits,
 * '-' and '_' are taken: the name is a hint the supervisor resolves
 * again before any hook sees it. */
bool hs_dns_query_name(const unsigned char *buf, size_t n, char *out)
{
	size_t at = 12, k = 0;

	out[0] = '\0';
	if (n < 12 + 1 + 4 || (buf[2] & 0xf8) != 0 || buf[4] != 0 ||
	    buf[5] != 1)
		return false; /* a response, another opcode, not one question */
	while (at < n && buf[at] != 0) {
		size_t len = buf[at++];

		if (len > 63 || at + len > n || k + len + 1 > 254)
			return false;
		for (size_t i = 0; i < len; i++) {
			unsigned char c = buf[at + i];

			if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			      c == '-' || c == '_'))
				return false;
			out[k++] = (char)c;
		}
		out[k++] = '.';
		at += len;
	}
	if (k == 0 || at + 1 + 4 > n)
		return false;
	out[k - 1] = '\0';
	return true;
}
