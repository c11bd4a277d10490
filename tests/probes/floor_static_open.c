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
 *   race-link:L:N       N opens of L/x while someone flips L
 *   asuser:UID:P        setuid(UID), create P: its owner's uid
 *   flip:L:A:B:MS       (outside the session) point L at A and B in
 *                       turn by rename, for MS milliseconds */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	self = argv[0];
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

			snprintf(race_a, sizeof(race_a), "%s", a);
			snprintf(race_b, sizeof(race_b), "%s", b);
			memcpy(race_buf, race_a, strlen(race_a) + 1);
			pthread_create(&t, NULL, swapper, NULL);
			for (int k = 0; k < n; k++) {
				int fd = open(race_buf, O_WRONLY | O_CREAT | O_APPEND,
					      0644);

				if (fd >= 0) {
					ok++;
					if (write(fd, "x", 1) != 1)
						return 2;
					close(fd);
				}
			}
			race_stop = 1;
			pthread_join(t, NULL);
			snprintf(out, sizeof(out), "%d opened", ok);
			put("race-mem", out);
		} else if (!strcmp(op, "race-link")) {
			int n = atoi(b), ok = 0;
			char p[4096];

			snprintf(p, sizeof(p), "%s/x", a);
			for (int k = 0; k < n; k++) {
				int fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0644);

				if (fd >= 0) {
					ok++;
					if (write(fd, "x", 1) != 1)
						return 2;
					close(fd);
				}
			}
			snprintf(out, sizeof(out), "%d opened", ok);
			put("race-link", out);
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
		} else if (!strcmp(op, "flip") && c3 && strchr(c3, ':')) {
			char *ms = strchr(c3, ':'), tmp[4096];
			double end;
			long flips = 0;

			*ms++ = '\0';
			end = now_ms() + atof(ms);
			snprintf(tmp, sizeof(tmp), "%s.flip", a);
			while (now_ms() < end) {
				unlink(tmp);
				if (symlink(flips & 1 ? c3 : b, tmp) < 0 ||
				    rename(tmp, a) < 0)
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
