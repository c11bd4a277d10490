/* Where a call the floor does for its caller starts its walk: the
 * caller's own directory, pinned, and checked to be the one whose name
 * was judged; the caller's umask for what it makes; and the steps both
 * kinds of call share -- the walk, whose ELOOP is whose, an error that is
 * ours, and what the result comes to (answered, continued, judged
 * again). Shared by the emulated opens (floor_open.c) and the emulated
 * path calls (floor_pathop.c). */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/plainstr.h"
#include "../common/proclink.h"

long hs_fl_openat2(int dirfd, const char *path, uint64_t flags,
		   uint64_t mode, uint64_t resolve)
{
	struct open_how how = { .flags = flags, .mode = mode,
				.resolve = resolve };
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

long hs_fl_eloop_whose(int dir, const char *path, uint64_t nofollow,
		       uint64_t resolve)
{
	long fd = hs_fl_openat2(dir, path, O_PATH | O_CLOEXEC | nofollow, 0,
				resolve);
	struct stat sb;
	long r;

	if (fd == -ELOOP)
		return -ELOOP;
	if (fd < 0)
		return HS_FL_KERNEL;
	/* with O_NOFOLLOW the walk may end on the symlink itself */
	r = fstat((int)fd, &sb) == 0 && S_ISLNK(sb.st_mode) ? -ELOOP
							    : HS_FL_KERNEL;
	close((int)fd);
	return r;
}

int hs_fl_fd_name(int fd, char *out)
{
	char link[40];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, PATH_MAX - 1);
	if (n <= 0)
		return -1;
	out[n] = '\0';
	return 0;
}

void hs_fl_start_free(struct hs_fl_start *s)
{
	if (s->pinned && s->fd >= 0)
		close(s->fd);
	s->pinned = false;
}

int hs_fl_magic_refused(uint64_t resolve)
{
	/* from "/" into /proc is another mount; /proc/self is a symlink,
	 * the link after it a magic one; a cached walk may not be */
	if (resolve & (RESOLVE_BENEATH | RESOLVE_NO_XDEV))
		return -EXDEV;
	if (resolve & (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS))
		return -ELOOP;
	if (resolve & RESOLVE_CACHED)
		return -EAGAIN;
	return 0;
}

/* Is our descriptor fd /proc's root (procfs's inode 1)? */
static bool is_proc_root(int fd)
{
	struct stat sb;
	struct statfs fs;

	return fstat(fd, &sb) == 0 && sb.st_ino == 1 && fstatfs(fd, &fs) == 0 &&
	       fs.f_type == PROC_SUPER_MAGIC;
}

/* Is p, folded into buf (PATH_MAX), a file under /proc/self/ or
 * /proc/thread-self/ (no magic link: those are hs_proclink's)? */
static bool proc_self(const char *p, char *buf)
{
	struct hs_proclink l;
	size_t n = strnlen(p, PATH_MAX);

	if (n == PATH_MAX || !strstr(p, "self"))
		return false;
	memcpy(buf, p, n + 1);
	hs_path_fold(buf);
	return (hs_starts(buf, "/proc/self/") ||
		hs_starts(buf, "/proc/thread-self/")) &&
	       !hs_proclink(buf, &l);
}

