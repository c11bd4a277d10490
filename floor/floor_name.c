/* Naming what a stopped caller's path reaches, as its kernel will walk
 * it: from its working directory or descriptor (/proc/<tid>/cwd, fd/N),
 * its magic links as its own (/proc/self, /dev/fd, /dev/stdout: in our
 * view of the file system they are ours), symlinks followed where
 * writes.follow_symlinks asks, and openat2's RESOLVE_IN_ROOT. Split from
 * floor_path.c (the caller's memory and /proc), on which it stands. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/plainstr.h"
#include "../common/pathresolve.h"
#include "../common/proclink.h"
#include "../engine/nopipe.h"

/* v in decimal at p; returns the end */
static char *put_uint(char *p, unsigned v)
{
	char d[12];
	size_t n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = d[--n];
	return p;
}

/* "/proc/<tid>/cwd" or "/proc/<tid>/fd/<fd>" (fd >= 0) into link (48
 * bytes): on every notification that names a relative path, where
 * snprintf was a tenth of the supervisor's own time */
static void proc_link(char *link, pid_t tid, int fd)
{
	char *p = link;

	memcpy(p, "/proc/", 6);
	p = put_uint(p + 6, (unsigned)tid);
	if (fd < 0) {
		memcpy(p, "/cwd", 5);
		return;
	}
	memcpy(p, "/fd/", 4);
	*put_uint(p + 4, (unsigned)fd) = '\0';
}

int hs_fl_cwd(pid_t tid, char *out)
{
	char link[48];

	proc_link(link, tid, -1);
	return hs_proclink_target(link, out);
}

int hs_fl_dir_of(pid_t tid, int fd, char *out)
{
	char link[48];

	if (fd == AT_FDCWD)
		return hs_fl_cwd(tid, out);
	if (fd < 0)
		return -1;
	proc_link(link, tid, fd);
	return hs_proclink_target(link, out);
}

/* dir + "/" + name, folded (only "//" and "." when following: ".." after
 * a symlink is the kernel's), into out (PATH_MAX). The kernel takes a
 * relative name of up to PATH_MAX from a directory whose name may be as
 * long: joined in twice that, and HS_PATH_TOOLONG when even folded it does
 * not fit (the shim's rule, shim/path.c). */
static int join(char *out, const char *dir, const char *name, bool follow)
{
	char big[2 * PATH_MAX + 2];
	/* each part shorter than PATH_MAX (its buffer's, hs_fl_abs's
	 * check): copied, not printed (once per notified relative path) */
	size_t d = strcmp(dir, "/") ? strnlen(dir, PATH_MAX) : 0,
	       m = strnlen(name, PATH_MAX), n;

	if (d == PATH_MAX || m == PATH_MAX)
		return HS_PATH_TOOLONG; /* never cut */
	memcpy(big, dir, d);
	big[d] = '/';
	memcpy(big + d + 1, name, m);
	big[d + 1 + m] = '\0';
	if (follow)
		hs_path_fold_dots(big);
	else
		hs_path_fold(big);
	n = strlen(big);
	if (n >= PATH_MAX)
		return HS_PATH_TOOLONG;
	memcpy(out, big, n + 1);
	return 0;
}

/* A path through a kernel magic link (common/proclink.h), resolved as
 * the caller's kernel will: "self" and /dev/fd are the caller's. Leaves
 * p alone when the target has no name (a pipe, a socket); HS_PATH_TOOLONG
 * when it or it and the rest are too long to name. */
static int expand_magic(pid_t tid, char *p)
{
	for (int hops = 0; hops < 8; hops++) {
		struct hs_proclink l;
		char link[96], dir[PATH_MAX], rest[PATH_MAX];
		int r;

		if (!hs_proclink(p, &l) || l.end >= HS_PROCLINK_MAX)
			return 0;
		if (l.self)
			snprintf(link, sizeof(link), "/proc/%d/%.*s", (int)tid,
				 (int)l.what_len, l.what);
		else
			snprintf(link, sizeof(link), "%.*s", (int)l.end, p);
		if ((r = hs_proclink_target(link, dir)) < 0)
			return r == -1 ? 0 : r;
		snprintf(rest, sizeof(rest), "%s", p + l.end);
		if (!rest[0])
			memcpy(p, dir, strlen(dir) + 1);
		else if ((r = join(p, dir, rest + 1, false)) < 0)
			return r;
	}
	return 0;
}

