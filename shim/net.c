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
#include <unistd.h>
#include <linux/tcp.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "client.h"
#include "floor_calls.h"
#include "net.h"
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

/* A destination as the events name it. */
struct dest {
	struct where w;
	unsigned short port;
	bool udp;
	char host[256]; /* the name this process looked up, or "" */
	char addr[INET6_ADDRSTRLEN]; /* "" until needed (numeric) */
	char id[64]; /* the pre's tool_use_id, or "" */
};

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

/* Does this process's connection close ask (a post hook names the
 * fetch tool)? */
static bool wanted_post(void)
{
	const struct hs_state *st = hs_state();

	return st->active && (st->interest & HS_INTEREST_NET_POST) &&
	       (st->role != HS_ROLE_AGENT ||
		(st->interest & HS_INTEREST_NET_AGENT));
}

/* The connections this process opened that a post hook waits for: the
 * PostToolUse fires when one ends (close, and the other calls that end a
 * descriptor: dup2's target, close_range, fclose, syscall(SYS_close)), or
 * when the process exits (hs_net_exiting). Kept by the pid that opened
 * them, so that a fork child's copy, or a vfork child sharing the table,
 * reports nothing. */
#define NCONNS 64

static struct conn {
	pid_t pid; /* 0: free */
	int fd;
	long t0;
	struct dest d;
} conns[NCONNS];

static void atfork_once(void)
{
	static int atfork;

	if (!__atomic_exchange_n(&atfork, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, NULL, net_fork_child);
}

/* Is fd one of this process's followed connections? */
static bool tracked(int fd, pid_t me)
{
	bool yes = false;

	if (!hs_st.net_conns || !lock_wait())
		return false;
	for (unsigned i = 0; i < NCONNS && !yes; i++)
		yes = conns[i].pid == me && conns[i].fd == fd;
	unlock();
	return yes;
}

/* Takes fd's entry (any entry of me's with fd -1) out of the table into
 * *c: false when there is none. */
static bool untrack(int fd, pid_t me, struct conn *c)
{
	bool found = false;

	if (!lock_wait())
		return false;
	for (unsigned i = 0; i < NCONNS && !found; i++)
		if (conns[i].pid == me && (fd < 0 || conns[i].fd == fd)) {
			*c = conns[i];
			conns[i].pid = 0;
			found = true;
		}
	unlock();
	return found;
}

/* The kernel's TCP states (include/net/tcp_states.h): linux/tcp.h, which
 * has tcp_info's byte counts, does not name them, and netinet/tcp.h,
 * which does, clashes with it. */
enum { ST_SYN_SENT = 2, ST_FIN_WAIT2 = 5, ST_TIME_WAIT = 6, ST_CLOSE = 7,
       ST_CLOSE_WAIT = 8, ST_LAST_ACK = 9, ST_CLOSING = 11 };

/* TCP's counts without its control flags: the SYN is acknowledged as a
 * byte, and so is a FIN each way once it is (states of RFC 793; a closed
 * connection is taken as closed by FINs, so one ended by a reset counts
 * a byte less). */
static void tcp_counts(const struct tcp_info *ti, long *sent, long *received)
{
	unsigned char st = ti->tcpi_state;

	*sent = (long)ti->tcpi_bytes_acked;
	*received = (long)ti->tcpi_bytes_received;
	if (*sent > 0)
		(*sent)--; /* our SYN */
	if (*sent > 0 &&
	    (st == ST_FIN_WAIT2 || st == ST_TIME_WAIT || st == ST_CLOSE))
		(*sent)--; /* our FIN */
	if (*received > 0 &&
	    (st == ST_CLOSE_WAIT || st == ST_LAST_ACK || st == ST_CLOSING ||
	     st == ST_TIME_WAIT || st == ST_CLOSE))
		(*received)--; /* theirs */
}

/* The PostToolUse of c, its socket still open: the bytes TCP carried
 * (acknowledged by the peer, and received); a connection that never
 * reached its peer is a post-failure. err: the connect's own error, or
 * -1 to read the socket's. Told, not asked: the call is over, and the
 * closing thread waits for nobody. */
static void post(const struct conn *c, int err)
{
	struct tcp_info ti;
	socklen_t tl = sizeof(ti), el = sizeof(int);
	char id[64], why[48], num[24], addr[INET6_ADDRSTRLEN];
	bool reached = true;
	struct hs_msg req = { .op = "connect", .nested = -1,
			      .host = c->d.host[0] ? c->d.host : NULL,
			      .address = addr, .port = c->d.port,
			      .proto = c->d.udp ? "udp" : "tcp",
			      .duration_ms = hs_now_ms() - c->t0 };

	if (!inet_ntop(c->d.w.fam, c->d.w.addr, addr, sizeof(addr)))
		return;
	memset(&ti, 0, sizeof(ti));
	if (!c->d.udp &&
	    getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &ti, &tl) == 0 &&
	    tl >= offsetof(struct tcp_info, tcpi_bytes_received) +
			    sizeof(ti.tcpi_bytes_received)) {
		tcp_counts(&ti, &req.sent, &req.received);
		req.has_sent = req.has_received = true;
		/* still connecting, or closed before any byte came back
		 * from a peer it never reached (a client that read the
		 * socket's error itself took it: curl does) */
		reached = ti.tcpi_state != ST_SYN_SENT &&
			  ti.tcpi_bytes_acked + ti.tcpi_bytes_received > 0;
		if (!reached && err < 0 && ti.tcpi_state == ST_SYN_SENT)
			err = EINPROGRESS;
	}
	if (err < 0 && getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0)
		err = 0;
	if (err < 0)
		err = 0;
	if (!reached && !err) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);

		if (getpeername(c->fd, (struct sockaddr *)&peer, &pl) != 0 &&
		    errno == ENOTCONN)
			err = ECONNREFUSED;
	}
	req.phase = err && !reached ? "post-failure" : "post";
	if (err) {
		hs_copy(why, "the connection failed: errno ", 30);
		hs_utoa((unsigned long)err, num);
		hs_copy(why + 29, num, hs_len(num) + 1);
		if (err == EINPROGRESS)
			hs_copy(why, "closed before it was made", 26);
		req.error = why;
	}
	if (c->d.id[0]) {
		req.id = c->d.id;
	} else {
		hs_make_id(id);
		req.id = id;
	}
	hs_tell(&req);
}

