/* Path normalisation for write events; see path.h. */
#include "path.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/plainstr.h"
#include "../common/pathresolve.h"
#include "../common/proclink.h"
#include "real.h"
#include "state.h"

/* The working directory, cached: a getcwd per write would be one more
 * syscall for each file tar extracts. chdir/fchdir (write.c) bump `gen`
 * after the real call; the copy is valid while its gen is current. A
 * seqlock makes readers see a whole copy without a lock: `seq` is odd
 * while one writer (who won the CAS) copies. */
static struct {
	unsigned gen, seq, cached_gen;
	bool off; /* chdir in a fork/vfork child: never trust a copy again */
	char path[PATH_MAX];
} cwd;

void hs_path_chdir(bool child)
{
	if (child)
		__atomic_store_n(&cwd.off, true, __ATOMIC_RELEASE);
	__atomic_add_fetch(&cwd.gen, 1, __ATOMIC_ACQ_REL);
}

static bool cwd_cached(char *buf)
{
	unsigned s1 = __atomic_load_n(&cwd.seq, __ATOMIC_ACQUIRE);
	size_t n;

	if ((s1 & 1) || __atomic_load_n(&cwd.off, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&cwd.cached_gen, __ATOMIC_ACQUIRE) !=
		    __atomic_load_n(&cwd.gen, __ATOMIC_ACQUIRE) ||
	    !cwd.path[0])
		return false;
	n = strnlen(cwd.path, PATH_MAX - 1);
	memcpy(buf, cwd.path, n);
	buf[n] = '\0';
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&cwd.seq, __ATOMIC_RELAXED) == s1;
}

static void cwd_store(const char *p, unsigned gen)
{
	unsigned s = __atomic_load_n(&cwd.seq, __ATOMIC_RELAXED);

	if ((s & 1) || !__atomic_compare_exchange_n(&cwd.seq, &s, s + 1, false,
						    __ATOMIC_ACQ_REL,
						    __ATOMIC_RELAXED))
		return; /* another thread is storing: let it */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(cwd.path, p, strlen(p) + 1);
	__atomic_store_n(&cwd.cached_gen, gen, __ATOMIC_RELEASE);
	__atomic_store_n(&cwd.seq, s + 2, __ATOMIC_RELEASE);
}

/* A working directory that was removed (`mkdir d; cd d; rmdir ../d`):
 * getcwd fails ENOENT, but "../secrets/k" from it is a name the kernel
 * walks. Its name as /proc/self/cwd gives it, less the kernel's
 * " (deleted)", so that ".." leads where the kernel goes (a write there
 * went unjudged). Not kept: the next call looks again. */
static int removed_cwd(char *buf)
{
	static const char gone[] = " (deleted)";
	int r = hs_proclink_target("/proc/self/cwd", buf);
	size_t n;

	if (r < 0)
		return r == HS_PATH_TOOLONG ? r : -1;
	n = hs_len(buf);
	if (n > sizeof(gone) - 1 &&
	    hs_same(buf + n - (sizeof(gone) - 1), gone))
		buf[n - (sizeof(gone) - 1)] = '\0';
	return 0;
}

static int getcwd_cached(char *buf)
{
	unsigned gen;

	if (cwd_cached(buf))
		return 0;
	/* read gen before getcwd: a chdir in between makes the copy stale
	 * at once */
	gen = __atomic_load_n(&cwd.gen, __ATOMIC_ACQUIRE);
	/* The syscall, not getcwd(3): for a directory deeper than a page
	 * glibc walks ".." with opendir (malloc). Such a directory (mkdir
	 * and chdir, one level at a time) has no name we can hold. */
	if (syscall(SYS_getcwd, buf, PATH_MAX) < 0)
		return errno == ERANGE || errno == ENAMETOOLONG ? HS_PATH_TOOLONG
		       : errno == ENOENT			 ? removed_cwd(buf)
								 : -1;
	if (buf[0] != '/') /* "(unreachable)": another root's */
		return -1;
	cwd_store(buf, gen);
	return 0;
}

bool hs_path_cwd_gen(unsigned *gen)
{
	if (__atomic_load_n(&cwd.off, __ATOMIC_ACQUIRE))
		return false;
	*gen = __atomic_load_n(&cwd.gen, __ATOMIC_ACQUIRE);
	return true;
}

int hs_path_dirfd(int dirfd, char *buf)
{
	char link[HS_SELF_FD_CAP];

	if (dirfd == AT_FDCWD)
		return getcwd_cached(buf);
	if (dirfd < 0)
		return -1;
	return hs_proclink_target(hs_self_fd_name(dirfd, link), buf);
}

/* big, a name joined from a directory and a path of up to PATH_MAX each,
 * folded into out (PATH_MAX): the kernel takes a relative path of up to
 * PATH_MAX from a directory whose name may be as long, and folding "./"
 * and ".." usually brings the whole back under PATH_MAX. When it does
 * not, no buffer of ours holds the name and the write cannot be judged:
 * HS_PATH_TOOLONG. Following symlinks, only "//" and "." go (a ".."
 * after a symlink is the kernel's business); `from` is where folding
 * may change anything (the part after an already folded directory). */
static int settle(char *out, char *big, size_t from, bool follow)
{
	size_t n;

	if (follow)
		hs_path_fold_dots(big + from);
	else if (from <= 1 || hs_path_foldable(big + from))
		hs_path_fold(big);
	n = strlen(big);
	if (n >= PATH_MAX)
		return HS_PATH_TOOLONG;
	memcpy(out, big, n + 1);
	return 0;
}

