/* Files of the kernel's own file systems the supervisor opened for its
 * caller (floor_open.c), looked at before they are handed over.
 *
 * /proc: the caller's own /proc/self/... is walked from its /proc/<tgid>
 * (floor_start.c), but a walk of ours can still land in our own /proc:
 * /proc/mounts, /proc/net and /etc/mtab are symlinks through "self",
 * which in our walk is us. A read that lands there is the caller's own
 * file, opened again by its number; a write is judged again (its name,
 * in our view, was ours: floor_reach.c refuses that), never handed over
 * nor continued. And another process's mem is opened only where the
 * caller may attach to that process: the kernel checks PTRACE_MODE_ATTACH
 * against the opener, and with Yama's ptrace_scope 1 the supervisor, an
 * ancestor of every process of the session, may where the caller may not.
 *
 * A cgroup's files: reading one asks nothing of its opener, but a write
 * that moves a task (cgroup.procs, cgroup.threads, v1's tasks) is checked
 * against the opener's cgroup namespace (kept from the open) and, in
 * cgroup v1, against the effective uid the file was opened with, which
 * the thread that opened did not take on (its real and effective ids
 * stay ours: a caller must not be able to signal it). Every write from
 * another cgroup namespace is left to the kernel (hs_fl_cgroup_fit: the
 * namespace is compared for any write, not only those). */
#include "floor.h"
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/proclink.h"
#include "../common/wire.h"

/* "/proc/<n>" at the start of name: n, with *rest after it; 0 else. */
static long proc_number(const char *name, const char **rest)
{
	char *e;
	long n;

	if (!hs_starts(name, "/proc/"))
		return 0;
	n = strtol(name + 6, &e, 10);
	if (e == name + 6 || (*e && *e != '/'))
		return 0;
	*rest = e;
	return n;
}

/* Is n our process or one of our threads? */
static bool is_us(long n)
{
	char task[48];

	if (n == (long)getpid())
		return true;
	snprintf(task, sizeof(task), "/proc/self/task/%ld", n);
	return access(task, F_OK) == 0;
}

/* Yama's ptrace_scope (0 without Yama), read once. */
static int yama_scope(void)
{
	static int scope = -1; /* every thread stores the same answer */
	int v = __atomic_load_n(&scope, __ATOMIC_RELAXED);
	char buf[16];

	if (v < 0) {
		/* no Yama: 0, kept; another failure: the strictest, this
		 * once */
		if (hs_fl_read_small("/proc/sys/kernel/yama/ptrace_scope", buf,
				     sizeof(buf)) > 0)
			v = atoi(buf);
		else if (errno == ENOENT)
			v = 0;
		else
			return 3;
		__atomic_store_n(&scope, v, __ATOMIC_RELAXED);
	}
	return v;
}

/* Does process pid descend from thread group anc (its parents, /proc)? */
static bool descends(pid_t pid, pid_t anc)
{
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		struct hs_proc_stat st;

		if (pid == anc)
			return true;
		if (hs_proc_stat(pid, &st) < 0)
			return false;
		pid = (pid_t)st.ppid;
	}
	return false;
}

/* Has thread tid CAP_SYS_PTRACE in its effective set (its status)? */
static bool may_ptrace(pid_t tid)
{
	return hs_fl_has_cap(tid, CAP_SYS_PTRACE) == 1;
}

/* May the caller (thread tid of thread group tgid) attach to process
 * pid, as its user namespace and Yama have it? The rest of the kernel's
 * check was our open's (with the caller's credentials where they are not
 * ours). */
static bool may_attach(pid_t tid, pid_t tgid, pid_t pid)
{
	/* the kernel's own check, with the caller's user namespace: an
	 * agent in one of its own (floor_userns.c) may not attach to a
	 * process outside it that our open reaches (session 38) */
	if (hs_fl_may_trace(tid, pid, "mem", 3) != 0)
		return false;
	switch (yama_scope()) {
	case 0:
		return true;
	case 1: /* its descendants (or one that named it as its tracer:
		 * not seen from here, refused) */
		return descends(pid, tgid) || may_ptrace(tid);
	case 2:
		return may_ptrace(tid);
	default:
		return false;
	}
}

/* A file of a process's /proc (rest: after /proc/<pid>) that anyone may
 * read whatever the process (what ps and top read), not one its open
 * checks the opener's right to trace it for (environ, maps, fd/). */
static bool anyones(const char *rest)
{
	static const char *const files[] = {
		"", "/task", "/comm", "/stat", "/status", "/statm", "/cmdline",
		"/cgroup", "/oom_score", "/oom_score_adj", "/limits",
	};

	if (hs_starts(rest, "/task/")) { /* one of its threads' */
		char *e;

		(void)strtol(rest + 6, &e, 10);
		rest = e;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strcmp(rest, files[i]) == 0)
			return true;
	return false;
}

/* Does the path as written name process n by its number (a component
 * "n")? Then what our walk reached in our /proc is what was asked for,
 * not the caller's own through "self". */
