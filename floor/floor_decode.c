/* A notified syscall's arguments, decoded whatever its number: see
 * floor_call.h. */
#include "floor_call.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/seccomp.h>

#ifndef __O_SYNC
#define __O_SYNC 04000000
#endif

/* What open/openat/creat hand on to the kernel's openat2 code
 * (build_open_how in fs/open.c): unknown flags dropped, O_PATH taking
 * only its own, a mode only for creating opens. */
#define LEGACY_OPEN_FLAGS                                                    \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |     \
	 O_NONBLOCK | __O_SYNC | O_DSYNC | FASYNC | O_DIRECT | O_LARGEFILE | \
	 O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC | O_PATH |         \
	 HS_O_TMPFILE_BIT)

static void legacy_how(struct open_how *how, unsigned flags, unsigned mode)
{
	how->flags = (flags & LEGACY_OPEN_FLAGS) | O_LARGEFILE;
	how->mode = mode & 07777;
	if (how->flags & O_PATH)
		how->flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (!(how->flags & (O_CREAT | HS_O_TMPFILE_BIT)))
		how->mode = 0;
}

/* A larger struct open_how than today's, as the kernel takes it
 * (copy_struct_from_user; size at most a page): its tail all zero, or
 * E2BIG; unreadable, EFAULT. 0 with *whole set when it is today's struct
 * after all. */
static int how_tail(pid_t tid, uint64_t addr, uint64_t size, bool *whole)
{
	unsigned char tail[4096];
	size_t n = (size_t)size - sizeof(struct open_how);

	if (hs_fl_read(tid, addr + sizeof(struct open_how), tail, n) < 0)
		return EFAULT;
	for (size_t i = 0; i < n; i++)
		if (tail[i])
			return E2BIG;
	*whole = true;
	return 0;
}

#define A(i) (c->n.data.args[i])
#define FD(i) ((int)A(i))

/* bind(fd, addr, len), in the kernel's order: the descriptor (EBADF,
 * ENOTSOCK), the length (EINVAL), the address (EFAULT), then the
 * socket's family's bind. The socket is taken first (c->pop.sock: the
 * call owns it), so that what is judged is what is bound: only a unix
 * socket makes a name on disk, whatever family the address claims, and
 * another thread may put another socket at the descriptor's number at
 * any time. A unix socket's name (common/sunpath.h) is a mknod of a
 * socket; every other bind is K_BIND, nothing to judge (in enforce mode
 * made on that socket: floor_pathop.c). A socket we cannot take for want
 * of our own descriptors fails closed in enforce mode (hs_fl_ours); one
 * not to be had at all (a caller we may not reach, a thread with a table
 * of its own before 6.9) has its name judged as a unix socket's, then
 * goes to the kernel (docs/limits.md). A length the kernel refuses,
 * whatever memory holds, is the kernel's: K_NONE. */
static enum kind decode_bind(struct hs_fl_call *c, struct call *k, pid_t tid,
			     int lfd)
{
	int len = (int)A(2), dom = 0;
	socklen_t dl = sizeof(dom);

	k->bind = true;
	k->sockfd = FD(0);
	k->sa_err = 0;
	k->salen = 0;
	k->sun[0] = '\0';
	c->pop.sock = hs_fl_thread_fd(tid, FD(0), true);
	if (c->pop.sock < 0) {
		long e = errno == EBADF ? -EBADF
					: hs_fl_ours_or(-errno, HS_FL_KERNEL);

		if (e != HS_FL_KERNEL) /* EBADF, or ours: fails closed */
			k->sa_err = (int)-e;
		else
			dom = AF_UNIX; /* not to be had: judged by its name
					* all the same, then the kernel's */
	} else if (getsockopt(c->pop.sock, SOL_SOCKET, SO_DOMAIN, &dom, &dl) != 0) {
		k->sa_err = errno == ENOTSOCK ? ENOTSOCK : EBADF;
	}
	if (!k->sa_err && (len <= 0 || len > HS_FL_SA_CAP))
		return K_NONE; /* EINVAL, or the family's answer to none */
	if (!k->sa_err) {
		k->salen = (unsigned)len;
		if (hs_fl_read(tid, A(1), k->sa, k->salen) < 0)
			/* (EPERM: not ours to read at all, the kernel's) */
			k->sa_err = errno == EPERM || errno == EACCES ? EPERM
								      : EFAULT;
	}
	if (!hs_fl_valid(lfd, c->n.id))
		return K_NONE;
	if (k->sa_err || dom != AF_UNIX ||
	    !hs_sun_path(k->sa, k->salen, k->sun))
		return K_BIND;
	k->mode = S_IFSOCK | 0777; /* a socket inode's, before the umask */
	return K_MKNOD;
}

