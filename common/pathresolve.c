/* Component-by-component resolution; see pathresolve.h. */
#include "pathresolve.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pathfold.h"

static int open_path(const char *p, int extra)
{
	return (int)syscall(SYS_openat, AT_FDCWD, p,
			    O_PATH | O_CLOEXEC | extra, 0);
}

/* The kernel's name for descriptor fd (closed), into out (PATH_MAX). */
static int name_of(int fd, char *out)
{
	char link[40] = "/proc/self/fd/", num[16];
	unsigned v = (unsigned)fd;
	int i = 0, j = 14;
	long n;

	do
		num[i++] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && i < 15);
	while (i > 0)
		link[j++] = num[--i];
	link[j] = '\0';
	n = syscall(SYS_readlinkat, AT_FDCWD, link, out, PATH_MAX - 1);
	syscall(SYS_close, fd);
	if (n <= 0 || out[0] != '/')
		return -1;
	out[n] = '\0';
	return 0;
}

static int join(char *out, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);

	if (dl == 1)
		dl = 0; /* "/" + name */
	if (dl + nl + 2 > PATH_MAX)
		return -1;
	if (out != dir)
		memmove(out, dir, dl);
	out[dl] = '/';
	memmove(out + dl + 1, name, nl + 1);
	return 0;
}

void hs_path_resolve(char *p, bool last)
{
	for (int hops = 0; hops <= 40; hops++) {
		char dir[PATH_MAX], tgt[PATH_MAX];
		char *slash, *name;
		long n;
		int fd = last ? open_path(p, 0) : -1;

		if (fd >= 0) {
			if (name_of(fd, dir) == 0)
				memcpy(p, dir, strlen(dir) + 1);
			else
				hs_path_fold(p);
			return;
		}
		slash = strrchr(p, '/');
		name = slash + 1;
		if (!slash || !name[0] || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0) {
			/* no plain name to create: what exists was named
			 * above; the rest fails in the kernel too */
			if (!last && (fd = open_path(p, 0)) >= 0 &&
			    name_of(fd, dir) == 0)
				memcpy(p, dir, strlen(dir) + 1);
			else
				hs_path_fold(p);
			return;
		}
		memcpy(dir, p, (size_t)(slash - p));
		dir[slash - p] = '\0';
		fd = open_path(dir[0] ? dir : "/", O_DIRECTORY);
		if (fd < 0) {
			hs_path_fold(p); /* no such directory: the call fails */
			return;
		}
		n = last ? syscall(SYS_readlinkat, fd, name, tgt,
				   sizeof(tgt) - 1)
			 : -1;
		if (name_of(fd, dir) < 0) {
			hs_path_fold(p);
			return;
		}
		if (n <= 0) { /* a plain name, to be created or not followed */
			if (join(tgt, dir, name) == 0)
				memcpy(p, tgt, strlen(tgt) + 1);
			return;
		}
		tgt[n] = '\0';
		if (tgt[0] == '/')
			memcpy(p, tgt, (size_t)n + 1);
		else if (join(p, dir, tgt) < 0) {
			hs_path_fold(p);
			return;
		}
	}
	hs_path_fold(p); /* a loop: the kernel says ELOOP */
}
