/* The session's decisions on connections (docs/network.md): one per
 * destination -- protocol, host as the process named it, address, port --
 * so that a hook runs once per new destination, as issue 28 asks, and
 * every later connect to it is answered from here without a spawn. A
 * denial is kept with its reason and errno, so each refused connect
 * still says why. A full table forgets its oldest entry: that
 * destination is then asked again, never allowed unasked. */
#ifndef HOOKSHIM_SUPERVISOR_NET_CACHE_H
#define HOOKSHIM_SUPERVISOR_NET_CACHE_H

#include <pthread.h>
#include <stdbool.h>

#include "../engine/event.h"

#define HS_NET_SLOTS 1024

struct hs_net_cache {
	pthread_mutex_t mu;
	int keep; /* seconds a decision is kept: -1 the session, 0 never */
	struct hs_net_entry {
		char *key;    /* NULL: free */
		long at;      /* when kept (hs_now_ms) */
		bool deny;
		int deny_errno;
		char *reason; /* a denial's */
	} slot[HS_NET_SLOTS];
	unsigned next;
	/* destinations the shim of a process was allowed, by the name it
	 * resolved ("TGID PROTO ADDRESS PORT"): the floor's notification of
	 * that connect (enforce mode, where the cookie counts for nothing)
	 * is the same call, not a new one on a bare address */
	char *granted[HS_NET_SLOTS];
	unsigned granted_next;
};

void hs_net_cache_init(struct hs_net_cache *c);
void hs_net_cache_destroy(struct hs_net_cache *c);
/* The decision kept for ev's destination: true and *deny, *deny_errno,
 * *reason (malloc'd, NULL for an allow) when there is one. */
bool hs_net_cache_get(struct hs_net_cache *c, const struct hs_event *ev,
		      bool *deny, int *deny_errno, char **reason);
/* Keeps the decision for ev's destination. */
void hs_net_cache_put(struct hs_net_cache *c, const struct hs_event *ev,
		      bool deny, int deny_errno, const char *reason);

/* A process's shim was allowed ev's destination (ev->pid: its tgid);
 * and: was it, for the floor's notification of that connect? */
void hs_net_grant(struct hs_net_cache *c, const struct hs_event *ev);
bool hs_net_granted(struct hs_net_cache *c, const struct hs_event *ev);

/* Is ev's destination one that is no event: the agent's own model
 * endpoint, as its environment names it (ANTHROPIC_BASE_URL,
 * OPENAI_BASE_URL, ... : the session's environment is the agent's), or a
 * hookshim.network_exclude entry ("HOST[:PORT]", HOST a glob matched
 * without case against the host or the address)? */
bool hs_net_excluded(const struct hs_config *cfg, const struct hs_event *ev);

/* The host a process says it resolved is its own to say (LOCALDOMAIN,
 * RES_OPTIONS, its own /etc/hosts in a namespace of its own): the
 * supervisor resolves it itself and keeps it only when the address is
 * among its answers; otherwise the host becomes the address (a name no
 * rule can be fooled by). */
void hs_net_verify_host(struct hs_event *ev);
/* Does name resolve, by the supervisor's own resolver, to address (a
 * numeric IPv4 or IPv6 one)? */
bool hs_net_resolves_to(const char *name, const char *address);

/* The command line of process pid, its arguments joined by spaces
 * (malloc'd), for a connection's "command"; NULL when it is gone. */
char *hs_net_command_of(long pid);

#endif
