/* The files of staged writes; see write_stage.h. Only syscalls: the
 * shim's own calls go to the real functions, with the floor's cookie
 * where there is a floor (floor_calls.h). */
#include "write_stage.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "fdtrack.h"
#include "floor_calls.h"
#include "path.h"
#include "real.h"
#include "state.h"

static long sys5(long nr, long a, long b, long c, long d, long e)
{
	if (hs_ck_on())
		return hs_ck_call(nr, a, b, c, d, e);
	return HS_REAL(syscall)(nr, a, b, c, d, e);
}

static int open_at(const char *p, int fl, mode_t m)
{
	return (int)sys5(SYS_openat, AT_FDCWD, (long)p, fl, m, 0);
}

/* Everything of `from` into `to`, from offset 0 on both. */
static int copy_all(int from, int to)
{
	loff_t oi = 0, oo = 0;
	char buf[16384];

	for (;;) {
		ssize_t r = copy_file_range(from, &oi, to, &oo, 1 << 30, 0);

		if (r == 0)
			return 0;
		if (r < 0)
			break;
	}
	if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
	    errno != EOPNOTSUPP)
		return -1;
	for (;;) {
		ssize_t r = pread(from, buf, sizeof(buf), oi), w = 0;

		if (r == 0)
			return 0;
		if (r < 0)
			return -1;
		while (w < r) {
			ssize_t k = pwrite(to, buf + w, (size_t)(r - w), oo);

			if (k < 0)
				return -1;
			w += k;
			oo += k;
		}
		oi += r;
	}
}

/* The directory part of abs into dir ("/" for a file at the top). */
static void dir_of(const char *abs, char *dir)
{
	size_t n = hs_len(abs), k = n;

	while (k > 0 && abs[k - 1] != '/')
		k--;
	if (k <= 1)
		k = 2;
	hs_copy(dir, abs, k);
	dir[k - 1] = '\0';
	if (k == 2)
		dir[0] = '/', dir[1] = '\0';
}

int hs_stage_make(const char *abs, int fl, mode_t mode,
		  const struct stat *old, unsigned *flags)
{
	char dir[PATH_MAX];
	/* O_APPEND after the copy: copy_file_range refuses an appending
	 * destination */
	int keep = fl & (O_CLOEXEC | O_DSYNC | O_SYNC | O_NONBLOCK);
	int fd, tfd, e;

	*flags = HS_FDT_STAGED;
	if (old && faccessat(AT_FDCWD, abs, W_OK, AT_EACCESS) != 0)
		return -1; /* the real open would fail the same way */
	dir_of(abs, dir);
	fd = open_at(dir, O_TMPFILE | O_RDWR | keep, mode & 07777);
	if (fd < 0) {
		e = errno;
		/* no O_TMPFILE on that file system, or a file we may write
		 * in a directory we may not: stage elsewhere, copy back */
		if (!(e == EOPNOTSUPP || e == EISDIR || e == EINVAL ||
		      (old && e == EACCES)))
			return -1;
		fd = open_at("/tmp", O_TMPFILE | O_RDWR | keep, 0600);
		if (fd < 0)
			return -1;
		*flags |= HS_FDT_COPY;
	}
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		*flags |= HS_FDT_EXCL;
	if (old) {
		if (old->st_nlink > 1 || old->st_uid != geteuid())
			*flags |= HS_FDT_COPY; /* a rename would change those */
		fchmod(fd, old->st_mode & 07777);
		/* a group we cannot give the new file (not ours; or shown as
		 * the overflow id, unmapped in the agent's user namespace):
		 * written into the file itself, which keeps its own */
		if (old->st_gid != getegid() &&
		    fchown(fd, (uid_t)-1, old->st_gid) != 0)
			*flags |= HS_FDT_COPY;
		if (!(fl & O_TRUNC)) { /* append, modify: start from the file */
			tfd = open_at(abs, O_RDONLY | O_CLOEXEC, 0);
			if (tfd < 0 || copy_all(tfd, fd) < 0) {
				e = errno;
				if (tfd >= 0)
					HS_REAL(close)(tfd);
				HS_REAL(close)(fd);
				errno = e;
				return -1;
			}
			HS_REAL(close)(tfd);
			lseek(fd, 0, SEEK_SET);
		}
	}
	if (fl & O_APPEND)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
	return fd;
}

static int publish_copy(int fd, const char *abs, unsigned flags)
{
	struct stat st;
	int tfd, e;

	if (fstat(fd, &st) != 0)
		return -1;
	tfd = open_at(abs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
			      (flags & HS_FDT_EXCL ? O_EXCL : 0),
		      st.st_mode & 07777);
	if (tfd < 0)
		return -1;
	e = copy_all(fd, tfd) < 0 ? errno : 0;
	HS_REAL(close)(tfd);
	errno = e;
	return e ? -1 : 0;
}

int hs_stage_publish(int fd, const char *abs, unsigned flags)
{
	static unsigned seq;
	char src[48], tmp[PATH_MAX], num[24];
	size_t k = hs_len(abs);
	int e;

	if (flags & HS_FDT_COPY)
		return publish_copy(fd, abs, flags);
	hs_self_fd_name(fd, src);
	if (flags & HS_FDT_EXCL)
		return (int)sys5(SYS_linkat, AT_FDCWD, (long)src, AT_FDCWD,
				 (long)abs, AT_SYMLINK_FOLLOW);
	/* dir/.hs-stage-PID-N: linked, then renamed over the target */
	while (k > 0 && abs[k - 1] != '/')
		k--;
	if (k + 48 >= sizeof(tmp))
		return publish_copy(fd, abs, flags);
	hs_copy(tmp, abs, k);
	hs_copy(tmp + k, ".hs-stage-", 11);
	k += 10;
	hs_copy(tmp + k, hs_utoa((unsigned long)hs_getpid(), num), 24);
	k += hs_len(tmp + k);
	tmp[k++] = '-';
	hs_copy(tmp + k,
		hs_utoa(__atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED), num), 24);
	if (sys5(SYS_linkat, AT_FDCWD, (long)src, AT_FDCWD, (long)tmp,
		 AT_SYMLINK_FOLLOW) < 0)
		return -1;
	if (sys5(SYS_renameat, AT_FDCWD, (long)tmp, AT_FDCWD, (long)abs, 0) <
	    0) {
		e = errno;
		sys5(SYS_unlinkat, AT_FDCWD, (long)tmp, 0, 0, 0);
		errno = e;
		return -1;
	}
	return 0;
}
