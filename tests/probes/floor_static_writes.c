/* The floor's static writer: one file-system call per argument, made
 * straight to the kernel (a static binary: no shim can load in it), each
 * reported on stdout as "OP PATH: ok" or "OP PATH: <errno name>".
 *   open:P openat:P creat:P append:P trunc:P rename:A:B unlink:P
 *   mkdir:P rmdir:P link:A:B symlink:TEXT:P mknod:P fifo:P
 *   openat2:P rawopenat:P   (raw: syscall(SYS_openat) itself)
 *   write:P:TEXT           (create/truncate P and write TEXT)
 *   killed:P:TEXT          (the same, then SIGKILL before any close)
 *   uring                  (io_uring_setup) */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
