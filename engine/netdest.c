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
