/* Calls the floor refuses (docs/floor.md, "Refused calls"): those that
 * change what a path means (mount, chroot, a new mount, user or cgroup
 * namespace)
 * or reach files and the kernel below every path check (open_by_handle_at,
 * bpf, modules, a block device or /proc/sys opened for writing), and
 * userfaultfd, which could hold the floor's own reading of a caller's
 * memory; and the files the kernel itself writes by a name (acct, swapon,
 * a core file: "kernel_files"). A name-based policy cannot judge any of
 * them, so each is refused with EPERM and a reason naming the
 * "floor_allow" group that lets it through. The table here is also what
 * floor_bpf.c notifies. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "floor.h"

#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#define SYS_fsopen 430
#define SYS_fsconfig 431
#define SYS_fsmount 432
#define SYS_fspick 433
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

#define G(id) HS_FA_BIT_##id

static const char *const why[HS_FA_COUNT] = {
	[G(MOUNT)] = "changes what paths mean inside the session",
	[G(CHROOT)] = "changes what paths mean for the caller",
	[G(NAMESPACES)] = "a mount, user, cgroup or PID namespace of its "
			  "own, where paths and parents can be given other "
			  "meanings",
	[G(OPEN_BY_HANDLE)] = "opens a file by its handle, below every "
			      "path check",
	[G(BPF)] = "loads programs into the kernel, below every check",
	[G(MODULES)] = "changes the running kernel",
	[G(USERFAULTFD)] = "could hold the floor's reading of a caller's "
			   "memory, and with it every call of the session",
	[G(BLOCK_DEVICES)] = "a block device, below every file's path check",
	[G(PROC_SYS)] = "changes the kernel's own settings",
	[G(LANDLOCK)] = "a Landlock domain the supervisor cannot see: every "
			"call of the session would go back to the kernel, "
			"which reads its path again",
	[G(KERNEL_FILES)] = "has the kernel write the file it names, below "
			    "every path check",
	[G(PROCESS_IMAGE)] = "moves what the kernel shows of a process's "
			     "image (its arguments, environment, executable) "
			     "or where the next one goes, or takes orphans: "
			     "what says what, and whose, a process is",
	[G(FANOTIFY)] = "hands over the files it watches opened as it asks, "
			"for writing too, with no open of them judged",
	[G(CGROUPS)] = "a cgroup's file: it moves processes (the supervisor "
		       "and its hooks too) and freezes, kills or limits "
		       "them, or names a program the kernel runs outside "
		       "the session (release_agent)",
};

/* In the order floor_bpf.c tests them: ioctl first, a frequent call that
 * its argument test keeps out of the kernel's seccomp cache (a few
 * instructions, not the whole list: 273-287 ns against 248-251 ns an
 * ioctl with it last). */
