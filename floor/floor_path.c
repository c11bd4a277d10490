/* Reading a caller the kernel holds stopped in a notified syscall: its
 * strings, its environment, the argv of its exec, whether it carries
 * this session's shim; and the notification itself (still live? the
 * answer sent). What its paths name is floor_name.c's. The floor's lowest
 * layer: every other file of floor/ may call it, it calls none of them.
 *
 * The notification names a thread id in our pid namespace. Everything
 * here may race with the thread dying and its id being reused, so callers
 * check SECCOMP_IOCTL_NOTIF_ID_VALID after each read (floor_event.c). The
 * caller is assumed to share our mount namespace (hookshim run starts
 * the whole tree): paths are resolved in our view of the file system. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../common/wire.h"

/* /proc/<tid>/mem, for kernels or policies without process_vm_readv. */
static ssize_t mem_pread(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	char p[40];
	int fd;
	ssize_t r;

	snprintf(p, sizeof(p), "/proc/%d/mem", (int)tid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = pread(fd, buf, n, (off_t)addr);
	close(fd);
	return r;
}

static ssize_t read_some(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	struct iovec local = { buf, n };
	struct iovec remote = { (void *)(uintptr_t)addr, n };
	ssize_t r = process_vm_readv(tid, &local, 1, &remote, 1, 0);

	if (r < 0 && (errno == ENOSYS || errno == EPERM))
		r = mem_pread(tid, addr, buf, n);
	return r;
}

int hs_fl_read(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	ssize_t r = read_some(tid, addr, buf, n);

	if (r == (ssize_t)n)
		return 0;
	if (r >= 0) /* short: an unmapped page (errno may be a fallback's) */
		errno = EFAULT;
	return -1;
}

int hs_fl_write(pid_t tid, int listener, uint64_t id, uint64_t addr,
		const void *buf, size_t n)
{
	struct iovec local = { (void *)buf, n };
	struct iovec remote = { (void *)(uintptr_t)addr, n };
	ssize_t r;

	/* the caller's, still waiting: its number is no other task's */
	if (!hs_fl_valid(listener, id)) {
		errno = ESRCH;
		return -1;
	}
	r = process_vm_writev(tid, &local, 1, &remote, 1, 0);
	if (r == (ssize_t)n)
		return 0;
	if (r >= 0)
		errno = EFAULT;
	return -1;
}

int hs_fl_read_str(pid_t tid, uint64_t addr, char *buf, size_t cap)
{
	size_t got = 0;

	if (!addr)
		return -EFAULT;
	/* A page at a time: the string may end just before an unmapped
	 * page, where a longer read would fail as a whole. */
	while (got < cap - 1) {
		uint64_t a = addr + got;
		size_t chunk = 4096 - (size_t)(a & 4095);
		ssize_t r;

		if (chunk > cap - 1 - got)
			chunk = cap - 1 - got;
		r = read_some(tid, a, buf + got, chunk);
		if (r < 0 && (errno == EPERM || errno == EACCES))
			return -EPERM; /* not ours to read at all */
		if (r <= 0)
			return -EFAULT;
		if (memchr(buf + got, '\0', (size_t)r))
			return 0;
		got += (size_t)r;
	}
	return -ENAMETOOLONG;
}

/* Two entries: a name and its directory. Thread-local: the receiver's
 * and each decision thread's classifications are their own. */
static __thread struct stat_memo {
	unsigned long gen;
	bool follow;
	int r, err;
	struct stat sb;
	char path[PATH_MAX];
} memo[2];
static __thread unsigned long memo_gen = 1;
static __thread unsigned memo_next;
static __thread bool memo_on;

void hs_fl_stat_begin(void)
{
	memo_gen++; /* nothing kept from before */
	memo_on = true;
}

void hs_fl_stat_end(void)
{
	memo_on = false;
}

int hs_fl_stat(const char *path, bool follow, struct stat *sb)
{
	size_t n = strlen(path);
	struct stat_memo *m;

	if (!memo_on || n >= PATH_MAX)
		return follow ? stat(path, sb) : lstat(path, sb);
	for (int i = 0; i < 2; i++) {
		m = &memo[i];
		if (m->gen == memo_gen && m->follow == follow &&
		    memcmp(m->path, path, n + 1) == 0) {
			*sb = m->sb;
			errno = m->err;
			return m->r;
		}
	}
	m = &memo[memo_next++ % 2];
	m->r = follow ? stat(path, &m->sb) : lstat(path, &m->sb);
	m->err = m->r ? errno : 0;
	m->follow = follow;
	m->gen = memo_gen;
	memcpy(m->path, path, n + 1);
	*sb = m->sb;
	errno = m->err;
	return m->r;
}

ssize_t hs_fl_read_small_at(int dirfd, const char *path, char *buf,
			    size_t cap)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

ssize_t hs_fl_read_small(const char *path, char *buf, size_t cap)
{
	return hs_fl_read_small_at(AT_FDCWD, path, buf, cap);
}

long hs_fl_proc_field(const char *path, const char *key)
{
	char buf[1024];
	const char *t;

	if (hs_fl_read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	t = strstr(buf, key);
	return t ? strtol(t + strlen(key), NULL, 10) : -1;
}

char *hs_fl_read_all_at(int dirfd, const char *path, size_t max,
			size_t *len)
{
	size_t got = 0, size = 1 << 16;
	char *buf;
	ssize_t n = 0;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(size);
	while (buf && (n = read(fd, buf + got, size - got - 1)) > 0) {
		got += (size_t)n;
		if (got + 1 >= size) {
			char *b = size <= max ? realloc(buf, size * 2) : NULL;

			if (!b) {
				n = -1;
				break;
			}
			buf = b;
			size *= 2;
		}
	}
	close(fd);
	if (!buf || n != 0) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

int hs_fl_environ_at(int dirfd, const char *path, const char *name,
		     char *out, size_t cap)
{
	size_t len = strlen(name), got;
	char *buf = hs_fl_read_all_at(dirfd, path, SIZE_MAX, &got);
	int r = 0;

	if (!buf)
		return -1;
	for (size_t i = 0; i < got; i += strlen(buf + i) + 1)
		if (strncmp(buf + i, name, len) == 0 && buf[i + len] == '=') {
			snprintf(out, cap, "%s", buf + i + len + 1);
			r = 1;
			break;
		}
	free(buf);
	return r;
}

bool hs_fl_environ(pid_t pid, const char *name, char *out, size_t cap)
{
	char p[40];

	snprintf(p, sizeof(p), "/proc/%d/environ", (int)pid);
	return hs_fl_environ_at(AT_FDCWD, p, name, out, cap) > 0;
}

/* --- the call itself, and what the caller runs with ----------------- */

int hs_fl_ns_same(pid_t tid, const char *ns)
{
	char p[48];
	struct stat ours, its;

	snprintf(p, sizeof(p), "/proc/self/ns/%s", ns);
	if (stat(p, &ours) != 0)
		return -1;
	snprintf(p, sizeof(p), "/proc/%d/ns/%s", (int)tid, ns);
	if (stat(p, &its) != 0)
		return -1;
	return ours.st_dev == its.st_dev && ours.st_ino == its.st_ino;
}

/* Our own errors as a call's result (hs_fl_ours, floor_int.h): the same
 * for the emulated opens, path calls and the identity check. Enforce
 * mode's (hs_fl_ours_closed): set once, before any receiver. */
static bool ours_closed;

void hs_fl_ours_closed(bool closed)
{
	ours_closed = closed;
}

/* The test suite's scarcity (floor_int.h): set with ours_closed */
static unsigned scarce_test;

void hs_fl_scarce_test(const char *spec)
{
	scarce_test = 0;
	if (spec && strstr(spec, "ctty"))
		scarce_test |= HS_FL_SCARCE_CTTY;
	if (spec && strstr(spec, "umask"))
		scarce_test |= HS_FL_SCARCE_UMASK;
	if (spec && strstr(spec, "task"))
		scarce_test |= HS_FL_SCARCE_TASK;
}

bool hs_fl_scarce_now(unsigned step)
{
	return scarce_test & step;
}

bool hs_fl_scarce(long e)
{
	return e == -EMFILE || e == -ENFILE || e == -ENOMEM;
}

long hs_fl_ours(long e)
{
	if (!hs_fl_scarce(e))
		return e;
	return !ours_closed ? HS_FL_KERNEL : e == -ENOMEM ? -ENOMEM : -ENFILE;
}

long hs_fl_ours_or(long e, long otherwise)
{
	return hs_fl_scarce(e) ? hs_fl_ours(e) : otherwise;
}

bool hs_fl_valid(int listener, uint64_t id)
{
	__u64 v = id;
	int r;

	/* its lock is taken interruptibly: a signal (floor.c's stop nudge)
	 * is no answer */
	while ((r = ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &v)) < 0 &&
	       errno == EINTR)
		;
	return r == 0;
}

bool hs_fl_send(int lfd, struct seccomp_notif_resp *r)
{
	while (ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, r) < 0)
		if (errno != EINTR)
			return false;
	return true;
}

#define MAX_ARGS 4096
#define MAX_ARG_LEN (128 * 1024)

/* Does the process have libhookshim.so mapped? */
static bool has_shim(pid_t tid)
{
	char p[40], line[1024];
	bool found = false;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/maps", (int)tid);
	f = fopen(p, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "/libhookshim.so") != NULL;
	fclose(f);
	return found;
}

uint64_t *hs_fl_read_ptrs(pid_t tid, uint64_t addr, size_t *n)
{
	uint64_t *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!addr)
		return calloc(1, sizeof(*v));
	for (;;) {
		uint64_t chunk[64];
		size_t got = 64;

		/* 64 at a time, one at a time near the end of a mapping */
		if (hs_fl_read(tid, addr + *n * 8, chunk, sizeof(chunk)) < 0) {
			got = 1;
			if (hs_fl_read(tid, addr + *n * 8, chunk, 8) < 0) {
				free(v);
				return NULL;
			}
		}
		for (size_t i = 0; i < got; i++) {
			if (*n + 1 >= cap) {
				uint64_t *w = realloc(v, (cap = cap ? cap * 2 : 64) * 8);

				if (!w) {
					free(v);
					return NULL;
				}
				v = w;
			}
			v[*n] = chunk[i];
			if (!chunk[i])
				return v;
			if (++*n >= MAX_ARGS) {
				v[*n] = 0;
				return v;
			}
		}
	}
}

