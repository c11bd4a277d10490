/* Writes made on what their judged name was resolved to; see
 * write_pin.h. */
#include "write_pin.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "floor_calls.h"
#include "path.h"
#include "real.h"
#include "state.h"

/* A call as the shim forwards any it decided (floor_calls.h): cookied
 * under the floor (to no effect without one), through libc's own function
 * when another preloaded library comes after us and must see it. */
#define FWD(nr, real, a, b, c, d, e)                                      \
	(hs_next_foreign ? (real)                                         \
			 : (int)hs_ck_call(nr, (long)(a), (long)(b),      \
					   (long)(c), (long)(d), (long)(e)))

static int fwd_openat(int dirfd, const char *p, int fl, mode_t mode)
{
	return FWD(SYS_openat, HS_REAL(openat)(dirfd, p, fl, mode), dirfd, p,
		   fl, mode, 0);
}

static int fwd_truncate(const char *p, off_t len)
{
	return FWD(SYS_truncate, HS_REAL(truncate)(p, len), p, len, 0, 0, 0);
}

static int fwd_mkdirat(int dirfd, const char *p, mode_t mode)
{
	return FWD(SYS_mkdirat, HS_REAL(mkdirat)(dirfd, p, mode), dirfd, p,
		   mode, 0, 0);
}

static int fwd_unlinkat(int dirfd, const char *p, int flags)
{
	return FWD(SYS_unlinkat, HS_REAL(unlinkat)(dirfd, p, flags), dirfd, p,
		   flags, 0, 0);
}

/* The open(2) flags openat2 takes (it refuses others with EINVAL, where
 * open ignores them). */
#define OPENAT2_FLAGS                                                        \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |      \
	 O_NONBLOCK | O_DSYNC | O_SYNC | FASYNC | O_DIRECT | O_LARGEFILE |   \
	 O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC)

/* The judged physical name opened with no symlink anywhere on its walk:
 * the judged file, at about the cost of the open by name it replaces. */
static int by_name_without_links(const char *abs, int fl, mode_t mode)
{
	struct open_how how = {
		.flags = (unsigned long long)(fl & OPENAT2_FLAGS),
		.mode = fl & O_CREAT ? mode & 07777 : 0,
		.resolve = RESOLVE_NO_SYMLINKS,
	};

	if (hs_next_foreign || (fl & ~OPENAT2_FLAGS))
		return -1;
	return (int)hs_ck_call(SYS_openat2, AT_FDCWD, (long)abs, (long)&how,
			       sizeof(how), 0);
}

/* c on the pinned file itself. */
static int on_file(const struct hs_wcall *c, const char *abs, int pin)
{
	char link[HS_SELF_FD_CAP];
	int fl = c->flags & ~(O_EXCL | O_NOFOLLOW), r;

	hs_self_fd_name(pin, link);
	switch (c->kind) {
	case HS_WK_OPEN:
		/* By its physical name first: the reopen through /proc costs
		 * 2-3 us more. Whatever that open says otherwise (openat2
		 * refused or missing, ELOOP: a symlink since, ENOENT: the
		 * file deleted or renamed, EACCES: a directory above the
		 * working one we may not search) the pinned file decides:
		 * the magic link itself followed (O_EXCL and O_NOFOLLOW opens
		 * pin the directory); O_CREAT stays, for the kernel's own
		 * EINVAL with O_DIRECTORY. */
		if ((r = by_name_without_links(abs, fl, c->mode)) >= 0)
			return r;
		return fwd_openat(AT_FDCWD, link, fl, c->mode);
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
	case HS_WK_UNLINK:
		return fwd_unlinkat(pin, name, c->flags & AT_REMOVEDIR);
	case HS_WK_REMOVE: /* glibc's: unlink, and rmdir for a directory */
		r = fwd_unlinkat(pin, name, 0);
		return r < 0 && errno == EISDIR
			       ? fwd_unlinkat(pin, name, AT_REMOVEDIR)
			       : r;
	case HS_WK_MKNOD:
		return FWD(SYS_mknodat,
			   HS_REAL(mknodat)(pin, name, (mode_t)c->flags,
					    (dev_t)c->len),
			   pin, name, c->flags, c->len, 0);
	case HS_WK_SYMLINK: /* path: the link's text */
		return FWD(SYS_symlinkat,
			   HS_REAL(symlinkat)(c->path, pin, name), c->path,
			   pin, name, 0, 0);
	default: /* truncate: no file was there when it was judged */
		errno = ENOENT;
		return -1;
	}
}

/* A rename from the pinned directory of its source to that of its
 * target, each name a single component there. */
static int renamed(const struct hs_wcall *c, const struct hs_wticket *t)
{
	const char *a = hs_base(t->path), *b = hs_base(t->path2);
	int da = t->pin.fd, db = t->pin2.fd;

	if (c->flags)
		return FWD(SYS_renameat2,
			   HS_REAL(renameat2)(da, a, db, b, (unsigned)c->flags),
			   da, a, db, b, c->flags);
	return FWD(SYS_renameat, HS_REAL(renameat)(da, a, db, b), da, a, db,
		   b, 0);
}

/* A link from the pinned directory of its source to that of its new
 * name, each name a single component there (the source's last one not
 * followed: a pinned link has no AT_SYMLINK_FOLLOW). */
static int linked(const struct hs_wcall *c, const struct hs_wticket *t)
{
	const char *a = hs_base(t->path2), *b = hs_base(t->path);
	int da = t->pin2.fd, db = t->pin.fd;

	return FWD(SYS_linkat, HS_REAL(linkat)(da, a, db, b, c->flags), da, a,
		   db, b, c->flags);
}

void hs_wunpin(struct hs_wticket *t)
{
	int e = errno;

	if (t->pin.fd >= 0)
		HS_REAL(close)(t->pin.fd);
	if (t->pin2.fd >= 0)
		HS_REAL(close)(t->pin2.fd);
	t->pin.fd = t->pin2.fd = -1;
	errno = e;
}

int hs_wpin_call(const struct hs_wcall *c, struct hs_wticket *t, bool retry)
{
	int pin = t->pin.fd, r;

	/* a directory's pin: the judged name is its name + "/" + the last
	 * component (pathresolve.c) */
	if (c->kind == HS_WK_RENAME)
		r = renamed(c, t);
	else if (c->kind == HS_WK_LINK)
		r = linked(c, t);
	else
		r = t->pin.dir ? in_dir(c, pin, hs_base(t->path), retry)
			       : on_file(c, t->path, pin);
	hs_wunpin(t);
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
