/* The floor's emulated opens seen from a static program (no shim can load
 * in it): each argument one check, reported on stdout as "NAME: RESULT".
 *   mode:P:MODE:UMASK   umask(UMASK), create P with MODE: its st_mode
 *   excl:P              O_CREAT|O_EXCL: "ok" or the errno's name
 *   append:P:TEXT       O_WRONLY|O_APPEND, write TEXT
 *   trunc:P:TEXT        O_WRONLY|O_TRUNC, write TEXT
 *   openat:DIR:NAME     openat(open(DIR), NAME, O_CREAT|O_WRONLY), write
 *                       "at" (after a chdir away: the dirfd must count)
 *   openat2:P           openat2 O_CREAT|O_WRONLY, write "two"
 *   err:P:FLAGS         open(P, FLAGS (octal), 0644): the errno's name
 *   cloexec:P           O_CLOEXEC and plain opens of P, then exec self
 *                       with "fds:A:B": A must be closed, B open
 *   lowest:P            fds 3..5 open, 4 closed: open(P) must return 4
 *   race-mem:A:B:N      a thread swaps the path bytes between A and B
 *                       (same length) while N opens of the buffer run
 *                       (openat2 with RACE_RESOLVE's flags, hex, if set)
 *   (RACE_EUID=N: before anything, the effective uid N, the capabilities
 *   kept: SECBIT_NO_SETUID_FIXUP, as root)
 *   race-link:L:N       N opens of L/x while someone flips L
 *   cgroup-opens:L:N    N opens of L for writing while someone flips L:
 *                       "K of a cgroup's" (the first written "0": the
 *                       probe moved there)
 *   race-call:OP:A:B:N  a thread swaps the path bytes between A and B
 *                       while N calls OP (rename, link, symlink, mkdir,
 *                       unlink) name the buffer: rename and link of a
 *                       fresh file "race.src" to it, a symlink or a
 *                       directory made there, A made afresh and the
 *                       buffer unlinked
 *   race-how:A:B:N      N openat2 calls while a thread flips the struct
 *                       open_how between O_RDONLY and O_WRONLY|O_CREAT|
 *                       O_APPEND and the path between A and B: each that
 *                       opened for writing writes "x"
 *   openat2-path:P      openat2(P, O_PATH): "ok" or the errno's name
 *   how:P:FLAGS:RESOLVE openat2(P) with FLAGS (octal), mode 0644 and
 *                       RESOLVE (hex): "how P: ok" or the errno's name
 *   reopen:P:V:HOW      P opened read-only as the descriptor 2, then V
 *                       (/dev/stderr, a name for it) opened O_WRONLY|
 *                       O_TRUNC and written "PWNED" (HOW "open") or
 *                       truncated ("truncate"): "ok" or the errno's name
 *   own-filter          stack a seccomp filter that allows everything
 *                       (what a sandbox does), for the checks after it
 *   specials:DIR        a fixed run of opens of what is no plain file
 *                       (devices, a fifo, a socket, descriptors by
 *                       name: /dev/fd/N, /proc/self/fd/N), each reported
 *                       with its result: compared plain and under the
 *                       floor
 *   paths:DIR           a fixed run of path calls in DIR (made empty),
 *                       each reported with its result: compared plain and
 *                       under the floor
 *   asuser:UID:P        setuid(UID), create P: its owner's uid
 *   flip:L:A:B:MS       (outside the session) point L at A and B in
 *                       turn by rename, for MS milliseconds ("-" for A:
 *                       L a regular file instead)
 *   race-fd:K:F:N       K open read-only (descriptor 3), then N opens of
 *                       F for writing, each written "x" */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case ELOOP: return "ELOOP";
	case ENOSYS: return "ENOSYS";
	case EBADF: return "EBADF";
	default: return strerror(e);
	}
}

static char *self;

static void put(const char *name, const char *what)
{
	printf("%s: %s\n", name, what);
	fflush(stdout);
}

static void put_r(const char *name, long r)
{
	put(name, r < 0 ? ename(errno) : "ok");
}

static long write_close(long fd, const char *text)
{
	long r = fd;

	if (fd >= 0) {
		r = write((int)fd, text, strlen(text)) == (ssize_t)strlen(text)
			    ? 0 : -1;
		close((int)fd);
	}
	return r;
}