/* Mode, owner, extended attributes (floor_bpf.c notifies them only when
 * protected files exist). A descriptor alone is p1 == 0 with dirfd and
 * AT_EMPTY_PATH, as fchownat(fd, "", ..., AT_EMPTY_PATH) says it. */
static enum kind decode_attr(struct hs_fl_call *c, struct call *k)
{
	const uint64_t nofollow = AT_SYMLINK_NOFOLLOW, fd_only = AT_EMPTY_PATH;

	k->attr = "chmod";
	switch (c->n.data.nr) {
	case SYS_chmod: k->p1 = A(0); return K_ATTR;
	case SYS_fchmod: k->dirfd = FD(0); k->p1 = 0; k->flags = fd_only;
		return K_ATTR;
	case SYS_fchmodat: k->dirfd = FD(0); k->p1 = A(1); return K_ATTR;
	case SYS_fchmodat2:
		k->dirfd = FD(0); k->p1 = A(1); k->flags = A(3);
		return K_ATTR;
	}
	k->attr = "chown";
	switch (c->n.data.nr) {
	case SYS_chown: k->p1 = A(0); return K_ATTR;
	case SYS_lchown: k->p1 = A(0); k->flags = nofollow; return K_ATTR;
	case SYS_fchown: k->dirfd = FD(0); k->p1 = 0; k->flags = fd_only;
		return K_ATTR;
	case SYS_fchownat:
		k->dirfd = FD(0); k->p1 = A(1); k->flags = A(4);
		return K_ATTR;
	}
	k->attr = "setxattr";
	switch (c->n.data.nr) {
	case SYS_setxattr: case SYS_removexattr: k->p1 = A(0); return K_ATTR;
	case SYS_lsetxattr: case SYS_lremovexattr:
		k->p1 = A(0); k->flags = nofollow;
		return K_ATTR;
	case SYS_fsetxattr: case SYS_fremovexattr:
		k->dirfd = FD(0); k->p1 = 0; k->flags = fd_only;
		return K_ATTR;
	}
	return K_NONE;
}