/* openat2 of path from d with resolve, O_PATH: a descriptor or -1. */
static int walk(int d, const char *path, uint64_t flags, uint64_t resolve)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | flags,
		.resolve = resolve & (RESOLVE_IN_ROOT | RESOLVE_NO_XDEV |
				      RESOLVE_NO_MAGICLINKS |
				      RESOLVE_NO_SYMLINKS),
	};

	return (int)syscall(SYS_openat2, d, path, &how, sizeof(how));
}

/* The name of our descriptor fd (closed), into out (PATH_MAX). */
static int named_fd(int fd, char *out)
{
	char link[40];
	int r;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	r = hs_proclink_target(link, out);
	close(fd);
	return r;
}

/* "/proc/self..." and "/proc/thread-self..." that are no magic link
 * (/proc/self/comm, attr/current, mem): in our view they are ours, and
 * rewritten in place (p, PATH_MAX) as the caller's own, /proc/<tgid>...
 * and /proc/<tgid>/task/<tid>..., as its kernel resolves them. 0, or
 * HS_PATH_TOOLONG. */
static int self_as_caller(pid_t tid, char *p)
{
	char buf[PATH_MAX + 64];
	const char *rest;
	bool thread = false;
	pid_t tgid;
	int n;

	if (hs_starts(p, "/proc/self"))
		rest = p + 10;
	else if (hs_starts(p, "/proc/thread-self"))
		rest = p + 17, thread = true;
	else
		return 0;
	if ((*rest && *rest != '/') || (tgid = hs_fl_tgid(tid)) <= 0)
		return 0;
	n = thread ? snprintf(buf, sizeof(buf), "/proc/%d/task/%d%s", (int)tgid,
			      (int)tid, rest)
		   : snprintf(buf, sizeof(buf), "/proc/%d%s", (int)tgid, rest);
	if (n < 0 || n >= PATH_MAX)
		return HS_PATH_TOOLONG;
	memcpy(p, buf, (size_t)n + 1);
	return 0;
}

/* p's magic links named as the caller's (its /dev/stdout, /proc/self,
 * /dev/fd; `last`: the call follows p's last component): 0; 1 when p is
 * one of the caller's descriptors with no name (a pipe, a socket: left as
 * written, our own /proc/self is not the caller's to resolve); or
 * expand_magic's error. */
static int caller_view(pid_t tid, char *p, bool last)
{
	struct hs_proclink l;
	int std = -1, r;

	if (last && strncmp(p, "/dev/std", 8) == 0) {
		/* the caller's /dev/stdout: its /proc/self/fd/1, in its root */
		char root[48];

		snprintf(root, sizeof(root), "/proc/%d/root", (int)tid);
		std = hs_proclink_stdio(p, root);
	}
	if (strncmp(p, "/proc/", 6) != 0 && strncmp(p, "/dev/fd/", 8) != 0 &&
	    strncmp(p, "//", 2) != 0)
		return 0;
	hs_path_fold(p);
	if (!hs_proclink(p, &l))
		return self_as_caller(tid, p);
	if ((r = expand_magic(tid, p)) < 0)
		return r;
	if (!hs_proclink(p, &l))
		return 0;
	hs_proclink_stdio_back(p, std);
	return 1;
}

/* p, a name hs_path_resolve gave in our view, as the caller's when it is
 * one of our own magic links: a symlink to /proc/self/fd/9 resolves, in
 * our walk, to /proc/<our pid>/fd/9 (dangling when we have no 9, so no
 * ELOOP told walk_as_caller). Rewritten as /proc/<tid>/... and named as
 * the caller's: caller_view's result, or 0 when p is not ours. */
