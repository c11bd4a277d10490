/* pidfd_getfd done for the caller, so that the descriptor it takes is
 * from the process that was looked at.
 *
 * The call names its target by a descriptor number, a pidfd. Looked at
 * (its fdinfo's "Pid:") and then continued, the kernel takes the number
 * again: another thread of the caller's -- or a process sharing its
 * table -- can dup2 another pidfd over it in between, one of the
 * supervisor's (a socket's SO_PEERPIDFD hands one to anyone connected to
 * it), and a root caller then takes the floor's listener, and with it
 * every decision; a hook's, or in enforce mode a judged command's. So
 * the supervisor takes the pidfd itself (our copy of the caller's
 * descriptor: the very object, whatever the number names later), looks
 * at the process it is of (floor_reach.c's rules), and takes the
 * descriptor through that copy, handed over with the call's answer
 * (SECCOMP_IOCTL_NOTIF_ADDFD), as pidfd_getfd would: close-on-exec. It
 * is never continued: a way to have the take left to the kernel would be
 * a way back to the race, in guard mode too.
 *
 * The kernel's own check is the caller's ptrace access to the target
 * (PTRACE_MODE_ATTACH_REALCREDS, under the target's exec lock), which a
 * take by us would make with our credentials and, for Yama's relation,
 * as the session's ancestor. So it is made here as the caller's, and
 * again once the descriptor is taken, on the same image (the target may
 * have exec'd a setuid program, or become a command, in between: the
 * take is then undone). A take from its own thread group is the
 * kernel's at once. A caller with CAP_SYS_PTRACE reaches a target in its
 * own user namespace; one without, a target of its own user namespace
 * with no permitted capability the caller lacks, whose real, effective
 * and saved ids are all the caller's real ones and that is dumpable (its
 * /proc files its owner's, not root's), under Yama's ptrace_scope 1 only
 * a descendant of its own (one that named it with PR_SET_PTRACER is
 * refused: not seen from here), under scope 2 none, 3 not even with the
 * capability. Where the check cannot be made as the caller's -- a target
 * in another user namespace than the caller's, a target whose namespace
 * makes the caller's uid its root (its files are then that uid's either
 * way), an LSM label other than ours, a Landlock domain in the session,
 * a caller whose descriptor we cannot copy -- it is refused, EPERM,
 * said: the kernel might have let it through, never more.
 *
 * Made on a thread of its own: the take waits for the target's exec lock,
 * which an exec holds across closing its descriptors (a FUSE flush), and
 * our own closes can wait likewise; the receiver must not. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/wire.h"

#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define CANNOT 1 /* may_take: not to be made as the caller's */

/* The pid our descriptor fd is a pidfd of (its fdinfo's "Pid:": -1 for a
 * process gone, 0 for one outside our pid namespace), or -2 when it is no
 * pidfd. */
static long pidfd_pid(int fd)
{
	char p[48], buf[1024], *q;

	snprintf(p, sizeof(p), "/proc/self/fdinfo/%d", fd);
	if (hs_fl_read_small(p, buf, sizeof(buf)) <= 0 ||
	    !(q = strstr(buf, "\nPid:")))
		return -2;
	return strtol(q + 5, NULL, 10);
}

/* Are threads a and b in the same user namespace? */
static bool same_userns(pid_t a, pid_t b)
{
	char pa[48], pb[48], ta[64], tb[64];
	ssize_t na, nb;

	snprintf(pa, sizeof(pa), "/proc/%d/ns/user", (int)a);
	snprintf(pb, sizeof(pb), "/proc/%d/ns/user", (int)b);
	na = readlink(pa, ta, sizeof(ta));
	nb = readlink(pb, tb, sizeof(tb));
	return na > 0 && na == nb && memcmp(ta, tb, (size_t)na) == 0;
}

/* Has thread tid our LSM label (none that either can read: no LSM)? A
 * label too long for the buffer is taken to differ. */
static bool our_label(pid_t tid)
{
	char p[48], a[4096], b[4096];
	ssize_t na, nb;

	snprintf(p, sizeof(p), "/proc/%d/attr/current", (int)tid);
	na = hs_fl_read_small(p, a, sizeof(a));
	nb = hs_fl_read_small("/proc/self/attr/current", b, sizeof(b));
	if (na <= 0 || nb <= 0)
		return na <= 0 && nb <= 0;
	return na == nb && na < (ssize_t)sizeof(a) - 1 &&
	       memcmp(a, b, (size_t)na) == 0;
}