const struct hs_fl_rcall hs_fl_rcalls[] = {
	/* /dev/userfaultfd's USERFAULTFD_IOC_NEW: the same descriptor */
	{ SYS_ioctl, G(USERFAULTFD), HS_RC_IOCTL_UFFD, "ioctl" },
	{ SYS_clone, G(NAMESPACES), HS_RC_NS_ARG0, "clone" },
	{ SYS_mount, G(MOUNT), HS_RC_ALWAYS, "mount" },
	{ SYS_umount2, G(MOUNT), HS_RC_ALWAYS, "umount2" },
	{ SYS_pivot_root, G(MOUNT), HS_RC_ALWAYS, "pivot_root" },
	{ SYS_open_tree, G(MOUNT), HS_RC_ALWAYS, "open_tree" },
	{ SYS_move_mount, G(MOUNT), HS_RC_ALWAYS, "move_mount" },
	{ SYS_fsopen, G(MOUNT), HS_RC_ALWAYS, "fsopen" },
	{ SYS_fsconfig, G(MOUNT), HS_RC_ALWAYS, "fsconfig" },
	{ SYS_fsmount, G(MOUNT), HS_RC_ALWAYS, "fsmount" },
	{ SYS_fspick, G(MOUNT), HS_RC_ALWAYS, "fspick" },
	{ SYS_mount_setattr, G(MOUNT), HS_RC_ALWAYS, "mount_setattr" },
	{ SYS_chroot, G(CHROOT), HS_RC_ALWAYS, "chroot" },
	{ SYS_unshare, G(NAMESPACES), HS_RC_NS_ARG0, "unshare" },
	{ SYS_setns, G(NAMESPACES), HS_RC_SETNS, "setns" },
	/* its flags are in a struct BPF cannot read: ENOSYS, and glibc,
	 * Rust and systemd fall back to clone, whose flags it reads */
	{ SYS_clone3, G(NAMESPACES), HS_RC_ENOSYS, "clone3" },
	{ SYS_open_by_handle_at, G(OPEN_BY_HANDLE), HS_RC_ALWAYS,
	  "open_by_handle_at" },
	{ SYS_bpf, G(BPF), HS_RC_ALWAYS, "bpf" },
	{ SYS_init_module, G(MODULES), HS_RC_ALWAYS, "init_module" },
	{ SYS_finit_module, G(MODULES), HS_RC_ALWAYS, "finit_module" },
	{ SYS_delete_module, G(MODULES), HS_RC_ALWAYS, "delete_module" },
	{ SYS_kexec_load, G(MODULES), HS_RC_ALWAYS, "kexec_load" },
	{ SYS_kexec_file_load, G(MODULES), HS_RC_ALWAYS, "kexec_file_load" },
	{ SYS_userfaultfd, G(USERFAULTFD), HS_RC_ALWAYS, "userfaultfd" },
	{ SYS_landlock_restrict_self, G(LANDLOCK), HS_RC_ALWAYS,
	  "landlock_restrict_self" },
	/* root's: process accounting appends to the file named (a hook's
	 * script, secrets/...), a swap file is written over */
	{ SYS_acct, G(KERNEL_FILES), HS_RC_ALWAYS, "acct" },
	{ SYS_swapon, G(KERNEL_FILES), HS_RC_ALWAYS, "swapon" },
	/* what /proc/PID/stat, cmdline, environ and exe show of a
	 * process's image, its own (PR_SET_MM_MAP: no privilege; floor_lineage.c
	 * tells an image by them): CRIU's; and PR_SET_CHILD_SUBREAPER, which
	 * would give it the orphans below it that are the supervisor's
	 * (floor_orphans.c): a container's init's */
	{ SYS_prctl, G(PROCESS_IMAGE), HS_RC_PRCTL_MM, "prctl" },
	/* and an exec's places the same each time (setarch -R, gdb's
	 * default for the program it runs): two images then look alike */
	{ SYS_personality, G(PROCESS_IMAGE), HS_RC_NORANDOM, "personality" },
	/* root's: an event's descriptor is the watched file opened with the
	 * flags given here (O_RDWR): a protected file, or a hook's script,
	 * written after a read */
	{ SYS_fanotify_init, G(FANOTIFY), HS_RC_ALWAYS, "fanotify_init" },
};
const size_t hs_fl_nrcalls = sizeof(hs_fl_rcalls) / sizeof(hs_fl_rcalls[0]);

/* A refusal's reason into out: lead, what is wrong with the call, and
 * the "floor_allow" group that lets it through. */
static void reason(char *out, size_t cap, const char *lead, const char *what,
		   int group)
{
	/* a sandbox's first refused call: say what it will need next */
	snprintf(out, cap,
		 "%s%s (allow with \"hookshim\": {\"floor_allow\": [\"%s\"]}%s)",
		 lead, what, hs_floor_allow_name(group),
		 group == G(NAMESPACES) ? "; a sandbox such as bubblewrap "
					  "needs \"mount\" too"
					: "");
}