static int ours_to_caller(pid_t tid, char *p)
{
	struct hs_proclink l;
	char task[48], mine[PATH_MAX];

	/* (a file of our /proc that is no magic link stays ours: the
	 * agent's symlink to /proc/self/comm and one to /proc/<our
	 * pid>/mem look the same from here; floor_reach.c refuses both) */
	if (!hs_proclink(p, &l) || l.self || l.end >= HS_PROCLINK_MAX)
		return 0;
	snprintf(task, sizeof(task), "/proc/self/task/%ld", l.pid);
	if (l.pid != (long)getpid() && access(task, F_OK) != 0)
		return 0; /* another process's: as named */
	if (snprintf(mine, sizeof(mine), "/proc/%d/%s", (int)tid, l.what) >=
	    (int)sizeof(mine))
		return HS_PATH_TOOLONG;
	memcpy(p, mine, strlen(mine) + 1);
	return caller_view(tid, p, true);
}

#define MAGIC 1 /* walk_as_caller: p's walk meets a magic link */
#define MAGIC_FD (-2) /* walk_ours: the same */

/* Our O_PATH descriptor of p (flags: O_NOFOLLOW, O_DIRECTORY), walked
 * refusing magic links; MAGIC_FD where the walk meets one, an ELOOP that
 * our walk taking them does not give (not a loop of symlinks, which the
 * kernel fails too: -1, ELOOP); else -1 and errno. */
static int walk_ours(const char *p, int flags)
{
	int fd = walk(AT_FDCWD, p, (uint64_t)flags, RESOLVE_NO_MAGICLINKS);

	if (fd >= 0 || errno != ELOOP)
		return fd;
	fd = open(p, O_PATH | O_CLOEXEC | flags);
	if (fd < 0 && errno == ELOOP)
		return -1;
	if (fd >= 0)
		close(fd);
	return MAGIC_FD;
}

/* walk_as_caller of a name whose last component, a plain one, is not
 * followed (unlink, mkdir, rename: most notified calls): its directory
 * alone is walked, and named -- the only part of the name's walk that can
 * meet a magic link, one walk where the whole name's and then its
 * directory's (hs_path_resolve) were two. */
static int walk_parent(pid_t tid, char *p, const char *slash)
{
	char dir[PATH_MAX], name[PATH_MAX];
	size_t d = (size_t)(slash - p), n = strlen(slash);
	int fd, r;

	memcpy(dir, d ? p : "/", d ? d : 1);
	dir[d ? d : 1] = '\0';
	if ((fd = walk_ours(dir, O_DIRECTORY)) == MAGIC_FD)
		return MAGIC;
	if (fd < 0 && errno != ENOENT && errno != ENOTDIR) {
		/* no openat2 (a kernel before 5.6, a profile refusing it):
		 * named as before it, walked a component at a time */
		hs_path_resolve(p, false);
	} else if (fd < 0 || named_fd(fd, name) < 0) {
		hs_path_fold(p); /* no such directory: the call fails */
	} else {
		if (strcmp(name, "/") == 0)
			name[0] = '\0';
		d = strlen(name);
		if (d + n < PATH_MAX) { /* name + slash..., as it was */
			memmove(p + d, slash, n + 1);
			memcpy(p, name, d);
		}
	}
	r = ours_to_caller(tid, p);
	return r < 0 ? r : 0;
}

/* p named as the kernel's walk of it reaches, its last component followed
 * when `last`, in our view (hs_path_resolve), and a result in our own
 * /proc as the caller's (ours_to_caller): 0, or an error. MAGIC, p left
 * alone, when that walk in our view goes through a magic link -- a
 * symlink the agent made to /proc/self/fd/N or /dev/stdout, which in our
 * view are ours. One walk, refusing magic links, serves both: where it
 * lands, it is the name; where it fails, hs_path_resolve does not walk
 * the whole name again. */
