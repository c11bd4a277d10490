/* A connection the floor sees (docs/network.md, issue 28): a connect(2),
 * or a sendto/sendmsg/sendmmsg with a destination (a datagram sent
 * without a connect; TCP Fast Open), notified because it carried no
 * cookie -- a static program's, a raw syscall's, libc's own resolver's,
 * or in enforce mode the shim's own too. Two steps: on the receiver only
 * the destinations are read from the stopped caller (its sockaddrs: an
 * IPv4 or IPv6 address, an IPv4-mapped one as the IPv4 one), with the
 * name a DNS query it sends asks for (the floor's only sight of a static
 * program's lookups: glibc's resolver sends its queries by sendmmsg,
 * musl's by sendto); on the deciding thread, the rest -- its socket's
 * type and whether it is the agent's own connection -- so that nothing a
 * caller can make slow (a huge environment, a descriptor that blocks
 * when opened) holds up the session.
 *
 * The agent's own connections are events only with network_agent. A
 * process is the agent's only when that is known: it is the agent, or
 * its parents lead to the agent with no command's process (role "tool"
 * or "handoff") on the way. A role stripped from a command's
 * environment, a process whose parents cannot be read, one re-parented
 * away: all judged. What cannot be read is judged as TCP by its address;
 * a destination that cannot be read is refused (nothing to judge). The
 * sockaddr is read once: another thread of the caller may change it
 * before an allowed connect continues in the kernel (the swap race
 * docs/limits.md names for paths). */
#include "floor_int.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/wire.h"
#include "../engine/netdest.h"
#include "../supervisor/net_cache.h"

/* One sockaddr of len bytes at addr (the kernel's int: its low 32 bits),
 * added to out's destinations unless there already: 1 added or there, 0
 * no destination (another family, a length the kernel refuses), -1
 * unreadable or one too many. A send's AF_UNSPEC sockaddr is an IPv4
 * one (an IPv4 UDP socket sends to it so; a connect with one is a
 * disconnect). */
static int add_dest(pid_t tid, uint64_t addr, uint64_t len64, bool msg,
		    struct hs_fl_net *out)
{
	uint64_t len = (uint32_t)len64;
	unsigned char buf[sizeof(struct sockaddr_in6)];
	char address[64] = "";
	sa_family_t fam;
	int port = 0;

	/* a msghdr's name longer than a sockaddr_storage is cut to one (the
	 * kernel's copy_msghdr_from_user); connect's and sendto's is EINVAL */
	if (msg && len > sizeof(struct sockaddr_storage))
		len = sizeof(struct sockaddr_storage);
	if (len < sizeof(sa_family_t) || len > 4096)
		return 0; /* the kernel refuses it (EINVAL) */
	if (len > sizeof(buf))
		len = sizeof(buf);
	memset(buf, 0, sizeof(buf));
	if (hs_fl_read(tid, addr, buf, sizeof(fam)) < 0)
		return -1;
	memcpy(&fam, buf, sizeof(fam));
	if (fam == AF_UNSPEC && out->send)
		fam = AF_INET;
	if (fam != AF_INET && fam != AF_INET6)
		return 0; /* a unix socket, a connect's AF_UNSPEC: none */
	if (hs_fl_read(tid, addr, buf, (size_t)len) < 0)
		return -1;
	if (fam == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, buf, sizeof(in));
		port = ntohs(in.sin_port);
		inet_ntop(AF_INET, &in.sin_addr, address, sizeof(address));
	} else if (fam == AF_INET6 &&
		   len >= offsetof(struct sockaddr_in6, sin6_scope_id)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, buf, sizeof(in6));
		port = ntohs(in6.sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
			inet_ntop(AF_INET, in6.sin6_addr.s6_addr + 12, address,
				  sizeof(address));
		else
			inet_ntop(AF_INET6, &in6.sin6_addr, address,
				  sizeof(address));
	}
	if (!address[0])
		return 0; /* too short: the kernel refuses it */
	for (int i = 0; i < out->ndest; i++)
		if (out->dest[i].port == port &&
		    strcmp(out->dest[i].address, address) == 0)
			return 1;
	if (out->ndest == HS_FL_NET_DESTS)
		return -1;
	memcpy(out->dest[out->ndest].address, address, sizeof(address));
	out->dest[out->ndest++].port = port;
	return 1;
}

