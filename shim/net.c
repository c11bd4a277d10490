/* A command's outbound connections as events (docs/network.md, issue
 * 28): a connect(2) of a TCP or UDP socket to an IPv4 or IPv6 address,
 * by a process of a command the agent runs (role "tool" or "handoff";
 * the agent's own too with network_agent: its model, its own fetch
 * tool), asks the session about (protocol, host, address, port) when
 * some pre hook names the dialect's WebFetch tool (HS_INTEREST_NET_PRE);
 * the supervisor answers the agent's model endpoint and excluded
 * destinations without a hook (supervisor/net_cache.h). So does a
 * datagram sent without a connect (sendto, sendmsg, sendmmsg naming a
 * destination) and TCP Fast Open's connect by a send. A denied call
 * fails with the session's answer (ECONNREFUSED) and says why on stderr,
 * which is the model's tool result. With a post hook on the fetch tool,
 * a connection is followed until it ends (close and the other calls that
 * end a descriptor, or the process's exit) and its post carries the
 * bytes TCP carried.
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
#include <unistd.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "client.h"
#include "floor_calls.h"
#include "net.h"
#include "net_int.h"
#include "real.h"
#include "reason.h"
#include "state.h"
#include "write.h"

#define NNAMES 64
#define NALLOWED 64


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

static void net_fork_child(void)
{
	__atomic_clear(&lock_word, __ATOMIC_RELEASE);
}

static void atfork_once(void)
{
	static int atfork;

	if (!__atomic_exchange_n(&atfork, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, NULL, net_fork_child);
}

/* Does this process's connection ask at all: before it (bit
 * HS_INTEREST_NET_PRE), or at its end (HS_INTEREST_NET_POST)? The
 * agent's own only with network_agent. */
static bool wants(unsigned bit)
{
	const struct hs_state *st = hs_state();

	return st->active && (st->interest & bit) &&
	       (st->role != HS_ROLE_AGENT ||
		(st->interest & HS_INTEREST_NET_AGENT));
}

static bool wanted(void)
{
	return wants(HS_INTEREST_NET_PRE);
}

static bool wanted_post(void)
{
	return wants(HS_INTEREST_NET_POST);
}

/* sa as a where and a port; an IPv4-mapped IPv6 address is the IPv4 one
 * (node connects so), and an AF_UNSPEC one an IPv4 one (an IPv4 UDP
 * socket sends to it so; connect() never gets here with one: it is a
 * disconnect there). False for any other family. */