static int walk_as_caller(pid_t tid, char *p, bool last)
{
	const char *slash = strrchr(p, '/');
	char name[PATH_MAX];
	int fd, r;

	if (!last && slash && slash[1] && strcmp(slash + 1, ".") != 0 &&
	    strcmp(slash + 1, "..") != 0)
		return walk_parent(tid, p, slash);
	if ((fd = walk_ours(p, last ? 0 : O_NOFOLLOW)) == MAGIC_FD)
		return MAGIC;
	if (fd >= 0 && last) {
		if (named_fd(fd, name) == 0)
			memcpy(p, name, strlen(name) + 1);
		else
			hs_path_fold(p);
	} else {
		if (fd >= 0)
			close(fd);
		if (fd < 0 && last)
			hs_path_resolve_missing(p);
		else
			hs_path_resolve(p, last);
	}
	r = ours_to_caller(tid, p);
	return r < 0 ? r : 0;
}

/* Following, a walk through a magic link (walk_as_caller): the last
 * component's symlinks followed by hand, each target named as the
 * caller's (`ln -s /dev/stdout access.log` is the caller's descriptor 1,
 * `ln -s /proc/self/fd/3 x` its 3). A directory on the way through one
 * has no name of ours: HS_PATH_TOOLONG, the call denied as unnamed. */
static int follow_by_hand(pid_t tid, char *p, bool last)
{
	for (int hops = 0; hops < 40; hops++) {
		char dir[PATH_MAX], link[PATH_MAX], tgt[PATH_MAX];
		const char *slash = strrchr(p, '/'), *name;
		ssize_t n;
		int r;

		if (!slash || !slash[1] || strcmp(slash + 1, ".") == 0 ||
		    strcmp(slash + 1, "..") == 0)
			return HS_PATH_TOOLONG;
		name = slash + 1;
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p), p);
		if (!dir[0])
			memcpy(dir, "/", 2);
		if ((r = walk_as_caller(tid, dir, true)) != 0)
			return r == MAGIC ? HS_PATH_TOOLONG : r;
		if ((r = join(link, dir, name, false)) < 0)
			return r;
		n = last ? readlink(link, tgt, sizeof(tgt) - 1) : -1;
		memcpy(p, link, strlen(link) + 1);
		if (n <= 0)
			return 0; /* a plain name, or one not followed */
		tgt[n] = '\0';
		/* a relative target from dir, named with no symlink in
		 * it (walk_as_caller; but for a name too long to be read
		 * back, left folded, whose open then fails its name check,
		 * ELOOP): its leading ".." are dir's parents
		 * ("../../proc/self/fd/1" is a descriptor by name) */
		if (tgt[0] == '/')
			memcpy(p, tgt, (size_t)n + 1);
		else if (hs_path_join_up(dir, tgt, p, PATH_MAX) < 0)
			return HS_PATH_TOOLONG;
		if ((r = caller_view(tid, p, true)) != 0) {
			if (r > 0) /* a pipe's: named by the link */
				memcpy(p, link, strlen(link) + 1);
			return r < 0 ? r : 0;
		}
		if ((r = walk_as_caller(tid, p, true)) != MAGIC)
			return r;
	}
	return -1; /* ELOOP in the kernel too */
}

int hs_fl_abs(pid_t tid, int dirfd, const char *path, int follow, char *out)
{
	return hs_fl_abs_from(tid, dirfd, NULL, path, follow, out);
}

