/* A connection the floor sees (docs/network.md, issue 28): a connect(2)
 * notified because it carried no cookie -- a static program's, a raw
 * syscall's, libc's own resolver's, or in enforce mode the shim's own
 * too. Two steps: on the receiver only the destination is read from the
 * stopped caller (its sockaddr: an IPv4 or IPv6 address, an IPv4-mapped
 * one as the IPv4 one); on the deciding thread, the rest -- its socket's
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
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/wire.h"

int hs_fl_net_read(const struct seccomp_notif *n, struct hs_fl_net *out)
{
	unsigned char buf[sizeof(struct sockaddr_in6)];
	uint64_t len = n->data.args[2];
	sa_family_t fam;

	memset(out, 0, sizeof(*out));
	if (n->data.nr != SYS_connect)
		return 0;
	if (len < sizeof(sa_family_t) || len > 4096)
		return 0; /* the kernel refuses it (EINVAL) */
	if (len > sizeof(buf))
		len = sizeof(buf);
	memset(buf, 0, sizeof(buf));
	if (hs_fl_read((pid_t)n->pid, n->data.args[1], buf, sizeof(fam)) < 0)
		return -1;
	memcpy(&fam, buf, sizeof(fam));
	if (fam != AF_INET && fam != AF_INET6)
		return 0; /* a unix socket, AF_UNSPEC: no destination */
	if (hs_fl_read((pid_t)n->pid, n->data.args[1], buf, (size_t)len) < 0)
		return -1;
	if (fam == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, buf, sizeof(in));
		out->port = ntohs(in.sin_port);
		inet_ntop(AF_INET, &in.sin_addr, out->address,
			  sizeof(out->address));
	} else if (fam == AF_INET6 &&
		   len >= offsetof(struct sockaddr_in6, sin6_scope_id)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, buf, sizeof(in6));
		out->port = ntohs(in6.sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
			inet_ntop(AF_INET, in6.sin6_addr.s6_addr + 12,
				  out->address, sizeof(out->address));
		else
			inet_ntop(AF_INET6, &in6.sin6_addr, out->address,
				  sizeof(out->address));
	} else {
		return 0; /* too short: the kernel refuses it */
	}
	out->tid = (pid_t)n->pid;
	out->fd = (int)n->data.args[0];
	return out->address[0] ? 1 : 0;
}

/* Is the socket fd of thread tid a datagram one? Through a pidfd of
 * the thread (PIDFD_THREAD, 6.9) or its process; false (TCP) when it
 * cannot be told. Never opens the caller's descriptor by name (a FIFO
 * would block). */
static bool is_udp(pid_t tid, int fd)
{
	int pfd = (int)syscall(SYS_pidfd_open, tid, O_EXCL /* PIDFD_THREAD */);
	int sfd = -1, type = 0;
	socklen_t tl = sizeof(type);

	if (pfd < 0) {
		pid_t tgid = hs_fl_tgid(tid);

		pfd = tgid > 0 ? (int)syscall(SYS_pidfd_open, tgid, 0) : -1;
	}
	if (pfd >= 0) {
		sfd = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);
		close(pfd);
	}
	if (sfd < 0)
		return false;
	if (getsockopt(sfd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0)
		type = 0;
	close(sfd);
	return type == SOCK_DGRAM;
}

/* A command's process: role "tool" or "handoff" in its environment. */
static bool command_role(pid_t pid)
{
	char role[16];

	return hs_fl_environ(pid, HS_ENV_ROLE, role, sizeof(role)) &&
	       (strcmp(role, "tool") == 0 || strcmp(role, "handoff") == 0);
}

/* Can tid's environment be read at all (a thread's own entry: its main
 * thread may be gone, or the process not dumpable)? */
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
	d->tgid = hs_fl_tgid(d->tid);
	if (d->tgid <= 0)
		d->tgid = d->tid;
	d->udp = is_udp(d->tid, d->fd);
	d->agent = !agent_too && agent_own(d->tid, agent);
}
