/* The floor's static writer: one file-system call per argument, made
 * straight to the kernel (a static binary: no shim can load in it), each
 * reported on stdout as "OP PATH: ok" or "OP PATH: <errno name>".
 *   open:P openat:P creat:P append:P trunc:P rename:A:B unlink:P
 *   mkdir:P rmdir:P link:A:B symlink:TEXT:P mknod:P fifo:P
 *   openat2:P rawopenat:P   (raw: syscall(SYS_openat) itself)
 *   write:P:TEXT           (create/truncate P and write TEXT)
 *   killed:P:TEXT          (the same, then SIGKILL before any close)
 *   uring                  (io_uring_setup)
 *   bind:P                 (a unix socket bound to P, then listened on
 *                          and connected to by that name: "notbound"
 *                          when the bind said ok but no socket is there)
 *   bindabs:NAME bindinet  (an abstract name; 127.0.0.1, any port)
 *   bindrace:A:B           (2,000 binds of fresh sockets to A while
 *                          another thread flips the address's name
 *                          between A and B; each A made is unlinked)
 *   bindfile:P bindinetunix:P  (a file's descriptor, an inet socket,
 *                          given P as a unix address: ENOTSOCK,
 *                          EAFNOSUPPORT, and no name judged)
 *   bindbadfd              (descriptor -1, an address at 8: EBADF first)
 *   bindnetlink            (a netlink socket bound to port 0: the port
 *                          the kernel gives is the process's id, else
 *                          "EPROTO")
 *   bindswap:D:T           (2,000 binds of fresh sockets to D/s while
 *                          another thread swaps directory D for a
 *                          symlink to T and back) */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ENOSYS: return "ENOSYS";
	case ENOTEMPTY: return "ENOTEMPTY";
	case EADDRINUSE: return "EADDRINUSE";
	case ENOTCONN: return "notbound";
	case ENOTSOCK: return "ENOTSOCK";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EBADF: return "EBADF";
	case EPROTO: return "EPROTO";
	default: return strerror(e);
	}
}

static void report(const char *op, const char *arg, long r)
{
	int e = errno;

	printf("%s %s: %s\n", op, arg, r < 0 ? ename(e) : "ok");
	fflush(stdout);
}

static long fdres(long fd)
{
	if (fd >= 0)
		close((int)fd);
	return fd;
}

static struct sockaddr_un unix_addr(const char *name)
{
	struct sockaddr_un u = { .sun_family = AF_UNIX };

	snprintf(u.sun_path, sizeof(u.sun_path), "%s", name);
	return u;
}

/* bind's answer, and then whether the socket is really there: listened
 * on and reached by its name (ENOTCONN: "notbound") */
static long bind_unix(const char *p, bool abstract)
{
	struct sockaddr_un u = unix_addr(abstract ? "" : p);
	socklen_t len = sizeof(u);
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c;
	long r;

	if (abstract) {
		snprintf(u.sun_path + 1, sizeof(u.sun_path) - 1, "%s", p);
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
				  strlen(p));
	}
	r = bind(s, (struct sockaddr *)&u, len);
	if (r == 0) {
		c = socket(AF_UNIX, SOCK_STREAM, 0);
		if (listen(s, 1) != 0 ||
		    connect(c, (struct sockaddr *)&u, len) != 0) {
			errno = ENOTCONN;
			r = -1;
		}
		close(c);
	}
	close(s);
	return r;
}

static struct sockaddr_un race_addr;
static char race_a[108], race_b[108];
static volatile int race_done;

static void *flipper(void *arg)
{
	unsigned spin = 1;

	(void)arg;
	while (!race_done) {
		/* each name held for a while, of a length that varies: the
		 * reader's look and the kernel's fall anywhere between */
		memcpy(race_addr.sun_path, race_b, sizeof(race_b));
		__asm__ volatile("" ::: "memory"); /* a store, never elided */
		for (volatile unsigned i = 0; i < spin; i++)
			;
		memcpy(race_addr.sun_path, race_a, sizeof(race_a));
		__asm__ volatile("" ::: "memory");
		for (volatile unsigned i = 0; i < spin; i++)
			;
		spin = spin * 5 % 20011;
	}
	return NULL;
}

static long bind_race(const char *a, const char *b)
{
	int made = 0, refused = 0;
	pthread_t t;

	race_addr = unix_addr(a);
	snprintf(race_a, sizeof(race_a), "%s", a);
	snprintf(race_b, sizeof(race_b), "%s", b);
	pthread_create(&t, NULL, flipper, NULL);
	for (int i = 0; i < 2000; i++) {
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (bind(s, (struct sockaddr *)&race_addr, sizeof(race_addr)) == 0)
			made++, unlink(a);
		else
			refused++;
		close(s);
	}
	race_done = 1;
	pthread_join(t, NULL);
	fprintf(stderr, "bindrace: %d bound, %d refused\n", made, refused);
	return 0;
}

static const char *swap_d, *swap_t;

static void *swapper(void *arg)
{
	char real[256];

	(void)arg;
	snprintf(real, sizeof(real), "%s.real", swap_d);
	while (!race_done) {
		if (rename(swap_d, real) != 0)
			continue;
		if (symlink(swap_t, swap_d) == 0)
			unlink(swap_d);
		rename(real, swap_d);
	}
	return NULL;
}