int hs_fl_abs_from(pid_t tid, int dirfd, const char *given, const char *path,
		   int follow, char *out)
{
	size_t n = strlen(path);
	int how = follow & HS_FL_HOW;
	/* the call follows its last component (open, truncate, chmod) */
	bool last = !(follow & HS_FL_NOLAST) && how != HS_FL_PARENTS;
	int r;

	/* longer: the kernel says ENAMETOOLONG itself */
	if (n == 0 || n >= PATH_MAX)
		return -1;
	if (path[0] == '/') {
		/* folded as join folds (/dev//stdout, /./proc/self/...) */
		memcpy(out, path, n + 1);
		if (how)
			hs_path_fold_dots(out);
		else
			hs_path_fold(out);
	} else {
		char dir[PATH_MAX];

		if (!given && (r = hs_fl_dir_of(tid, dirfd, dir)) < 0)
			return r;
		if ((r = join(out, given ? given : dir, path, how != 0)) < 0)
			return r;
	}
	if ((r = caller_view(tid, out, last)) != 0)
		return r < 0 ? r : 0;
	if (!how) {
		hs_path_fold(out);
		return 0;
	}
	/* following: resolved unfolded, as the kernel walks it (".." of a
	 * symlink's target), in our view of the file system -- unless that
	 * view goes through a magic link, which in it is ours */
	if ((r = walk_as_caller(tid, out, last)) == MAGIC)
		return follow_by_hand(tid, out, last);
	return r;
}

void hs_fl_in_root(char *p, size_t cap)
{
	char buf[PATH_MAX + 2];

	snprintf(buf, sizeof(buf), "/%s", p);
	hs_path_fold(buf); /* "/.." is "/" */
	snprintf(p, cap, "%s", buf[1] ? buf + 1 : ".");
}

int hs_fl_abs_in_root(pid_t tid, int dirfd, const char *path, int follow,
		      uint64_t resolve, char *out)
{
	char link[48], dir[PATH_MAX], part[PATH_MAX], tgt[PATH_MAX];
	const char *name, *slash = strrchr(path, '/');
	ssize_t n = -1;
	int d, fd, pd;

	if (dirfd != AT_FDCWD && dirfd < 0)
		return -1; /* no such descriptor: the kernel fails it (EBADF) */
	proc_link(link, tid, dirfd == AT_FDCWD ? -1 : dirfd);
	if ((d = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	fd = walk(d, path, follow == HS_FL_FOLLOW ? 0 : O_NOFOLLOW, resolve);
	if (fd >= 0) {
		close(d);
		return named_fd(fd, out);
	}
	/* not there: its directory, walked the same way, and its name */
	snprintf(part, sizeof(part), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	name = slash ? slash + 1 : path;
	pd = walk(d, part[0] ? part : "/", O_DIRECTORY, resolve);
	if (pd >= 0 && follow == HS_FL_FOLLOW)
		n = readlinkat(pd, name, tgt, sizeof(tgt) - 1);
	if (pd < 0 || named_fd(pd, dir) < 0) {
		close(d);
		return -1; /* the call fails in the kernel too */
	}
	if (n > 0) {
		/* a dangling symlink: O_CREAT makes its target, an absolute
		 * one inside the root (one hop) */
		tgt[n] = '\0';
		if (tgt[0] == '/') {
			hs_fl_in_root(tgt, sizeof(tgt));
			if (named_fd(dup(d), dir) < 0) {
				close(d);
				return -1;
			}
		}
		name = tgt;
	}
	close(d);
	return join(out, dir, name, false);
}

/* The caller's descriptor n, the same open file (pidfd_getfd keeps its
 * offset and flags); a reopen through /proc as the fallback. -1 when
 * neither. */
int hs_fl_caller_fd(pid_t tgid, int n)
{
	int pfd = (int)syscall(SYS_pidfd_open, tgid, 0), fd = -1;
	char p[48];

	if (n < 0)
		return -1;
	if (pfd >= 0) {
		fd = (int)syscall(SYS_pidfd_getfd, pfd, n, 0);
		close(pfd);
	}
	if (fd >= 0)
		return fd;
	proc_link(p, tgid, n);
	return open(p, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
}

bool hs_fl_caller_say(pid_t tgid, int n, const char *msg, size_t len)
{
	int fd = hs_fl_caller_fd(tgid, n);
	bool said;

	if (fd < 0)
		return false;
	said = hs_nopipe_write(fd, msg, len) == (ssize_t)len;
	close(fd);
	return said;
}
