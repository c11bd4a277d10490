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

/* The kernel's name for descriptor fd (left open), into out (PATH_MAX). */
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
	if (n <= 0 || out[0] != '/')
		return -1;
	out[n] = '\0';
	return 0;
}

/* name_of, and fd closed unless the caller pins it: 0 when named. */
static int name_and_pin(int fd, char *out, struct hs_path_pin *pin, bool dir)
{
	int r = name_of(fd, out);

	if (r == 0 && pin) {
		pin->fd = fd;
		pin->dir = dir;
	} else {
		syscall(SYS_close, fd);
	}
	return r;
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
	hs_path_resolve_pin(p, last, NULL);
}

/* A pinned name's own text is not reopened through a procfs or devfs
 * descriptor: those are out of every write scope, and their opens are
 * the kernel's business by name. */
static bool pinnable(const char *p)
{
	return strncmp(p, "/proc/", 6) != 0 && strncmp(p, "/sys/", 5) != 0 &&
	       strncmp(p, "/dev/", 5) != 0;
}

static void unpin(struct hs_path_pin *pin)
{
	if (pin && pin->fd >= 0)
		syscall(SYS_close, pin->fd);
	if (pin)
		pin->fd = -1;
}

/* hs_path_resolve_pin; `missing`: p's own walk already failed, so the
 * first round does not walk the whole name again. */
static void resolve(char *p, bool last, struct hs_path_pin *pin,
		    bool missing)
{
	if (pin)
		pin->fd = -1;
	for (int hops = 0; hops <= 40; hops++) {
		char dir[PATH_MAX], tgt[PATH_MAX];
		char *slash, *name;
		long n;
		int fd = last && !(missing && hops == 0) ? open_path(p, 0) : -1;

		if (fd >= 0) {
			if (name_and_pin(fd, dir, pin, false) == 0)
				memcpy(p, dir, strlen(dir) + 1);
			else
				hs_path_fold(p);
			if (!pinnable(p))
				unpin(pin);
			return;
		}
		slash = strrchr(p, '/');
		name = slash + 1;
		if (!slash || !name[0] || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0) {
			/* no plain name to create: what exists was named
			 * above; the rest fails in the kernel too */
			if (!last && (fd = open_path(p, 0)) >= 0 &&
			    name_and_pin(fd, dir, NULL, false) == 0)
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
		if (name_and_pin(fd, dir, n <= 0 ? pin : NULL, true) < 0) {
			hs_path_fold(p);
			return;
		}
		if (n <= 0) { /* a plain name, to be created or not followed */
			if (join(tgt, dir, name) == 0)
				memcpy(p, tgt, strlen(tgt) + 1);
			else
				unpin(pin);
			if (!pinnable(p))
				unpin(pin);
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

void hs_path_resolve_pin(char *p, bool last, struct hs_path_pin *pin)
{
	resolve(p, last, pin, false);
}

void hs_path_resolve_missing(char *p)
{
	resolve(p, true, NULL, true);
}
