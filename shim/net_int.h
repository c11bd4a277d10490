/* What shim/net.c (a connection's pre) and shim/net_post.c (its end)
 * share: how a destination is named. Private to the two. */
#ifndef HOOKSHIM_SHIM_NET_INT_H
#define HOOKSHIM_SHIM_NET_INT_H

#include <arpa/inet.h>
#include <stdbool.h>

/* An address as family + 16 bytes (IPv4 in the first 4). */
struct where {
	unsigned char fam;
	unsigned char addr[16];
};

/* A destination as the events name it. */
struct dest {
	struct where w;
	unsigned short port;
	bool udp;
	char host[256]; /* the name this process looked up, or "" */
	char addr[INET6_ADDRSTRLEN]; /* "" until needed (numeric) */
	char id[64]; /* the pre's tool_use_id, or "" */
};

/* net_post.c: the connections a post hook waits for. Is fd one of this
 * process's? */
bool hs_net_tracked(int fd);
/* fd's connect went on (made, in progress): followed from t0 until it
 * ends. A connection followed on fd before ends first. */
void hs_net_track(int fd, const struct dest *d, long t0);
/* fd's connection ended with error err (-1: the socket's own): its post
 * now, when it is followed. */
void hs_net_ended(int fd, int err);
/* A connect that failed at once with err: its post-failure. */
void hs_net_failed(int fd, const struct dest *d, long t0, int err);

#endif