static void say(struct hs_fl_refusal *r, int group, const char *call,
		const char *path)
{
	r->group = group;
	snprintf(r->call, sizeof(r->call), "%s", call);
	snprintf(r->path, sizeof(r->path), "%s", path ? path : "");
	reason(r->reason, sizeof(r->reason), "", why[group], group);
}

/* Is the caller in a mount namespace other than ours (a sandbox's own,
 * whose mounts change nothing the session's other processes see)? */
static bool other_mount_ns(pid_t tid)
{
	return hs_fl_ns_same(tid, "mnt") == 0;
}

bool hs_fl_refused(const struct hs_floor_ctx *x, const struct seccomp_notif *n,
		   struct hs_fl_refusal *r)
{
	for (size_t i = 0; i < hs_fl_nrcalls; i++) {
		const struct hs_fl_rcall *rc = &hs_fl_rcalls[i];

		if (rc->nr != n->data.nr || rc->test == HS_RC_ENOSYS ||
		    (x->allow & (1u << rc->group)))
			continue;
		/* guard mode's default: a sandbox mounting in its own
		 * namespace (hs_settings_floor_defaults) */
		if (rc->group == G(MOUNT) && x->sandbox_mounts &&
		    other_mount_ns((pid_t)n->pid))
			return false;
		/* the kernel notified it for the test floor_bpf.c made:
		 * the numbers it sends for nothing else */
		say(r, rc->group,
		    rc->test == HS_RC_IOCTL_UFFD ? "ioctl USERFAULTFD_IOC_NEW"
						   : rc->call,
		    NULL);
		return true;
	}
	return false;
}

/* A descriptor's magic link as the caller passed it (/proc/self/fd/N,
 * /proc/thread-self/fd/N, /proc/PID/fd/N, /dev/fd/N) into the same link
 * seen from here, /proc/<pid>/fd/N: it leads to the open file even when
 * its name is gone (a device node made, opened O_PATH and unlinked). */
static bool fd_link(pid_t tid, const char *p, char *out, size_t cap)
{
	const char *n = NULL;
	long pid = tid;
	char *end;

	if (strncmp(p, "/dev/fd/", 8) == 0)
		n = p + 8;
	else if (strncmp(p, "/proc/self/fd/", 14) == 0)
		n = p + 14;
	else if (strncmp(p, "/proc/thread-self/fd/", 21) == 0)
		n = p + 21;
	else if (strncmp(p, "/proc/", 6) == 0 && p[6] >= '0' && p[6] <= '9' &&
		 (pid = strtol(p + 6, &end, 10)) > 0 &&
		 strncmp(end, "/fd/", 4) == 0)
		n = end + 4;
	if (!n || *n < '0' || *n > '9' || strspn(n, "0123456789") != strlen(n))
		return false;
	snprintf(out, cap, "/proc/%ld/fd/%s", pid, n);
	return true;
}

/* Is rdev the misc character device `name` (its minor is dynamic on
 * some kernels: /sys/dev/char says which)? */
static bool misc_named(dev_t rdev, const char *name)
{
	char p[64], to[PATH_MAX];
	ssize_t n;
	const char *base;

	if (major(rdev) != 10)
		return false;
	snprintf(p, sizeof(p), "/sys/dev/char/10:%u", minor(rdev));
	if ((n = readlink(p, to, sizeof(to) - 1)) <= 0)
		return false;
	to[n] = '\0';
	base = strrchr(to, '/');
	return strcmp(base ? base + 1 : to, name) == 0;
}

bool hs_fl_kernel_setting(const char *real)
{
	return strncmp(real, "/proc/sys/", 10) == 0 ||
	       strcmp(real, "/proc/sysrq-trigger") == 0;
}