/* The first bytes of what is sent from iov (the caller's struct iovec
 * at addr, or a plain buffer when is_iov is false), for a DNS query's
 * name; unreadable is no name. */
static void sent_name(pid_t tid, uint64_t addr, uint64_t len, bool is_iov,
		      struct hs_fl_net *out)
{
	unsigned char buf[300];
	struct iovec iov;

	if (is_iov) {
		if (!addr || len == 0 ||
		    hs_fl_read(tid, addr, &iov, sizeof(iov)) < 0)
			return;
		addr = (uint64_t)(uintptr_t)iov.iov_base;
		len = iov.iov_len;
	}
	if (!addr || len < 17)
		return;
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (hs_fl_read(tid, addr, buf, (size_t)len) == 0)
		hs_dns_query_name(buf, (size_t)len, out->qname);
}

/* A sendmsg's (or one message's of a sendmmsg) destination, and for the
 * first message the name a DNS query in it asks for. */
static int add_msg(pid_t tid, const struct msghdr *m, bool first,
		   struct hs_fl_net *out)
{
	if (first)
		sent_name(tid, (uint64_t)(uintptr_t)m->msg_iov, m->msg_iovlen,
			  true, out);
	if (!m->msg_name)
		return 0;
	return add_dest(tid, (uint64_t)(uintptr_t)m->msg_name, m->msg_namelen,
			true, out);
}

/* A sendmmsg's messages, as many as the kernel takes (UIO_MAXIOV), read
 * a batch at a time. */
static int add_mmsg(pid_t tid, uint64_t at, uint64_t vlen,
		    struct hs_fl_net *out)
{
	struct mmsghdr batch[32];
	int any = 0;

	if (vlen > 1024)
		vlen = 1024;
	for (uint64_t i = 0; i < vlen;) {
		size_t k = vlen - i < 32 ? (size_t)(vlen - i) : 32;

		if (hs_fl_read(tid, at + i * sizeof(batch[0]), batch,
			       k * sizeof(batch[0])) < 0)
			return -1;
		for (size_t j = 0; j < k; j++) {
			int r = add_msg(tid, &batch[j].msg_hdr,
					 i + j == 0, out);

			if (r < 0)
				return -1;
			any |= r;
		}
		i += k;
	}
	return any;
}

int hs_fl_net_read(const struct seccomp_notif *n, struct hs_fl_net *out)
{
	pid_t tid = (pid_t)n->pid;
	const __u64 *a = n->data.args;
	struct msghdr m;
	int r;

	memset(out, 0, sizeof(*out));
	out->tid = tid;
	out->fd = (int)a[0];
	switch (n->data.nr) {
	case SYS_connect:
		r = add_dest(tid, a[1], a[2], false, out);
		break;
	case SYS_sendto:
		out->send = true;
		out->fastopen = (a[3] & MSG_FASTOPEN) != 0;
		r = a[4] ? add_dest(tid, a[4], a[5], false, out) : 0;
		if (r > 0 && out->dest[0].port == 53)
			sent_name(tid, a[1], a[2], false, out);
		break;
	case SYS_sendmsg:
		out->send = true;
		out->fastopen = (a[2] & MSG_FASTOPEN) != 0;
		if (hs_fl_read(tid, a[1], &m, sizeof(m)) < 0)
			return -1;
		r = add_msg(tid, &m, true, out);
		break;
	case SYS_sendmmsg:
		out->send = true;
		out->fastopen = (a[3] & MSG_FASTOPEN) != 0;
		r = add_mmsg(tid, a[1], (uint32_t)a[2], out);
		break;
	default:
		return 0;
	}
	return r;
}

/* The type of thread tid's socket fd (SOCK_STREAM, ...), or 0 when it
 * cannot be told. */