static char race_buf[4096];
static char race_a[4096], race_b[4096];
static volatile int race_stop;

static void *swapper(void *arg)
{
	(void)arg;
	while (!race_stop) {
		memcpy(race_buf, race_a, strlen(race_a) + 1);
		memcpy(race_buf, race_b, strlen(race_b) + 1);
	}
	return NULL;
}

/* One call of paths(): its result as "0" or the errno's name. */
static void said(const char *what, int r)
{
	printf("%s: %s\n", what, r == 0 ? "0" : ename(errno));
}

/* open's result reported, and `text` written when it opened */
static void opened(const char *what, int fd, const char *text)
{
	int e = errno;
	char buf[160];

	if (fd < 0) {
		errno = e;
		said(what, -1);
		return;
	}
	if (text && write(fd, text, strlen(text)) < 0) {
		snprintf(buf, sizeof(buf), "%s, its write", what);
		said(buf, -1);
	} else {
		said(what, 0);
	}
	close(fd);
}

static long size_of(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 ? (long)sb.st_size : -1;
}

static void specials(const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX, .sun_path = "s" };
	int r, pp[2], sk, fd;
	char p[64], got[8] = "";

	if (chdir(dir) != 0)
		exit(2);
	opened("/dev/null O_WRONLY|O_CREAT|O_TRUNC", open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644), "x");
	opened("/dev/null O_APPEND", open("/dev/null", O_WRONLY | O_APPEND), "x");
	opened("/dev/full", open("/dev/full", O_WRONLY), "x");
	opened("/dev/zero O_RDWR", open("/dev/zero", O_RDWR), NULL);
	said("mkfifo", mkfifo("p", 0644));
	opened("fifo O_RDWR", open("p", O_RDWR), "x");
	opened("fifo O_WRONLY|O_NONBLOCK, no reader", open("p", O_WRONLY | O_NONBLOCK), NULL);
	r = open("p", O_RDONLY | O_NONBLOCK);
	said("fifo O_RDONLY|O_NONBLOCK", r < 0 ? -1 : 0);
	opened("fifo O_WRONLY, with a reader", open("p", O_WRONLY), "x");
	if (r >= 0) {
		said("... which reads it", read(r, got, 1) == 1 && got[0] == 'x' ? 0 : -1);
		close(r);
	}
	sk = socket(AF_UNIX, SOCK_STREAM, 0);
	said("bind a socket", bind(sk, (struct sockaddr *)&a, sizeof(a)));
	opened("open of a socket", open("s", O_WRONLY), NULL);
	close(sk);
	fd = open("f", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "hello", 5) != 5)
		exit(2);
	close(fd);
	fd = open("f", O_RDONLY);
	if (fd < 0 || dup2(fd, 7) < 0)
		exit(2);
	close(fd);
	opened("/dev/fd/7 (read-only) O_WRONLY|O_TRUNC", open("/dev/fd/7", O_WRONLY | O_TRUNC), NULL);
	printf("... its size: %ld\n", size_of("f"));
	opened("/proc/self/fd/7 O_WRONLY|O_APPEND", open("/proc/self/fd/7", O_WRONLY | O_APPEND), "ab");
	printf("... its size: %ld\n", size_of("f"));
	opened("/proc/self/fd/7 O_CREAT|O_EXCL", open("/proc/self/fd/7", O_WRONLY | O_CREAT | O_EXCL, 0644), NULL);
	opened("/dev/fd/7 O_NOFOLLOW", open("/dev/fd/7", O_WRONLY | O_NOFOLLOW), NULL);
	opened("/dev/fd/99 (closed)", open("/dev/fd/99", O_WRONLY), NULL);
	opened("/dev/fd/99 (closed) O_CREAT", open("/dev/fd/99", O_WRONLY | O_CREAT, 0644), NULL);
	opened("/dev/fd/99 (closed) O_CREAT|O_EXCL", open("/dev/fd/99", O_WRONLY | O_CREAT | O_EXCL, 0644), NULL);
	fd = open(".", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dup2(fd, 8) < 0)
		exit(2);
	close(fd);
	opened("/dev/fd/8/ (a directory)", open("/dev/fd/8/", O_RDONLY), NULL);
	opened("/dev/fd/8/ O_CREAT", open("/dev/fd/8/", O_RDONLY | O_CREAT, 0644), NULL);
	opened("/dev/fd/7/ O_CREAT", open("/dev/fd/7/", O_RDONLY | O_CREAT, 0644), NULL);
	opened("/dev/fd/8/ O_WRONLY", open("/dev/fd/8/", O_WRONLY), NULL);
	opened("/dev/fd/8 O_NOFOLLOW", open("/dev/fd/8", O_RDONLY | O_NOFOLLOW), NULL);
	opened("/dev/fd/8/ O_NOFOLLOW", open("/dev/fd/8/", O_RDONLY | O_NOFOLLOW), NULL);
	opened("/dev/fd/8 O_TMPFILE", open("/dev/fd/8", O_WRONLY | O_TMPFILE, 0600), "t");
	close(8);
	opened("/dev/fd/07 (a number as written)", open("/dev/fd/07", O_RDONLY), NULL);
	opened("/dev/fd/7/ (not a directory)", open("/dev/fd/7/", O_RDONLY), NULL);
	opened("/dev/null O_RDONLY|O_TRUNC", open("/dev/null", O_RDONLY | O_TRUNC), NULL);
	/* the opener's own terminal: none here (ENXIO), or its pty */
	opened("/dev/tty O_WRONLY", open("/dev/tty", O_WRONLY), NULL);
	opened("/dev/tty O_RDWR|O_NOCTTY", open("/dev/tty", O_RDWR | O_NOCTTY), NULL);
	fd = open("f", O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, "more", 4) != 4)
		exit(2);
	close(fd);
	opened("/dev/fd/7 O_RDONLY|O_TRUNC", open("/dev/fd/7", O_RDONLY | O_TRUNC), NULL);
	printf("... its size: %ld\n", size_of("f"));
	snprintf(p, sizeof(p), "/proc/%d/fd/7", (int)getpid());
	opened("/proc/PID/fd/7 O_RDWR", open(p, O_RDWR), "c");
	printf("... its size: %ld\n", size_of("f"));
	if (pipe(pp) != 0)
		exit(2);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", pp[1]);
	opened("a pipe's write end by name", open(p, O_WRONLY), "y");
	snprintf(p, sizeof(p), "/dev/fd/%d", pp[0]);
	opened("a pipe's read end by name, O_WRONLY", open(p, O_WRONLY), "z");
	got[0] = got[1] = '\0';
	said("... the pipe has both", read(pp[0], got, 2) == 2 && !strcmp(got, "yz") ? 0 : -1);
	close(7);
}