static bool where_of(const struct sockaddr *sa, socklen_t len,
		     struct where *w, unsigned short *port)
{
	memset(w, 0, sizeof(*w));
	if ((sa->sa_family == AF_INET || sa->sa_family == AF_UNSPEC) &&
	    len >= sizeof(struct sockaddr_in)) {
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
	if (hs_st.net_nokeep || !lock_try())
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


/* Is (sa, len) on fd an event at all? d filled when it is. A send
 * (sendto, sendmsg, sendmmsg with a destination) is one on a datagram
 * socket, and on a stream socket only as TCP Fast Open (MSG_FASTOPEN: its
 * connect; otherwise the kernel ignores the address). */
static bool describe(int fd, const struct sockaddr *sa, socklen_t len,
		     bool send, int flags, struct dest *d)
{
	int type = 0;
	socklen_t tl = sizeof(type);

	if (!where_of(sa, len, &d->w, &d->port))
		return false;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0)
		type = 0;
	/* a send on any socket but a stream one is a datagram's (raw ones
	 * too, and what cannot be told); a connect, TCP's unless the socket
	 * is a datagram one */
	d->udp = send ? type != SOCK_STREAM
		      : type == SOCK_DGRAM || type == SOCK_RAW;
	if (send && !d->udp && !(flags & MSG_FASTOPEN))
		return false;
	/* a raw socket's packet carries its own port: judged by address */
	if (type == SOCK_RAW)
		d->port = 0;
	/* (the text of the address only once it is asked about) */
	d->addr[0] = '\0';
	name_of(&d->w, d->host);
	d->id[0] = '\0';
	return true;
}

/* The pre of d: 0 let the call go on, -1 denied (errno set). */
static int ask_pre(struct dest *d, bool send)
{
	char dest[300];
	struct hs_reply rep;
	bool datagram = send && d->udp;

	if (was_allowed(&d->w, name_hash(d->host), d->port, d->udp))
		return 0;
	if (!inet_ntop(d->w.fam, d->w.addr, d->addr, sizeof(d->addr)))
		return 0;
	hs_make_id(d->id);
	hs_ask(&(struct hs_msg){ .op = "connect", .phase = "pre", .nested = -1,
				 .id = d->id,
				 .host = d->host[0] ? d->host : NULL,
				 .address = d->addr, .port = d->port,
				 .proto = d->udp ? "udp" : "tcp",
				 .operation = datagram ? "send" : NULL },
	       &rep);
	if (!rep.deny) {
		/* (an allow because nobody answered is not a decision) */
		if (!rep.failed)
			remember_allowed(&d->w, name_hash(d->host), d->port,
					 d->udp);
		return 0;
	}
	dest_text(d->host[0] ? d->host : d->addr, d->port, dest, sizeof(dest));
	hs_say_denied(datagram ? "datagram to" : "connection to", dest,
		      rep.reason);
	hs_reason_set(rep.deny_errno ? rep.deny_errno : ECONNREFUSED,
		      rep.reason);
	errno = rep.deny_errno ? rep.deny_errno : ECONNREFUSED;
	return -1;
}

/* A send's destination: 0 go on, -1 denied (errno set); *d and
 * *event say what it was, for a Fast Open connect's post. */
static int judge_send(int fd, const struct sockaddr *sa, socklen_t len,
		      int flags, struct dest *d, bool *event)
{
	*event = describe(fd, sa, len, true, flags, d);
	return *event && wanted() ? ask_pre(d, true) : 0;
}

/* The session's floor judges connections: forward with the cookie,
 * which it lets through (floor/floor_bpf.c) -- in enforce mode it judges
 * the call again, and the session answers from this process's own
 * request (supervisor/net_cache.h). */
static bool cookied(void)
{
	return hs_ck_on() && (hs_st.interest & HS_INTEREST_NET_PRE);
}

/* The connect itself. */
static int forward(int fd, const struct sockaddr *sa, socklen_t len)
{
	if (cookied())
		return (int)hs_ck_call(SYS_connect, fd, (long)sa, (long)len, 0,
				       0);
	return HS_REAL(connect)(fd, sa, len);
}

static bool inet(const struct sockaddr *sa)
{
	return sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6);
}

HS_VIS int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct dest d;
	bool pre, postw, event;
	long t0;
	int r;
	HS_ERRNO_SAVE();

	if (!inet(sa) || hs_guarded())
		return forward(fd, sa, len);
	pre = wanted();
	postw = wanted_post();
	if (!pre && !postw)
		return forward(fd, sa, len);
	hs_guard_enter();
	event = describe(fd, sa, len, false, 0, &d);
	r = event && pre ? ask_pre(&d, false) : 0;
	hs_guard_leave();
	if (r < 0)
		return -1;
	HS_ERRNO_RESTORE();
	t0 = hs_now_ms();
	r = forward(fd, sa, len);
	if (event && postw && !hs_guarded()) {
		int e = errno;

		/* a retry of a connect already followed (non-blocking:
		 * EALREADY, EISCONN, 0) keeps it; one that fails ends it */
		if (hs_net_tracked(fd)) {
			if (r < 0 && e != EALREADY && e != EISCONN &&
			    e != EINPROGRESS && e != EINTR)
				hs_net_ended(fd, e);
		} else if (r == 0 || e == EINPROGRESS || e == EINTR) {
			/* (a connect EINTR stops goes on in the kernel) */
			hs_net_track(fd, &d, t0);
		} else if (e != EALREADY && e != EISCONN) {
			hs_net_failed(fd, &d, t0, e); /* at once */
		}
		errno = e;
	}
	return r;
}

/* A send's destination as the kernel may take it: IPv4, IPv6, and an
 * AF_UNSPEC sockaddr (IPv4 to an IPv4 UDP socket). */
static bool send_inet(const struct sockaddr *sa, socklen_t len)
{
	return sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6 ||
		      (sa->sa_family == AF_UNSPEC &&
		       len >= sizeof(struct sockaddr_in)));
}

/* May a send go to the kernel with the cookie? Only when its destination
 * is none or one this file judges, of a length the kernel takes as it
 * is: anything else goes without it, and the floor sees it. */
static bool send_cookied(const struct sockaddr *sa, socklen_t len)
{
	return cookied() && (!sa || (send_inet(sa, len) &&
				     len <= sizeof(struct sockaddr_storage)));
}

