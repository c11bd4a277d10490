/* A connection the floor sees (docs/network.md, issue 28): a connect(2)
 * notified because it carried no cookie -- a static program's, a raw
 * syscall's, or in enforce mode the shim's own too -- read from the
 * stopped caller: its destination (an IPv4 or IPv6 address, an IPv4-mapped
 * one as the IPv4 one), its socket's type, and whether the caller is the
 * agent's own process (role from its environment, as the shim's: its
 * connections are events only with network_agent). floor.c asks the
 * session and answers. The sockaddr is read once; another thread of the
 * caller may change it before an allowed connect continues in the kernel
 * (the swap race docs/limits.md names for paths). */
#include "floor_int.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

bool hs_fl_net_read(const struct seccomp_notif *n, bool agent_too,
		    struct hs_fl_net *out)
{
	unsigned char buf[sizeof(struct sockaddr_in6)];
	uint64_t len = n->data.args[2];
	sa_family_t fam;
	int fd, type = 0;
	socklen_t tl = sizeof(type);
	pid_t tgid;
	char role[16];

	memset(out, 0, sizeof(*out));
	if (n->data.nr != SYS_connect)
		return false;
	if (len < sizeof(sa_family_t) || len > 4096)
		return false;
	if (len > sizeof(buf))
		len = sizeof(buf);
	memset(buf, 0, sizeof(buf));
	if (hs_fl_read((pid_t)n->pid, n->data.args[1], buf, (size_t)len) < 0)
		return false;
	memcpy(&fam, buf, sizeof(fam));
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
		return false;
	}
	tgid = hs_fl_tgid((pid_t)n->pid);
	if (tgid <= 0)
		return false;
	out->tgid = tgid;
	/* the socket's type, on the caller's own descriptor */
	fd = hs_fl_caller_fd(tgid, (int)n->data.args[0]);
	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 ||
	    (type != SOCK_STREAM && type != SOCK_DGRAM)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	out->udp = type == SOCK_DGRAM;
	if (!agent_too &&
	    (!hs_fl_environ(tgid, "HOOKSHIM_ROLE", role, sizeof(role)) ||
	     (strcmp(role, "tool") != 0 && strcmp(role, "handoff") != 0)))
		return false; /* the agent's own */
	return out->address[0] != '\0';
}
