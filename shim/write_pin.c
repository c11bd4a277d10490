/* Writes made on what their judged name was resolved to; see
 * write_pin.h. */
#include "write_pin.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "floor_calls.h"
#include "real.h"
#include "state.h"

/* "/proc/self/fd/N" into link (40 bytes). */
static const char *fd_link(int fd, char *link)
{
	hs_copy(link, "/proc/self/fd/", 15);
	hs_utoa((unsigned long)fd, link + 14);
	return link;
}

/* The call as the shim forwards any it decided: cookied under the floor
 * (to no effect without one), through libc when another preloaded
 * library comes after us and must see it (floor_calls.h). */
static int fwd_openat(int dirfd, const char *p, int fl, mode_t mode)
{
	if (hs_next_foreign)
		return HS_REAL(openat)(dirfd, p, fl, mode);
	return (int)hs_ck_call(SYS_openat, dirfd, (long)p, fl, (long)mode, 0);
}

static int fwd_truncate(const char *p, off_t len)
{
	if (hs_next_foreign)
		return HS_REAL(truncate)(p, len);
	return (int)hs_ck_call(SYS_truncate, (long)p, (long)len, 0, 0, 0);
}

static int fwd_mkdirat(int dirfd, const char *p, mode_t mode)
{
	if (hs_next_foreign)
		return HS_REAL(mkdirat)(dirfd, p, mode);
	return (int)hs_ck_call(SYS_mkdirat, dirfd, (long)p, (long)mode, 0, 0);
}

/* c on the pinned file itself. */
static int on_file(const struct hs_wcall *c, int pin)
{
	char link[40];

	fd_link(pin, link);
	switch (c->kind) {
	case HS_WK_OPEN:
		/* the magic link itself must be followed (O_EXCL and
		 * O_NOFOLLOW opens pin the directory); O_CREAT stays, for
		 * the kernel's own EINVAL with O_DIRECTORY */
		return fwd_openat(AT_FDCWD, link,
				  c->flags & ~(O_EXCL | O_NOFOLLOW), c->mode);
	case HS_WK_TRUNC:
		return fwd_truncate(link, c->len);
	default: /* mkdir of a name that is there */
		errno = EEXIST;
		return -1;
	}
}

/* c on `name`, a single component, in the pinned directory. */
static int in_dir(const struct hs_wcall *c, int pin, const char *name,
		  bool retry)
{
	int r;

	switch (c->kind) {
	case HS_WK_OPEN:
		r = fwd_openat(pin, name, c->flags | O_NOFOLLOW, c->mode);
		/* a symlink where the judged name was none: swapped since,
		 * unless the caller's own O_NOFOLLOW or O_EXCL says so */
		if (r < 0 && errno == ELOOP && !hs_open_nofollow(c->flags) &&
		    retry)
			return HS_WPIN_AGAIN;
		return r;
	case HS_WK_MKDIR:
		return fwd_mkdirat(pin, name, c->mode);
	default: /* truncate: no file was there when it was judged */
		errno = ENOENT;
		return -1;
	}
}

int hs_wpin_call(const struct hs_wcall *c, struct hs_wticket *t, bool retry)
{
	int pin = t->pin.fd, r;

	t->pin.fd = -1;
	/* a directory's pin: the judged name is its name + "/" + the last
	 * component (pathresolve.c) */
	r = t->pin.dir ? in_dir(c, pin, hs_base(t->path), retry)
		       : on_file(c, pin);
	HS_REAL(close)(pin);
	if (r >= 0)
		errno = t->saved_errno;
	return r;
}

FILE *hs_wpin_fdopen(int fd, const struct hs_wcall *c)
{
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, c->fmode);
	if (!f) {
		int e = errno;

		HS_REAL(close)(fd);
		errno = e;
	}
	return f;
}