/* The send is judged (a pre hook or a post hook waits for it)? */
static bool send_asks(const struct sockaddr *sa, socklen_t len)
{
	return send_inet(sa, len) && !hs_guarded() &&
	       (wanted() || wanted_post());
}

/* A Fast Open connect made by a send: followed for its post, as a
 * connect is. */
static void send_done(int fd, const struct dest *d, bool event, int flags,
		      ssize_t r, long t0)
{
	int e = errno;

	if (event && !d->udp && (flags & MSG_FASTOPEN) && wanted_post() &&
	    !hs_guarded() && (r >= 0 || e == EINPROGRESS))
		hs_net_track(fd, d, t0);
	errno = e;
}

/* sendto's six arguments leave no room for the cookie: an allowed one
 * with a destination goes to the kernel as the sendmsg it is there (one
 * without is not notified). A length sendmsg would read otherwise (0:
 * none at all) goes as it is. */
HS_VIS ssize_t sendto(int fd, const void *buf, size_t n, int flags,
		      const struct sockaddr *sa, socklen_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
	struct msghdr m = { .msg_name = (void *)sa, .msg_namelen = len,
			    .msg_iov = &iov, .msg_iovlen = 1 };
	struct dest d;
	bool event = false;
	long t0 = 0;
	ssize_t r;
	HS_ERRNO_SAVE();

	if (send_asks(sa, len)) {
		hs_guard_enter();
		r = judge_send(fd, sa, len, flags, &d, &event);
		hs_guard_leave();
		if (r < 0)
			return -1;
		HS_ERRNO_RESTORE();
		t0 = hs_now_ms();
	}
	if (sa && len > 0 && send_cookied(sa, len))
		r = hs_ck_call(SYS_sendmsg, fd, (long)&m, flags, 0, 0);
	else
		r = HS_REAL(sendto)(fd, buf, n, flags, sa, len);
	send_done(fd, &d, event, flags, r, t0);
	return r;
}

HS_VIS ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	struct dest d;
	bool event = false;
	long t0 = 0;
	ssize_t r;
	HS_ERRNO_SAVE();

	if (m && send_asks(m->msg_name, m->msg_namelen)) {
		hs_guard_enter();
		r = judge_send(fd, m->msg_name, m->msg_namelen, flags, &d,
			       &event);
		hs_guard_leave();
		if (r < 0)
			return -1;
		HS_ERRNO_RESTORE();
		t0 = hs_now_ms();
	}
	if (m && send_cookied(m->msg_name, m->msg_namelen))
		r = hs_ck_call(SYS_sendmsg, fd, (long)m, flags, 0, 0);
	else
		r = HS_REAL(sendmsg)(fd, m, flags);
	send_done(fd, &d, event, flags, r, t0);
	return r;
}

/* Each message's destination is judged in order; the messages before a
 * denied one are sent (the kernel's partial send: their count), or,
 * when it is the first, the call fails. */
HS_VIS int sendmmsg(int fd, struct mmsghdr *v, unsigned vlen, int flags)
{
	struct dest d;
	bool event, cookie = cookied();
	unsigned k = 0;
	HS_ERRNO_SAVE();

	if (v && !hs_guarded() && wanted()) {
		hs_guard_enter();
		for (; k < vlen; k++)
			if (send_inet(v[k].msg_hdr.msg_name,
				      v[k].msg_hdr.msg_namelen) &&
			    judge_send(fd, v[k].msg_hdr.msg_name,
				       v[k].msg_hdr.msg_namelen, flags, &d,
				       &event) < 0)
				break;
		hs_guard_leave();
		if (k == 0 && vlen > 0)
			return -1;
		vlen = k;
		HS_ERRNO_RESTORE();
	}
	for (unsigned i = 0; v && cookie && i < vlen; i++)
		cookie = send_cookied(v[i].msg_hdr.msg_name,
				      v[i].msg_hdr.msg_namelen);
	if (cookie)
		return (int)hs_ck_call(SYS_sendmmsg, fd, (long)v, vlen, flags,
				       0);
	return HS_REAL(sendmmsg)(fd, v, vlen, flags);
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
	atfork_once();
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

	if (r == 0 && node && res && *res && !hs_guarded() &&
	    (wanted() || wanted_post()))
		remember_names(node, *res);
	HS_ERRNO_RESTORE();
	return r;
}
