/* An allowed open done by the supervisor on the caller's behalf, the
 * descriptor handed over with SECCOMP_IOCTL_NOTIF_ADDFD (5.9) and the
 * answer carrying its number, so that what is opened is what was
 * judged. Continuing the call instead lets the kernel read the path again:
 * another thread of the caller can swap the bytes in between, or, with
 * writes.follow_symlinks, flip a symlink on the way (docs/floor.md,
 * "Allowed calls").
 *
 * What is opened:
 *   - the string copied out of the caller (never its memory again), from
 *     the caller's own directory: its cwd or dirfd (/proc/<tid>/cwd,
 *     /proc/<tid>/fd/N, and /proc/self/fd/N/... as the caller's N), checked
 *     to still be the directory whose name was judged;
 *   - without follow_symlinks, in one openat2 from there: the kernel's own
 *     walk of that string, with the caller's flags, mode and resolve flags;
 *   - with follow_symlinks, the judged name was the resolved one: the string
 *     is walked with O_PATH, the result must be the judged file (or, to be
 *     created, the judged directory and name), and only that object is
 *     opened (through our descriptor of it; a new file by its single name
 *     with RESOLVE_NO_SYMLINKS -- an O_CREAT|O_EXCL one without a look
 *     first: its create fails EEXIST for whatever is there, and what it
 *     makes needs no look after, fit()). A symlink flipped since makes
 *     the walk land elsewhere: the call is judged again
 *     (HS_FL_OPEN_AGAIN), and after a few rounds fails with ELOOP; it
 *     never lands.
 * Magic links are refused on the walk (RESOLVE_NO_MAGICLINKS: ours are
 * not the caller's); the caller's own descriptors by name (/dev/stdout,
 * /dev/fd/N), another process's /proc/<pid>/fd/N and any other magic link
 * opened whole (/proc/<pid>/cwd, root, exe) are reopened through that
 * link instead (fd_by_name); an openat2's resolve flags on one are
 * answered as the kernel answers them before any walk.
 * A fifo whose open waits for its other end is waited in on a thread of
 * its own (floor_fifo.c), and so is every device but the memory
 * devices and ptys (floor_device.c), and a regular file another process
 * holds a lease on (leased()). What special() leaves (a terminal a
 * session leader may take as its own), a write to a cgroup's file by a
 * caller in another cgroup namespace (or, v1, of another effective uid:
 * floor_procfs.c), and a caller whose namespaces, root or LSM label
 * differ from ours, or whose credentials we cannot take on
 * (floor_identity.c), are left to the kernel (CONTINUE). A file of
 * /proc is opened here, the caller's /proc/self/... walked from its
 * /proc/<tgid> (floor_start.c); one of our own /proc is neither (a
 * symlink to /proc/self/... reaches ours in our walk): judged again,
 * then ELOOP. A cgroup's file is opened here too.
 * Created files get the caller's umask (/proc/<tid>/status), set in a
 * thread whose file system state is its own (unshare(CLONE_FS)).
 * (Near 900 lines: the ways a walk can end -- a file, a magic link, a
 * symlink followed, a descriptor by name -- all end in the one answer
 * and its checks, fit() and the judged name; split, each part would
 * pass the call's whole state across.) */
#include "floor.h"
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/proclink.h"


/* Results of the steps below besides a descriptor (>= 0) or -errno: */
#define KERNEL HS_FL_KERNEL /* not ours to open: let the call continue */
#define AGAIN HS_FL_AGAIN    /* changed since it was judged: judge again */
/* a socket's open fails ENXIO: answered so, never a decoy for the
 * kernel's walk (refused() takes an ENXIO for our O_NONBLOCK's) */
#define NO_FD (HS_FL_AGAIN - 2) /* fd_by_name: no descriptor named */
#define CTTY HS_FL_CTTY
#define WAITS HS_FL_WAITS /* a fifo's open that waits: floor_fifo.c */

void hs_fl_open_sandboxed(const struct hs_floor_ctx *x)
{
	/* Landlock domains cannot be read from /proc, so one process
	 * entering one ends emulation for all: set before its call goes on,
	 * so no open of its can come after the call and still be ours. */
	__atomic_store_n(x->sandboxed, 1, __ATOMIC_RELEASE);
}

