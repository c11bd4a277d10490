/* A connection's end as its PostToolUse (docs/network.md, "When it
 * closes"): with a post hook on the fetch tool, each connection a
 * process of the session makes is followed until the call that ends its
 * descriptor (close, fclose, syscall(SYS_close), close_range,
 * closefrom, dup2 onto it; write.c calls hs_net_closing), a new connect
 * on it, or the process's exit; its post then says what TCP carried.
 * Async-signal-safe, as the rest of the shim: a fixed table, a lock held
 * only for a copy, no allocation. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/tcp.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "client.h"
#include "net.h"
#include "net_int.h"
#include "state.h"

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

static int lock_word;

/* The table's lock, held only for a copy: waited for a while; false when
 * it stays taken (this thread interrupted by a signal handler, or a
 * thread gone in a fork child -- fork_child frees it there). */
static bool lock_wait(void)
{
	for (int i = 0; i < 100000; i++)
		if (!__atomic_test_and_set(&lock_word, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

static void unlock(void)
{
	__atomic_clear(&lock_word, __ATOMIC_RELEASE);
}

static void fork_child(void)
{
	unlock();
}

static void atfork_once(void)
{
	static int atfork;

	if (!__atomic_exchange_n(&atfork, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, NULL, fork_child);
}

bool hs_net_tracked(int fd)
{
	pid_t me = getpid();
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
 * -1 to read the socket's. Told (hs_tell): nothing of the answer can
 * change a call that is over. */
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

void hs_net_track(int fd, const struct dest *d, long t0)
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

void hs_net_ended(int fd, int err)
{
	struct conn c;
	HS_ERRNO_SAVE();

	if (fd >= 0 && !hs_guarded() && untrack(fd, getpid(), &c)) {
		hs_guard_enter();
		post(&c, err);
		hs_guard_leave();
	}
	HS_ERRNO_RESTORE();
}

void hs_net_closing(int fd)
{
	hs_net_ended(fd, -1);
}

void hs_net_failed(int fd, const struct dest *d, long t0, int err)
{
	struct conn c = { .pid = getpid(), .fd = fd, .t0 = t0, .d = *d };
	HS_ERRNO_SAVE();

	if (!hs_guarded()) {
		hs_guard_enter();
		post(&c, err);
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

