/* An allowed path call -- rename, link, symlink, unlink, rmdir, mkdir,
 * mknod, truncate -- made by the supervisor for its caller in enforce
 * mode, by the strings the floor copied out of the caller and judged, so
 * that the kernel never reads the caller's memory again: continuing the
 * call would let another thread swap a harmless name for a watched one
 * between the supervisor's read and the kernel's (a rename of a file of
 * the agent's choosing over a watched one, a hook script unlinked). The
 * call's answer is the kernel's own answer to ours: 0 or its errno.
 *
 * How: each path's walk starts where the caller's would (its cwd or
 * dirfd pinned, floor_start.c), checked to be the directory whose name
 * was judged; its directory part is walked with RESOLVE_NO_MAGICLINKS
 * (a /proc/self link on the way would be ours, not the caller's: such a
 * call is left to the kernel), and the call made on its last component
 * from there, which these calls do not follow (truncate and linkat's
 * AT_SYMLINK_FOLLOW do: that component is opened O_PATH the same way and
 * reached through our descriptor's /proc/self/fd link). With
 * writes.follow_symlinks the judged names are the resolved ones: the
 * directory reached must have the judged name, or the call is judged
 * again (and after a few rounds fails with ELOOP). mkdir and mknod get
 * the caller's umask.
 *
 * Left to the kernel (CONTINUE), as for opens (floor_open.c): a caller of
 * other credentials, namespaces, root or LSM label (floor_identity.c), a
 * session with a Landlock domain, a path through a magic link, a
 * truncate of a file another process holds a lease on (ours would wait
 * on the receiver) or beyond the caller's file-size limit (the kernel
 * fails that whatever the path). A call on a /proc or /sys directory is
 * made as any other: none of these calls can make anything there, and a
 * truncate of a /proc file changes nothing. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <linux/if_xdp.h>
#include <linux/netlink.h>
#include <time.h>
#include <unistd.h>

#include "../common/pathfold.h"

/* One path of the call, ready: the directory to make it in, and the
 * name there. */
struct where {
	struct hs_fl_start s;
	int dir;          /* s.fd, or our descriptor of the directory part */
	const char *last; /* the last component (trailing slashes kept) */
	char buf[PATH_MAX + 1];
	int obj;          /* what a following call reaches (O_PATH), or -1 */
};

static void where_free(struct where *w)
{
	if (w->obj >= 0)
		close(w->obj);
	if (w->dir >= 0 && w->dir != w->s.fd)
		close(w->dir);
	hs_fl_start_free(&w->s);
}

/* Is dir + "/" + name (its trailing slashes dropped), or dir itself for
 * a NULL name, the judged name? */
static bool named_as(const struct hs_floor_ctx *x, int dir, const char *name,
		     const char *judged)
{
	char d[PATH_MAX], now[PATH_MAX * 2 + 2];
	size_t n = name ? strlen(name) : 0;

	while (n > 1 && name[n - 1] == '/')
		n--;
	if (hs_fl_fd_name(dir, d) < 0 || d[0] != '/')
		return false;
	if (!name)
		snprintf(now, sizeof(now), "%s", d);
	else
		snprintf(now, sizeof(now), "%s/%.*s",
			 strcmp(d, "/") == 0 ? "" : d, (int)n, name);
	if (strlen(now) >= PATH_MAX)
		return false;
	hs_path_fold(now);
	hs_fscope_unalias(x->scope, now);
	return strcmp(now, judged) == 0;
}

/* Path p of thread tid (relative to dirfd) into *w: 0, -errno (the
 * kernel's answer: its walk fails the same way), HS_FL_KERNEL or
 * HS_FL_AGAIN. `follow`: the call follows the last component (w->obj is
 * what it reaches); `whole`: p may be a descriptor alone (a
 * /proc/self/fd/N link followed, or "" with AT_EMPTY_PATH), w->obj its
 * file. `resolved`: judged is the resolved name (writes.follow_symlinks,
 * or a link's followed source), not the name as written. */