bool hs_fl_refused_open(const struct hs_floor_ctx *x, pid_t tid,
			const char *path, const char *abs, bool nofollow,
			struct hs_fl_refusal *r)
{
	unsigned allow = x->allow;
	struct stat sb;
	struct statfs fs;
	char real[PATH_MAX], link[64];
	const char *look = abs;

	if ((allow & HS_FA(BLOCK_DEVICES)) && (allow & HS_FA(PROC_SYS)) &&
	    (allow & HS_FA(USERFAULTFD)) && (allow & HS_FA(CGROUPS)))
		return false;
	if (fd_link(tid, path, link, sizeof(link)))
		look = link; /* the open file itself, named or not */
	if (!look[0] || hs_fl_stat(look, !nofollow, &sb) < 0)
		return false; /* not there: nothing of the kernel's */
	if (S_ISBLK(sb.st_mode) && !(allow & HS_FA(BLOCK_DEVICES))) {
		say(r, G(BLOCK_DEVICES), "open", abs[0] ? abs : path);
		return true;
	}
	if (S_ISCHR(sb.st_mode) && !(allow & HS_FA(USERFAULTFD)) &&
	    misc_named(sb.st_rdev, "userfaultfd")) {
		say(r, G(USERFAULTFD), "open", abs[0] ? abs : path);
		return true;
	}
	abs = look;
	/* procfs, sysfs and cgroup file systems have anonymous devices
	 * (major 0): a disk's file costs no statfs */
	if (((allow & HS_FA(PROC_SYS)) && (allow & HS_FA(CGROUPS))) ||
	    !S_ISREG(sb.st_mode) || major(sb.st_dev) != 0 ||
	    statfs(abs, &fs) < 0)
		return false;
	/* a cgroup's, v1 or v2: a process written to cgroup.procs is moved
	 * (the supervisor, then frozen), release_agent runs as root outside
	 * the session when a cgroup empties */
	if (fs.f_type == CGROUP_SUPER_MAGIC ||
	    fs.f_type == CGROUP2_SUPER_MAGIC) {
		if (allow & HS_FA(CGROUPS))
			return false;
		say(r, G(CGROUPS), "open", abs);
		return true;
	}
	if (allow & HS_FA(PROC_SYS))
		return false;
	if (fs.f_type == SYSFS_MAGIC) {
		say(r, G(PROC_SYS), "open", abs);
		return true;
	}
	/* procfs: its sys/ tree and sysrq-trigger are the kernel's (a
	 * thread's comm, oom_score_adj or uid_map are the process's own) */
	if (fs.f_type == PROC_SUPER_MAGIC && realpath(abs, real) &&
	    hs_fl_kernel_setting(real)) {
		say(r, G(PROC_SYS), "open", real);
		return true;
	}
	return false;
}

enum hs_fl_verdict hs_fl_refuse(const struct hs_floor_ctx *x,
				struct hs_fl_call *c)
{
	pid_t tid = (pid_t)c->n.pid;