/* dir + "/" + name as hs_path_resolve names a file in dir, into out */
static void join_name(const char *dir, const char *name, char *out,
		      size_t cap)
{
	snprintf(out, cap, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
}

static bool join_is(const char *dir, const char *name, const char *want)
{
	char p[PATH_MAX * 2];

	join_name(dir, name, p, sizeof(p));
	return strcmp(p, want) == 0;
}

/* The directory part of rest, walked from start as the caller's walk
 * would go (its resolve flags, no magic link of ours): our O_PATH
 * descriptor of it, or -errno. rest is cut at its last slash, *last its
 * last component. */
static long dir_part(int start, char *rest, uint64_t resolve, char **last)
{
	char *slash = strrchr(rest, '/');

	*last = slash ? slash + 1 : rest;
	if (slash && slash != rest)
		*slash = '\0';
	return hs_fl_openat2(start, !slash ? "." : slash == rest ? "/" : rest,
			     O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
			     resolve | RESOLVE_NO_MAGICLINKS);
}

/* A symlink's name, last in our descriptor dir of its directory, into
 * named: 0, or -1 where dir has no name. */
static int link_name(int dir, const char *last, char *named, size_t cap)
{
	char d[PATH_MAX];

	if (hs_fl_fd_name(dir, d) < 0)
		return -1;
	join_name(d, last, named, cap);
	return 0;
}

/* tgt (cap), a relative symlink target from the directory named dir, as
 * hs_path_join_up names it where that is in /proc or /dev (where magic
 * links are); left as written otherwise. Its length, or -1 (unnamed). */
static ssize_t up_name(const char *dir, char *tgt, size_t cap)
{
	char abs[PATH_MAX];

	if (hs_path_join_up(dir, tgt, abs, sizeof(abs)) < 0)
		return -1;
	if (strncmp(abs, "/proc/", 6) != 0 && strncmp(abs, "/dev/", 5) != 0)
		return (ssize_t)strlen(tgt);
	snprintf(tgt, cap, "%s", abs);
	return (ssize_t)strlen(tgt);
}

/* An ELOOP from the walk of s (hs_fl_eloop_whose), with the caller's
 * O_NOFOLLOW and resolve flags. */
static long eloop_whose(const struct hs_fl_start *s, const struct open_how *how)
{
	return hs_fl_eloop_whose(s->fd, s->rest, how->flags & O_NOFOLLOW,
				 how->resolve);
}

/* The same for a walk of a directory on the way: a magic link met there
 * the naming did not see (it denies one as unnamed) came since, a
 * symlink flipped -- judged again, never the kernel's. */
static long eloop_on_the_way(const struct hs_fl_start *s,
			     const struct open_how *how)
{
	long r = eloop_whose(s, how);

	return r == KERNEL ? AGAIN : r;
}

/* Our open's error as the caller's: -errno, or AGAIN where only our
 * O_NONBLOCK made it (a fifo or a lease that came since our look:
 * judged and looked at again, never the kernel's walk of the name). */
static long refused(long e, const struct open_how *how)
{
	if (e == HS_FL_ENXIO)
		return -ENXIO;
	/* (RESOLVE_CACHED's EAGAIN is the kernel's own answer) */
	if ((e == -ENXIO || (e == -EAGAIN && !(how->resolve & RESOLVE_CACHED))) &&
	    !(how->flags & O_NONBLOCK))
		return AGAIN;
	return hs_fl_ours(e);
}

/* Our open of a regular file (our O_PATH descriptor opath of it, sb)
 * that failed r: where it was our O_NONBLOCK against a lease, the open
 * is made on a thread that waits for the lease's break, as the caller's
 * would (floor_fifo.c) -- WAITS, c->open.fifo ours; else r. */
static long leased(struct hs_fl_call *c, int opath, const struct stat *sb,
		   uint64_t fl, long r)
{
	struct statfs fs;

	if (r != -EAGAIN || (fl & O_NONBLOCK) || !S_ISREG(sb->st_mode) ||
	    (fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return r;
	/* the waiting thread hands over what it opens unlooked-at: none
	 * of what fit() looks at (/proc, a cgroup's, /sys) */
	if (fstatfs(opath, &fs) != 0 || fs.f_type == PROC_SUPER_MAGIC ||
	    fs.f_type == CGROUP_SUPER_MAGIC || fs.f_type == CGROUP2_SUPER_MAGIC ||
	    fs.f_type == SYSFS_MAGIC)
		return AGAIN;
	r = hs_fl_wait_for(c, opath);
	return r == WAITS ? r : hs_fl_ours(r);
}

/* Is our descriptor fd of procfs one of the kernel's settings, as
 * floor_refuse.c refuses by the name (hs_fl_kernel_setting)? */
static bool proc_sys(int fd)
{
	char p[40], t[64];
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if ((n = readlink(p, t, sizeof(t) - 1)) <= 0)
		return false;
	t[n] = '\0';
	return hs_fl_kernel_setting(t);
}

/* Our descriptor fd, checked and made the caller's: fd, or another
 * descriptor for it; KERNEL to leave the call to the kernel; AGAIN
 * where what our walk reached is not what was judged (a device where
 * the look before saw none: the walk raced); -errno -- fd closed but
 * when returned. A file of /proc or of a cgroup is floor_procfs.c's to
 * look at (one of our own /proc is the caller's own by number, or judged
 * again; a cgroup's written from another namespace is the kernel's, a
 * v1 cgroup.procs written by another effective uid refused). */
static long fit(struct hs_fl_call *c, int fd, uint64_t fl, pid_t tid,
		const char *written, unsigned allow)
{
	struct stat sb;
	struct statfs fs;
	long r = fd;
	int st;
	bool writes = (fl & O_ACCMODE) != O_RDONLY || (fl & O_TRUNC);

	/* made by our O_CREAT|O_EXCL just now: a regular file (what an
	 * open creates), on a file system that lets one be created -- none
	 * of /proc, a cgroup's, a device -- and opened as the caller asked
	 * (hs_fl_our_flags): nothing to look at */
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return fd;
	if (fstat(fd, &sb) < 0 || fstatfs(fd, &fs) < 0) {
		close(fd);
		return KERNEL;
	}
	/* what the refusals (floor_refuse.c) refuse by the name judged: a
	 * name flipped to one of them since (a symlink) reached it here --
	 * judged again, by what it names now */
	if (writes && (((fs.f_type == CGROUP_SUPER_MAGIC ||
			 fs.f_type == CGROUP2_SUPER_MAGIC) &&
			!(allow & HS_FA(CGROUPS))) ||
		       (fs.f_type == SYSFS_MAGIC && !(allow & HS_FA(PROC_SYS))) ||
		       (fs.f_type == PROC_SUPER_MAGIC &&
			!(allow & HS_FA(PROC_SYS)) && proc_sys(fd)))) {
		close(fd);
		return AGAIN;
	}
	/* a cgroup's file: its writes check more of the opener than the
	 * thread that opened took on (floor_procfs.c) */
	if ((fs.f_type == CGROUP_SUPER_MAGIC ||
	     fs.f_type == CGROUP2_SUPER_MAGIC) &&
	    (r = hs_fl_cgroup_fit(fd, tid, fl,
				  fs.f_type == CGROUP_SUPER_MAGIC)) < 0)
		return r;
	if (!(S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode) ||
	      hs_fl_special(&sb, fl, tid) == 0)) {
		/* special_open looked at what was there first */
		close(fd);
		return AGAIN;
	}
	if (fs.f_type == PROC_SUPER_MAGIC &&
	    (r = hs_fl_proc_fit(fd, tid, fl, written, c->reach_why,
				sizeof(c->reach_why))) < 0)
		return r;
	if (!(fl & O_NONBLOCK) && (st = fcntl((int)r, F_GETFL)) >= 0)
		fcntl((int)r, F_SETFL, st & ~O_NONBLOCK);
	return r;
}

/* A device, fifo or socket (sb) that was judged, our O_PATH descriptor
 * opath of it: true with *r its open's result where it is made here -- a
 * fifo's (floor_fifo.c), /dev/tty's as the caller's terminal
 * (hs_fl_ctty_open) -- or left to the kernel (KERNEL, a socket's
 * HS_FL_ENXIO), or failed for want of our own descriptors or memory
 * (hs_fl_ours); false where it is opened as a file is, by the caller's
 * own way (the memory devices, ptys). */
static bool special_open(struct hs_fl_call *c, int opath,
			 const struct stat *sb, uint64_t fl, long *r)
{
	if (S_ISFIFO(sb->st_mode)) {
		*r = hs_fl_fifo_open(c, opath, fl);
		return true;
	}
	*r = hs_fl_special(sb, fl, (pid_t)c->n.pid);
	if (*r == CTTY)
		*r = hs_fl_ctty_open((pid_t)c->n.pid, fl);
	else if (*r == HS_FL_DEVICE) /* opened on a thread that waits */
		*r = hs_fl_wait_for(c, opath);
	return *r != 0;
}

static long fd_by_name(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		       const char *path, const char *named);

/* The walk of s met a magic link (eloop_whose): where the last
 * component's symlinks lead to one of the caller's descriptors by name or
 * another magic link whole (`ln -s /dev/stdout access.log`), that is
 * reopened as fd_by_name reopens one named so, held to the name judged
 * (a nameless one, a pipe, by the symlink's). Followed by hand as the
 * naming did (floor_name.c, follow_by_hand), which names no other walk
 * through a magic link (one on the way to a directory is denied as
 * unnamed): one met here otherwise came since the naming -- a symlink
 * flipped -- and the call is judged again (AGAIN), never continued. */
static long magic_end(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		      const struct hs_fl_start *s)
{
	const struct open_how *how = &c->open.how;
	char rest[PATH_MAX + 1], tgt[PATH_MAX], dir[PATH_MAX],
	     named[PATH_MAX * 2 + 2], nm[PATH_MAX * 2 + 2];
	int start = s->fd;
	long r = AGAIN;

	/* (the kernel walks no magic link with these: its own ELOOP, which
	 * eloop_whose told already) */
	if ((how->flags & O_NOFOLLOW) ||
	    (how->resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT |
			     RESOLVE_NO_SYMLINKS)))
		return AGAIN;
	snprintf(rest, sizeof(rest), "%s", s->rest);
	for (int hops = 0; hops < 40; hops++) {
		const char *base = strrchr(rest, '/');
		char *last;
		long pfd;
		ssize_t n;

		base = base ? base + 1 : rest;
		if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
			break;
		pfd = dir_part(start, rest, how->resolve, &last);
		if (pfd < 0) {
			r = hs_fl_ours_or(pfd, AGAIN);
			break;
		}
		if (start != s->fd)
			close(start);
		start = (int)pfd;
		n = readlinkat(start, last, tgt, sizeof(tgt) - 1);
		if (n <= 0 || hs_fl_fd_name(start, dir) < 0)
			break; /* no symlink: the magic link was on the way */
		join_name(dir, last, nm, sizeof(nm));
		/* the name a descriptor reached is held to: following, the
		 * last symlink's (a nameless one's, as the naming named it);
		 * not following, the first's, the one judged */
		if (hops == 0 || hs_fscope_follow(x->scope))
			memcpy(named, nm, strlen(nm) + 1);
		tgt[n] = '\0';
		/* a relative one that reaches /proc or /dev
		 * ("../../proc/self/fd/1"): by that name, as a descriptor
		 * by name is seen (start's name has no symlink in it), as
		 * the naming named it (floor_name.c) */
		if (tgt[0] != '/' && (n = up_name(dir, tgt, sizeof(tgt))) < 0)
			break;
		/* into the supervisor's or a hook's /proc, or a judged
		 * command's: refused, as a name written so is
		 * (floor_reach.c) */
		if (tgt[0] == '/' && strlen(tgt) < PATH_MAX &&
		    hs_fl_reach_open((pid_t)c->n.pid, tgt, c->reach_why,
				     sizeof(c->reach_why))) {
			r = HS_FL_REACH;
			break;
		}
		if (tgt[0] == '/' &&
		    (r = fd_by_name(x, c, tgt, named)) != NO_FD)
			break;
		r = AGAIN;
		/* another symlink on the way: from its directory */
		memcpy(rest, tgt, (size_t)n + 1);
	}
	if (start != s->fd)
		close(start);
	return r;
}

/* With follow_symlinks: open what the walk of the string reaches only if
 * it is what was judged. fd (>= 0) to inject, -errno, KERNEL or AGAIN. */
static long trunc_ours(struct hs_fl_call *c, long fd, uint64_t fl);

static long open_judged(const struct hs_floor_ctx *x, struct hs_fl_call *c,
			struct hs_fl_start *s)
{
	const struct open_how *how = &c->open.how;
	uint64_t fl = how->flags, walk_fl = O_PATH | O_CLOEXEC;
	bool creat = fl & O_CREAT, excl = creat && (fl & O_EXCL), unlooked;
	const char *judged = c->open.judged;
	char name0[PATH_MAX], rest[PATH_MAX + 1], *last;
	struct stat sb;
	long fd, pfd, r = -ELOOP;
	int start = s->fd;

	/* the last component is not followed for O_NOFOLLOW or O_EXCL */
	if ((fl & O_NOFOLLOW) || excl)
		walk_fl |= O_NOFOLLOW;
	walk_fl |= fl & O_DIRECTORY;
	snprintf(rest, sizeof(rest), "%s", s->rest);
	/* O_CREAT with a trailing slash: EISDIR, once the directory part
	 * is walked, whatever the last name is (the kernel looks it up no
	 * further) */
	if (creat && rest[0] && rest[strlen(rest) - 1] == '/') {
		size_t n = strlen(rest);

		while (n > 0 && rest[n - 1] == '/')
			rest[--n] = '\0';
		if (!n)
			return -EISDIR;
		pfd = dir_part(start, rest, how->resolve, &last);
		if (pfd < 0)
			return pfd == -ELOOP ? eloop_on_the_way(s, how) : pfd;
		close((int)pfd);
		return -EISDIR;
	}
	/* O_CREAT|O_EXCL of a plain last name: no look whether it is
	 * there (twice: the walk, its stat) -- the create in the judged
	 * directory fails EEXIST for whatever is, as the kernel's would */
	last = strrchr(rest, '/');
	last = last ? last + 1 : rest;
	unlooked = excl && *last && strcmp(last, ".") != 0 &&
		   strcmp(last, "..") != 0;
	for (int hops = 0; hops < 40; hops++) {
		fd = unlooked && hops == 0
			     ? -ENOENT
			     : hs_fl_openat2(start, rest, walk_fl, 0,
					     how->resolve | RESOLVE_NO_MAGICLINKS);
		if (fd >= 0) {
			if (fstat((int)fd, &sb) < 0 || hs_fl_fd_name((int)fd, name0) < 0) {
				close((int)fd);
				r = AGAIN; /* unnamed now: judged again */
				break;
			}
			if (S_ISLNK(sb.st_mode))
				r = excl ? -EEXIST : -ELOOP;
			else if (strcmp(name0, judged) != 0)
				r = AGAIN;
			else if (excl)
				r = -EEXIST;
			else if (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode) &&
				 special_open(c, (int)fd, &sb, fl, &r))
				; /* a fifo, /dev/tty, what is the kernel's */
			else {
				/* a regular file's O_TRUNC once the caller has
				 * its descriptor (trunc_ours) */
				bool reg_trunc = S_ISREG(sb.st_mode) &&
						 (fl & O_TRUNC);

				snprintf(name0, sizeof(name0), "/proc/self/fd/%ld",
					 fd);
				r = leased(c, (int)fd, &sb, fl,
					   hs_fl_openat2(AT_FDCWD, name0,
							 hs_fl_our_flags(fl & ~(uint64_t)(O_NOFOLLOW |
											  O_CREAT |
											  (reg_trunc ? O_TRUNC : 0))),
							 fl & HS_O_TMPFILE_BIT ? how->mode : 0, 0));
				if (reg_trunc && r >= 0)
					r = trunc_ours(c, r, fl);
			}
			close((int)fd);
			break;
		}
		if (fd == -ELOOP) {
			r = eloop_whose(s, how);
			if (r == KERNEL)
				r = magic_end(x, c, s);
			break;
		}
		if (fd != -ENOENT || !creat) {
			r = fd;
			break;
		}
		/* to be created: its directory, and its name there */
		if (rest[strlen(rest) - 1] == '/') {
			r = -EISDIR;
			break;
		}
		pfd = dir_part(start, rest, how->resolve, &last);
		if (pfd < 0) {
			r = pfd == -ELOOP ? eloop_on_the_way(s, how) : pfd;
			break;
		}
		if (start != s->fd)
			close(start);
		start = (int)pfd;
		if (!(unlooked && hops == 0) &&
		    fstatat(start, last, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
			char tgt[PATH_MAX];
			ssize_t n;

			r = AGAIN; /* unless a dangling symlink, it appeared */
			if (!S_ISLNK(sb.st_mode))
				break;
			/* a dangling symlink: O_CREAT makes its target (under
			 * RESOLVE_BENEATH or IN_ROOT: not followed here, and
			 * never the kernel's, which reads the path again:
			 * judged again, then ELOOP) */
			if (how->resolve & (RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH |
					    RESOLVE_IN_ROOT)) {
				r = how->resolve & RESOLVE_NO_SYMLINKS ? -ELOOP
								       : AGAIN;
				break;
			}
			n = readlinkat(start, last, tgt, sizeof(tgt) - 1);
			if (n <= 0)
				break;
			tgt[n] = '\0';
			if (strncmp(tgt, "/proc/", 6) == 0 ||
			    strncmp(tgt, "/dev/fd/", 8) == 0) {
				/* dangling in our view only: the caller's
				 * descriptor by name (its /proc/self/fd/9,
				 * which we do not have), reopened */
				char named[PATH_MAX * 2 + 2];

				r = AGAIN;
				if (link_name(start, last, named, sizeof(named)) == 0 &&
				    (r = fd_by_name(x, c, tgt, named)) == NO_FD)
					r = AGAIN;
				break;
			}
			memcpy(rest, tgt, (size_t)n + 1);
			r = -ELOOP; /* if the hops run out */
			continue;
		}
		if (!(unlooked && hops == 0) && errno != ENOENT) {
			r = -errno;
			break;
		}
		if (hs_fl_fd_name(start, name0) < 0 || !join_is(name0, last, judged)) {
			r = AGAIN;
			break;
		}
		/* the judged name, one component below the judged directory:
		 * a symlink put there since fails (ELOOP), never followed */
		r = hs_fl_openat2(start, last, hs_fl_our_flags(fl), how->mode,
			     RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
		if (r == -ELOOP)
			r = AGAIN;
		break;
	}
	if (start != s->fd)
		close(start);
	return r;
}

/* The caller's O_TRUNC of a regular file, on our descriptor of it, after
 * it was checked -- and made only once the descriptor is installed in
 * the caller (hs_fl_inject_trunc): one its table had no room for
 * (EMFILE) had emptied the file all the same (session 38's attack run).
 * By ftruncate of fd when it was opened for writing (a second descriptor
 * for writing would close before the caller has its own, and its
 * IN_CLOSE_WRITE could end a PostToolUse's wait, floor_post.c);
 * O_RDONLY|O_TRUNC on a second open for writing, made now: its check
 * of the caller's right is the kernel's. An append-only file's O_TRUNC
 * is the kernel's EPERM. fd, or -errno with fd closed. */
static long trunc_ours(struct hs_fl_call *c, long fd, uint64_t fl)
{
	char self[40];
	unsigned attr = 0;
	long e;
	int t = -1;

	if (ioctl((int)fd, FS_IOC_GETFLAGS, &attr) == 0 &&
	    (attr & FS_APPEND_FL)) {
		close((int)fd);
		return -EPERM;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		snprintf(self, sizeof(self), "/proc/self/fd/%ld", fd);
		t = open(self, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (t < 0) {
			e = -errno;
			close((int)fd);
			return e;
		}
	}
	if (c->open.trunc && c->open.trunc_fd >= 0)
		close(c->open.trunc_fd);
	c->open.trunc = true;
	c->open.trunc_fd = t;
	return fd;
}

/* A truncation prepared for a descriptor not given after all. */
static void trunc_drop(struct hs_fl_call *c)
{
	if (c->open.trunc && c->open.trunc_fd >= 0)
		close(c->open.trunc_fd);
	c->open.trunc = false;
	c->open.trunc_fd = -1;
}

/* Without follow_symlinks: the kernel's own walk of the string, in one
 * openat2 from the judged directory. Its name was judged, not what it
 * leads to: a symlink swapped in since may lead to a protected file,
 * which no judged open ever writes (the built-in rule denies it by its
 * identity, hs_fscope_protected_target). So what was reached is looked
 * at before it is handed over, and the caller's O_TRUNC (which the
 * kernel applies even with O_RDONLY) is left out of our open and done
 * after the look, by the kernel's own O_TRUNC on a second open of the
 * same file, which checks the caller's right to write as the kernel's
 * O_TRUNC does (a file our open created is new: its O_TRUNC did nothing,
 * and its mode may refuse a second open). What is there is looked at
 * first without opening it (O_PATH): a device's open has effects of its
 * own, so special_open() says which are ours, and a fifo is opened through
 * that descriptor (floor_fifo.c: a second open by name would wake its other
 * end and close it again); an O_CREAT|O_EXCL open opens nothing that
 * exists. fd (>= 0) to inject, -errno, KERNEL, AGAIN or WAITS. */
static long open_by_name(const struct hs_floor_ctx *x, struct hs_fl_call *c,
			 const struct hs_fl_start *s)
{
	const struct open_how *how = &c->open.how;
	uint64_t fl = how->flags;
	bool trunc = (fl & O_TRUNC) && !(fl & O_PATH);
	/* what opens nothing that exists: O_CREAT|O_EXCL, an O_TMPFILE
	 * (which the kernel never truncates) */
	bool fresh = (fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
		     (fl & HS_O_TMPFILE_BIT);
	bool existed = !fresh, odd = false;
	struct stat sb;
	long fd, e;

	if (!fresh && !(fl & O_PATH)) {
		fd = hs_fl_openat2(s->fd, s->rest, O_PATH | O_CLOEXEC | (fl & O_NOFOLLOW),
			      0, how->resolve | RESOLVE_NO_MAGICLINKS);
		if (fd >= 0) {
			if (fstat((int)fd, &sb) != 0)
				e = KERNEL;
			else if (S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode) ||
				 (S_ISLNK(sb.st_mode) && (fl & O_NOFOLLOW)) ||
				 !special_open(c, (int)fd, &sb, fl, &e))
				e = 0;
			else {
				close((int)fd);
				return e;
			}
			/* a device's or a fifo's O_TRUNC truncates nothing
			 * but asks for the right to write: ours to keep */
			odd = e == 0 && !S_ISREG(sb.st_mode) &&
			      !S_ISDIR(sb.st_mode) && !S_ISLNK(sb.st_mode);
			close((int)fd);
			if (e)
				return e;
		}
		existed = fd >= 0 || fd != -ENOENT;
	}
	fd = hs_fl_openat2(s->fd, s->rest,
			   hs_fl_our_flags(trunc && !odd ? fl & ~(uint64_t)O_TRUNC : fl),
			   how->mode, how->resolve | RESOLVE_NO_MAGICLINKS);
	if (fd == -ELOOP)
		return (fd = eloop_whose(s, how)) == KERNEL ? magic_end(x, c, s)
							     : fd;
	if (fd == -EAGAIN && !(fl & O_NONBLOCK)) {
		/* a lease: what the name leads to, looked at (its open on
		 * the waiting thread truncates too), then waited for */
		long o = hs_fl_openat2(s->fd, s->rest,
				       O_PATH | O_CLOEXEC | (fl & O_NOFOLLOW), 0,
				       how->resolve | RESOLVE_NO_MAGICLINKS);

		if (o < 0)
			return AGAIN;
		fd = fstat((int)o, &sb) != 0 ||
				     ((fl & HS_FLOOR_WRITE_FLAGS) &&
				      hs_fscope_protected_fd(x->scope, (int)o))
			     ? AGAIN
			     : leased(c, (int)o, &sb, fl, fd);
		close((int)o);
		return fd;
	}
	if (fd < 0 || (fl & O_PATH))
		return fd;
	if ((fl & HS_FLOOR_WRITE_FLAGS) &&
	    hs_fscope_protected_fd(x->scope, (int)fd)) {
		close((int)fd);
		return AGAIN; /* judged again, by what it leads to now */
	}
	if (!trunc || odd || (fl & HS_O_TMPFILE_BIT))
		return fd;
	/* not there a moment ago: ours, new and empty -- unless another
	 * process made it in between, with something in it */
	if (!existed && (fstat((int)fd, &sb) != 0 || sb.st_size == 0))
		return fd;
	/* one that became a fifo or a device since the look: judged and
	 * looked at again (our O_TRUNC was not the caller's to leave out) */
	if (fstat((int)fd, &sb) == 0 &&
	    (S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		close((int)fd);
		return AGAIN; /* judged and looked at again */
	}
	return trunc_ours(c, fd, fl);
}

/* Does this kernel refuse O_CREAT with O_DIRECTORY before it walks any
 * path (EINVAL since 6.4, build_open_flags)? Our own opens drop O_CREAT
 * where the file is there, and would answer EISDIR instead. Asked once,
 * of "/" (which no O_CREAT can make: EISDIR on older kernels). */
static bool creat_dir_refused(void)
{
	static int refused = -1;
	int r = __atomic_load_n(&refused, __ATOMIC_RELAXED), fd;

	if (r < 0) {
		fd = open("/", O_RDONLY | O_DIRECTORY | O_CREAT | O_CLOEXEC, 0);
		r = fd < 0 && errno == EINVAL;
		if (fd >= 0)
			close(fd);
		__atomic_store_n(&refused, r, __ATOMIC_RELAXED);
	}
	return r;
}

/* Is our descriptor fd the file judged? By its name; one with no name (a
 * pipe, a socket) was judged by the name written (/dev/stdout), or by
 * that of the symlink that led to it (`named`, or NULL); without
 * follow_symlinks, every file a symlink led to was judged by the
 * symlink's name. */
static bool is_judged(const struct hs_floor_ctx *x, int fd,
		      const char *judged, const char *named)
{
	char now[PATH_MAX];
	bool by_link = named && strcmp(judged, named) == 0;

	if (hs_fl_fd_name(fd, now) == 0 && now[0] == '/')
		/* following, a named file is judged by its own name --
		 * never by the symlink's, which can be made to be the judged
		 * one by a flip */
		return strcmp(now, judged) == 0 ||
		       (by_link && !hs_fscope_follow(x->scope));
	return strncmp(judged, "/dev/", 5) == 0 ||
	       strncmp(judged, "/proc/", 6) == 0 || by_link;
}

/* An open of a descriptor by name -- one of the caller's own
 * (/dev/stdout, /dev/fd/N, /proc/self/fd/N, /proc/<its pid>/fd/N) or
 * another process's (/proc/<pid>/fd/N) -- or of another magic link
 * whole (a cwd, a root, an exe: a directory, or a running program, which
 * no write opens, but the kernel's walk would read the name again): the
 * kernel reopens the file the link is, through a magic link our walk
 * does not take. Done here:
 * the file that /proc/<pid>/fd/N leads to now, held to the name judged
 * (a thread, or that process, may have put another file under the
 * number since: judged again), reopened through our own descriptor of it,
 * a regular file's O_TRUNC only after the check of what was opened: so
 * the kernel never walks a name the caller can swap (a decoy
 * /dev/stdout). The kernel's answers where nothing is reopened: ENOENT
 * (no such descriptor), EEXIST (O_CREAT|O_EXCL), ELOOP (O_NOFOLLOW: the
 * name is a link), EISDIR (a trailing slash with O_CREAT), ENOTDIR. fd
 * (>= 0), -errno, KERNEL, AGAIN; NO_FD when the path names no
 * descriptor. */
static long fd_by_name(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		       const char *path, const char *named)
{
	const struct open_how *how = &c->open.how;
	uint64_t fl = how->flags;
	size_t len = strlen(path);
	bool slash = len > 1 && path[len - 1] == '/', own;
	pid_t tid = (pid_t)c->n.pid, tgid;
	struct hs_proclink l;
	struct stat sb;
	char p[PATH_MAX + 1], link[96];
	long fd, r;

	if (path[0] != '/' || !c->open.judged[0] || len > PATH_MAX ||
	    (how->resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) ||
	    (fl & O_PATH))
		return NO_FD;
	memcpy(p, path, len + 1);
	hs_path_fold(p);
	snprintf(link, sizeof(link), "/proc/%d/root", (int)tid);
	(void)hs_proclink_stdio(p, link);
	if (!hs_proclink(p, &l) || p[l.end] != '\0' ||
	    (tgid = hs_fl_tgid(tid)) <= 0)
		return NO_FD;
	/* an openat2's resolve flags: the kernel's answer, no walk */
	if ((r = hs_fl_magic_refused(how->resolve)) < 0)
		return r;
	/* another process's: reached only where the kernel would let the
	 * caller (as hs_fl_start_of does), and reopened here too -- the
	 * kernel's reopen would take whatever that process put under the
	 * number since it was judged (a dup2 of a protected file's
	 * read-only descriptor over a decoy's) */
	own = l.self || l.pid == tid || l.pid == tgid ||
	      hs_fl_tgid((pid_t)l.pid) == tgid;
	if (!own &&
	    (r = hs_fl_may_trace(tid, (pid_t)l.pid, l.what, l.what_len)) < 0)
		return r;
	/* a judged command's descriptor, however it was named or linked to
	 * (enforce mode, floor_reach.c) */
	if (!own) {
		snprintf(link, sizeof(link), "/proc/%ld/%.*s", l.pid,
			 (int)l.what_len, l.what);
		if (hs_fl_reach_inner(tid, link, true, c->reach_why,
				      sizeof(c->reach_why)))
			return HS_FL_REACH;
	}
	if (slash && (fl & O_CREAT))
		return -EISDIR;
	/* the process's table for self (as /proc/self is), a thread's for
	 * its own /proc/<tid>; the number as written ("01" is no 1). Our
	 * right to the caller's /proc is checked here, the file's
	 * permissions by the open after. */
	snprintf(link, sizeof(link), "/proc/%d/%.*s", (int)(l.self ? tgid : l.pid),
		 (int)l.what_len, l.what);
	/* the caller's own with our credentials (a thread holding the
	 * caller's would be checked where the caller is not), another
	 * process's with the caller's */
	fd = own ? hs_fl_open_ours(AT_FDCWD, link, O_PATH | O_CLOEXEC)
		 : open(link, O_PATH | O_CLOEXEC);
	/* (another process's: this open is the kernel's check of the
	 * caller's right to it, answered as such, never continued) */
	if (fd < 0)
		return errno == ESRCH ? -ENOENT : hs_fl_ours(-errno);
	r = (fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ? -EEXIST
	    : (fl & O_NOFOLLOW) && !slash		    ? -ELOOP
	    : fstat((int)fd, &sb) != 0			    ? AGAIN
	    : slash && !S_ISDIR(sb.st_mode)		    ? -ENOTDIR
	    /* a symlink's own O_PATH descriptor: may_open's answer */
	    : S_ISLNK(sb.st_mode)			    ? -ELOOP
							    : 0;
	/* held to the name judged first, whatever it is now */
	if (r == 0 && !is_judged(x, (int)fd, c->open.judged, named))
		r = AGAIN;
	/* a pipe's writing end from a descriptor that may not write
	 * (enforce mode, floor_reach.c) */
	if (r == 0 && S_ISFIFO(sb.st_mode) && (fl & O_ACCMODE) != O_RDONLY &&
	    strncmp(l.what, "fd/", 3) == 0 &&
	    hs_fl_reach_pipe((int)fd, tid, (pid_t)(l.self ? tgid : l.pid),
			     atoi(l.what + 3), c->reach_why,
			     sizeof(c->reach_why)))
		r = HS_FL_REACH;
	if (r == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode) &&
	    special_open(c, (int)fd, &sb, fl, &r)) {
		close((int)fd);
		return r;
	}
	if (r == 0) {
		/* a regular file's O_TRUNC waits for the check; a fifo's or
		 * a device's truncates nothing but asks for the right to
		 * write */
		snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
		r = hs_fl_openat2(AT_FDCWD, link,
				  hs_fl_our_flags(S_ISREG(sb.st_mode)
						    ? fl & ~(uint64_t)O_TRUNC
						    : fl),
				  how->mode, 0);
		/* a lease's: waited for on a thread, whose open truncates
		 * too -- so the look at a protected file comes first */
		if (r == -EAGAIN && (fl & HS_FLOOR_WRITE_FLAGS) &&
		    hs_fscope_protected_fd(x->scope, (int)fd))
			r = AGAIN;
		r = leased(c, (int)fd, &sb, fl, r);
	}
	close((int)fd);
	if (r == WAITS)
		return r;
	if (r < 0)
		return r;
	if ((fl & HS_FLOOR_WRITE_FLAGS) &&
	    hs_fscope_protected_fd(x->scope, (int)r)) {
		close((int)r);
		return AGAIN;
	}
	if ((fl & O_TRUNC) && S_ISREG(sb.st_mode))
		return trunc_ours(c, r, fl);
	return r;
}

enum hs_fl_open_result hs_fl_open(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c, bool keep)
{
	const struct hs_fl_self *self = x->self;
	const struct open_how *how = &c->open.how;
	pid_t tid = (pid_t)c->n.pid;
	struct hs_fl_start s;
	mode_t um, our_umask = 0;
	struct hs_fl_as as;
	bool creating;
	enum hs_fl_open_result v;
	long fd;

	trunc_drop(c);
	if (!self || !c->open.on ||
	    __atomic_load_n(x->sandboxed, __ATOMIC_ACQUIRE))
		return HS_FL_OPEN_CONTINUE;
	if (c->open.read_err) {
		/* what we read is what the kernel would have: no bytes */
		hs_fl_answer(x->listener, c->n.id, c->open.read_err);
		return HS_FL_OPEN_ANSWERED;
	}
	if ((how->flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY) &&
	    creat_dir_refused()) {
		hs_fl_answer(x->listener, c->n.id, EINVAL);
		return HS_FL_OPEN_ANSWERED;
	}
	/* RESOLVE_CACHED with a create, a truncate or O_TMPFILE: the
	 * kernel's EAGAIN, before any walk (build_open_flags) */
	if ((how->resolve & RESOLVE_CACHED) &&
	    (how->flags & (O_CREAT | O_TRUNC | HS_O_TMPFILE_BIT))) {
		hs_fl_answer(x->listener, c->n.id, EAGAIN);
		return HS_FL_OPEN_ANSWERED;
	}
	if (!hs_fl_ours_to_make(x, c, keep, &um, &as, &v))
		return v;
	creating = how->flags & (O_CREAT | HS_O_TMPFILE_BIT);
	if (creating && (fd = hs_fl_caller_umask(um, &our_umask)) != 0)
		return hs_fl_not_made(x, c, fd);
	/* every walk and open below is the caller's to the kernel's checks
	 * (a root session's process that became a user, say) */
	if (!hs_fl_become(&as)) {
		fd = KERNEL;
		goto opened;
	}
	if ((fd = fd_by_name(x, c, c->open.path, NULL)) != NO_FD)
		goto made;
	fd = hs_fl_start_of(tid, c->open.path, c->open.dirfd,
			    c->open.how.resolve, false, &s);
	if (fd == 0 && s.by_number && !hs_fl_valid(x->listener, c->n.id)) {
		hs_fl_start_free(&s);
		fd = KERNEL; /* gone: continuing it is refused, harmlessly */
	}
	if (fd == KERNEL)
		goto made;
	if (fd < 0)
		;
	else if (hs_fscope_follow(x->scope) && c->open.judged[0])
		fd = open_judged(x, c, &s);
	else if (!hs_fl_start_is_judged(x, &s, how->resolve,
					   c->open.judged))
		fd = AGAIN;
	else
		fd = open_by_name(x, c, &s);
	hs_fl_start_free(&s);
made:
	hs_fl_become_back(&as);
opened:
	if (fd == KERNEL) {
		if (creating)
			hs_fl_umask_again(um, our_umask);
		trunc_drop(c);
		return HS_FL_OPEN_CONTINUE;
	}
	if (creating)
		hs_fl_umask_again(um, our_umask);
	if (fd == WAITS) {
		bool waits = hs_fl_fifo_wait(x, c->n.id, tid, c->open.fifo,
					     how->flags, &as);

		c->open.fifo = -1;
		trunc_drop(c);
		return waits ? HS_FL_OPEN_LATER : HS_FL_OPEN_ANSWERED;
	}
	if (fd >= 0 && !(how->flags & O_PATH) &&
	    (fd = fit(c, (int)fd, how->flags, tid, c->open.path, x->allow)) ==
		    KERNEL) {
		trunc_drop(c);
		return HS_FL_OPEN_CONTINUE;
	}
	if (fd < 0)
		trunc_drop(c);
	if (fd == HS_FL_REACH)
		return HS_FL_OPEN_REFUSED;
	if (fd < 0 && fd != AGAIN)
		fd = refused(fd, how);
	if ((v = hs_fl_settle(&fd, &c->open.tries)) != HS_FL_OPEN_ANSWERED)
		return v;
	if (fd < 0) {
		hs_fl_answer(x->listener, c->n.id, (int)-fd);
		return HS_FL_OPEN_ANSWERED;
	}
	hs_fl_inject_trunc(x->listener, c->n.id, (int)fd,
			   how->flags & O_CLOEXEC, c->open.trunc,
			   c->open.trunc_fd);
	c->open.trunc = false;
	return HS_FL_OPEN_ANSWERED;
}