static long where_of(const struct hs_floor_ctx *x, pid_t tid, const char *p,
		     int dirfd, const char *judged, bool follow, bool whole,
		     bool resolved, struct where *w)
{
	const char *rest, *end, *last;
	long r;

	w->dir = w->obj = -1;
	w->last = NULL;
	r = hs_fl_start_of(tid, p, dirfd, 0, whole, &w->s);
	if (r < 0)
		return hs_fl_ours(r);
	w->dir = w->s.fd;
	rest = w->s.rest;
	if (!*rest && whole && w->s.pinned) {
		/* a descriptor's file itself: still the one judged? */
		struct stat sb;
		size_t n = strlen(p);

		w->obj = dup(w->s.fd);
		if (w->obj < 0)
			return hs_fl_ours(-errno);
		if (n && p[n - 1] == '/' &&
		    (fstat(w->obj, &sb) != 0 || !S_ISDIR(sb.st_mode)))
			return -ENOTDIR;
		return !judged[0] || named_as(x, w->obj, NULL, judged)
			       ? 0
			       : HS_FL_AGAIN;
	}
	if (!resolved && !hs_fl_start_is_judged(x, &w->s, 0, judged))
		return HS_FL_AGAIN;
	/* the last component, its trailing slashes kept */
	end = rest + strlen(rest);
	while (end > rest && end[-1] == '/')
		end--;
	last = end;
	while (last > rest && last[-1] != '/')
		last--;
	if (last == end || last == rest) {
		/* "", "/", "name": made from where the walk starts */
		w->last = rest;
	} else {
		size_t n = (size_t)(last - rest);

		memcpy(w->buf, rest, n);
		w->buf[n] = '\0';
		r = hs_fl_openat2(w->s.fd, w->buf,
				  O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
				  RESOLVE_NO_MAGICLINKS);
		if (r == -ELOOP)
			return hs_fl_eloop_whose(w->s.fd, w->buf, 0, 0);
		if (r < 0)
			return hs_fl_ours(r);
		w->dir = (int)r;
		w->last = last;
	}
	if (follow) {
		r = hs_fl_openat2(w->dir, w->last, O_PATH | O_CLOEXEC, 0,
				  RESOLVE_NO_MAGICLINKS);
		if (r == -ELOOP)
			return hs_fl_eloop_whose(w->dir, w->last, 0, 0);
		if (r < 0)
			return hs_fl_ours(r);
		w->obj = (int)r;
		return !resolved || !judged[0] ||
			       named_as(x, w->obj, NULL, judged)
			       ? 0
			       : HS_FL_AGAIN;
	}
	/* "." and "..": every call here fails on them, whatever the name */
	if (resolved && judged[0] && w->dir != AT_FDCWD && !w->s.link_itself &&
	    strcmp(last, ".") != 0 && strncmp(last, "./", 2) != 0 &&
	    strcmp(last, "..") != 0 && strncmp(last, "../", 3) != 0 &&
	    !named_as(x, w->dir, w->last, judged))
		return HS_FL_AGAIN;
	return 0;
}

/* truncate(2) of what fd (O_PATH) reaches, as the kernel's: a directory
 * is EISDIR, anything but a regular file EINVAL; then an open for writing
 * (its permission is truncate's), never waiting: a lease another process
 * holds would hold the receiver for the lease-break time, so that call is
 * the kernel's (HS_FL_KERNEL), as is one beyond the caller's own file-size
 * limit (the kernel fails it, whatever its path). */