enum kind hs_fl_decode(struct hs_fl_call *c, struct call *k, pid_t tid,
		       int lfd)
{
	k->dirfd = k->dirfd2 = AT_FDCWD;
	k->p1 = k->p2 = 0;
	k->how_whole = true;
	k->how_err = k->how_tail_err = 0;
	k->flags = 0;
	k->mode = 0;
	k->arg = 0;
	k->bind = false;
	memset(&k->how, 0, sizeof(k->how));
	switch (c->n.data.nr) {
	case SYS_open:
		k->p1 = A(0);
		legacy_how(&k->how, (unsigned)A(1), (unsigned)A(2));
		break;
	case SYS_openat:
		k->dirfd = FD(0); k->p1 = A(1);
		legacy_how(&k->how, (unsigned)A(2), (unsigned)A(3));
		break;
	case SYS_creat:
		k->p1 = A(0);
		legacy_how(&k->how, O_WRONLY | O_CREAT | O_TRUNC, (unsigned)A(1));
		break;
	case SYS_openat2:
		/* the flags live in the caller's struct: read them (all of a
		 * struct of today's size, to open with it), then check the
		 * caller is still the one we read */
		/* sizes the kernel refuses before reading anything (EINVAL
		 * below today's struct, E2BIG above a page): its answer,
		 * whatever another thread writes */
		if (A(3) < sizeof(k->how) || A(3) > 4096)
			return K_NONE;
		if (hs_fl_read(tid, A(2), &k->how, sizeof(k->how)) < 0) {
			/* the kernel reading it again may find a struct:
			 * EFAULT where the floor answers it (enforce mode) */
			memset(&k->how, 0, sizeof(k->how));
			k->how_err = EFAULT;
		}
		if (!hs_fl_valid(lfd, c->n.id))
			return K_NONE;
		k->dirfd = FD(0); k->p1 = A(1);
		k->how_whole = A(3) == sizeof(k->how) && !k->how_err;
		if (A(3) > sizeof(k->how) && !k->how_err)
			k->how_tail_err = how_tail(tid, A(2), A(3),
						   &k->how_whole);
		break;
	}
	if (k->p1) {
		k->flags = k->how.flags;
		return K_OPEN;
	}
	switch (c->n.data.nr) {
	case SYS_truncate: k->p1 = A(0); k->arg = A(1); return K_TRUNC;
	case SYS_rename: k->p1 = A(0); k->p2 = A(1); return K_RENAME;
	case SYS_renameat:
	case SYS_renameat2:
		k->dirfd = FD(0); k->p1 = A(1); k->dirfd2 = FD(2); k->p2 = A(3);
		if (c->n.data.nr == SYS_renameat2)
			k->flags = A(4);
		return K_RENAME;
	case SYS_link: k->p1 = A(0); k->p2 = A(1); return K_LINK;
	case SYS_linkat:
		k->dirfd = FD(0); k->p1 = A(1); k->dirfd2 = FD(2); k->p2 = A(3);
		k->flags = A(4);
		return K_LINK;
	case SYS_symlink: k->p1 = A(0); k->p2 = A(1); return K_SYMLINK;
	case SYS_symlinkat:
		k->p1 = A(0); k->dirfd2 = FD(1); k->p2 = A(2);
		return K_SYMLINK;
	case SYS_unlink: k->p1 = A(0); return K_UNLINK;
	case SYS_unlinkat:
		k->dirfd = FD(0); k->p1 = A(1); k->flags = A(2);
		return K_UNLINK;
	case SYS_rmdir: k->p1 = A(0); k->flags = AT_REMOVEDIR; return K_UNLINK;
	case SYS_mkdir: k->p1 = A(0); k->mode = (unsigned)A(1); return K_MKDIR;
	case SYS_mkdirat:
		k->dirfd = FD(0); k->p1 = A(1); k->mode = (unsigned)A(2);
		return K_MKDIR;
	case SYS_mknod:
		k->p1 = A(0); k->mode = (unsigned)A(1); k->arg = A(2);
		return K_MKNOD;
	case SYS_mknodat:
		k->dirfd = FD(0); k->p1 = A(1); k->mode = (unsigned)A(2);
		k->arg = A(3);
		return K_MKNOD;
	case SYS_bind:
		return decode_bind(c, k, tid, lfd);
	}
	return decode_attr(c, k);
}

/* The flags O_PATH takes; openat2 refuses any other with it (EINVAL). */
#define PATH_ONLY_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define RESOLVE_ALL                                                         \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS |    \
	 RESOLVE_BENEATH | RESOLVE_IN_ROOT | RESOLVE_CACHED)

/* An openat2 with O_PATH, which the floor can neither do for the caller
 * (ADDFD takes no O_PATH descriptor) nor continue (the kernel would read
 * its flags again, and another thread can have made them
 * O_WRONLY|O_TRUNC): the kernel's EINVAL for what it refuses with O_PATH
 * (build_open_flags), else ENOSYS, on which libraries fall back to
 * openat, whose flags are in a register. */
