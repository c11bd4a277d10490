/* A static program's connects for tests/integration/network.sh, from the
 * ways a caller could hide one from the floor:
 *   net_static_connect PORT plain      connect 127.0.0.1:PORT from main
 *   net_static_connect PORT after      ... once FILE (argv[3]) exists
 *   net_static_connect PORT reexec     connect, then exec itself (the same
 *                                      task) with HOOKSHIM_ROLE=tool added
 *                                      and connect again ("plain")
 *   net_static_connect PORT threadexec as reexec, the exec made by a second
 *                                      thread (it takes the leader's tid)
 *   net_static_connect PORT leaderless connect from a second thread after
 *                                      the main thread has exited (its
 *                                      /proc/TGID entries are gone)
 *   net_static_connect PORT sendto     a UDP datagram to 127.0.0.1:PORT by
 *                                      sendto, without a connect
 *   net_static_connect PORT sendmsg    ... by sendmsg
 *   net_static_connect PORT sendmsgN   ... N of them (for bench/net_bench.sh)
 *   net_static_connect PORT sendmmsg   two datagrams by one sendmmsg: to
 *                                      127.0.0.1:PORT, then to 127.0.0.2:PORT
 *   net_static_connect PORT fastopen   TCP Fast Open: sendto(MSG_FASTOPEN)
 *                                      on an unconnected TCP socket
 *   net_static_connect PORT namelen    sendmsg with msg_namelen 5000 (the
 *                                      kernel cuts it to 128 and sends)
 *   net_static_connect PORT lenhigh    raw sendto whose 64-bit length has
 *                                      high bits (the kernel reads an int)
 *   net_static_connect PORT raw        a UDP datagram to PORT built by
 *                                      hand on a raw socket whose sockaddr
 *                                      names port 7 (root)
 *   net_static_connect PORT fake:NAME  send a DNS query for NAME on a
 *                                      socketpair (no DNS server sees it),
 *                                      then connect to 127.0.0.1:PORT
 *   net_static_connect PORT NAME       look NAME up as musl does (a query
 *                                      by sendto to /etc/resolv.conf's
 *                                      first nameserver, no connect), then
 *                                      connect to its first A record
 * Prints "connect=0" or "connect=ERRNO" (for sendmmsg the count sent, or
 * -ERRNO). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/probes/dns_query.h"

static int port;

static void *one(void *arg)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((unsigned short)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), r;

	(void)arg;
	if (arg) /* leaderless: let main be gone first */
		usleep(200000);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	printf("connect=%d\n", r == 0 ? 0 : errno);
	fflush(stdout);
	if (arg)
		exit(0);
	return NULL;
}