static int sock_type(pid_t tid, int fd)
{
	int sfd = hs_fl_thread_fd(tid, fd, false), type = 0;
	socklen_t tl = sizeof(type);

	if (sfd < 0)
		return 0;
	if (getsockopt(sfd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0)
		type = 0;
	close(sfd);
	return type;
}

bool hs_fl_net_dns_peer(pid_t tid, int fd)
{
	int sfd = hs_fl_thread_fd(tid, fd, false);
	struct sockaddr_storage peer;
	socklen_t pl = sizeof(peer);
	bool yes = false;

	if (sfd < 0)
		return false;
	if (getpeername(sfd, (struct sockaddr *)&peer, &pl) == 0) {
		if (peer.ss_family == AF_INET)
			yes = ntohs(((struct sockaddr_in *)&peer)->sin_port) == 53;
		else if (peer.ss_family == AF_INET6)
			yes = ntohs(((struct sockaddr_in6 *)&peer)->sin6_port) ==
			      53;
	}
	close(sfd);
	return yes;
}

/* A command's process: role "tool" or "handoff" in its environment (as
 * claimed: a command's connections are judged, the agent's own are not),
 * and in enforce mode also one the floor saw made a command's whatever
 * its environment says (floor_lineage.c: a static agent's tool call sets
 * no role, and a command may drop its own). */
static bool command_role(pid_t pid)
{
	char role[16];

	return (hs_fl_role_claimed(pid, role, sizeof(role)) &&
		(strcmp(role, "tool") == 0 || strcmp(role, "handoff") == 0)) ||
	       (hs_fl_lineage_on() && hs_fl_lineage_command(hs_fl_tgid(pid)));
}

/* Can tid's environment be read at all (a thread's own entry: its main
 * thread may be gone, or the process not dumpable)? Read now, not from
 * what floor_task.c keeps: the main thread may have exited since. */
static bool environ_readable(pid_t tid)
{
	char path[48], c;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, &c, 1);
	close(fd);
	return n == 1;
}

/* Is tid's process the agent's own: its environment readable and no
 * command's, and the agent itself or reached from it through parents
 * none of which is a command's? */
static bool agent_own(pid_t tid, pid_t agent)
{
	struct hs_proc_stat st;
	pid_t p = hs_fl_tgid(tid);

	if (agent <= 0 || !environ_readable(tid) || command_role(tid))
		return false;
	for (int depth = 0; p > 1 && depth < 64; depth++) {
		if (p == agent)
			return true;
		if (hs_proc_stat(p, &st) != 0)
			return false;
		p = (pid_t)st.ppid;
		if (p > 1 && command_role(p))
			return false;
	}
	return false;
}

void hs_fl_net_finish(struct hs_fl_net *d, pid_t agent, bool agent_too)
{
	int type;

	d->tgid = hs_fl_tgid(d->tid);
	if (d->tgid <= 0)
		d->tgid = d->tid;
	type = sock_type(d->tid, d->fd);
	/* a send on a socket of a type that cannot be told, or raw, is a
	 * datagram's; a connect's, TCP's */
	d->stream = type == SOCK_STREAM;
	d->raw = type == SOCK_RAW;
	d->udp = type == SOCK_DGRAM || type == SOCK_RAW ||
		 (d->send && !d->stream);
	d->agent = !agent_too && agent_own(d->tid, agent);
}

/* The names the processes' DNS queries asked for, newest last; and the
 * datagrams' destinations lately allowed, by thread. */
#define NAMES 64
#define SENT 64

struct hs_fl_netmem {
	pthread_mutex_t mu;
	struct {
		pid_t tgid;
		char name[256];
	} e[NAMES];
	unsigned next;
	struct {
		pid_t tid; /* 0: free */
		char address[64];
		int port;
		long at;
	} sent[SENT];
	unsigned sent_next;
	/* the supervisor's own lookups: does name lead to address? each
	 * asked once (a name is the caller's to choose, a lookup the
	 * session's time) */
	struct {
		char name[256]; /* "": free */
		char address[64];
		bool yes;
	} looked[NAMES];
	unsigned looked_next;
};

/* name -> address as looked up before: 1 yes, 0 no, -1 never asked. */
static int looked_up(struct hs_fl_netmem *t, const char *name,
		     const char *address)
{
	int r = -1;

	pthread_mutex_lock(&t->mu);
	for (unsigned i = 0; i < NAMES && r < 0; i++)
		if (strcmp(t->looked[i].name, name) == 0 &&
		    strcmp(t->looked[i].address, address) == 0)
			r = t->looked[i].yes;
	pthread_mutex_unlock(&t->mu);
	return r;
}

static void look_kept(struct hs_fl_netmem *t, const char *name,
		      const char *address, bool yes)
{
	size_t n = strlen(name), a = strlen(address);

	if (n >= sizeof(t->looked[0].name) ||
	    a >= sizeof(t->looked[0].address))
		return;
	pthread_mutex_lock(&t->mu);
	memcpy(t->looked[t->looked_next].name, name, n + 1);
	memcpy(t->looked[t->looked_next].address, address, a + 1);
	t->looked[t->looked_next].yes = yes;
	t->looked_next = (t->looked_next + 1) % NAMES;
	pthread_mutex_unlock(&t->mu);
}

