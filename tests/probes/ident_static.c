/* Identities, not only names (tests/security/identities.sh): calls whose
 * path is not the name of what they change, each made straight to the
 * kernel (built static: no shim loads in it; the same source built
 * dynamic as ident_dynamic, where libc's wrappers go through the shim),
 * each reported on stdout as "OP A: ok" or "OP A: <errno name>".
 *   linkfd:SRC:NEW     open SRC read-only, linkat(fd, "", NEW, AT_EMPTY_PATH)
 *   linkproc:SRC:NEW   open SRC read-only, linkat("/proc/self/fd/N", NEW,
 *                      AT_SYMLINK_FOLLOW)
 *   linkfollow:SRC:NEW linkat(SRC, NEW, AT_SYMLINK_FOLLOW): SRC a symlink
 *   tmpfile:DIR:NEW    an O_TMPFILE in DIR, "P\n" written, published as
 *                      NEW through /proc/self/fd/N (AT_SYMLINK_FOLLOW)
 *   exchange:A:B       renameat2(A, B, RENAME_EXCHANGE)
 *   noreplace:A:B      renameat2(A, B, RENAME_NOREPLACE)
 *   rename:A:B         renameat2(A, B, 0)
 *   whiteout:A:B       renameat2(A, B, RENAME_WHITEOUT)
 *   inroot:DIR:PATH    openat2(DIR, PATH, O_WRONLY|O_CREAT|O_TRUNC,
 *                      RESOLVE_IN_ROOT), then "P\n" written
 *   beneath:DIR:PATH   the same with RESOLVE_BENEATH
 *   append:P           open(P, O_WRONLY|O_APPEND), then "P\n" written
 *   nofollow:P         open(P, O_WRONLY|O_TRUNC|O_NOFOLLOW), then "P\n"
 *   rdtrunc:P          open(P, O_RDONLY|O_TRUNC)
 * renameat2 and openat2 are raw syscalls in both builds (the dynamic
 * one's renameat2 is libc's, the shim's interposer). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

static const char *ename(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case ENOSYS: return "ENOSYS";
	case EXDEV: return "EXDEV";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	default: return strerror(e);
	}
}

static long rename2(const char *a, const char *b, unsigned flags)
{
#ifdef IDENT_DYNAMIC
	return renameat2(AT_FDCWD, a, AT_FDCWD, b, flags);
#else
	return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags);
#endif
}

static long link_fd(const char *src, const char *dst, int proc)
{
	char p[64];
	int fd = open(src, O_RDONLY);
	long r;

	if (fd < 0)
		return -1;
	if (proc) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		r = linkat(AT_FDCWD, p, AT_FDCWD, dst, AT_SYMLINK_FOLLOW);
	} else {
		r = linkat(fd, "", AT_FDCWD, dst, AT_EMPTY_PATH);
	}
	close(fd);
	return r;
}

static long put(int fd);

static long tmpfile_link(const char *dir, const char *dst)
{
	char p[64];
	int fd = open(dir, O_TMPFILE | O_WRONLY, 0644);
	long r;

	if (fd < 0)
		return -1;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	r = write(fd, "P\n", 2) == 2
		    ? linkat(AT_FDCWD, p, AT_FDCWD, dst, AT_SYMLINK_FOLLOW)
		    : -1;
	close(fd);
	return r;
}

static long put(int fd)
{
	long r;

	if (fd < 0)
		return -1;
	r = write(fd, "P\n", 2) == 2 ? 0 : -1;
	close(fd);
	return r;
}

static long open2(const char *dir, const char *path, unsigned long resolve)
{
	struct open_how how = { .flags = O_WRONLY | O_CREAT | O_TRUNC,
				.mode = 0644, .resolve = resolve };
	int dfd = open(dir, O_PATH | O_DIRECTORY);
	long fd;

	if (dfd < 0)
		return -1;
	fd = syscall(SYS_openat2, dfd, path, &how, sizeof(how));
	close(dfd);
	return put((int)fd);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char buf[4096], *op = buf, *a, *b;
		long r;
		int fd;

		snprintf(buf, sizeof(buf), "%s", argv[i]);
		a = strchr(op, ':');
		if (a)
			*a++ = '\0';
		b = a ? strchr(a, ':') : NULL;
		if (b)
			*b++ = '\0';
		if (!a || (!b && strcmp(op, "append") && strcmp(op, "nofollow") &&
			   strcmp(op, "rdtrunc"))) {
			fprintf(stderr, "bad argument %s\n", argv[i]);
			return 2;
		}
		errno = 0;
		if (!strcmp(op, "linkfd"))
			r = link_fd(a, b, 0);
		else if (!strcmp(op, "linkproc"))
			r = link_fd(a, b, 1);
		else if (!strcmp(op, "linkfollow"))
			r = linkat(AT_FDCWD, a, AT_FDCWD, b, AT_SYMLINK_FOLLOW);
		else if (!strcmp(op, "tmpfile"))
			r = tmpfile_link(a, b);
		else if (!strcmp(op, "exchange"))
			r = rename2(a, b, RENAME_EXCHANGE);
		else if (!strcmp(op, "rename"))
			r = rename2(a, b, 0);
		else if (!strcmp(op, "noreplace"))
			r = rename2(a, b, RENAME_NOREPLACE);
		else if (!strcmp(op, "whiteout"))
			r = rename2(a, b, RENAME_WHITEOUT);
		else if (!strcmp(op, "inroot"))
			r = open2(a, b, RESOLVE_IN_ROOT);
		else if (!strcmp(op, "beneath"))
			r = open2(a, b, RESOLVE_BENEATH);
		else if (!strcmp(op, "append"))
			r = put(open(a, O_WRONLY | O_APPEND));
		else if (!strcmp(op, "nofollow"))
			r = put(open(a, O_WRONLY | O_TRUNC | O_NOFOLLOW));
		else if (!strcmp(op, "rdtrunc"))
			r = (fd = open(a, O_RDONLY | O_TRUNC)) < 0 ? -1 : close(fd);
		else {
			fprintf(stderr, "unknown op %s\n", op);
			return 2;
		}
		printf("%s %s: %s\n", op, a, r < 0 ? ename(errno) : "ok");
		fflush(stdout);
	}
	return 0;
}