static long truncate_(const struct hs_fl_pathop *o, int fd)
{
	struct stat sb;
	char self[40];
	long r;
	int w;

	if (fstat(fd, &sb) != 0)
		return hs_fl_ours(-errno);
	if (S_ISDIR(sb.st_mode))
		return -EISDIR;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	w = open(self, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (w < 0)
		/* a lease: judged and looked at again, never the kernel's
		 * walk of the name (and, held on, ELOOP) */
		return errno == EWOULDBLOCK ? HS_FL_AGAIN : hs_fl_ours(-errno);
	r = ftruncate(w, (off_t)o->arg) < 0 ? -errno : 0;
	close(w);
	return r;
}

/* A named bind is made with the caller's own string: the address a
 * socket keeps (getsockname, a peer's getpeername) is the string it was
 * bound with, and bind has no *at form, so the kernel walks that string
 * again -- from where the caller's walk starts: its working directory,
 * made the receiver's for the call (hs_fl_caller_umask gave the receiver
 * a file-system state of its own), or, for an absolute name, our root,
 * which is the caller's (floor_identity.c). That walk is the one judged:
 * where_of walked the same string from the same place to the judged
 * directory, and no path call the supervisor makes (every one of the
 * session's that is not left to the kernel) renames, removes or
 * replaces a directory until the bind is made: a named bind holds
 * walk_lock exclusively, every other path call shared, writers first.
 * Neither waits on the other longer than WALK_WAIT: a call stalled in
 * the kernel meanwhile (an NFS server gone, a FUSE daemon of the
 * session's that waits on a path call of its own) would otherwise hold
 * every path call of the session; a path call then goes on unheld, a
 * bind not held binds its last component in the directory reached. So
 * does a name that leads through a magic link (its walk starts at
 * another descriptor): the only string that walks no link of ours. Its
 * address is then that component. */
static pthread_rwlock_t walk_lock;
static pthread_once_t walk_once = PTHREAD_ONCE_INIT;
#define WALK_WAIT 2 /* s */

static void walk_init(void)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a,
				      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&walk_lock, &a);
	pthread_rwlockattr_destroy(&a);
}

/* walk_lock, exclusively or shared, within WALK_WAIT: held? */
static bool walk_hold(bool excl)
{
	struct timespec t;

	pthread_once(&walk_once, walk_init);
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += WALK_WAIT;
	return (excl ? pthread_rwlock_clockwrlock(&walk_lock, CLOCK_MONOTONIC, &t)
		     : pthread_rwlock_clockrdlock(&walk_lock, CLOCK_MONOTONIC,
						  &t)) == 0;
}

/* The supervisor's working directory, which a receiver that bound a
 * name from the caller's takes back after (as the supervisor: the
 * caller's credentials may not search ours). One descriptor for the
 * process: a bind a hook decided runs on a thread of its own. */
static int home = -1;