/* Yama's ptrace_scope, 0 where there is none. */
static int yama(void)
{
	char buf[16];

	return hs_fl_read_small("/proc/sys/kernel/yama/ptrace_scope", buf,
				sizeof(buf)) > 0
		       ? atoi(buf)
		       : 0;
}

/* Is tgid an ancestor of pid? */
static bool ancestor(pid_t tgid, pid_t pid)
{
	struct hs_proc_stat st;

	for (int depth = 0; pid > 1 && depth < 256; depth++) {
		if (hs_proc_stat(pid, &st) != 0)
			return false;
		if ((pid = (pid_t)st.ppid) == tgid)
			return true;
	}
	return false;
}

/* Does pid's user namespace make uid its root (uid_map "0 uid n")? Then
 * a non-dumpable process's files are uid's too. */
static bool root_is(pid_t pid, long uid)
{
	char p[40], buf[4096], *line, *save = NULL;
	long in, out, n;

	/* (a line "inside outside count": its root is outside's first) */
	snprintf(p, sizeof(p), "/proc/%d/uid_map", (int)pid);
	if (hs_fl_read_small(p, buf, sizeof(buf)) <= 0)
		return true; /* unread: the safer side */
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%ld %ld %ld", &in, &out, &n) == 3 && in == 0 &&
		    n > 0 && out == uid)
			return true;
	return false;
}

/* A target gone while it was looked at: ESRCH, as the kernel's; else
 * not to be made as the caller's. */
static int gone_or_cannot(pid_t target)
{
	char p[40];

	snprintf(p, sizeof(p), "/proc/%d", (int)target);
	return access(p, F_OK) != 0 && errno == ENOENT ? -ESRCH : CANNOT;
}

/* The kernel's ptrace check of caller tid (thread group tgid) on target,
 * made as the caller's: 0 allowed (our own take may still fail, where we
 * have less than the caller: its answer then); -EPERM or -ESRCH, the
 * kernel's; CANNOT. Ids in /proc/<pid>/status are all as seen from our
 * namespace, so comparable. */
static int may_take(const struct hs_floor_ctx *x, pid_t tid, pid_t tgid,
		    pid_t target)
{
	char p[40];
	struct stat sb;
	long uid, gid, v, pc, tc = 0;
	int cap, scope;

	if (hs_fl_tgid(target) == tgid)
		return 0; /* its own: the kernel looks no further */
	if (__atomic_load_n(x->sandboxed, __ATOMIC_ACQUIRE) || !our_label(tid))
		return CANNOT;
	if ((scope = yama()) >= 3)
		return -EPERM;
	if ((cap = hs_fl_has_cap(tid, CAP_SYS_PTRACE)) < 0)
		return gone_or_cannot(tid);
	/* its capability is its own namespace's: a target there, or in
	 * one below it, which we do not work out */
	if (cap)
		return same_userns(tid, target) ? 0 : CANNOT;
	if (scope >= 2)
		return -EPERM;
	/* the capabilities' own rule: a target of its own user namespace
	 * (one it owns below it would do too: not worked out here) with no
	 * permitted capability the caller has not */
	if (!same_userns(tid, target))
		return CANNOT;
	if ((pc = hs_fl_status_num(tid, "CapPrm", 0, 16)) < 0 ||
	    (tc = hs_fl_status_num(target, "CapPrm", 0, 16)) < 0)
		return gone_or_cannot(pc < 0 ? tid : target);
	if ((unsigned long)tc & ~(unsigned long)pc)
		return -EPERM;
	/* real ids against the target's real, effective and saved ones */
	uid = hs_fl_status_num(tid, "Uid", 0, 10);
	gid = hs_fl_status_num(tid, "Gid", 0, 10);
	if (uid < 0 || gid < 0)
		return gone_or_cannot(tid);
	for (int i = 0; i < 3; i++) {
		if ((v = hs_fl_status_num(target, "Uid", i, 10)) < 0)
			return gone_or_cannot(target);
		if (v != uid || hs_fl_status_num(target, "Gid", i, 10) != gid)
			return -EPERM;
	}
	/* dumpable: its /proc files are its own, root's otherwise (the
	 * directory is its owner's either way) */
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)target);
	if (lstat(p, &sb) != 0)
		return gone_or_cannot(target);
	if ((long)sb.st_uid != uid)
		return -EPERM;
	if (root_is(target, uid))
		return CANNOT;
	if (scope == 1 && !ancestor(tgid, target))
		return -EPERM;
	return 0;
}