/* fd is followed: a new connect on it (a retry, or its number reused
 * unseen) ends the old one first. */
static void track(int fd, const struct dest *d, long t0)
{
	pid_t me = getpid();
	unsigned at = NCONNS;
	struct conn old;

	atfork_once();
	if (untrack(fd, me, &old))
		post(&old, -1);
	if (!lock_wait())
		return;
	for (unsigned i = 0; i < NCONNS && at == NCONNS; i++)
		if (conns[i].pid != me) /* free, or a fork parent's */
			at = i;
	if (at < NCONNS) {
		conns[at] = (struct conn){ .pid = me, .fd = fd, .t0 = t0,
					   .d = *d };
		hs_st.net_conns = true;
	}
	unlock();
}

void hs_net_closing(int fd)
{
	struct conn c;
	HS_ERRNO_SAVE();

	if (fd >= 0 && !hs_guarded() && untrack(fd, getpid(), &c)) {
		hs_guard_enter();
		post(&c, -1);
		hs_guard_leave();
	}
	HS_ERRNO_RESTORE();
}

void hs_net_exiting(void)
{
	struct conn c;
	pid_t me = getpid();
	HS_ERRNO_SAVE();

	if (hs_guarded())
		return;
	hs_guard_enter();
	while (untrack(-1, me, &c))
		post(&c, -1);
	hs_guard_leave();
	HS_ERRNO_RESTORE();
}

void hs_net_closing_range(unsigned lo, unsigned hi)
{
	pid_t me;
	int fds[NCONNS], n = 0;

	if (!hs_st.net_conns || hs_guarded() || !lock_wait())
		return;
	me = getpid();
	for (unsigned i = 0; i < NCONNS; i++)
		if (conns[i].pid == me && conns[i].fd >= 0 &&
		    (unsigned)conns[i].fd >= lo && (unsigned)conns[i].fd <= hi)
			fds[n++] = conns[i].fd;
	unlock();
	for (int i = 0; i < n; i++)
		hs_net_closing(fds[i]);
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
		if (tracked(fd, getpid())) {
			if (r < 0 && e != EALREADY && e != EISCONN &&
			    e != EINPROGRESS && e != EINTR) {
				struct conn c;

				if (untrack(fd, getpid(), &c)) {
					hs_guard_enter();
					post(&c, e);
					hs_guard_leave();
				}
			}
		} else if (r == 0 || e == EINPROGRESS || e == EINTR) {
			/* (a connect EINTR stops goes on in the kernel) */
			track(fd, &d, t0);
		} else if (e != EALREADY && e != EISCONN) {
			/* failed at once: its post-failure now */
			struct conn c = { .pid = getpid(), .fd = fd, .t0 = t0,
					  .d = d };

			hs_guard_enter();
			post(&c, e);
			hs_guard_leave();
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
		track(fd, d, t0);
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
