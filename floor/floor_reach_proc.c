/* Opens that reach into a process: /proc/<pid>/... of the supervisor or
 * a hook (both modes), a judged command's memory, descriptors and mapped
 * files (enforce mode), and a judged command's pipe reopened for writing
 * through /proc/<pid>/fd/N by a process that holds no writing end of it.
 * Who is whose is floor_reach.c's (floor_int.h); this file only names
 * what an open's path reaches. */
#include "floor_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "../engine/runner.h"

/* ---- writes into /proc/<pid>/ ---- */

/* The pid of "/proc/<pid>/..." in abs, or 0 (not /proc, or self). */
static pid_t proc_pid(const char *abs)
{
	long v = 0;
	const char *p = abs + 6;

	if (strncmp(abs, "/proc/", 6) != 0 || *p < '1' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && v < 1L << 30)
		v = v * 10 + (*p++ - '0');
	return *p == '/' || *p == '\0' ? (pid_t)v : 0;
}

/* What "/proc/<pid>/..." in abs names past the process, or a thread of
 * it (task/<tid>/): "/mem", "/fd/3". */
static const char *in_process(const char *abs)
{
	const char *p = abs + strspn(abs + 6, "0123456789") + 6;

	if (strncmp(p, "/task/", 6) == 0) {
		p += 6;
		p += strspn(p, "0123456789");
	}
	return p;
}

/* Is "/proc/<pid>/..." in abs a way into that process (or a thread's,
 * task/<tid>/...): its memory, a descriptor of its (fd/N: the pipe a
 * command reads its script from), a file it maps (map_files/)? */
static bool inner(const char *abs)
{
	const char *p = in_process(abs);

	if (strncmp(p, "/fd/", 4) == 0)
		return p[4] >= '0' && p[4] <= '9';
	return strcmp(p, "/mem") == 0 || strncmp(p, "/map_files/", 11) == 0;
}

/* Is "/proc/<pid>/..." in abs its memory (or a thread's)? */
static bool mem(const char *abs)
{
	return strncmp(abs, "/proc/", 6) == 0 &&
	       strcmp(in_process(abs), "/mem") == 0;
}

/* What a name not under /proc by its letters opens, through symlinks:
 * resolved by the kernel for us (O_PATH, nothing opened for real), and
 * named by our descriptor's link when that is on /proc. Only where there
 * is something to protect from a writer: as root (CAP_SYS_PTRACE reaches
 * the supervisor), or while a hook runs. */
static pid_t proc_pid_through(const char *abs)
{
	static dev_t proc_dev_; /* every thread stores the same */
	dev_t proc_dev = __atomic_load_n(&proc_dev_, __ATOMIC_RELAXED);
	char link[40], to[PATH_MAX];
	struct stat sb;
	pid_t pid = 0;
	ssize_t n;
	int fd;

	if (!proc_dev) {
		if (stat("/proc/self", &sb) < 0)
			return 0;
		proc_dev = sb.st_dev;
		__atomic_store_n(&proc_dev_, proc_dev, __ATOMIC_RELAXED);
	}
	/* one stat for the common case: not on /proc at all */
	if (abs[0] != '/' || hs_fl_stat(abs, true, &sb) < 0 ||
	    sb.st_dev != proc_dev ||
	    (fd = open(abs, O_PATH | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && sb.st_dev == proc_dev) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, to, sizeof(to) - 1)) > 0) {
			to[n] = '\0';
			pid = proc_pid(to);
		}
	}
	close(fd);
	return pid;
}

/* Is the supervisor root? Asked for every notified open: kept (its
 * credentials do not change). */
static bool root(void)
{
	static int r = -1; /* every thread stores the same answer */
	int v = __atomic_load_n(&r, __ATOMIC_RELAXED);

	if (v < 0)
		__atomic_store_n(&r, v = geteuid() == 0, __ATOMIC_RELAXED);
	return v;
}