	c->nev = 0;
	c->post.want = false;
	c->open.on = false;
	c->refused = true;
	c->tgid = hs_fl_tgid(tid);
	if (c->tgid < 0 || !hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	if (hs_fl_cwd(tid, c->cwd) < 0)
		c->cwd[0] = '\0';
	return HS_FL_DECIDE;
}

/* ---- core files ----
 * A crash writes "core" (core_pattern) in the crashing process's
 * directory, the kernel's open below every path check: `cd secrets;
 * ulimit -c unlimited` and a SIGSEGV made secrets/core of the process's
 * memory, which it chose (and a '|' handler may write one there itself,
 * abrt's and old apport's). Unless "kernel_files" is allowed
 * (hs_floor_plan's no_core) the agent starts with RLIMIT_CORE 0, soft and
 * hard, which only CAP_SYS_RESOURCE raises again. A new RLIMIT_CORE other
 * than none at all is refused here with the reason (the kernel's own
 * EPERM says nothing of why); none at all is the kernel's to set, or ours
 * for a caller that could raise it (a value we read and then let the
 * kernel read again could have become another). */
long hs_fl_core_limit(const struct hs_floor_ctx *x,
		      const struct seccomp_notif *n, char *why, size_t cap)
{
	const __u64 *a = n->data.args;
	pid_t tid = (pid_t)n->pid, target = 0;
	struct {
		uint64_t cur, max;
	} want;
	uint64_t at, old = 0;
	bool readable, may_raise;
	long r;

	if (!x->no_core)
		return HS_FL_KERNEL;
	if (n->data.nr == SYS_setrlimit && (unsigned)a[0] == RLIMIT_CORE) {
		at = a[1];
	} else if (n->data.nr == SYS_prlimit64 &&
		   (unsigned)a[1] == RLIMIT_CORE && a[2]) {
		at = a[2], old = a[3], target = (pid_t)a[0];
	} else {
		return HS_FL_KERNEL; /* a look, or another limit */
	}
	/* another process: the supervisor's and its hooks' are out of
	 * reach first (floor_reach.c) */
	if (target && (r = hs_fl_reach(n, why, cap)) != 0)
		return r;
	readable = hs_fl_read(tid, at, &want, sizeof(want)) == 0;
	/* (unknown: taken to be able to) */
	may_raise = hs_fl_has_cap(tid, CAP_SYS_RESOURCE) != 0;
	/* what was read by its number is the caller's while it waits */
	if (!hs_fl_valid(x->listener, n->id))
		return HS_FL_KERNEL; /* (gone: continued, nothing) */
	/* A value we cannot read: from a caller that could raise the
	 * limit, refused as a raise (a memfd_secret page, which the
	 * kernel's own copy reads); from any other, the kernel's (a
	 * process we may not read -- ssh-agent, not dumpable, setting none
	 * -- goes on; a raise the kernel refuses itself) */
	if (!readable) {
		if (!may_raise)
			return HS_FL_KERNEL;
		want.cur = want.max = RLIM_INFINITY;
	}
	if (want.cur == 0 && want.max == 0) {
		static const struct rlimit none = { 0, 0 };
		struct rlimit was;

		if (!may_raise)
			return HS_FL_KERNEL; /* raised by a flip: refused */
		pid_t whose = target ? target : tid, grp;
		int e = 0;

		/* another process's: ours to set only where it is the
		 * caller's own thread group (we would set it with our rights,
		 * not the caller's); a number of another pid namespace is
		 * none of ours */
		if (target && hs_fl_ns_same(tid, "pid") != 1)
			goto refused;
		if (target && (grp = hs_fl_tgid(target)) != hs_fl_tgid(tid)) {
			if (grp <= 0)
				return -ESRCH; /* no such process */
			goto refused;
		}
		/* the old limit asked for, copied out to the caller (a
		 * pointer it may not write: EFAULT, the new limit set all
		 * the same, as the kernel's copy after it; one we may not
		 * write to: refused, as before we could) */
		if (old) {
			if (syscall(SYS_prlimit64, whose, RLIMIT_CORE, NULL,
				    &was) != 0)
				return -errno;
			if (hs_fl_write(tid, x->listener, n->id, old, &was,
					sizeof(was)) != 0) {
				if (errno == ESRCH)
					return HS_FL_KERNEL; /* gone */
				if (errno != EFAULT)
					goto refused;
				e = -EFAULT;
			}
		}
		if (syscall(SYS_prlimit64, whose, RLIMIT_CORE, &none, NULL) != 0)
			return -errno;
		return e;
	}
refused:
	reason(why, cap,
	       n->data.nr == SYS_setrlimit ? "setrlimit of RLIMIT_CORE denied: "
					   : "prlimit64 of RLIMIT_CORE denied: ",
	       "a core file is one the kernel writes in the crashing "
	       "process's directory, below every path check",
	       G(KERNEL_FILES));
	return EPERM;
}