static long bind_swap(const char *d, const char *t)
{
	char name[100], real[100];
	int made = 0, refused = 0;
	pthread_t th;

	swap_d = d;
	swap_t = t;
	race_done = 0;
	snprintf(name, sizeof(name), "%.80s/s", d);
	snprintf(real, sizeof(real), "%.80s.real/s", d);
	pthread_create(&th, NULL, swapper, NULL);
	for (int i = 0; i < 2000; i++) {
		struct sockaddr_un u = unix_addr(name);
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (bind(s, (struct sockaddr *)&u, sizeof(u)) == 0)
			made++;
		else
			refused++;
		unlink(name);
		unlink(real);
		close(s);
	}
	race_done = 1;
	pthread_join(th, NULL);
	fprintf(stderr, "bindswap: %d bound, %d refused\n", made, refused);
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char buf[4096], *op = buf, *a, *b;
		long r;

		snprintf(buf, sizeof(buf), "%s", argv[i]);
		a = strchr(op, ':');
		if (a)
			*a++ = '\0';
		b = a ? strchr(a, ':') : NULL;
		if (b)
			*b++ = '\0';
		errno = 0;
		if (!strcmp(op, "open"))
			r = fdres(syscall(SYS_open, a, O_WRONLY | O_CREAT | O_TRUNC, 0644));
		else if (!strcmp(op, "openat") || !strcmp(op, "rawopenat"))
			r = fdres(syscall(SYS_openat, AT_FDCWD, a, O_WRONLY | O_CREAT | O_TRUNC, 0644));
		else if (!strcmp(op, "creat"))
			r = fdres(syscall(SYS_creat, a, 0644));
		else if (!strcmp(op, "append"))
			r = fdres(open(a, O_WRONLY | O_APPEND));
		else if (!strcmp(op, "read"))
			r = fdres(open(a, O_RDONLY));
		else if (!strcmp(op, "openat2")) {
			struct open_how how = { .flags = O_WRONLY | O_CREAT | O_TRUNC, .mode = 0644 };

			r = fdres(syscall(SYS_openat2, AT_FDCWD, a, &how, sizeof(how)));
		} else if (!strcmp(op, "write")) {
			int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			r = fd;
			if (fd >= 0) {
				r = write(fd, b, strlen(b)) == (ssize_t)strlen(b) ? 0 : -1;
				close(fd);
			}
		} else if (!strcmp(op, "killed")) {
			int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0 && write(fd, b, strlen(b)) >= 0)
				kill(getpid(), SIGKILL);
			r = -1;
		} else if (!strcmp(op, "trunc"))
			r = truncate(a, 0);
		else if (!strcmp(op, "rename"))
			r = rename(a, b);
		else if (!strcmp(op, "unlink"))
			r = unlink(a);
		else if (!strcmp(op, "mkdir"))
			r = mkdir(a, 0755);
		else if (!strcmp(op, "rmdir"))
			r = rmdir(a);
		else if (!strcmp(op, "link"))
			r = link(a, b);
		else if (!strcmp(op, "symlink"))
			r = symlink(a, b);
		else if (!strcmp(op, "mknod"))
			r = mknod(a, S_IFREG | 0644, 0);
		else if (!strcmp(op, "fifo"))
			r = mknod(a, S_IFIFO | 0644, 0);
		else if (!strcmp(op, "bind"))
			r = bind_unix(a, false);
		else if (!strcmp(op, "bindabs"))
			r = bind_unix(a, true);
		else if (!strcmp(op, "bindinet")) {
			struct sockaddr_in in = { .sin_family = AF_INET,
						  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
			int s = socket(AF_INET, SOCK_STREAM, 0);

			r = bind(s, (struct sockaddr *)&in, sizeof(in));
			close(s);
		} else if (!strcmp(op, "bindfile") || !strcmp(op, "bindinetunix")) {
			struct sockaddr_un u = unix_addr(a);
			int s = op[4] == 'f' ? open("/dev/null", O_RDONLY)
					     : socket(AF_INET, SOCK_STREAM, 0);

			r = bind(s, (struct sockaddr *)&u, sizeof(u));
			close(s);
		} else if (!strcmp(op, "bindbadfd")) {
			r = syscall(SYS_bind, -1, 8L, 16L);
		} else if (!strcmp(op, "bindnetlink")) {
			struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
			socklen_t nlen = sizeof(nl);
			int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);

			r = bind(s, (struct sockaddr *)&nl, sizeof(nl));
			if (r == 0 && (getsockname(s, (struct sockaddr *)&nl, &nlen) != 0 ||
				       nl.nl_pid != (unsigned)getpid())) {
				fprintf(stderr, "netlink port %u, pid %d\n", nl.nl_pid,
					(int)getpid());
				errno = EPROTO;
				r = -1;
			}
			close(s);
		} else if (!strcmp(op, "bindrace"))
			r = bind_race(a, b);
		else if (!strcmp(op, "bindswap"))
			r = bind_swap(a, b);
		else if (!strcmp(op, "uring")) {
			/* struct io_uring_params, zeroed: 120 bytes */
			long params[16] = { 0 };

			r = fdres(syscall(SYS_io_uring_setup, 4, params));
		}
		else {
			fprintf(stderr, "unknown op %s\n", op);
			return 2;
		}
		report(op, a ? a : "", r);
	}
	return 0;
}