int hs_fl_start_of(pid_t tid, const char *p, int dirfd, uint64_t resolve,
		   bool whole_ok, struct hs_fl_start *s)
{
	char link[96], tid_dir[32];
	struct hs_proclink l;
	bool own = true; /* the caller's own /proc entry: ours to open */
	int n, kept;

	s->fd = AT_FDCWD;
	s->pinned = s->by_number = s->link_itself = s->own_fds = false;
	s->rest = p;
	if (p[0] == '/' && !(resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) &&
	    hs_proclink(p, &l) && l.end < HS_PROCLINK_MAX) {
		int e = hs_fl_magic_refused(resolve);

		if (e < 0)
			return e; /* the kernel's answer, on no walk of ours */
		/* another process's directory: the caller goes through it
		 * only where the kernel would let it (not from the agent's
		 * user namespace to a process outside, not to a non-dumpable
		 * one), and never by the kernel reading the path again */
		if (!l.self && (pid_t)l.pid != tid) {
			pid_t grp = hs_fl_tgid(tid);
			/* its own thread group by number: always its own */
			bool mine = grp > 0 && hs_fl_tgid((pid_t)l.pid) == grp;

			e = mine ? 0
				 : hs_fl_may_trace(tid, (pid_t)l.pid, l.what,
						   l.what_len);

			if (e < 0)
				return e;
			/* another's opened with the caller's credentials
			 * where a thread holds them: the kernel's check is
			 * the caller's */
			own = mine;
		}
		/* the caller's /proc/self/fd/N/..., not ours */
		snprintf(link, sizeof(link), "/proc/%d/%.*s",
			 l.self ? (int)tid : (int)l.pid, (int)l.what_len, l.what);
		s->rest = p + l.end;
		while (*s->rest == '/')
			s->rest++;
		if (!*s->rest && !whole_ok) {
			/* the link itself the call's last component (mkdir,
			 * unlink, bind of /proc/self/fd/N): made from the
			 * caller's own /proc directory that holds it, whose
			 * answers are the kernel's (EEXIST...), never left to
			 * a kernel that would read the path again; a trailing
			 * slash kept (ENOTDIR) */
			char *slash = strrchr(link, '/');

			snprintf(s->buf, sizeof(s->buf), "%s%s", slash + 1,
				 p[l.end] == '/' ? "/" : "");
			*slash = '\0';
			s->rest = s->buf;
			s->link_itself = true;
			s->own_fds = own && strncmp(l.what, "fd/", 3) == 0;
		}
	} else if (p[0] == '/' && !(resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) &&
		   proc_self(p, s->buf)) {
		/* the caller's own /proc files (/proc/self/comm), which from
		 * our root are ours: from its /proc/<tgid>, or its thread's */
		bool thread = s->buf[6] == 't';
		pid_t tgid = hs_fl_tgid(tid);

		if (tgid <= 0)
			return HS_FL_KERNEL;
		if (thread)
			snprintf(link, sizeof(link), "/proc/%d/task/%d", (int)tgid,
				 (int)tid);
		else
			snprintf(link, sizeof(link), "/proc/%d", (int)tgid);
		s->rest = s->buf + (thread ? 18 : 11);
		if (!*s->rest)
			s->rest = "."; /* the directory itself */
	} else if (p[0] == '/' &&
		   !(resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT))) {
		return 0;
	} else if (dirfd == AT_FDCWD) {
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tid);
	} else if (dirfd < 0) {
		return -EBADF;
	} else {
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, dirfd);
	}
	/* the caller's own, through its /proc/<tid> this thread keeps: that
	 * task's for sure; else by its number */
	if (own && (kept = hs_fl_kept_proc(tid)) >= 0 &&
	    (n = snprintf(tid_dir, sizeof(tid_dir), "/proc/%d/", (int)tid)) > 0 &&
	    strncmp(link, tid_dir, (size_t)n) == 0) {
		s->fd = hs_fl_open_ours(kept, link + n, O_PATH | O_CLOEXEC);
	} else {
		s->fd = own ? hs_fl_open_ours(AT_FDCWD, link, O_PATH | O_CLOEXEC)
			    : open(link, O_PATH | O_CLOEXEC);
		s->by_number = true;
	}
	if (s->fd < 0)
		return errno == ENOENT && dirfd >= 0
			       ? -EBADF
			       : hs_fl_ours_or(-errno, HS_FL_KERNEL);
	s->pinned = true;
	if (p[0] != '/' && !(resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) &&
	    (hs_starts(p, "self/") || hs_starts(p, "thread-self/")) &&
	    is_proc_root(s->fd)) {
		/* "self/status" from /proc: as "/proc/self/status" (our own
		 * walk of "self" would reach ours) -- only where the branch
		 * above takes it, which keeps its rest in s->buf, not in abs
		 * (not a magic link, self/fd/N) */
		char abs[PATH_MAX];

		if (snprintf(abs, sizeof(abs), "/proc/%s", p) < (int)sizeof(abs) &&
		    !hs_proclink(abs, &l) && proc_self(abs, s->buf)) {
			hs_fl_start_free(s);
			return hs_fl_start_of(tid, abs, AT_FDCWD, resolve,
					      whole_ok, s);
		}
	}
	return 0;
}

bool hs_fl_start_is_judged(const struct hs_floor_ctx *x,
			   const struct hs_fl_start *s, uint64_t resolve,
			   const char *judged)
{
	char now[PATH_MAX * 2 + 2], dir[PATH_MAX];

	if (!s->pinned || !judged[0] || s->link_itself)
		return true;
	if (hs_fl_fd_name(s->fd, dir) < 0 || dir[0] != '/')
		return false;
	if (resolve & RESOLVE_IN_ROOT) {
		char rest[PATH_MAX + 1];

		snprintf(rest, sizeof(rest), "%s", s->rest);
		hs_fl_in_root(rest, sizeof(rest));
		snprintf(now, sizeof(now), "%s/%s", dir, rest);
	} else {
		snprintf(now, sizeof(now), "%s/%s", dir, s->rest);
	}
	if (strlen(now) >= PATH_MAX)
		return false;
	hs_path_fold(now);
	/* a descriptor's name (/dev/stdout, /dev/fd/N from /dev) was judged
	 * by the file it is; the walk, which takes no magic link, leaves
	 * its open to the kernel */
	if (strncmp(now, "/dev/std", 8) == 0 || strncmp(now, "/dev/fd/", 8) == 0)
		return true;
	hs_fscope_unalias(x->scope, now);
	return strcmp(now, judged) == 0;
}