static long home_kept(void)
{
	int fd;

	if (__atomic_load_n(&home, __ATOMIC_ACQUIRE) >= 0)
		return 0;
	if ((fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return hs_fl_ours(-errno);
	{
		int none = -1;

		if (!__atomic_compare_exchange_n(&home, &none, fd, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			close(fd); /* another thread's was first */
	}
	return 0;
}

static void home_again(void)
{
	if (fchdir(__atomic_load_n(&home, __ATOMIC_ACQUIRE)) == 0 ||
	    chdir("/") == 0)
		return;
	fprintf(stderr, "hookshim: floor: a thread could not leave the "
			"directory of a socket it bound: %s\n",
		strerror(errno));
	abort();
}

/* Thread tid's thread group id as its own pid namespace numbers it (the
 * last of NStgid), or as ours: -1 when gone. */
static pid_t caller_tgid(pid_t tid)
{
	long v, last = -1;

	for (int n = 0; (v = hs_fl_status_num(tid, "NStgid", n, 10)) > 0; n++)
		last = v;
	return last > 0 ? (pid_t)last : hs_fl_tgid(tid);
}

/* A netlink socket of ours, unbound, asking the kernel for a port
 * (nl_pid 0) as the caller: the kernel gives its binder's thread group
 * id where that is free, else a negative id of its own counting down
 * from -4096 (netlink_autobind); ours would be the supervisor's. 1: not
 * such a case, the address as read will do. */
static long netlink_port(const struct hs_fl_pathop *o, struct sockaddr_nl nl)
{
	struct sockaddr_nl now;
	socklen_t len = sizeof(now);
	pid_t tgid = caller_tgid(o->tid);
	uint32_t port = (uint32_t)tgid;

	/* a bound socket: the kernel's own EINVAL (or 0) for the address */
	if (nl.nl_pid != 0 || tgid <= 0 ||
	    getsockname(o->sock, (struct sockaddr *)&now, &len) != 0 ||
	    now.nl_pid != 0)
		return 1;
	for (int i = 0; i < 64; i++) {
		nl.nl_pid = port;
		if (bind(o->sock, (struct sockaddr *)&nl, o->salen) == 0)
			return 0;
		if (errno != EADDRINUSE)
			return -errno;
		port = (uint32_t)(-4097 - (long)(random() % 1000000));
	}
	return 1;
}

/* A bind with no name, on our copy of the caller's socket: the address
 * as read, but for what the kernel would take from the binding process
 * rather than the address: a netlink socket's port where it asks for
 * one (netlink_port), an AF_XDP socket sharing another's umem by the
 * caller's descriptor of it. */
static long bind_unnamed(const struct hs_fl_pathop *o)
{
	unsigned char sa[HS_FL_SA_CAP];
	sa_family_t fam = AF_UNSPEC;
	int umem = -1;
	long r;

	memcpy(sa, o->sa, o->salen);
	if (o->salen >= sizeof(fam))
		memcpy(&fam, sa, sizeof(fam));
	if (fam == AF_NETLINK && o->salen >= sizeof(struct sockaddr_nl)) {
		struct sockaddr_nl nl;

		memcpy(&nl, sa, sizeof(nl));
		if ((r = netlink_port(o, nl)) <= 0)
			return r;
	} else if (fam == AF_XDP && o->salen >= sizeof(struct sockaddr_xdp)) {
		struct sockaddr_xdp xa;

		memcpy(&xa, sa, sizeof(xa));
		if (xa.sxdp_flags & XDP_SHARED_UMEM) {
			umem = hs_fl_thread_fd(o->tid, (int)xa.sxdp_shared_umem_fd,
					       true);
			if (umem < 0)
				return errno == EBADF ? -EBADF : hs_fl_ours(-ENOMEM);
			xa.sxdp_shared_umem_fd = (uint32_t)umem;
			memcpy(sa, &xa, sizeof(xa));
		}
	}
	r = bind(o->sock, (struct sockaddr *)sa, o->salen) < 0 ? -errno : 0;
	if (umem >= 0)
		close(umem);
	return r;
}

/* bind of our copy of the caller's socket: a name as above (held:
 * walk_lock exclusively; *moved: our working directory changed), else
 * bind_unnamed. 0 or -errno: the kernel's answer to ours. */
static long bind_(const struct hs_fl_pathop *o, const struct where *a,
		  bool held, bool *moved)
{
	struct sockaddr_un u = { .sun_family = AF_UNIX };
	/* the caller's string, unchanged, its walk held to the judged one */
	bool own = held && a->s.rest == o->path;
	const char *name = own ? o->path : a->last;
	int from = own ? a->s.fd : a->dir;
	size_t n;

	if (!o->path[0])
		return bind_unnamed(o);
	n = strlen(name);
	if (n > sizeof(u.sun_path)) /* (a part of a name that fit) */
		return -ENAMETOOLONG;
	if (from != AT_FDCWD) {
		if (fchdir(from) < 0)
			return hs_fl_ours(-errno);
		*moved = true;
	}
	memcpy(u.sun_path, name, n);
	return bind(o->sock, (const struct sockaddr *)&u,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) < 0
		       ? -errno
		       : 0;
}

/* The call itself, on what where_of readied: 0 or -errno. */
static long make(const struct hs_fl_pathop *o, struct where *a,
		 struct where *b, bool held, bool *moved)
{
	char self[40];
	long r = 0;

	switch (o->nr) {
	case SYS_bind:
		return bind_(o, a, held, moved);
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_unlinkat:
		r = unlinkat(a->dir, a->last, (int)o->flags);
		break;
	case SYS_mkdir:
	case SYS_mkdirat:
		r = mkdirat(a->dir, a->last, (mode_t)o->mode);
		break;
	case SYS_mknod:
	case SYS_mknodat:
		/* the kernel takes the device number's low 32 bits */
		r = syscall(SYS_mknodat, a->dir, a->last, (unsigned)o->mode,
			    (unsigned)o->arg);
		break;
	case SYS_symlink:
	case SYS_symlinkat:
		r = symlinkat(o->path, b->dir, b->last);
		break;
	case SYS_rename:
	case SYS_renameat:
	case SYS_renameat2:
		r = syscall(SYS_renameat2, a->dir, a->last, b->dir, b->last,
			    (unsigned)o->flags);
		break;
	case SYS_link:
	case SYS_linkat:
		if (a->obj >= 0) {
			snprintf(self, sizeof(self), "/proc/self/fd/%d", a->obj);
			r = linkat(AT_FDCWD, self, b->dir, b->last,
				   AT_SYMLINK_FOLLOW);
		} else {
			r = linkat(a->dir, a->last, b->dir, b->last, 0);
		}
		break;
	case SYS_truncate:
		return truncate_(o, a->obj);
	default:
		return HS_FL_KERNEL;
	}
	return r < 0 ? -errno : 0;
}

/* mknod's own check of its mode, made before its path is looked up:
 * 0, or its errno (a directory EPERM, an unknown type EINVAL). */
static long may_mknod(const struct hs_fl_pathop *o)
{
	if (o->nr != SYS_mknod && o->nr != SYS_mknodat)
		return 0;
	switch (o->mode & S_IFMT) {
	case 0: case S_IFREG: case S_IFCHR: case S_IFBLK: case S_IFIFO:
	case S_IFSOCK:
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

enum hs_fl_open_result hs_fl_pathop(const struct hs_floor_ctx *x,
				    struct hs_fl_call *c, bool keep)
{
	struct hs_fl_pathop *o = &c->pop;
	pid_t tid = (pid_t)c->n.pid;
	struct where a = { .s = { .fd = -1 }, .dir = -1, .obj = -1 },
		     b = { .s = { .fd = -1 }, .dir = -1, .obj = -1 };
	bool two = o->nr != SYS_unlink && o->nr != SYS_unlinkat &&
		   o->nr != SYS_rmdir && o->nr != SYS_mkdir &&
		   o->nr != SYS_mkdirat && o->nr != SYS_mknod &&
		   o->nr != SYS_mknodat && o->nr != SYS_truncate &&
		   o->nr != SYS_bind;
	bool symlink = o->nr == SYS_symlink || o->nr == SYS_symlinkat;
	bool bind_call = o->nr == SYS_bind;
	bool named_bind = bind_call && o->path[0], moved = false, held;
	bool making = o->nr == SYS_mkdir || o->nr == SYS_mkdirat ||
		      o->nr == SYS_mknod || o->nr == SYS_mknodat || named_bind;
	bool link = o->nr == SYS_link || o->nr == SYS_linkat;
	/* a link's source followed, or a descriptor's file (AT_EMPTY_PATH
	 * with ""): made from our descriptor of it */
	bool src_follow = link && (o->flags & AT_SYMLINK_FOLLOW);
	bool src_fd = link && (o->flags & AT_EMPTY_PATH) && !o->path[0];
	bool resolved = hs_fscope_follow(x->scope);
	mode_t um, our_um = 0;
	struct hs_fl_as as;
	enum hs_fl_open_result v;
	long r;

	if (!o->on || !x->self ||
	    __atomic_load_n(x->sandboxed, __ATOMIC_ACQUIRE) ||
	    (bind_call && o->sock < 0 && !o->read_err))
		return HS_FL_OPEN_CONTINUE;
	/* arguments the kernel refuses before it reads a path (or whatever
	 * the path): its answer, on no name */
	if ((o->nr == SYS_linkat &&
	     (o->flags & ~(uint64_t)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))) ||
	    (o->nr == SYS_unlinkat && (o->flags & ~(uint64_t)AT_REMOVEDIR)) ||
	    (o->nr == SYS_truncate && (int64_t)o->arg < 0))
		return HS_FL_OPEN_CONTINUE;
	if (o->read_err) {
		/* what we read is what the kernel would have: no bytes */
		hs_fl_answer(x->listener, c->n.id, o->read_err);
		return HS_FL_OPEN_ANSWERED;
	}
	if ((o->nr == SYS_renameat2 &&
	     ((o->flags & ~(uint64_t)(RENAME_NOREPLACE | RENAME_EXCHANGE |
				      RENAME_WHITEOUT)) ||
	      ((o->flags & RENAME_EXCHANGE) &&
	       (o->flags & (RENAME_NOREPLACE | RENAME_WHITEOUT))))) ||
	    (making && (r = may_mknod(o)) != 0)) {
		if (o->nr == SYS_renameat2)
			return HS_FL_OPEN_CONTINUE; /* EINVAL, on no name */
		hs_fl_answer(x->listener, c->n.id, (int)-r);
		return HS_FL_OPEN_ANSWERED;
	}
	if (!hs_fl_ours_to_make(x, c, keep, &um, &as, &v))
		return v;
	if ((named_bind && (r = home_kept()) != 0) ||
	    (making && (r = hs_fl_caller_umask(um, &our_um)) != 0))
		return hs_fl_not_made(x, c, r);
	/* a truncate beyond the caller's RLIMIT_FSIZE is the kernel's
	 * (its SIGXFSZ); asked with our credentials, as prlimit of
	 * another process wants */
	if (o->nr == SYS_truncate) {
		struct rlimit lim;

		if (prlimit(o->tid, RLIMIT_FSIZE, NULL, &lim) != 0 ||
		    (lim.rlim_cur != RLIM_INFINITY && o->arg > lim.rlim_cur))
			return HS_FL_OPEN_CONTINUE;
	}
	/* the walks and the call as the caller (floor_identity.c), no
	 * directory changing under a named bind's walk meanwhile */
	held = walk_hold(named_bind);
	if (!hs_fl_become(&as))
		r = HS_FL_KERNEL;
	else if (bind_call && !named_bind)
		r = 0; /* no name: nothing to walk */
	else if (symlink) {
		r = where_of(x, tid, o->path2, o->dirfd2, o->judged, false,
			     false, resolved, &b);
	} else {
		bool trunc = o->nr == SYS_truncate;

		r = where_of(x, tid, o->path, o->dirfd, link ? o->judged2 : o->judged,
			     trunc || src_follow || src_fd,
			     ((trunc || src_follow) && o->path[0]) || src_fd,
			     resolved || src_follow || src_fd, &a);
		if (r == 0 && two)
			r = where_of(x, tid, o->path2, o->dirfd2,
				     link ? o->judged : o->judged2, false, false,
				     resolved, &b);
	}
	if (r == 0 && (a.s.by_number || (two && b.s.by_number)) &&
	    !hs_fl_valid(x->listener, c->n.id))
		r = HS_FL_KERNEL; /* gone: continuing it is refused, harmlessly */
	if (r == 0)
		r = make(o, &a, &b, held, &moved);
	/* a caller's own fd directory lets it in, and its entries are no
	 * directories (ENOTDIR) that procfs will not make, remove or move
	 * (EPERM); it does not let us in: where every path walked is one (a
	 * symlink's first is its text) */
	if (r == -EACCES &&
	    (symlink || (a.s.link_itself && a.s.own_fds)) &&
	    (!two || (b.s.link_itself && b.s.own_fds)))
		r = o->nr == SYS_rmdir ||
				    (o->nr == SYS_unlinkat &&
				     (o->flags & AT_REMOVEDIR))
			    ? -ENOTDIR
			    : -EPERM;
	hs_fl_become_back(&as);
	if (held)
		pthread_rwlock_unlock(&walk_lock);
	if (moved)
		home_again();
	where_free(&a);
	where_free(&b);
	if (making)
		hs_fl_umask_again(um, our_um);
	if ((v = hs_fl_settle(&r, &c->open.tries)) == HS_FL_OPEN_ANSWERED)
		hs_fl_answer(x->listener, c->n.id, (int)-r);
	return v;
}