static void paths(const char *dir)
{
	int d, fd;

	if (chdir(dir) != 0 || (d = open(".", O_PATH | O_DIRECTORY)) < 0)
		exit(2);
	umask(022);
	said("mkdir a", mkdir("a", 0777));
	said("mkdir a again", mkdir("a", 0777));
	said("mkdir a/b/ (trailing slash)", mkdir("a/b/", 0700));
	said("mkdir in a missing directory", mkdir("none/x", 0777));
	said("mkdirat", mkdirat(d, "c", 0750));
	fd = open("a/f", O_WRONLY | O_CREAT, 0644);
	close(fd);
	said("mkdir through a file", mkdir("a/f/x", 0777));
	said("rename a/f a/g", rename("a/f", "a/g"));
	said("rename a missing file", rename("a/f", "a/h"));
	said("renameat2 NOREPLACE onto a file", (int)syscall(SYS_renameat2, d, "a/g", d, "a/g", 1));
	said("rename a dir onto a file", rename("c", "a/g"));
	said("link a/g a/l", link("a/g", "a/l"));
	said("link onto an existing name", link("a/g", "a/l"));
	said("linkat AT_SYMLINK_FOLLOW of a symlink", (symlink("g", "a/s"), linkat(d, "a/s", d, "a/lf", AT_SYMLINK_FOLLOW)));
	said("linkat of the symlink itself", linkat(d, "a/s", d, "a/ls", 0));
	said("symlink onto an existing name", symlink("x", "a/s"));
	said("symlinkat", symlinkat("/nowhere", d, "a/dangling"));
	said("truncate a/g to 5", truncate("a/g", 5));
	said("truncate through a/s", truncate("a/s", 2));
	said("truncate a directory", truncate("a", 0));
	said("mknod a fifo", mknod("a/p", S_IFIFO | 0666, 0));
	said("mknodat a file", mknodat(d, "a/r", S_IFREG | 0600, 0));
	said("unlink a/l", unlink("a/l"));
	said("unlink a directory", unlink("a/b"));
	said("unlinkat AT_REMOVEDIR", unlinkat(d, "a/b", AT_REMOVEDIR));
	said("rmdir a non-empty directory", rmdir("a"));
	said("rmdir .", rmdir("a/."));
	said("unlink a missing file", unlink("a/none"));
	said("unlink with a trailing slash", unlink("a/g/"));
	said("unlink empty", unlink(""));
	said("rmdir in a missing directory", rmdir("none/x"));
	said("truncate to a negative length", truncate("a/g", -1));
	said("mknod of a directory", mknod("a/nd", S_IFDIR | 0755, 0));
	said("mknod of an unknown type", mknod("a/nt", 0170000, 0));
	said("renameat2 with an unknown flag", (int)syscall(SYS_renameat2, d, "a/g", d, "a/u", 1 << 7));
	said("renameat2 NOREPLACE|EXCHANGE", (int)syscall(SYS_renameat2, d, "a/g", d, "a/u", 3));
	said("rename to NULL", (int)syscall(SYS_rename, "a/g", NULL));
	said("unlinkat with an unknown flag", unlinkat(d, "a/g", 1));
	said("renameat2 EXCHANGE", (int)syscall(SYS_renameat2, d, "a/g", d, "a/r", 2));
	fd = open("a/g", O_RDONLY);
	{
		char p[64];

		snprintf(p, sizeof(p), "/proc/self/fd/%d/", fd);
		said("truncate of a descriptor's link with a trailing slash", truncate(p, 1));
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		said("truncate of a descriptor's link", truncate(p, 1));
		said("linkat of a descriptor's link, followed", linkat(AT_FDCWD, p, d, "a/fdlink", AT_SYMLINK_FOLLOW));
		said("linkat AT_EMPTY_PATH", linkat(fd, "", d, "a/emptylink", AT_EMPTY_PATH));
	}
	close(fd);
	{
		struct { struct open_how h; uint64_t more; } big = {
			{ .flags = O_WRONLY | O_CREAT, .mode = 0640 }, 0 };

		fd = (int)syscall(SYS_openat2, d, "a/big", &big, sizeof(big));
		said("openat2 of a larger struct, its tail zero", fd < 0 ? -1 : 0);
		if (fd >= 0)
			close(fd);
		big.more = 1;
		fd = (int)syscall(SYS_openat2, d, "a/big2", &big, sizeof(big));
		said("openat2 of a larger struct, its tail not zero", fd < 0 ? -1 : 0);
		if (fd >= 0)
			close(fd);
	}
	fd = open("a", O_RDONLY | O_TRUNC);
	said("O_RDONLY|O_TRUNC of a directory", fd < 0 ? -1 : 0);
	if (fd >= 0)
		close(fd);
	fd = open("a/r", O_RDONLY | O_TRUNC);
	said("O_RDONLY|O_TRUNC of an empty file", fd < 0 ? -1 : 0);
	if (fd >= 0)
		close(fd);
	said("symlinkat through a dirfd", symlinkat("t", d, "c/sl"));
	said("renameat across dirfds", renameat(d, "a/r", d, "c/r"));
	fflush(stdout);
	close(d);
}