struct hs_fl_netmem *hs_fl_netmem_new(void)
{
	struct hs_fl_netmem *t = calloc(1, sizeof(*t));

	if (t)
		pthread_mutex_init(&t->mu, NULL);
	return t;
}

void hs_fl_netmem_free(struct hs_fl_netmem *t)
{
	if (!t)
		return;
	pthread_mutex_destroy(&t->mu);
	free(t);
}

void hs_fl_names_add(struct hs_fl_netmem *t, pid_t tgid, const char *name)
{
	unsigned last;

	if (!t || tgid <= 0 || !name[0])
		return;
	pthread_mutex_lock(&t->mu);
	last = (t->next + NAMES - 1) % NAMES;
	if (t->e[last].tgid != tgid || strcmp(t->e[last].name, name) != 0) {
		t->e[t->next].tgid = tgid;
		snprintf(t->e[t->next].name, sizeof(t->e[0].name), "%s", name);
		t->next = (t->next + 1) % NAMES;
		/* a new name may name a kept address otherwise */
		memset(t->sent, 0, sizeof(t->sent));
	}
	pthread_mutex_unlock(&t->mu);
}

bool hs_fl_names_host(struct hs_fl_netmem *t, pid_t tgid, const char *address,
		      char *out)
{
	char cand[4][256];
	int n = 0;

	out[0] = '\0';
	if (!t || tgid <= 0)
		return false;
	pthread_mutex_lock(&t->mu);
	for (unsigned i = 0; i < NAMES && n < 4; i++) {
		unsigned k = (t->next + NAMES - 1 - i) % NAMES;
		bool seen = false;

		if (t->e[k].tgid != tgid || !t->e[k].name[0])
			continue;
		for (int j = 0; j < n && !seen; j++)
			seen = strcmp(cand[j], t->e[k].name) == 0;
		if (!seen)
			memcpy(cand[n++], t->e[k].name, sizeof(cand[0]));
	}
	pthread_mutex_unlock(&t->mu);
	/* resolved outside the lock (a lookup may take its time), each
	 * name and address once */
	for (int j = 0; j < n; j++) {
		int yes = looked_up(t, cand[j], address);

		if (yes < 0) {
			yes = hs_net_resolves_to(cand[j], address);
			look_kept(t, cand[j], address, yes);
		}
		if (yes) {
			memcpy(out, cand[j], sizeof(cand[0]));
			return true;
		}
	}
	return false;
}

/* Is destination i of d among its thread's datagrams lately allowed? */
static bool sent_has(const struct hs_fl_netmem *t, const struct hs_fl_net *d,
		     int i, int keep, long now)
{
	for (unsigned k = 0; k < SENT; k++)
		if (t->sent[k].tid == d->tid && t->sent[k].port == d->dest[i].port &&
		    strcmp(t->sent[k].address, d->dest[i].address) == 0)
			return keep < 0 || now - t->sent[k].at < keep * 1000L;
	return false;
}

bool hs_fl_sent_allowed(struct hs_fl_netmem *t, const struct hs_fl_net *d,
			int keep)
{
	long now = hs_now_ms();
	bool all = t && keep != 0 && d->send && !d->fastopen && d->ndest > 0;

	if (!all)
		return false;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < d->ndest && all; i++)
		all = sent_has(t, d, i, keep, now);
	pthread_mutex_unlock(&t->mu);
	return all;
}

void hs_fl_sent_keep(struct hs_fl_netmem *t, const struct hs_fl_net *d,
		     int keep)
{
	long now = hs_now_ms();

	if (!t || keep == 0 || !d->send || !d->udp || d->fastopen)
		return;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < d->ndest; i++) {
		unsigned k = t->sent_next;

		if (sent_has(t, d, i, -1, now))
			continue;
		t->sent[k].tid = d->tid;
		snprintf(t->sent[k].address, sizeof(t->sent[k].address), "%s",
			 d->dest[i].address);
		t->sent[k].port = d->dest[i].port;
		t->sent[k].at = now;
		t->sent_next = (k + 1) % SENT;
	}
	pthread_mutex_unlock(&t->mu);
}
