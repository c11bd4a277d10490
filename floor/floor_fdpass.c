/* One int and one descriptor over a unix socket, child to parent: the
 * floor's listener after its install (floor_install.c), the agent's user
 * namespace after it is made (floor_userns.c). The sending side is
 * async-signal-safe (a fork child of a process with threads). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "floor_int.h"

/* One message child -> parent: the result, and the descriptor with it. */
bool hs_fl_send_result(int sock, int result, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &result, .iov_len = sizeof(result) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while ((n = sendmsg(sock, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(result);
}

/* The parent's side of hs_fl_send_result: the result, *fd the descriptor
 * (or -1). -EPIPE when the child died before saying anything. */
int hs_fl_recv_result(int sock, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	int result = -EPIPE;
	struct iovec iov = { .iov_base = &result, .iov_len = sizeof(result) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	ssize_t n;

	*fd = -1;
	while ((n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0 &&
	       errno == EINTR)
		;
	if (n != (ssize_t)sizeof(result))
		return -EPIPE;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
	     c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	return result;
}
