/* Would an open by the supervisor be the caller's own? The floor opens
 * an allowed file for its caller (floor_open.c) only when the caller's
 * credentials (fs uid and gid, groups, effective capabilities), mount and
 * user namespaces, root and LSM label are the supervisor's: otherwise our
 * access is not its access, and the call goes on to the kernel -- but for
 * credentials alone, which a supervisor that is root takes on for the
 * call, in the thread that makes it (hs_fl_become): a root session's
 * process that drops a capability, adds a group or becomes a user (one
 * line of setpriv or capsh) would otherwise have every call continued,
 * and the kernel read its path again (the swap race). Read from
 * /proc/<tid> (status, ns/, root, attr/current), whose descriptors the
 * receiver keeps per caller thread between calls. The status is read for
 * every open (setuid, capset and umask are no calls the floor sees); the
 * namespaces and root only where a call of the session could change them
 * (floor_allow names mount, chroot or namespaces: else the floor refuses
 * them all, and every caller has ours), the LSM label only where an LSM
 * keeps one: 1 read an open instead of 5.
 *
 * A seccomp filter the caller stacked on ours is no narrower access: the
 * kernel runs every filter and takes the strictest answer, the newest of
 * equals, so a call reaches our listener only when every filter newer
 * than ours let it through (an errno or another listener's notification
 * wins over ours). Comparing filter counts, as this once did, let any
 * process of the session choose to have its calls continued -- and the
 * path read again -- by installing a filter that allows everything. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The namespaces an open depends on: where paths lead, what the
 * capabilities mean, which network a device opened is in (/dev/net/tun
 * takes its opener's). (The cgroup namespace matters to writes to a
 * cgroup's files only: floor_procfs.c compares it for those.) Read
 * as their links' text ("mnt:[4026531841]"): a readlink is half a stat
 * of the namespace file. */
static const char *const namespaces[] = { "mnt", "user", "net" };
#define NNS (sizeof(namespaces) / sizeof(namespaces[0]))
#define NS_LEN 40

struct hs_fl_self {
	char uid[64], gid[64], groups[512], capeff[64];
	char ns[NNS][NS_LEN];
	char lsm[256]; /* attr/current: the AppArmor/SELinux label, or "" */
	/* no call of the session can change its namespaces or root (the
	 * floor refuses them: floor_refuse.c), so every caller has ours:
	 * not read again for each open */
	bool fixed_place;
	/* no LSM keeps a label (attr/current says EINVAL, for every task
	 * alike): none to compare */
	bool no_lsm;
};

/* The supervisor's own credentials, as hs_fl_become_back restores them,
 * and what it may lower them to: fixed for its life (one floor a
 * process). */
static struct {
	bool ok;               /* read, and ours may be set again */
	bool may_uid, may_gid; /* CAP_SETUID, CAP_SETGID effective */
	uint32_t prm[2];       /* permitted: a caller's effective within */
	struct hs_fl_as as;    /* fs ids, groups, effective capabilities */
} ours;

/* The value of "Name:" in a /proc status text (to the line's end). */
static bool status_field(const char *st, const char *name, char *out,
			 size_t cap)
{
	size_t n = strlen(name);
	const char *p = st;

	while ((p = strstr(p, name))) {
		if ((p == st || p[-1] == '\n') && p[n] == ':') {
			const char *v = p + n + 1, *e = strchr(v, '\n');
			size_t len = e ? (size_t)(e - v) : strlen(v);

			if (len >= cap)
				return false;
			memcpy(out, v, len);
			out[len] = '\0';
			return true;
		}
		p += n;
	}
	return false;
}

long hs_fl_status_num(pid_t tid, const char *name, int nth, int base)
{
	char p[48], st[4096], v[512], *e;
	const char *q;
	long n = -1;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)tid);
	if (hs_fl_read_small(p, st, sizeof(st)) <= 0 ||
	    !status_field(st, name, v, sizeof(v)))
		return -1;
	for (q = v; nth-- >= 0; q = e) {
		n = strtol(q, &e, base);
		if (e == q || n < 0)
			return -1;
	}
	return n;
}