/* One image of a process, seen before and after (an exec places its code,
 * arguments and environment anew; pid reuse changes its start). */
static bool same_image(const struct hs_proc_stat *a,
		       const struct hs_proc_stat *b)
{
	return a->start == b->start && a->start_code == b->start_code &&
	       a->arg_start == b->arg_start && a->env_start == b->env_start;
}

/* The reach rules (floor_reach.c) and the caller's right, for target:
 * 0, HS_FL_REACH (why filled), -errno. */
static long judge(const struct hs_floor_ctx *x, pid_t tid, pid_t tgid,
		  pid_t target, char *why, size_t cap)
{
	int r;

	if (hs_fl_reach_into(tid, target, "pidfd_getfd", why, cap))
		return HS_FL_REACH;
	if ((r = may_take(x, tid, tgid, target)) != CANNOT)
		return r;
	snprintf(why, cap, "pidfd_getfd of pid %d refused: the supervisor "
		 "takes a descriptor only where it can check the caller's "
		 "right to it (a target in another user namespace, another "
		 "LSM label or a Landlock domain in the session), and the "
		 "kernel would take it by a number that may name another "
		 "process by then", (int)target);
	return HS_FL_REACH;
}

long hs_fl_getfd(const struct hs_floor_ctx *x, const struct seccomp_notif *n,
		 char *why, size_t cap)
{
	pid_t tid = (pid_t)n->pid, tgid;
	const __u64 *a = n->data.args;
	struct hs_proc_stat before, after;
	long pid, r;
	int pfd, fd;

	why[0] = '\0';
	if ((unsigned)a[2] != 0)
		return -EINVAL; /* the kernel's first look */
	errno = 0;
	if ((tgid = hs_fl_tgid(tid)) <= 0)
		return hs_fl_scarce(-errno) ? -ENFILE : -ESRCH;
	/* our copy of the pidfd: the object, whatever the number is later
	 * (only while the caller is the one we read: a tid reused) */
	pfd = hs_fl_thread_fd(tid, (int)a[0], true);
	if (pfd < 0 && errno == EBADF)
		return -EBADF;
	if (pfd < 0 && hs_fl_scarce(-errno))
		return -ENFILE;
	if (pfd >= 0 && !hs_fl_valid(x->listener, n->id)) {
		close(pfd);
		return -ESRCH; /* gone: answered for no one */
	}
	if (pfd < 0) {
		snprintf(why, cap, "pidfd_getfd refused: the supervisor could "
			 "not copy the caller's descriptor %d (%s) to look at "
			 "what it names", (int)a[0], strerror(errno));
		return HS_FL_REACH;
	}
	pid = pidfd_pid(pfd);
	r = pid == -2 ? -EBADF : pid == -1 ? -ESRCH : 0;
	if (!r && pid == 0) {
		snprintf(why, cap, "pidfd_getfd refused: its pidfd names a "
			 "process outside the supervisor's pid namespace");
		r = HS_FL_REACH;
	}
	if (!r && hs_proc_stat(pid, &before) != 0)
		r = -ESRCH;
	if (!r)
		r = judge(x, tid, tgid, (pid_t)pid, why, cap);
	if (!r) {
		fd = (int)syscall(SYS_pidfd_getfd, pfd, (int)(unsigned)a[1], 0);
		r = fd >= 0 ? fd : hs_fl_scarce(-errno) ? -ENFILE : -errno;
		/* and again, the same image: an exec since (a setuid
		 * program's, a command's, even one exec'd over again)
		 * undoes the take */
		if (fd >= 0 &&
		    (r = judge(x, tid, tgid, (pid_t)pid, why, cap)) == 0 &&
		    (hs_proc_stat(pid, &after) != 0 ||
		     !same_image(&before, &after)))
			r = -EAGAIN;
		if (fd >= 0 && r == 0)
			r = fd;
		else if (fd >= 0)
			close(fd);
		if (r == -EAGAIN) {
			snprintf(why, cap, "pidfd_getfd of pid %d refused: it "
				 "exec'd while its descriptor was taken",
				 (int)pid);
			r = HS_FL_REACH;
		}
	}
	close(pfd);
	return r;
}