/* dir (in out) + "/" + name, settled into out. Its own frame: the
 * 8 KiB are given back before expand_magic's or the resolver's buffers
 * are taken, so a thread's stack holds one of them at a time. */
static __attribute__((noinline)) int join(char *out, const char *name,
					  bool follow)
{
	char big[2 * PATH_MAX];
	size_t dl = strlen(out), nl = strlen(name);

	if (dl >= PATH_MAX || nl >= PATH_MAX)
		return HS_PATH_TOOLONG;
	if (dl == 1)
		dl = 0; /* "/" + name */
	memcpy(big, out, dl);
	big[dl] = '/';
	memcpy(big + dl + 1, name, nl + 1);
	return settle(out, big, dl, follow);
}

/* A path through a kernel magic link (common/proclink.h: /proc/self/cwd,
 * /proc/<pid>/root, /proc/self/fd/N, /dev/fd/N, ...) names whatever the
 * link points at: resolved whether or not symlinks are followed. Bun
 * writes through /proc/self/fd/N. Rewrites p to the link's target + the
 * rest; leaves it alone when the kernel cannot name the target (a pipe,
 * a socket, another user's process). A few hops: the target may itself
 * be under /proc. HS_PATH_TOOLONG: the target, or it and the rest, too
 * long to name (a working directory deeper than PATH_MAX). Not inlined,
 * for join's reason. */
static __attribute__((noinline)) int expand_magic(char *p)
{
	for (int hops = 0; hops < 8; hops++) {
		struct hs_proclink l;
		char link[HS_PROCLINK_MAX], big[2 * PATH_MAX];
		size_t n, rl;
		int r;

		if (!hs_proclink(p, &l) || l.end >= sizeof(link))
			return 0;
		if (l.self) { /* ours: /proc/self/ + cwd, root or fd/N */
			memcpy(link, "/proc/self/", 11);
			n = 11;
		} else {
			memcpy(link, p, l.end);
			n = (size_t)(l.what - p);
		}
		memcpy(link + n, l.what, l.what_len);
		link[n + l.what_len] = '\0';
		r = hs_proclink_target(link, big);
		if (r == -1)
			return 0; /* "pipe:[...]": no path */
		if (r < 0)
			return r;
		n = strlen(big);
		rl = strlen(p + l.end); /* "" or "/rest" */
		if (n == 1 && rl)
			n = 0; /* "/" + "/rest" */
		memcpy(big + n, p + l.end, rl + 1);
		if ((r = settle(p, big, n, false)) < 0)
			return r;
	}
	return 0;
}

/* The root's logical name (write_scope.c found it in the filter): a path
 * written through it names a file under the root, and is judged so. */
static struct {
	const char *name;
	size_t len;
} alias;

void hs_path_alias(const char *logical)
{
	alias.name = logical;
	alias.len = logical ? strlen(logical) : 0;
}

static void unalias(char *p)
{
	size_t rl = strlen(hs_st.root), tail;

	if (!alias.len || rl <= 1 || !hs_path_under(p, alias.name))
		return;
	tail = strlen(p + alias.len);
	if (rl + tail >= PATH_MAX)
		return;
	memmove(p + rl, p + alias.len, tail + 1);
	memcpy(p, hs_st.root, rl);
}

/* hs_path_abs; following, the last component only when `last`, and
 * what the walk ended on kept in pin (when not NULL). */
static int path_abs(int dirfd, const char *path, bool follow, bool last,
		    char *out, struct hs_path_pin *pin)
{
	size_t n = strlen(path);
	int r, std;

	if (pin)
		pin->fd = -1;
	/* longer: the kernel says ENAMETOOLONG itself */
	if (n == 0 || n >= PATH_MAX)
		return -1;
	if (path[0] == '/') {
		memcpy(out, path, n + 1);
		if (!follow) {
			hs_path_fold(out);
			unalias(out);
		}
	} else if ((r = hs_path_dirfd(dirfd, out)) < 0 ||
		   (r = join(out, path, follow)) < 0) {
		return r;
	}
	if (follow) {
		/* unfolded: ".." after a symlink is the kernel's business
		 * (magic /proc links and the logical root included) */
		hs_path_resolve_pin(out, last, pin);
		return 0;
	}
	/* /dev/stdout is the magic link it leads to, for a call that
	 * follows it (following, the walk above went through it) */
	std = last ? hs_proclink_stdio(out, "") : -1;
	if (strncmp(out, "/proc/", 6) == 0 || strncmp(out, "/dev/fd/", 8) == 0)
		r = expand_magic(out);
	else
		r = 0;
	if (std >= 0 && r == 0)
		hs_proclink_stdio_back(out, std); /* a pipe's: as written */
	return r;
}

int hs_path_abs(int dirfd, const char *path, bool follow, char *out)
{
	return path_abs(dirfd, path, follow, true, out, NULL);
}

int hs_path_named(int dirfd, const char *path, bool follow, bool last,
		  char *out)
{
	return path_abs(dirfd, path, follow, last, out, NULL);
}

int hs_path_pinned(int dirfd, const char *path, bool last, char *out,
		   struct hs_path_pin *pin)
{
	return path_abs(dirfd, path, true, last, out, pin);
}

bool hs_path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

const char *hs_self_fd_name(int fd, char *link)
{
	hs_copy(link, "/proc/self/fd/", 15);
	hs_utoa((unsigned long)fd, link + 14);
	return link;
}