int hs_fl_has_cap(pid_t tid, int cap)
{
	long eff = hs_fl_status_num(tid, "CapEff", 0, 16);

	return eff < 0 ? -1 : (int)(((unsigned long)eff >> cap) & 1);
}

static bool ns_of(const char *proc, const char *ns, char out[NS_LEN])
{
	char p[64];
	ssize_t n;

	snprintf(p, sizeof(p), "%s/ns/%s", proc, ns);
	n = readlink(p, out, NS_LEN - 1);
	if (n <= 0)
		return false;
	out[n] = '\0';
	return true;
}

/* Only the fs ids decide access to files: the fourth of each line. */
static bool fs_id(const char *st, const char *name, char *out, size_t cap)
{
	char line[128];
	const char *p;

	if (!status_field(st, name, line, sizeof(line)))
		return false;
	p = strrchr(line, '\t');
	p = p ? p + 1 : line;
	if (strlen(p) >= cap)
		return false;
	memcpy(out, p, strlen(p) + 1);
	return true;
}

/* A status "Groups:" value ("0 4 27 "), a "CapEff:" one (16 hex
 * digits) and a fs id into as; false where one does not parse or the
 * groups are too many. */
static bool parse_groups(const char *v, struct hs_fl_as *as)
{
	char *e;

	as->ngroups = 0;
	while (*v == ' ' || *v == '\t')
		v++;
	while (*v) {
		unsigned long g = strtoul(v, &e, 10);

		if (e == v || as->ngroups == HS_FL_AS_GROUPS)
			return false;
		as->groups[as->ngroups++] = (gid_t)g;
		for (v = e; *v == ' ' || *v == '\t'; v++)
			;
	}
	return true;
}

static bool parse_caps(const char *v, uint32_t out[2])
{
	char *e;
	unsigned long long c = strtoull(v, &e, 16);

	if (e == v || *e)
		return false;
	out[0] = (uint32_t)c;
	out[1] = (uint32_t)(c >> 32);
	return true;
}

static bool parse_id(const char *v, unsigned *out)
{
	char *e;
	unsigned long n = strtoul(v, &e, 10);

	if (e == v || *e || n > 0xfffffffeUL)
		return false;
	*out = (unsigned)n;
	return true;
}

static int cap_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(SYS_capget, &h, d);
}

/* The calling thread's effective capabilities set to eff (within its
 * permitted ones, which stay). */
