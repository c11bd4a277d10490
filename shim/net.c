/* A command's outbound connections as events (docs/network.md, issue
 * 28): a connect(2) of a TCP or UDP socket to an IPv4 or IPv6 address,
 * by a process of a command the agent runs (role "tool" or "handoff";
 * the agent's own too with network_agent: its model, its own fetch
 * tool), asks the session about (protocol, host, address, port) when
 * some pre hook names the dialect's WebFetch tool (HS_INTEREST_NET_PRE);
 * the supervisor answers the agent's model endpoint and excluded
 * destinations without a hook (supervisor/net_cache.h). A denied connect
 * fails with the session's answer (ECONNREFUSED) and says why on stderr,
 * which is the model's tool result.
 *
 * The host is the name this process asked getaddrinfo for, when one of
 * its answers is the address (a small table, newest first); else the
 * address itself. Allowed destinations are kept in-process, so a
 * thousand connections to one server ask once per process (and the
 * supervisor answers each new process from its own cache, without a
 * hook: supervisor/net_cache.h). Both tables share a lock held only for a
 * copy; a connect that cannot take it soon (a signal handler interrupting
 * its own thread) asks as if nothing were known, with the bare address.
 * The supervisor resolves the name again itself (a process controls its
 * own resolver) and keeps it only if it leads to the address. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "../common/plainstr.h"
#include "client.h"
#include "floor_calls.h"
#include "real.h"
#include "reason.h"
#include "state.h"
#include "write.h"

#define NNAMES 64
#define NALLOWED 64

/* An address as family + 16 bytes (IPv4 in the first 4). */
struct where {
	unsigned char fam;
	unsigned char addr[16];
};

static struct {
	struct where w;
	char name[256];
} names[NNAMES];
static unsigned names_next;

static struct {
	struct where w;
	unsigned long host; /* the name's hash: another name for the same
			     * address is another destination */
	unsigned short port;
	unsigned char udp;
	bool used;
} allowed[NALLOWED];
static unsigned allowed_next;

static int lock_word;

static bool lock_try(void)
{
	return !__atomic_test_and_set(&lock_word, __ATOMIC_ACQUIRE);
}

/* The lock, waited for a while: another thread holds it only for a copy.
 * False when it stays taken (held by this thread, interrupted by a
 * signal handler, or by a thread that no longer exists in a fork child
 * -- net_fork_child frees it there). */
static bool lock_wait(void)
{
	for (int i = 0; i < 100000; i++)
		if (lock_try())
			return true;
	return false;
}

static void net_fork_child(void)
{
	__atomic_clear(&lock_word, __ATOMIC_RELEASE);
}

/* FNV-1a of s: the allowed table's name key. */
static unsigned long name_hash(const char *s)
{
	unsigned long h = 14695981039346656037ul;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ul;
	return h;
}

static void unlock(void)
{
	__atomic_clear(&lock_word, __ATOMIC_RELEASE);
}

/* Does this process's connect ask at all? */
static bool wanted(void)
{
	const struct hs_state *st = hs_state();

	return st->active && (st->interest & HS_INTEREST_NET_PRE) &&
	       (st->role != HS_ROLE_AGENT ||
		(st->interest & HS_INTEREST_NET_AGENT));
}

/* sa as a where and a port; an IPv4-mapped IPv6 address is the IPv4 one
 * (node connects so). False for any other family. */
static bool where_of(const struct sockaddr *sa, socklen_t len,
		     struct where *w, unsigned short *port)
{
	memset(w, 0, sizeof(*w));
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)sa;

		w->fam = AF_INET;
		memcpy(w->addr, &in->sin_addr, 4);
		*port = ntohs(in->sin_port);
		return true;
	}
	/* the kernel takes an IPv6 address without its scope id (RFC 2133's
	 * 24 bytes) */
	if (sa->sa_family == AF_INET6 &&
	    len >= offsetof(struct sockaddr_in6, sin6_scope_id)) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		*port = ntohs(in6->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			w->fam = AF_INET;
			memcpy(w->addr, in6->sin6_addr.s6_addr + 12, 4);
		} else {
			w->fam = AF_INET6;
			memcpy(w->addr, &in6->sin6_addr, 16);
		}
		return true;
	}
	return false;
}

static bool same(const struct where *a, const struct where *b)
{
	return a->fam == b->fam && memcmp(a->addr, b->addr, 16) == 0;
}

/* The name this process resolved to w, into out (256 bytes); "" when
 * none is known (or the table is busy). */
static void name_of(const struct where *w, char *out)
{
	out[0] = '\0';
	if (!lock_wait())
		return;
	for (unsigned i = 0; i < NNAMES; i++) {
		unsigned k = (names_next + NNAMES - 1 - i) % NNAMES;

		if (names[k].name[0] && same(&names[k].w, w)) {
			hs_copy(out, names[k].name, hs_len(names[k].name) + 1);
			break;
		}
	}
	unlock();
}

static bool was_allowed(const struct where *w, unsigned long host,
			unsigned short port, bool udp)
{
	bool yes = false;

	if (!lock_try())
		return false;
	for (unsigned i = 0; i < NALLOWED && !yes; i++)
		yes = allowed[i].used && allowed[i].port == port &&
		      allowed[i].udp == udp && allowed[i].host == host &&
		      same(&allowed[i].w, w);
	unlock();
	return yes;
}