static bool names_number(const char *written, long n)
{
	char num[24];
	size_t k = (size_t)snprintf(num, sizeof(num), "%ld", n);

	for (const char *s = written; (s = strstr(s, num)); s += k)
		if ((s == written || s[-1] == '/') && (!s[k] || s[k] == '/'))
			return true;
	return false;
}

long hs_fl_proc_fit(int fd, pid_t tid, uint64_t fl, const char *written,
		    char *why, size_t cap)
{
	char name[PATH_MAX], p[PATH_MAX + 64];
	const char *rest;
	struct hs_proclink l;
	struct stat sb;
	pid_t tgid = hs_fl_tgid(tid);
	long n;

	if (tgid <= 0 || hs_fl_fd_name(fd, name) != 0) {
		close(fd);
		return HS_FL_AGAIN;
	}
	/* a /proc mounted elsewhere too (a chroot's): its names are not
	 * read here, so nothing of it is handed over */
	if (!hs_starts(name, "/proc/") && strcmp(name, "/proc") != 0) {
		close(fd);
		return HS_FL_AGAIN;
	}
	n = proc_number(name, &rest);
	if (n && is_us(n) && names_number(written, n)) {
		/* ours, by number: what anyone may read (comm, stat: ps),
		 * not what only we may (environ, maps: the session does not
		 * reach the supervisor, floor_reach.c, and a non-dumpable
		 * one's are refused to a caller of its uid); a write judged
		 * again (that check refuses it) */
		if (fl & HS_FLOOR_WRITE_FLAGS) {
			close(fd);
			return HS_FL_AGAIN;
		}
		if (anyones(rest) && fstat(fd, &sb) == 0 &&
		    (sb.st_mode & S_IROTH))
			return fd;
		close(fd);
		return -EACCES;
	}
	if (n && is_us(n)) {
		close(fd);
		/* a read through "self" in our walk (/proc/mounts,
		 * /etc/mtab): the caller's own file; a write, or one of our
		 * threads' own: judged again */
		if ((fl & HS_FLOOR_WRITE_FLAGS) || n != (long)getpid())
			return HS_FL_AGAIN;
		if (hs_starts(rest, "/task/")) {
			char *e;

			(void)strtol(rest + 6, &e, 10);
			snprintf(p, sizeof(p), "/proc/%d/task/%d%s", (int)tgid,
				 (int)tid, e);
		} else {
			snprintf(p, sizeof(p), "/proc/%d%s", (int)tgid, rest);
		}
		if (strlen(p) >= PATH_MAX || hs_proclink(p, &l))
			return HS_FL_AGAIN;
		return hs_fl_openat2(AT_FDCWD, p,
				     hs_fl_our_flags(fl & ~(uint64_t)(O_CREAT | O_EXCL |
								  O_NOFOLLOW | O_TRUNC)),
				     0, RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS);
	}
	/* never a judged command's memory to a process that is not one's
	 * (enforce mode, floor_reach.c: said where its name was written
	 * so; here reached through a symlink) */
	if (n && hs_fl_reach_inner(tid, name, true, why, cap)) {
		close(fd);
		return HS_FL_REACH;
	}
	/* another process's memory: only where the caller may attach */
	if (n && hs_fl_tgid((pid_t)n) != tgid &&
	    (strcmp(rest, "/mem") == 0 ||
	     (hs_starts(rest, "/task/") && strstr(rest, "/mem") &&
	      strcmp(strstr(rest, "/mem"), "/mem") == 0)) &&
	    !may_attach(tid, tgid, (pid_t)n)) {
		close(fd);
		return -EACCES;
	}
	return fd;
}

/* Is our descriptor fd of a cgroup v1 file one whose writes move tasks?
 * (Unnamed: taken to be.) */
static bool moves_tasks(int fd)
{
	char name[PATH_MAX];
	const char *base;

	if (hs_fl_fd_name(fd, name) != 0)
		return true;
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	return strcmp(base, "cgroup.procs") == 0 || strcmp(base, "tasks") == 0;
}

long hs_fl_cgroup_fit(int fd, pid_t tid, uint64_t fl, bool v1)
{
	if (!(fl & HS_FLOOR_WRITE_FLAGS))
		return fd;
	/* another cgroup namespace: only where one may be made (guard
	 * mode's default, "floor_allow" in enforce mode), as other
	 * namespaces are the kernel's (floor_identity.c) */
	if (hs_fl_ns_same(tid, "cgroup") != 1) {
		close(fd);
		return HS_FL_KERNEL;
	}
	/* our open would pass the uid check of each write the caller's
	 * would not: refused rather than left to a kernel that reads the
	 * path again */
	if (v1 && hs_fl_status_num(tid, "Uid", 1, 10) != (long)geteuid() &&
	    moves_tasks(fd)) {
		close(fd);
		return -EACCES;
	}
	return fd;
}