/* The sends: their result as connect= prints it. */
static int sends(const char *how)
{
	struct sockaddr_in sa[2] = {
		{ .sin_family = AF_INET, .sin_port = htons((unsigned short)port) },
		{ .sin_family = AF_INET, .sin_port = htons((unsigned short)port) },
	};
	struct iovec iov = { .iov_base = "hello\n", .iov_len = 6 };
	struct mmsghdr mm[2];
	bool tfo = strcmp(how, "fastopen") == 0;
	int fd = socket(AF_INET, tfo ? SOCK_STREAM : SOCK_DGRAM, 0);
	ssize_t r;

	inet_pton(AF_INET, "127.0.0.1", &sa[0].sin_addr);
	inet_pton(AF_INET, "127.0.0.2", &sa[1].sin_addr);
	memset(mm, 0, sizeof(mm));
	for (int i = 0; i < 2; i++) {
		mm[i].msg_hdr.msg_name = &sa[i];
		mm[i].msg_hdr.msg_namelen = sizeof(sa[i]);
		mm[i].msg_hdr.msg_iov = &iov;
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	if (strcmp(how, "sendmmsg") == 0) {
		r = sendmmsg(fd, mm, 2, 0);
		return r < 0 ? -errno : (int)r;
	}
	if (strcmp(how, "namelen") == 0) {
		mm[0].msg_hdr.msg_namelen = 5000;
		r = sendmsg(fd, &mm[0].msg_hdr, 0);
		return r < 0 ? errno : 0;
	}
	if (strcmp(how, "lenhigh") == 0) {
		r = syscall(SYS_sendto, fd, "hello\n", 6, 0, &sa[0],
			    (1UL << 32) | sizeof(sa[0]));
		return r < 0 ? errno : 0;
	}
	if (strcmp(how, "raw") == 0) {
		unsigned char pkt[8 + 6] = { 0x30, 0x39 }; /* from port 12345 */
		int rfd = socket(AF_INET, SOCK_RAW, IPPROTO_UDP);

		pkt[2] = (unsigned char)(port >> 8), pkt[3] = (unsigned char)port;
		pkt[5] = sizeof(pkt);
		memcpy(pkt + 8, "hello\n", 6);
		sa[0].sin_port = htons(7);
		if (rfd < 0)
			return -1000 - errno;
		r = sendto(rfd, pkt, sizeof(pkt), 0, (struct sockaddr *)&sa[0],
			   sizeof(sa[0]));
		return r < 0 ? errno : 0;
	}
	if (strncmp(how, "sendmsg", 7) == 0) {
		long times = how[7] ? atol(how + 7) : 1;

		r = 0;
		for (long i = 0; i < times && r >= 0; i++)
			r = sendmsg(fd, &mm[0].msg_hdr, 0);
	} else {
		r = sendto(fd, "hello\n", 6, tfo ? MSG_FASTOPEN : 0,
			   (struct sockaddr *)&sa[0], sizeof(sa[0]));
	}
	return r < 0 ? errno : 0;
}

/* NAME's first A record into *in, asked as musl asks: 0 or -1. */
static int lookup(const char *name, struct in_addr *in)
{
	unsigned char q[300], a[512];
	char line[256], ns[64] = "";
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(53) };
	FILE *f = fopen("/etc/resolv.conf", "r");
	size_t n;
	ssize_t got;
	int fd;

	while (f && fgets(line, sizeof(line), f))
		if (!ns[0] && sscanf(line, "nameserver %63s", ns) == 1)
			break;
	if (f)
		fclose(f);
	if (!ns[0] || inet_pton(AF_INET, ns, &sa.sin_addr) != 1)
		return -1;
	n = dns_query(name, q);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (sendto(fd, q, n, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (got = recv(fd, a, sizeof(a), 0)) < (ssize_t)(n + 16))
		return -1;
	close(fd);
	/* the answer's first record follows the question; its address is
	 * its last four bytes (one A record, a compressed name) */
	memcpy(in, a + n + 12, 4);
	return 0;
}

/* argv[0] PORT plain, with HOOKSHIM_ROLE=tool in the environment */
static void *reexec(void *arg)
{
	extern char **environ;
	char **argv = arg, *env[256], *args[] = { argv[0], argv[1], "plain", NULL };
	int n = 0;

	for (char **e = environ; *e && n < 254; e++)
		if (strncmp(*e, "HOOKSHIM_ROLE=", 14) != 0)
			env[n++] = *e;
	env[n++] = "HOOKSHIM_ROLE=tool";
	env[n] = NULL;
	execve("/proc/self/exe", args, env);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3)
		return 2;
	port = atoi(argv[1]);
	if (strcmp(argv[2], "plain") == 0) {
		one(NULL);
		return 0;
	}
	if (strcmp(argv[2], "reexec") == 0 || strcmp(argv[2], "threadexec") == 0) {
		one(NULL);
		if (argv[2][0] == 't') {
			pthread_create(&t, NULL, reexec, argv);
			for (;;)
				pause(); /* the exec ends this thread */
		}
		reexec(argv);
		return 1;
	}
	if (strcmp(argv[2], "after") == 0 && argc > 3) {
		for (int i = 0; i < 1000 && access(argv[3], F_OK) != 0; i++)
			usleep(10000);
		one(NULL);
		return 0;
	}
	if (strncmp(argv[2], "fake:", 5) == 0) {
		struct sockaddr_in sa = { .sin_family = AF_INET,
					  .sin_port = htons((unsigned short)port) };
		unsigned char q[300];
		struct iovec iov = { .iov_base = q };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
		int sv[2], fd = socket(AF_INET, SOCK_STREAM, 0);

		iov.iov_len = dns_query(argv[2] + 5, q);
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0 ||
		    sendmsg(sv[0], &m, 0) < 0)
			return 1;
		inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
		printf("connect=%d\n",
		       connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0
			       ? 0
			       : errno);
		return 0;
	}
	if (strchr(argv[2], '.')) {
		struct sockaddr_in sa = { .sin_family = AF_INET,
					  .sin_port = htons((unsigned short)port) };
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (lookup(argv[2], &sa.sin_addr) < 0) {
			printf("lookup failed\n");
			return 1;
		}
		printf("connect=%d\n",
		       connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0
			       ? 0
			       : errno);
		return 0;
	}
	if (strcmp(argv[2], "leaderless") != 0) {
		printf("connect=%d\n", sends(argv[2]));
		return 0;
	}
	pthread_create(&t, NULL, one, (void *)1);
	pthread_exit(NULL);
}