bool hs_fl_ours_to_make(const struct hs_floor_ctx *x, struct hs_fl_call *c,
			bool keep, mode_t *um, struct hs_fl_as *as,
			enum hs_fl_open_result *v)
{
	int r = hs_fl_same_identity(x->self, (pid_t)c->n.pid, keep,
				    x->listener, c->n.id, um, as);

	if (r > 0)
		return true;
	*v = hs_fl_not_made(x, c, r);
	return false;
}

enum hs_fl_open_result hs_fl_not_made(const struct hs_floor_ctx *x,
				      const struct hs_fl_call *c, long r)
{
	if (r >= 0 || r == HS_FL_KERNEL)
		return HS_FL_OPEN_CONTINUE;
	hs_fl_answer(x->listener, c->n.id, (int)-r);
	return HS_FL_OPEN_ANSWERED;
}

long hs_fl_caller_umask(mode_t um, mode_t *old)
{
	static __thread bool own;
	static __thread mode_t now;

	if (!own) {
		/* (ENOMEM, the one way it fails: ours, not the caller's) */
		if (hs_fl_scarce_now(HS_FL_SCARCE_UMASK) ||
		    unshare(CLONE_FS) < 0)
			return hs_fl_ours(-ENOMEM);
		own = true;
		now = umask(0);
		umask(now);
	}
	*old = now;
	if (um != now)
		umask(um);
	return 0;
}

void hs_fl_umask_again(mode_t um, mode_t ours)
{
	if (um != ours)
		umask(ours);
}

/* Rounds a call may lose to a file system changing under it. */
#define MAX_TRIES 3

enum hs_fl_open_result hs_fl_settle(long *r, int *tries)
{
	if (*r == HS_FL_KERNEL)
		return HS_FL_OPEN_CONTINUE;
	if (*r == HS_FL_AGAIN) {
		if (++*tries < MAX_TRIES)
			return HS_FL_OPEN_AGAIN;
		*r = -ELOOP; /* flipping under us: fail, never land */
	}
	return HS_FL_OPEN_ANSWERED;
}

void hs_fl_answer(int lfd, uint64_t id, int e)
{
	struct seccomp_notif_resp r = { .id = id, .error = -e };

	(void)hs_fl_send(lfd, &r);
}

void hs_fl_inject(int lfd, uint64_t id, int fd, bool cloexec)
{
	hs_fl_inject_trunc(lfd, id, fd, cloexec, false, -1);
}

void hs_fl_inject_trunc(int lfd, uint64_t id, int fd, bool cloexec,
			bool trunc, int trunc_fd)
{
	struct seccomp_notif_addfd a = {
		.id = id,
		.srcfd = (unsigned)fd,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};
	int r;

	/* The caller may have died since: then nothing to inject into
	 * (ENOENT, the call no longer pending: no look of our own first).
	 * Installed first, answered second: SECCOMP_ADDFD_FLAG_SEND, which
	 * does both at once, returned 0 without installing anything to about
	 * one call in 3,000 under 16 writing threads on 6.18
	 * (tests/integration/floor_stress.sh). The descriptor is then in the
	 * caller's table a moment before its open returns; if the answer
	 * finds the caller gone, it went with it. */
	while ((r = ioctl(lfd, SECCOMP_IOCTL_NOTIF_ADDFD, &a)) < 0 &&
	       errno == EINTR)
		;
	if (r >= 0) {
		struct seccomp_notif_resp resp = { .id = id, .val = r };

		/* the caller's O_TRUNC, now that it has its descriptor
		 * (floor_open.c, trunc_ours); the caller still waits for
		 * its answer */
		if (trunc && ftruncate(trunc_fd >= 0 ? trunc_fd : fd, 0) != 0)
			resp.error = -errno, resp.val = 0;
		(void)hs_fl_send(lfd, &resp);
	} else if (errno != ENOENT) {
		/* not installed (EMFILE: the caller's limit): its errno, as
		 * its own open would have failed */
		hs_fl_answer(lfd, id, errno);
	}
	close(fd);
	if (trunc_fd >= 0)
		close(trunc_fd);
}