int hs_fl_reach_open(pid_t tid, const char *abs, char *why, size_t cap)
{
	pid_t pid = proc_pid(abs), tgid;
	int o;

	if (!pid && strncmp(abs, "/proc/", 6) != 0 && (root() || hs_run_any()))
		pid = proc_pid_through(abs);
	/* a /proc of the caller's own pid namespace names its processes */
	if (!pid || !hs_fl_reach_own_pidns(tid) ||
	    (tgid = hs_fl_tgid(pid)) <= 0)
		return 0;
	/* a process outside the session, its memory written; a way into a
	 * judged command, named by its letters (through a symlink: the
	 * floor's own open of it looks again, floor_procfs.c) */
	if (!(o = hs_fl_reach_ours(tgid))) {
		if (mem(abs) && (o = hs_fl_reach_outside(tid, pid, "open",
							 abs, why, cap)))
			return o;
		return hs_fl_lineage_on() && proc_pid(abs) == pid
			       ? hs_fl_reach_inner(tid, abs, false, why, cap)
			       : 0;
	}
	snprintf(why, cap, "opening %s refused: it is %s (pid %d), "
		 "which the session cannot reach", abs, hs_fl_reach_who(o),
		 (int)tgid);
	return EPERM;
}

int hs_fl_reach_inner(pid_t tid, const char *abs, bool our_name, char *why,
		      size_t cap)
{
	pid_t pid;

	if (!hs_fl_lineage_on() || !(pid = proc_pid(abs)) || !inner(abs))
		return 0;
	return hs_fl_reach_command(tid, pid, "open", abs, our_name, why, cap);
}

/* ---- a pipe's writing end ---- */

/* The access a descriptor's fdinfo text says it has: true when it may
 * write (not O_PATH, not read-only). */
static bool writes(const char *fdinfo)
{
	char buf[512], *f;
	unsigned long flags;

	return hs_fl_read_small(fdinfo, buf, sizeof(buf)) > 0 &&
	       (f = strstr(buf, "flags:")) && sscanf(f + 6, "%lo", &flags) == 1 &&
	       !(flags & O_PATH) && (flags & O_ACCMODE) != O_RDONLY;
}

/* Does thread group tgid hold a descriptor of pipe sb that may write? */
static bool holds_writer(pid_t tgid, const struct stat *sb)
{
	char p[64], q[96];
	struct dirent *e;
	struct stat st;
	bool found = false;
	DIR *d;

	snprintf(p, sizeof(p), "/proc/%d/fd", (int)tgid);
	if (!(d = opendir(p)))
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(q, sizeof(q), "%s/%.20s", p, e->d_name);
		if (stat(q, &st) != 0 || st.st_dev != sb->st_dev ||
		    st.st_ino != sb->st_ino)
			continue;
		snprintf(q, sizeof(q), "/proc/%d/fdinfo/%.20s", (int)tgid,
			 e->d_name);
		found = writes(q);
	}
	closedir(d);
	return found;
}

int hs_fl_reach_pipe(int fd, pid_t tid, pid_t holder, int num, char *why,
		     size_t cap)
{
	struct stat sb, cs;
	struct statfs fs;
	pid_t tgid;
	int copy, fl;
	bool may;

	if (!hs_fl_lineage_on() || fstatfs(fd, &fs) != 0 ||
	    fs.f_type != PIPEFS_MAGIC || fstat(fd, &sb) != 0)
		return 0;
	errno = 0;
	if ((tgid = hs_fl_tgid(tid)) <= 0) {
		if (!hs_fl_scarce(-errno))
			return 0; /* gone: answered for no one */
		snprintf(why, cap, "opening a pipe's descriptor for writing "
			 "refused: the supervisor could not look at its caller "
			 "for want of descriptors or memory (enforce mode)");
		return EPERM;
	}
	/* a command's own (bash's `read -t 1 <> <(:)`) */
	if (hs_fl_reach_command_or_dirty(tgid))
		return 0;
	/* the descriptor itself, not its number (another thread may dup2 a
	 * writing end over it meanwhile): the same pipe, and may it write? */
	copy = hs_fl_thread_fd(holder, num, true);
	may = copy >= 0 && fstat(copy, &cs) == 0 && cs.st_dev == sb.st_dev &&
	      cs.st_ino == sb.st_ino && (fl = fcntl(copy, F_GETFL)) >= 0 &&
	      !(fl & O_PATH) && (fl & O_ACCMODE) != O_RDONLY;
	if (copy >= 0)
		close(copy);
	if (may || holds_writer(tgid, &sb))
		return 0;
	snprintf(why, cap, "opening descriptor %d of pid %d, a pipe whose "
		 "writing end the caller does not hold, for writing refused: "
		 "a read-only open of a judged command's pipe is not seen, "
		 "its reopen for writing would be that pipe's writing end "
		 "(enforce mode)", num, (int)holder);
	return EPERM;
}
