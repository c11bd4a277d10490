/* See net_cache.h. */
#include "net_cache.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../engine/netdest.h"

void hs_net_cache_init(struct hs_net_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->keep = -1;
	pthread_mutex_init(&c->mu, NULL);
}

void hs_net_cache_destroy(struct hs_net_cache *c)
{
	for (unsigned i = 0; i < HS_NET_SLOTS; i++) {
		free(c->slot[i].key);
		free(c->slot[i].reason);
		free(c->granted[i]);
	}
	pthread_mutex_destroy(&c->mu);
}

/* "PROTO HOST ADDRESS PORT", malloc'd. */
static char *key_of(const struct hs_event *ev)
{
	char *k;

	if (asprintf(&k, "%s %s %s %d", ev->protocol ? ev->protocol : "",
		     ev->host ? ev->host : "", ev->address ? ev->address : "",
		     ev->port) < 0)
		return NULL;
	return k;
}

bool hs_net_cache_get(struct hs_net_cache *c, const struct hs_event *ev,
		      bool *deny, int *deny_errno, char **reason)
{
	char *k = key_of(ev);
	bool found = false;

	if (!k)
		return false;
	pthread_mutex_lock(&c->mu);
	for (unsigned i = 0; i < HS_NET_SLOTS && !found; i++) {
		const struct hs_net_entry *e = &c->slot[i];

		if (!e->key || strcmp(e->key, k) != 0)
			continue;
		if (c->keep >= 0 && hs_now_ms() - e->at >= c->keep * 1000L)
			break; /* too old: asked again, kept anew */
		found = true;
		*deny = e->deny;
		*deny_errno = e->deny_errno;
		*reason = e->reason ? strdup(e->reason) : NULL;
	}
	pthread_mutex_unlock(&c->mu);
	free(k);
	return found;
}

void hs_net_cache_put(struct hs_net_cache *c, const struct hs_event *ev,
		      bool deny, int deny_errno, const char *reason)
{
	char *k = key_of(ev), *r = deny && reason ? strdup(reason) : NULL;
	struct hs_net_entry *e = NULL;

	if (!k || c->keep == 0) {
		free(k);
		free(r);
		return;
	}
	pthread_mutex_lock(&c->mu);
	for (unsigned i = 0; i < HS_NET_SLOTS && !e; i++)
		if (c->slot[i].key && strcmp(c->slot[i].key, k) == 0)
			e = &c->slot[i];
	for (unsigned i = 0; i < HS_NET_SLOTS && !e; i++)
		if (!c->slot[i].key)
			e = &c->slot[i];
	if (!e) { /* full: the oldest goes */
		e = &c->slot[c->next];
		c->next = (c->next + 1) % HS_NET_SLOTS;
	}
	free(e->key);
	free(e->reason);
	e->key = k;
	e->at = hs_now_ms();
	e->deny = deny;
	e->deny_errno = deny_errno;
	e->reason = r;
	pthread_mutex_unlock(&c->mu);
}

static char *grant_key(const struct hs_event *ev)
{
	char *k;

	if (asprintf(&k, "%ld %s %s %d", (long)ev->pid,
		     ev->protocol ? ev->protocol : "",
		     ev->address ? ev->address : "", ev->port) < 0)
		return NULL;
	return k;
}

void hs_net_grant(struct hs_net_cache *c, const struct hs_event *ev)
{
	char *k = grant_key(ev);

	if (!k)
		return;
	pthread_mutex_lock(&c->mu);
	for (unsigned i = 0; i < HS_NET_SLOTS; i++)
		if (c->granted[i] && strcmp(c->granted[i], k) == 0) {
			pthread_mutex_unlock(&c->mu);
			free(k);
			return;
		}
	free(c->granted[c->granted_next]);
	c->granted[c->granted_next] = k;
	c->granted_next = (c->granted_next + 1) % HS_NET_SLOTS;
	pthread_mutex_unlock(&c->mu);
}