static void remember_allowed(const struct where *w, unsigned long host,
			     unsigned short port, bool udp)
{
	if (!lock_try())
		return;
	allowed[allowed_next].w = *w;
	allowed[allowed_next].host = host;
	allowed[allowed_next].port = port;
	allowed[allowed_next].udp = udp;
	allowed[allowed_next].used = true;
	allowed_next = (allowed_next + 1) % NALLOWED;
	unlock();
}

/* "host:port" ("[v6]:port") into out, for the message. */
static void dest_text(const char *host, unsigned short port, char *out,
		      size_t cap)
{
	char num[16];
	bool v6 = strchr(host, ':') != NULL;
	size_t n = 0, k = hs_len(host);

	if (k + 24 > cap)
		k = cap - 24;
	if (v6)
		out[n++] = '[';
	memcpy(out + n, host, k);
	n += k;
	if (v6)
		out[n++] = ']';
	out[n++] = ':';
	hs_utoa(port, num);
	hs_copy(out + n, num, hs_len(num) + 1);
}

/* 0: let the connect go on; -1: denied, errno set. */
static int judge(int fd, const struct sockaddr *sa, socklen_t len)
{
	char addr[INET6_ADDRSTRLEN], host[256], id[64], dest[300];
	unsigned short port;
	struct hs_reply rep;
	struct where w;
	int type = 0;
	socklen_t tl = sizeof(type);
	bool udp;

	if (!where_of(sa, len, &w, &port) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 ||
	    (type != SOCK_STREAM && type != SOCK_DGRAM))
		return 0;
	udp = type == SOCK_DGRAM;
	name_of(&w, host);
	if (was_allowed(&w, name_hash(host), port, udp))
		return 0;
	if (!inet_ntop(w.fam, w.addr, addr, sizeof(addr)))
		return 0;
	hs_make_id(id);
	hs_ask(&(struct hs_msg){ .op = "connect", .phase = "pre", .nested = -1,
				 .id = id, .host = host[0] ? host : NULL,
				 .address = addr, .port = port,
				 .proto = udp ? "udp" : "tcp" },
	       &rep);
	if (!rep.deny) {
		/* (an allow because nobody answered is not a decision) */
		if (!rep.failed)
			remember_allowed(&w, name_hash(host), port, udp);
		return 0;
	}
	dest_text(host[0] ? host : addr, port, dest, sizeof(dest));
	hs_say_denied("connection to", dest, rep.reason);
	hs_reason_set(rep.deny_errno ? rep.deny_errno : ECONNREFUSED,
		      rep.reason);
	errno = rep.deny_errno ? rep.deny_errno : ECONNREFUSED;
	return -1;
}

/* The connect itself: with the cookie under a floor that judges
 * connections, which then lets it through (floor/floor_bpf.c) -- in
 * enforce mode it judges it again, and the session answers from this
 * process's own request (supervisor/net_cache.h). */
static int forward(int fd, const struct sockaddr *sa, socklen_t len)
{
	if (hs_ck_on() && (hs_st.interest & HS_INTEREST_NET_PRE))
		return (int)hs_ck_call(SYS_connect, fd, (long)sa, (long)len, 0,
				       0);
	return HS_REAL(connect)(fd, sa, len);
}

HS_VIS int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	int r;
	HS_ERRNO_SAVE();

	if (hs_guarded() || !sa ||
	    (sa->sa_family != AF_INET && sa->sa_family != AF_INET6) ||
	    !wanted())
		return forward(fd, sa, len);
	hs_guard_enter();
	r = judge(fd, sa, len);
	hs_guard_leave();
	if (r < 0)
		return -1;
	HS_ERRNO_RESTORE();
	return forward(fd, sa, len);
}

/* The names node resolved to, for the connects that follow. */
static void remember_names(const char *node, const struct addrinfo *res)
{
	struct in6_addr probe;
	size_t n = hs_len(node);

	if (!n || n >= sizeof(names[0].name) ||
	    inet_pton(AF_INET, node, &probe) == 1 ||
	    inet_pton(AF_INET6, node, &probe) == 1)
		return; /* an address is its own name */
	static int atfork;

	if (!__atomic_exchange_n(&atfork, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, NULL, net_fork_child);
	if (!lock_wait())
		return;
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		struct where w;
		unsigned short port;
		unsigned last = (names_next + NNAMES - 1) % NNAMES;

		if (!ai->ai_addr || !where_of(ai->ai_addr, ai->ai_addrlen, &w,
					      &port))
			continue;
		/* one entry per address, not per socket type it came with */
		if (same(&names[last].w, &w) && hs_same(names[last].name, node))
			continue;
		names[names_next].w = w;
		hs_copy(names[names_next].name, node, n + 1);
		names_next = (names_next + 1) % NNAMES;
	}
	unlock();
}

HS_VIS int getaddrinfo(const char *node, const char *service,
		       const struct addrinfo *hints, struct addrinfo **res)
{
	int r = HS_REAL(getaddrinfo)(node, service, hints, res);
	HS_ERRNO_SAVE();

	if (r == 0 && node && res && *res && !hs_guarded() && wanted())
		remember_names(node, *res);
	HS_ERRNO_RESTORE();
	return r;
}