static struct open_how race_how;

static void *how_swapper(void *arg)
{
	(void)arg;
	while (!race_stop) {
		memcpy(race_buf, race_a, strlen(race_a) + 1);
		race_how.flags = O_RDONLY;
		memcpy(race_buf, race_b, strlen(race_b) + 1);
		race_how.flags = O_WRONLY | O_CREAT | O_APPEND;
	}
	return NULL;
}

/* n opens of p for appending (with `more` flags, mode 0644), each that
 * opened written "x": how many opened, or -1 where a write failed */
static int opens_written(const char *p, int more, int n)
{
	int ok = 0;

	for (int k = 0; k < n; k++) {
		int fd = open(p, O_WRONLY | O_APPEND | more, 0644);

		if (fd >= 0) {
			ok++;
			if (write(fd, "x", 1) != 1)
				return -1;
			close(fd);
		}
	}
	return ok;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	const char *euid = getenv("RACE_EUID");

	self = argv[0];
	if (euid && (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) != 0 ||
		     setresuid((uid_t)-1, (uid_t)atoi(euid), (uid_t)-1) != 0)) {
		perror("RACE_EUID");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char buf[4096], out[256], *op = buf, *a, *b, *c3;

		snprintf(buf, sizeof(buf), "%s", argv[i]);
		a = strchr(op, ':');
		if (a)
			*a++ = '\0';
		b = a ? strchr(a, ':') : NULL;
		if (b)
			*b++ = '\0';
		c3 = b ? strchr(b, ':') : NULL;
		if (c3)
			*c3++ = '\0';
		errno = 0;
		if (!strcmp(op, "mode") && c3) {
			struct stat sb;
			int fd;

			umask((mode_t)strtol(c3, NULL, 8));
			fd = open(a, O_WRONLY | O_CREAT | O_EXCL,
				  (mode_t)strtol(b, NULL, 8));
			if (fd < 0 || fstat(fd, &sb) < 0) {
				put("mode", ename(errno));
				continue;
			}
			close(fd);
			snprintf(out, sizeof(out), "%04o", sb.st_mode & 07777);
			put("mode", out);
		} else if (!strcmp(op, "excl")) {
			put_r("excl", write_close(open(a, O_WRONLY | O_CREAT |
							  O_EXCL, 0644), ""));
		} else if (!strcmp(op, "append")) {
			put_r("append", write_close(open(a, O_WRONLY | O_APPEND), b));
		} else if (!strcmp(op, "trunc")) {
			put_r("trunc", write_close(open(a, O_WRONLY | O_TRUNC), b));
		} else if (!strcmp(op, "openat")) {
			int dfd = open(a, O_RDONLY | O_DIRECTORY);
			int here = open(".", O_RDONLY | O_DIRECTORY);

			if (chdir("/") < 0)
				return 2;
			put_r("openat", write_close(openat(dfd, b, O_WRONLY |
							   O_CREAT, 0644), "at"));
			if (fchdir(here) < 0)
				return 2;
			close(dfd);
			close(here);
		} else if (!strcmp(op, "openat2")) {
			struct open_how how = { .flags = O_WRONLY | O_CREAT,
						.mode = 0644 };

			put_r("openat2",
			      write_close(syscall(SYS_openat2, AT_FDCWD, a, &how,
						  sizeof(how)), "two"));
		} else if (!strcmp(op, "err")) {
			long fd = open(a, (int)strtol(b, NULL, 8), 0644);

			snprintf(out, sizeof(out), "err %s", a);
			put_r(out, fd);
			if (fd >= 0)
				close((int)fd);
		} else if (!strcmp(op, "cloexec")) {
			int x = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			int y = open(a, O_WRONLY | O_CREAT, 0644);
			char arg[64];

			snprintf(out, sizeof(out), "%s",
				 x >= 0 && (fcntl(x, F_GETFD) & FD_CLOEXEC) &&
						 y >= 0 && !(fcntl(y, F_GETFD) & FD_CLOEXEC)
					 ? "flags ok" : "flags wrong");
			put("cloexec", out);
			snprintf(arg, sizeof(arg), "fds:%d:%d", x, y);
			execl(self, self, arg, (char *)NULL);
			put("cloexec", ename(errno));
		} else if (!strcmp(op, "fds")) {
			int x = atoi(a), y = atoi(b);
			bool xo = fcntl(x, F_GETFD) >= 0, yo = fcntl(y, F_GETFD) >= 0;

			put("after exec", !xo && yo ? "cloexec closed, plain open"
						    : "wrong");
		} else if (!strcmp(op, "how") && c3) {
			struct open_how h = {
				.flags = strtoull(b, NULL, 8), .mode = 0644,
				.resolve = strtoull(c3, NULL, 16),
			};
			int fd = (int)syscall(SYS_openat2, AT_FDCWD, a, &h, sizeof(h));

			snprintf(out, sizeof(out), "how %s", a);
			put(out, fd >= 0 ? "ok" : ename(errno));
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "lowest")) {
			int fd;

			for (fd = 3; fd <= 5; fd++)
				if (dup2(1, fd) < 0)
					return 2;
			close(4);
			fd = open(a, O_WRONLY | O_CREAT, 0644);
			snprintf(out, sizeof(out), "fd %d", fd);
			put("lowest", out);
		} else if (!strcmp(op, "race-mem") && c3) {
			pthread_t t;
			int n = atoi(c3), ok = 0;
			/* RACE_RESOLVE=hex: openat2 with those resolve flags */
			const char *rv = getenv("RACE_RESOLVE");
			struct open_how how = {
				.flags = O_WRONLY | O_CREAT | O_APPEND, .mode = 0644,
				.resolve = rv ? strtoull(rv, NULL, 16) : 0,
			};

			snprintf(race_a, sizeof(race_a), "%s", a);
			snprintf(race_b, sizeof(race_b), "%s", b);
			memcpy(race_buf, race_a, strlen(race_a) + 1);
			/* a fifo decoy's reader may be gone by the write */
			signal(SIGPIPE, SIG_IGN);
			pthread_create(&t, NULL, swapper, NULL);
			for (int k = 0; k < n; k++) {
				int fd = rv ? (int)syscall(SYS_openat2, AT_FDCWD, race_buf,
							   &how, sizeof(how))
					    : open(race_buf, O_WRONLY | O_CREAT | O_APPEND,
						   0644);

				if (fd >= 0) {
					struct stat sb;

					ok++;
					/* a device decoy may take no byte */
					if (write(fd, "x", 1) != 1 && errno != EPIPE &&
					    fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
						return 2;
					close(fd);
				}
			}
			race_stop = 1;
			pthread_join(t, NULL);
			snprintf(out, sizeof(out), "%d opened", ok);
			put("race-mem", out);
		} else if (!strcmp(op, "race-call") && c3 && strchr(c3, ':')) {
			pthread_t t;
			char *bb = c3, *nn = strchr(c3, ':');
			int n, ok = 0;

			*nn++ = '\0';
			n = atoi(nn);
			snprintf(race_a, sizeof(race_a), "%s", b);
			snprintf(race_b, sizeof(race_b), "%s", bb);
			memcpy(race_buf, race_a, strlen(race_a) + 1);
			pthread_create(&t, NULL, swapper, NULL);
			for (int k = 0; k < n; k++) {
				int r = -1, fd;

				if (!strcmp(a, "rename") || !strcmp(a, "link")) {
					fd = open("race.src", O_WRONLY | O_CREAT | O_TRUNC, 0644);
					if (fd < 0 || write(fd, "x", 1) != 1)
						return 2;
					close(fd);
					r = !strcmp(a, "rename") ? rename("race.src", race_buf)
								 : link("race.src", race_buf);
				} else if (!strcmp(a, "symlink")) {
					r = symlink("race.src", race_buf);
				} else if (!strcmp(a, "mkdir")) {
					r = mkdir(race_buf, 0755);
				} else if (!strcmp(a, "unlink")) {
					fd = open(race_a, O_WRONLY | O_CREAT, 0644);
					if (fd >= 0)
						close(fd);
					r = unlink(race_buf);
				}
				ok += r == 0;
			}
			race_stop = 1;
			pthread_join(t, NULL);
			snprintf(out, sizeof(out), "%d made", ok);
			put("race-call", out);
		} else if (!strcmp(op, "race-how") && c3) {
			pthread_t t;
			int n = atoi(c3), ok = 0;

			snprintf(race_a, sizeof(race_a), "%s", a);
			snprintf(race_b, sizeof(race_b), "%s", b);
			memcpy(race_buf, race_a, strlen(race_a) + 1);
			race_how.flags = O_RDONLY;
			race_how.mode = 0644;
			pthread_create(&t, NULL, how_swapper, NULL);
			for (int k = 0; k < n; k++) {
				int fd = (int)syscall(SYS_openat2, AT_FDCWD, race_buf,
						      &race_how, sizeof(race_how));

				if (fd >= 0) {
					ok += write(fd, "x", 1) == 1;
					close(fd);
				}
			}
			race_stop = 1;
			pthread_join(t, NULL);
			snprintf(out, sizeof(out), "%d written", ok);
			put("race-how", out);
		} else if (!strcmp(op, "reopen") && c3) {
			int fd = open(a, O_RDONLY);
			long r = -1;

			if (fd < 0 || dup2(fd, 2) < 0)
				return 2;
			if (!strcmp(c3, "truncate"))
				r = truncate(b, 0);
			else
				r = write_close(open(b, O_WRONLY | O_TRUNC),
						"PWNED");
			put_r("reopen", r);
		} else if (!strcmp(op, "openat2-path")) {
			struct open_how h = { .flags = O_PATH };
			long fd = syscall(SYS_openat2, AT_FDCWD, a, &h, sizeof(h));

			put_r("openat2-path", fd);
			if (fd >= 0)
				close((int)fd);
		} else if (!strcmp(op, "own-filter")) {
			struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K,
							    SECCOMP_RET_ALLOW);
			struct sock_fprog prog = { 1, &allow };

			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			put_r("own-filter",
			      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
		} else if (!strcmp(op, "specials")) {
			specials(a);
		} else if (!strcmp(op, "paths")) {
			paths(a);
		} else if (!strcmp(op, "race-link")) {
			int ok;
			char p[4096];

			snprintf(p, sizeof(p), "%s/x", a);
			if ((ok = opens_written(p, O_CREAT, atoi(b))) < 0)
				return 2;
			snprintf(out, sizeof(out), "%d opened", ok);
			put("race-link", out);
		} else if (!strcmp(op, "cgroup-opens")) {
			int cg = 0;

			for (int k = 0; k < atoi(b); k++) {
				int fd = open(a, O_WRONLY | O_CLOEXEC);
				struct statfs fs;

				if (fd < 0)
					continue;
				if (fstatfs(fd, &fs) == 0 &&
				    (fs.f_type == CGROUP_SUPER_MAGIC ||
				     fs.f_type == CGROUP2_SUPER_MAGIC) &&
				    !cg++ && write(fd, "0\n", 2) != 2)
					fprintf(stderr, "not moved\n");
				close(fd);
			}
			snprintf(out, sizeof(out), "%d of a cgroup's", cg);
			put("cgroup-opens", out);
		} else if (!strcmp(op, "asuser")) {
			struct stat sb;
			int fd;

			if (setuid((uid_t)atoi(a)) < 0)
				return 2;
			fd = open(b, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0 || fstat(fd, &sb) < 0) {
				put("asuser", ename(errno));
				continue;
			}
			close(fd);
			snprintf(out, sizeof(out), "owner %d", (int)sb.st_uid);
			put("asuser", out);
		} else if (!strcmp(op, "race-fd") && c3) {
			int ok;

			if (open(a, O_RDONLY) != 3 ||
			    (ok = opens_written(b, 0, atoi(c3))) < 0)
				return 2;
			snprintf(out, sizeof(out), "%d opened", ok);
			put("race-fd", out);
		} else if (!strcmp(op, "flip") && c3 && strchr(c3, ':')) {
			char *ms = strchr(c3, ':'), tmp[4096];
			double end;
			long flips = 0;

			*ms++ = '\0';
			end = now_ms() + atof(ms);
			snprintf(tmp, sizeof(tmp), "%s.flip", a);
			while (now_ms() < end) {
				const char *to = flips & 1 ? c3 : b;
				int r;

				unlink(tmp);
				if (strcmp(to, "-") == 0) {
					r = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
					if (r >= 0)
						close(r);
				} else {
					r = symlink(to, tmp);
				}
				if (r < 0 || rename(tmp, a) < 0)
					return 2;
				flips++;
			}
			fprintf(stderr, "%ld flips\n", flips);
		} else {
			fprintf(stderr, "unknown op %s\n", op);
			return 2;
		}
	}
	return 0;
}