bool hs_net_granted(struct hs_net_cache *c, const struct hs_event *ev)
{
	char *k = grant_key(ev);
	bool yes = false;

	if (!k)
		return false;
	pthread_mutex_lock(&c->mu);
	for (unsigned i = 0; i < HS_NET_SLOTS && !yes; i++)
		yes = c->granted[i] && strcmp(c->granted[i], k) == 0;
	pthread_mutex_unlock(&c->mu);
	free(k);
	return yes;
}

/* Does s -- "HOST[:PORT]" (HOST a glob) or a URL, whose port is its
 * scheme's when none is written -- name ev's destination? No port: any. */
static bool names_dest(const char *s, const struct hs_event *ev)
{
	struct hs_netdest d;
	int want;

	if (!hs_netdest_parse(s, &d))
		return false;
	want = d.port >= 0 ? d.port : d.scheme_port;
	return (want < 0 || want == ev->port) &&
	       hs_netdest_names(d.host, strlen(d.host), ev);
}

/* The system's resolvers: the nameserver lines of /etc/resolv.conf,
 * read once (the supervisor's view, which is the session's). */
static pthread_once_t resolvers_once = PTHREAD_ONCE_INIT;
static char resolvers[8][64];
static int nresolvers;

static void read_resolvers(void)
{
	char line[256], addr[64];
	FILE *f = fopen("/etc/resolv.conf", "re");

	while (f && nresolvers < 8 && fgets(line, sizeof(line), f))
		if (sscanf(line, " nameserver %63s", addr) == 1)
			snprintf(resolvers[nresolvers++], sizeof(resolvers[0]),
				 "%s", addr);
	if (f)
		fclose(f);
}

/* Is ev a DNS query to one of the system's resolvers? libc's resolver
 * connects to them for every name a command looks up, which the floor
 * sees: a policy on destinations would otherwise have to allow them by
 * address, and one that does not would break every lookup. */
static bool system_resolver(const struct hs_event *ev)
{
	if (ev->port != 53 || !ev->address)
		return false;
	pthread_once(&resolvers_once, read_resolvers);
	for (int i = 0; i < nresolvers; i++)
		if (strcmp(resolvers[i], ev->address) == 0)
			return true;
	return false;
}

bool hs_net_excluded(const struct hs_config *cfg, const struct hs_event *ev)
{
	/* where agents read their model's endpoint (their own docs) */
	static const char *const model_vars[] = {
		"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE",
		"GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL",
		"COPILOT_PROVIDER_BASE_URL", "OLLAMA_HOST", NULL
	};
	if (system_resolver(ev))
		return true;
	for (int i = 0; model_vars[i]; i++) {
		const char *v = getenv(model_vars[i]);

		if (v && names_dest(v, ev))
			return true;
	}
	for (char **e = cfg->settings.net_exclude; e && *e; e++)
		if (names_dest(*e, ev))
			return true;
	return false;
}

bool hs_net_resolves_to(const char *name, const char *address)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	unsigned char want[16], got[16];
	bool found = false;
	int fam = strchr(address, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(fam, address, want) != 1)
		return false;
	hints.ai_family = fam;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return false;
	for (struct addrinfo *ai = res; ai && !found; ai = ai->ai_next) {
		if (fam == AF_INET && ai->ai_family == AF_INET)
			memcpy(got, &((struct sockaddr_in *)(void *)ai->ai_addr)
					     ->sin_addr, 4);
		else if (fam == AF_INET6 && ai->ai_family == AF_INET6)
			memcpy(got, &((struct sockaddr_in6 *)(void *)ai->ai_addr)
					     ->sin6_addr, 16);
		else
			continue;
		found = memcmp(got, want, fam == AF_INET ? 4 : 16) == 0;
	}
	freeaddrinfo(res);
	return found;
}

void hs_net_verify_host(struct hs_event *ev)
{
	if (!ev->host || !ev->address || strcmp(ev->host, ev->address) == 0)
		return;
	if (!hs_net_resolves_to(ev->host, ev->address))
		ev->host = ev->address;
}

char *hs_net_command_of(long pid)
{
	char path[48], buf[2048];
	ssize_t n;
	int fd;

	if (pid <= 0)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return strdup(buf);
}