static int cap_eff(const uint32_t eff[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (cap_get(d) != 0)
		return -1;
	d[0].effective = eff[0];
	d[1].effective = eff[1];
	return (int)syscall(SYS_capset, &h, d);
}

static bool has_cap(const uint32_t c[2], int n)
{
	return c[n / 32] & (1u << (n % 32));
}

/* Our credentials, read once (raw syscalls, the thread's own: the same
 * in every thread until one becomes a caller). */
static bool ours_read(const struct hs_fl_self *s)
{
	struct __user_cap_data_struct d[2];
	unsigned id;

	if (cap_get(d) != 0 || !parse_id(s->uid, &id))
		return false;
	ours.as.fsuid = id;
	if (!parse_id(s->gid, &id) || !parse_groups(s->groups, &ours.as))
		return false;
	ours.as.fsgid = id;
	for (int i = 0; i < 2; i++) {
		ours.as.capeff[i] = d[i].effective;
		ours.prm[i] = d[i].permitted;
	}
	ours.may_uid = has_cap(ours.as.capeff, CAP_SETUID);
	ours.may_gid = has_cap(ours.as.capeff, CAP_SETGID);
	/* what becoming asks of the kernel, tried once with our own
	 * values (a change to nothing): setgroups is refused in a user
	 * namespace whose setgroups is "deny", capset by an LSM */
	if (ours.may_gid && syscall(SYS_setgroups, (size_t)ours.as.ngroups,
				    ours.as.groups) != 0)
		ours.may_gid = false;
	return cap_eff(ours.as.capeff) == 0;
}

struct hs_fl_self *hs_fl_self_new(unsigned long filter_flags,
				  const char *userns, bool fixed_place)
{
	struct hs_fl_self *s;
	char st[4096];

	/* Without killable waits a signal interrupts the caller after we
	 * opened (created, truncated) and it runs the call again: an O_EXCL
	 * create would then fail on our file. */
	if (!(filter_flags & SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s || hs_fl_read_small("/proc/self/status", st, sizeof(st)) <= 0 ||
	    !fs_id(st, "Uid", s->uid, sizeof(s->uid)) ||
	    !fs_id(st, "Gid", s->gid, sizeof(s->gid)) ||
	    !status_field(st, "Groups", s->groups, sizeof(s->groups)) ||
	    !status_field(st, "CapEff", s->capeff, sizeof(s->capeff)))
		goto fail;
	for (size_t i = 0; i < NNS; i++)
		if (!ns_of("/proc/self", namespaces[i], s->ns[i]))
			goto fail;
	/* the agent's own user namespace (floor_userns.c): its processes'
	 * access to files is ours (the same uid, no capability), and ours
	 * the capabilities there, which no file check of ours consults */
	if (userns && userns[0]) {
		for (size_t i = 0; i < NNS; i++)
			if (strcmp(namespaces[i], "user") == 0 &&
			    strlen(userns) < NS_LEN)
				memcpy(s->ns[i], userns, strlen(userns) + 1);
	}
	/* no LSM: the read fails, for callers too, and "" stands for it */
	if (hs_fl_read_small("/proc/self/attr/current", s->lsm, sizeof(s->lsm)) < 0) {
		s->no_lsm = errno == EINVAL;
		s->lsm[0] = '\0';
	}
	s->fixed_place = fixed_place;
	ours.ok = ours_read(s); /* or becomes no one */
	return s;
fail:
	free(s);
	return NULL;
}

bool hs_fl_self_fixed_place(const struct hs_fl_self *s)
{
	return s->fixed_place;
}

void hs_fl_self_free(struct hs_fl_self *s)
{
	free(s);
}

/* A caller's /proc entries, open. A descriptor of /proc/<tid>/... stays
 * bound to that task (reads fail with ESRCH once it is gone; a reused tid
 * is another task), so the receiver keeps them per caller thread: that
 * saves the path walks, not the checks, which read them again each open.
 * The directory itself too: what is opened through it later (its cwd,
 * fd/N: floor_start.c) is that task's, with no look at whether its number
 * went to another since (hs_fl_kept_proc). */
#define NCACHE 16
struct proc_fds {
	pid_t tid; /* 0: free */
	int dir, status, ns[NNS], root, lsm;
};

static __thread struct proc_fds cache[NCACHE];
static __thread unsigned cache_next;
/* The kept entry this thread's last hs_fl_same_identity read and found
 * ours, for the call it was made for (hs_fl_kept_proc): an entry found
 * in the cache but not read this call may be a task gone since, whose
 * tid the caller has now. */
static __thread pid_t checked_tid;
static __thread int checked_dir = -1;

static void proc_fds_close(struct proc_fds *p)
{
	if (!p->tid)
		return;
	close(p->dir);
	close(p->status);
	for (size_t i = 0; i < NNS; i++)
		if (p->ns[i] >= 0)
			close(p->ns[i]);
	if (p->root >= 0)
		close(p->root);
	if (p->lsm >= 0)
		close(p->lsm);
	p->tid = 0;
}

/* openat, and any error of our own descriptors or memory kept in *err */
static int open_noting(int dir, const char *path, int flags, int *err)
{
	int fd = openat(dir, path, flags);

	if (fd < 0 && hs_fl_scarce(-errno))
		*err = -errno;
	return fd;
}

/* 0, p open; -errno where /proc/<tid> cannot be opened, or an entry not
 * for want of our own descriptors or memory (hs_fl_scarce), p closed. */
static int proc_fds_open(const struct hs_fl_self *s, pid_t tid,
			 struct proc_fds *p)
{
	char path[64];
	int fd, err = 0;

	p->status = p->root = p->lsm = -1;
	for (size_t i = 0; i < NNS; i++)
		p->ns[i] = -1;
	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p->status = open_noting(fd, "status", O_RDONLY | O_CLOEXEC, &err);
	for (size_t i = 0; i < NNS && !s->fixed_place; i++) {
		snprintf(path, sizeof(path), "ns/%s", namespaces[i]);
		p->ns[i] = open_noting(fd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC,
				       &err);
	}
	if (!s->fixed_place)
		p->root = open_noting(fd, "root", O_PATH | O_NOFOLLOW | O_CLOEXEC,
				      &err);
	if (!s->no_lsm)
		p->lsm = open_noting(fd, "attr/current", O_RDONLY | O_CLOEXEC,
				     &err);
	p->dir = fd;
	p->tid = tid;
	if (err)
		proc_fds_close(p);
	return err; /* another failed one fails its read: checked there */
}

static bool link_is(int fd, const char *want)
{
	char v[NS_LEN];
	ssize_t n = fd < 0 ? -1 : readlinkat(fd, "", v, sizeof(v) - 1);

	if (n <= 0)
		return false;
	v[n] = '\0';
	return strcmp(v, want) == 0;
}

static bool same_groups(const struct hs_fl_as *a, const struct hs_fl_as *b)
{
	return a->ngroups == b->ngroups &&
	       !memcmp(a->groups, b->groups, (size_t)a->ngroups * sizeof(gid_t));
}

/* A caller's credentials (its status text st) that differ from ours:
 * into as, where we may take them on -- our fs uid, unless we have
 * CAP_SETUID; fs gid and groups, unless CAP_SETGID; effective
 * capabilities within our permitted ones. */
static bool may_become(const char *st, struct hs_fl_as *as)
{
	char v[512];
	unsigned id;

	if (!fs_id(st, "Uid", v, sizeof(v)) || !parse_id(v, &id))
		return false;
	as->fsuid = id;
	if (!fs_id(st, "Gid", v, sizeof(v)) || !parse_id(v, &id))
		return false;
	as->fsgid = id;
	if (!status_field(st, "Groups", v, sizeof(v)) || !parse_groups(v, as) ||
	    !status_field(st, "CapEff", v, sizeof(v)) ||
	    !parse_caps(v, as->capeff))
		return false;
	return ours.ok && (as->fsuid == ours.as.fsuid || ours.may_uid) &&
	       ((as->fsgid == ours.as.fsgid && same_groups(as, &ours.as)) ||
		ours.may_gid) &&
	       !(as->capeff[0] & ~ours.prm[0]) && !(as->capeff[1] & ~ours.prm[1]);
}

/* Would an open by us be the caller's own, read from p -- as it is, or
 * once we took on its credentials (as->on)? Its umask into *umask_out.
 * -1: p could not be read (the task is gone). */
static int identity_of(const struct hs_fl_self *s, const struct proc_fds *p,
		       mode_t *umask_out, struct hs_fl_as *as)
{
	char st[4096], v[512];
	ssize_t n = p->status < 0 ? -1 : pread(p->status, st, sizeof(st) - 1, 0);

	as->on = false;
	if (n <= 0)
		return -1;
	st[n] = '\0';
	if (!fs_id(st, "Uid", v, sizeof(v)) || strcmp(v, s->uid) != 0 ||
	    !fs_id(st, "Gid", v, sizeof(v)) || strcmp(v, s->gid) != 0 ||
	    !status_field(st, "Groups", v, sizeof(v)) ||
	    strcmp(v, s->groups) != 0 ||
	    !status_field(st, "CapEff", v, sizeof(v)) ||
	    strcmp(v, s->capeff) != 0) {
		if (!may_become(st, as))
			return 0;
		as->on = true;
	}
	if (!status_field(st, "Umask", v, sizeof(v)))
		return 0;
	*umask_out = (mode_t)strtol(v, NULL, 8) & 0777;
	for (size_t i = 0; i < NNS && !s->fixed_place; i++)
		if (!link_is(p->ns[i], s->ns[i]))
			return 0;
	/* another AppArmor profile or SELinux domain may be refused what
	 * we are allowed */
	n = p->lsm < 0 ? -1 : pread(p->lsm, v, sizeof(v) - 1, 0);
	if (n >= 0)
		v[n] = '\0';
	if (!s->no_lsm && strcmp(n >= 0 ? v : "", s->lsm) != 0)
		return 0;
	return s->fixed_place || link_is(p->root, "/");
}

int hs_fl_same_identity(const struct hs_fl_self *s, pid_t tid, bool keep,
			int listener, uint64_t id, mode_t *umask_out,
			struct hs_fl_as *as)
{
	struct proc_fds one, *p = NULL;
	int r;

	as->on = false;
	checked_tid = 0;
	checked_dir = -1;
	if (keep) {
		for (unsigned i = 0; i < NCACHE && !p; i++)
			if (cache[i].tid == tid)
				p = &cache[i];
		if (p && (r = identity_of(s, p, umask_out, as)) >= 0) {
			if (r > 0) {
				checked_tid = tid;
				checked_dir = p->dir;
			} else {
				as->on = false;
			}
			return r > 0;
		}
		if (p)
			proc_fds_close(p); /* another task by now */
		p = &cache[cache_next++ % NCACHE];
		proc_fds_close(p);
	} else {
		p = &one;
	}
	if ((r = proc_fds_open(s, tid, p)) < 0)
		return (int)hs_fl_ours_or(r, 0);
	r = identity_of(s, p, umask_out, as);
	if (!keep || r < 0)
		proc_fds_close(p);
	/* Opened by its number just now: tid may have been another task's
	 * by then, the caller gone -- but not while the call is pending.
	 * (Kept ones need no such look: a read through them fails once
	 * their task is gone, and no other task has its tid before that.) */
	if (r > 0 && !hs_fl_valid(listener, id))
		r = 0;
	if (r > 0 && keep) {
		checked_tid = tid;
		checked_dir = p->dir;
	}
	if (r <= 0)
		as->on = false;
	return r > 0;
}

/* ---- a caller's credentials, taken on by the thread that calls for it ---- */

/* The credentials this thread holds when they are a caller's. */
static __thread const struct hs_fl_as *held;

/* The calling thread's groups and fs ids from `from`'s to `to`'s, each
 * only where they differ (what is not changed asks for no right).
 * setfsuid and setfsgid say the old id whatever happened: asked again
 * with -1, which changes nothing, they say the one now. */
static bool set_ids(const struct hs_fl_as *from, const struct hs_fl_as *to)
{
	if (!same_groups(from, to) &&
	    syscall(SYS_setgroups, (size_t)to->ngroups, to->groups) != 0)
		return false;
	if (from->fsgid != to->fsgid) {
		(void)syscall(SYS_setfsgid, to->fsgid);
		if ((gid_t)syscall(SYS_setfsgid, -1) != to->fsgid)
			return false;
	}
	if (from->fsuid != to->fsuid) {
		(void)syscall(SYS_setfsuid, to->fsuid);
		if ((uid_t)syscall(SYS_setfsuid, -1) != to->fsuid)
			return false;
	}
	return true;
}

static void back_or_end(const struct hs_fl_as *as)
{
	/* ours again: the capabilities that let us set the ids, the ids
	 * (a fs uid back to 0 raises file capabilities), the capabilities
	 * exactly. What was not changed is set to what it is: no harm. */
	if (cap_eff(ours.as.capeff) == 0 && set_ids(as, &ours.as) &&
	    cap_eff(ours.as.capeff) == 0) {
		held = NULL;
		return;
	}
	fprintf(stderr, "hookshim: floor: a thread could not take back the "
			"supervisor's credentials after a call made as its "
			"caller: %s\n", strerror(errno));
	abort();
}

bool hs_fl_become(const struct hs_fl_as *as)
{
	if (!as->on)
		return true;
	/* ids first, while we still hold CAP_SETUID and CAP_SETGID; then
	 * exactly the caller's effective set (a fs uid leaving 0 dropped
	 * the file capabilities from ours; the caller may keep them) */
	if (!set_ids(&ours.as, as)) {
		back_or_end(as);
		return false;
	}
	if (cap_eff(as->capeff) != 0) {
		back_or_end(as);
		return false;
	}
	held = as;
	return true;
}

void hs_fl_become_back(const struct hs_fl_as *as)
{
	if (as->on && held == as)
		back_or_end(as);
}

int hs_fl_open_ours(int dir, const char *path, int flags)
{
	const struct hs_fl_as *as = held;
	int fd, e;

	if (!as)
		return openat(dir, path, flags);
	back_or_end(as);
	fd = openat(dir, path, flags);
	e = errno;
	/* what succeeded a moment ago: a thread that cannot be the caller
	 * again must not go on as the supervisor either */
	if (!hs_fl_become(as)) {
		fprintf(stderr, "hookshim: floor: a thread could not take on "
				"its caller's credentials again\n");
		abort();
	}
	errno = e;
	return fd;
}

/* ---- another process's /proc links ---- */

/* The kernel lets a process through /proc/PID/{cwd,root,fd/N} of another
 * only where it may ptrace it (PTRACE_MODE_READ_FSCREDS). The caller
 * here is known to have our identity (hs_fl_same_identity) but for its
 * user namespace, which may be the agent's (floor_userns.c). Asked so
 * that the floor's own open answers as the kernel would, rather than
 * letting the kernel read the path again (the swap race). */

/* Is namespace `ns` (an open descriptor) a descendant of the one whose
 * inode is `anc`, through a child of it that `euid` owns? The kernel's
 * rule for holding every capability in it (cap_capable). */
static bool owned_below(int ns, ino_t anc, uid_t euid)
{
	int cur = dup(ns);

	for (int depth = 0; cur >= 0 && depth < 40; depth++) {
		int parent = ioctl(cur, NS_GET_PARENT);
		struct stat sb;
		uid_t owner;

		if (parent < 0)
			break; /* the top, or above us */
		if (fstat(parent, &sb) == 0 && sb.st_ino == anc) {
			bool ok = ioctl(cur, NS_GET_OWNER_UID, &owner) == 0 &&
				  owner == euid;

			close(parent);
			close(cur);
			return ok;
		}
		close(cur);
		cur = parent;
	}
	if (cur >= 0)
		close(cur);
	return false;
}

int hs_fl_may_trace(pid_t tid, pid_t pid, const char *what, size_t len)
{
	char p[96];
	struct stat a, b, own;
	int fa, fb;
	bool ok;

	/* as root: CAP_SYS_PTRACE reaches every one -- the caller's too
	 * when it has our identity; one whose credentials the thread holds
	 * (hs_fl_become) is checked by the kernel at the open that
	 * follows, made with them */
	if (geteuid() == 0)
		return 0;
	snprintf(p, sizeof(p), "/proc/%d/ns/user", (int)tid);
	fa = open(p, O_RDONLY | O_CLOEXEC);
	snprintf(p, sizeof(p), "/proc/%d/ns/user", (int)pid);
	fb = open(p, O_RDONLY | O_CLOEXEC);
	ok = fa >= 0 && fb >= 0 && fstat(fa, &a) == 0 && fstat(fb, &b) == 0;
	if (ok && a.st_ino != b.st_ino) /* another namespace: only below */
		ok = owned_below(fb, a.st_ino, geteuid());
	else if (ok) {
		/* the same: the same owner, and dumpable (a non-dumpable
		 * task's /proc entries are root's) */
		snprintf(p, sizeof(p), "/proc/%d/%.*s", (int)pid, (int)len,
			 what);
		ok = lstat(p, &own) == 0 && own.st_uid == geteuid();
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return ok ? 0 : -EACCES;
}

int hs_fl_kept_proc(pid_t tid)
{
	return tid && tid == checked_tid ? checked_dir : -1;
}

void hs_fl_open_forget(void)
{
	checked_tid = 0;
	checked_dir = -1;
	for (unsigned i = 0; i < NCACHE; i++)
		proc_fds_close(&cache[i]);
}