bool hs_fl_flags_have_cookie(const char *flags, uint64_t cookie)
{
	for (const char *p = flags; p && *p;) {
		if (p[0] == 'c' && p[1] == '=')
			return strtoull(p + 2, NULL, 10) == cookie;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

bool hs_fl_has_shim(pid_t tid, pid_t tgid, uint64_t cookie)
{
	char flags[256];

	return has_shim(tid) &&
	       hs_fl_environ(tgid, HS_ENV_FLAGS, flags, sizeof(flags)) &&
	       hs_fl_flags_have_cookie(flags, cookie);
}

static char **read_argv(pid_t tid, uint64_t addr)
{
	size_t n;
	uint64_t *p = hs_fl_read_ptrs(tid, addr, &n);
	char **argv = p ? calloc(n + 1, sizeof(*argv)) : NULL, *s;

	for (size_t i = 0; argv && i < n; i++) {
		char small[4096];
		int r = hs_fl_read_str(tid, p[i], small, sizeof(small));

		/* most arguments are short: a buffer of MAX_ARG_LEN for each
		 * was an mmap, a page fault and an munmap per argument */
		if (r == 0) {
			s = strdup(small);
		} else if (r == -ENAMETOOLONG && (s = malloc(MAX_ARG_LEN + 1))) {
			/* the kernel's limit counts the NUL; longer, it says
			 * E2BIG (errno, for hs_fl_exec_argv's caller) */
			if ((r = hs_fl_read_str(tid, p[i], s, MAX_ARG_LEN + 1)) ==
			    0) {
				s = realloc(s, strlen(s) + 1) ?: s;
			} else {
				free(s);
				s = NULL;
				if (r == -ENAMETOOLONG)
					errno = E2BIG;
			}
		} else {
			s = NULL;
		}
		if (!s) {
			for (size_t j = 0; j < i; j++)
				free(argv[j]);
			free(argv);
			argv = NULL;
			break;
		}
		argv[i] = s;
	}
	free(p);
	return argv;
}

bool hs_fl_exec_argv(struct hs_fl_call *c)
{
	bool at = c->n.data.nr == SYS_execveat;

	if (!c->argv)
		c->argv = read_argv((pid_t)c->n.pid, c->n.data.args[at ? 2 : 1]);
	return c->argv != NULL;
}