static int path_answer(const struct open_how *h)
{
	if ((h->flags & ~(uint64_t)PATH_ONLY_FLAGS) || h->mode ||
	    (h->resolve & ~(uint64_t)RESOLVE_ALL) ||
	    ((h->resolve & RESOLVE_BENEATH) && (h->resolve & RESOLVE_IN_ROOT)))
		return EINVAL;
	return ENOSYS;
}

/* The open flags the kernel knows (its VALID_OPEN_FLAGS), which openat2,
 * unlike open, holds a caller to. */
#define KERNEL_O_LARGEFILE 0100000 /* x86-64's; 0 in glibc's headers */
#define KNOWN_FLAGS                                                          \
	((uint64_t)(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC |       \
		    O_APPEND | O_NONBLOCK | O_DSYNC | O_ASYNC | O_DIRECT |    \
		    KERNEL_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW |           \
		    O_NOATIME | O_CLOEXEC | O_SYNC | O_PATH |                 \
		    HS_O_TMPFILE_BIT))

/* What the kernel refuses in an openat2's struct before any walk
 * (build_open_flags), where our open, which makes its own, would not:
 * EINVAL, or 0. (O_PATH's: path_answer.) */
static int how_answer(const struct open_how *h)
{
	bool tmp = h->flags & HS_O_TMPFILE_BIT;

	if ((h->flags & ~KNOWN_FLAGS) || (h->mode & ~(uint64_t)07777) ||
	    (h->mode && !(h->flags & O_CREAT) && !tmp) ||
	    (h->resolve & ~(uint64_t)RESOLVE_ALL) ||
	    ((h->resolve & RESOLVE_BENEATH) && (h->resolve & RESOLVE_IN_ROOT)) ||
	    (tmp && ((h->flags & O_CREAT) || !(h->flags & O_DIRECTORY) ||
		     (h->flags & O_ACCMODE) == O_RDONLY)))
		return EINVAL;
	return 0;
}

void hs_fl_open_call(struct hs_fl_call *c, const struct call *k, int e,
		     bool enforce)
{
	bool path = k->how.flags & O_PATH, at2 = c->n.data.nr == SYS_openat2;
	int how_err = at2 && !path ? how_answer(&k->how) : 0;

	c->open.dirfd = k->dirfd;
	c->open.how = k->how;
	/* the kernel's order: the struct, its flags, then the path; guard
	 * mode answers none of the first (its struct errors are the
	 * kernel's, and an O_PATH descriptor writes nothing) */
	c->open.read_err = !enforce	  ? (e < 0 ? -e : 0)
			   : k->how_err      ? k->how_err
			   : k->how_tail_err ? k->how_tail_err
			   : at2 && path      ? path_answer(&k->how)
			   : at2 && how_err   ? how_err
			   : e < 0	      ? -e
					      : 0;
	/* a legacy O_PATH open is the kernel's own: it writes nothing */
	c->open.on = (enforce && c->open.read_err) || (k->how_whole && !path);
	c->open.path[0] = '\0';
	if (!c->open.read_err)
		copy_cut(c->open.path, sizeof(c->open.path), k->path);
}

void hs_fl_path_call(struct hs_fl_call *c, const struct call *k, int e)
{
	struct hs_fl_pathop *o = &c->pop;

	o->on = true;
	o->nr = c->n.data.nr;
	o->tid = (pid_t)c->n.pid;
	o->dirfd = k->dirfd;
	o->dirfd2 = k->dirfd2;
	o->flags = k->flags;
	o->mode = k->mode;
	o->arg = k->arg;
	o->sockfd = k->bind ? k->sockfd : -1;
	o->salen = k->bind && !k->sa_err ? k->salen : 0;
	if (o->salen)
		memcpy(o->sa, k->sa, o->salen);
	o->read_err = e < 0 ? -e : 0;
	o->judged[0] = o->judged2[0] = '\0';
	o->path[0] = o->path2[0] = '\0';
	if (e < 0)
		return;
	copy_cut(o->path, sizeof(o->path), k->path);
	copy_cut(o->path2, sizeof(o->path2), k->path2);
}
