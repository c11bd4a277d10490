/* A notified exec: decided here only where no shim will decide it (or
 * may: a target we cannot read, mode 0111, is judged as a static one).
 *
 * The shim decides execs in two places (docs/design-exec.md): in the
 * parent's exec wrapper, and in the new image's constructor when the
 * parent bypassed libc. The floor adds the one case neither covers: an
 * exec whose new image has no shim -- a static target, or a dynamic one
 * whose environment lost LD_PRELOAD -- by a caller without the shim (a
 * static program, or a dynamic one started without it). Concretely:
 *   - a dynamic target (PT_INTERP) with the shim in its LD_PRELOAD:
 *     its constructor decides; let it run;
 *   - otherwise, a caller with the shim mapped decided already (the
 *     shim's own execs carry the cookie and never get here; posix_spawn's
 *     child, inside libc, does);
 *   - both only for a shim of this session: one whose HOOKSHIM_FLAGS hold
 *     this floor's cookie. A shim that does not know it belongs to a
 *     session started from a scrubbed environment (`env -i hookshim run`
 *     from a static program): it decides with a policy that is not ours,
 *     so the floor decides as if there were no shim (docs/nested.md). A
 *     nested session that joined ours keeps the cookie and asks us;
 *   - otherwise the floor decides, with the shim's scope rules: an
 *     agent-role caller running a shell with a command string (or, with
 *     tool_calls "every-exec", anything) makes a tool call; a tool-role
 *     caller's execs are nested events, when nested execs are enabled;
 *     a handoff-role caller's are tool calls (docs/agents.md).
 * The caller's role is HOOKSHIM_ROLE in its initial environment.
 *
 * And the shim's question (common/wire.h, HS_FLOOR_ASK): a shim that the
 * agent's sandbox hides from the supervisor's socket asks here about an
 * exec it would have asked the supervisor about (its own, or, in its
 * constructor, the one that started it). Judged as a caller without the
 * shim would be -- the scope rules, the same request, so hooks see the
 * same command -- with the role the shim tells in the question's envp
 * (its own, which a constructor that judged itself may have changed),
 * and answered by floor.c without running it; the shim then makes its
 * exec with the cookie, decided once. */
#include "floor_int.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/proclink.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "../engine/command.h"
#include "../engine/dispatch.h"

/* 1: a dynamic ELF (has PT_INTERP); 0: static, or not ELF; -errno: its
 * open failed. A "#!" script counts as its interpreter, and one we
 * cannot open (named relative to the caller's directory, not ours) as
 * static: judged. */
static int dynamic_elf(const char *path, int depth)
{
	unsigned char h[256];
	/* O_NONBLOCK: a fifo (or a #! naming one) held a receiver until a
	 * writer came, the session wedged */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r = 0;
	struct stat sb;
	ssize_t n;

	if (fd < 0)
		return depth ? 0 : errno ? -errno : -EIO;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd); /* nothing the kernel runs: judged as static */
		return 0;
	}
	n = pread(fd, h, sizeof(h) - 1, 0);
	if (n >= 2 && h[0] == '#' && h[1] == '!' && depth < 4) {
		char *p = (char *)h + 2, *e;

		close(fd);
		h[n] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strcspn(p, " \t\n");
		*e = '\0';
		return dynamic_elf(p, depth + 1);
	}
	if (n >= (ssize_t)sizeof(Elf64_Ehdr) && memcmp(h, ELFMAG, SELFMAG) == 0 &&
	    h[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;

		memcpy(&eh, h, sizeof(eh));
		for (unsigned i = 0; i < eh.e_phnum && i < 256; i++) {
			Elf64_Phdr ph;

			if (pread(fd, &ph, sizeof(ph),
				  (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
			    (ssize_t)sizeof(ph))
				break;
			if (ph.p_type == PT_INTERP) {
				r = 1;
				break;
			}
		}
	}
	close(fd);
	return r;
}

/* Is the shim in envp's LD_PRELOAD, with this floor's cookie in its
 * HOOKSHIM_FLAGS? */
static bool env_has_shim(pid_t tid, uint64_t envp, uint64_t cookie)
{
	size_t n;
	uint64_t *p = hs_fl_read_ptrs(tid, envp, &n);
	bool shim = false, ours = false;

	for (size_t i = 0; p && i < n; i++) {
		char s[4096];

		if (hs_fl_read_str(tid, p[i], s, sizeof(s)) < 0)
			continue;
		if (strncmp(s, "LD_PRELOAD=", 11) == 0)
			shim = strstr(s, "libhookshim.so") != NULL;
		else if (strncmp(s, HS_ENV_FLAGS "=", sizeof(HS_ENV_FLAGS)) == 0)
			ours = hs_fl_flags_have_cookie(s + sizeof(HS_ENV_FLAGS),
						 cookie);
	}
	free(p);
	return shim && ours;
}

/* The role a question tells (HOOKSHIM_ROLE in its envp): "tool",
 * "handoff" or "agent", the first entry only, into role. */
static void asked_role(pid_t tid, uint64_t envp, char *role, size_t cap)
{
	uint64_t first;
	char s[32];

	role[0] = '\0';
	if (hs_fl_read(tid, envp, &first, sizeof(first)) == 0 && first &&
	    hs_fl_read_str(tid, first, s, sizeof(s)) == 0 &&
	    strncmp(s, HS_ENV_ROLE "=", sizeof(HS_ENV_ROLE)) == 0)
		snprintf(role, cap, "%.15s", s + sizeof(HS_ENV_ROLE));
}

/* The name the kernel will resolve for tid's exec of `path` (relative to
 * dirfd), into out (PATH_MAX), as our walk can follow it: through the
 * caller's own /proc links (its working directory, its descriptors), so
 * that a file with no name (a memfd, a deleted file: execveat with
 * AT_EMPTY_PATH, fexecve) and ".." after a symlink are what the kernel
 * finds, not what a folded name says. False when it does not fit. */
static bool kernel_path(pid_t tid, int dirfd, const char *path, char *out)
{
	struct hs_proclink l;
	char p[PATH_MAX];
	int n;

	if (path[0] == '/') {
		/* a link of the caller's own (/proc/self/fd/N, /dev/fd/N,
		 * "//" or "." inside it too) is the caller's, not ours */
		snprintf(p, sizeof(p), "%s", path);
		hs_path_fold_dots(p);
		if (hs_proclink(p, &l) && l.self)
			n = snprintf(out, PATH_MAX, "/proc/%d/%.*s%s", (int)tid,
				     (int)l.what_len, l.what, p + l.end);
		else
			n = snprintf(out, PATH_MAX, "%s", path);
	} else if (dirfd == AT_FDCWD)
		n = snprintf(out, PATH_MAX, "/proc/%d/cwd/%s", (int)tid, path);
	else
		n = snprintf(out, PATH_MAX, "/proc/%d/fd/%d/%s", (int)tid, dirfd,
			     path);
	return n > 0 && n < PATH_MAX;
}

/* An exec the kernel fails for want of its file: nothing to judge. */
static bool not_found(int e)
{
	return e == ENOENT || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG;
}

/* c failed with e: what was passed could not be read or named here,
 * and the kernel reading it again could find other bytes (another
 * thread's, a page mapped meanwhile). A caller whose memory we may not
 * read at all (read_errno EPERM/EACCES, when hookshim is not root: a
 * non-dumpable process, one Yama keeps from a non-ancestor) is left to
 * the kernel, as its writes are: docs/limits.md, "The floor". */
static enum hs_fl_verdict fail(const struct hs_floor_ctx *x,
			       struct hs_fl_call *c, int e, int read_errno)
{
	if (!hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	/* a shim's question goes on to the kernel's EINVAL, as always */
	if (c->asked || read_errno == EPERM || read_errno == EACCES)
		return HS_FL_CONTINUE;
	c->fail = e;
	return HS_FL_FAIL;
}

/* Does caller tid see the file system we do -- its mount namespace and
 * root ours? Without a look where nothing in the session may change
 * either (no mount, chroot or namespaces allowed: floor_refuse.c). */
static bool same_place(const struct hs_floor_ctx *x, pid_t tid)
{
	char p[40], r[8];

	if (x->self && hs_fl_self_fixed_place(x->self))
		return true;
	if (hs_fl_ns_same(tid, "mnt") != 1)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/root", (int)tid);
	return readlink(p, r, sizeof(r)) == 1 && r[0] == '/';
}

/* Is our look at what c execs the caller's own, credentials and all --
 * its identity, its namespaces and root (hs_fl_same_identity), none of
 * its to take on? Then a directory we may not search it may not. */
static bool look_is_callers(const struct hs_floor_ctx *x,
			    const struct hs_fl_call *c)
{
	struct hs_fl_as as;
	mode_t um;

	return x->self &&
	       hs_fl_same_identity(x->self, (pid_t)c->n.pid, false,
				   x->listener, c->n.id, &um, &as) > 0 &&
	       !as.on;
}

/* The kernel's answer to an exec whose name we could not make whole
 * (hs_fl_abs failed): kpath, the kernel's view, looked at; 0 where there
 * is something there to run. */
static int unnamed_errno(pid_t tid, int dirfd, const char *path,
			 const char *kpath)
{
	char p[64];
	struct stat sb;

	if (!path[0])
		return ENOENT;
	if (path[0] != '/' && dirfd != AT_FDCWD) {
		if (dirfd < 0)
			return EBADF;
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", (int)tid, dirfd);
		if (stat(p, &sb) != 0)
			return errno == ENOENT ? EBADF : 0;
		if (!S_ISDIR(sb.st_mode))
			return ENOTDIR;
	}
	return stat(kpath, &sb) == 0 ? 0 : errno;
}

/* Are we root and the caller not (its /proc directory's owner: its
 * effective uid, where it is dumpable)? Then our walk searched
 * directories the caller's may not. */
static bool root_for_user(pid_t tid)
{
	char p[32];
	struct stat sb;

	if (geteuid() != 0)
		return false;
	snprintf(p, sizeof(p), "/proc/%d", (int)tid);
	return stat(p, &sb) == 0 && sb.st_uid != 0;
}

/* A name our walk did not find (*e), walked again with the caller's
 * credentials: a directory on the way it may not search fails its own
 * exec EACCES, not ENOENT (a PATH through root's 0700 home, in a user's
 * execvp, which reports EACCES when no entry ran). 0 with *e the
 * caller's answer; -1 where that cannot be told (judged). */
static int searched_as_caller(const struct hs_floor_ctx *x,
			      const struct hs_fl_call *c, const char *res,
			      int *e)
{
	struct hs_fl_as as;
	struct stat sb;
	mode_t um;
	int r;

	if (!x->self ||
	    hs_fl_same_identity(x->self, (pid_t)c->n.pid, false, x->listener,
				c->n.id, &um, &as) <= 0)
		return -1;
	if (!as.on)
		return 0; /* its credentials are ours */
	if (!hs_fl_become(&as))
		return -1;
	r = stat(res, &sb) == 0 ? 0 : errno;
	hs_fl_become_back(&as);
	if (r == 0 || (r != ENOENT && r != ENOTDIR && r != ELOOP &&
		       r != EACCES))
		return -1;
	*e = r;
	return 0;
}

/* Is path, exec'd by tid from dirfd, there as the caller's own walk
 * would find it? Our first look went through the caller's /proc links
 * (kernel_path), but a symlink on the way into /proc/self or /dev/fd is,
 * in our walk, ours (`ln -s /proc/self/fd/200 run`), and the
 * /proc/<tid>/cwd hop counts towards ELOOP: named again as the caller's
 * (hs_fl_abs following, magic links by hand) and looked at there. 0: not
 * there, *e its errno; 1: there (flipped into place since our look, or
 * ours was not the caller's); -1: that cannot be told. */
static int missing_as_caller(const struct hs_floor_ctx *x,
			     const struct hs_fl_call *c, int dirfd,
			     const char *path, int *e)
{
	pid_t tid = (pid_t)c->n.pid;
	char res[PATH_MAX];
	struct stat sb;

	if (hs_fl_abs(tid, dirfd, path, HS_FL_FOLLOW, res) < 0 || res[0] != '/')
		return -1;
	if (stat(res, &sb) == 0)
		return 1;
	*e = errno;
	if (*e != ENOENT && *e != ENOTDIR && *e != ELOOP)
		return -1;
	return root_for_user(tid) ? searched_as_caller(x, c, res, e) : 0;
}

/* An exec our look finds nothing to run for (e: ENOENT and the like, a
 * descriptor that is not there, a directory we may not search): the
 * kernel fails it too, and where our look is the caller's that answer
 * is given here, not left to the kernel's walk of the same name -- a
 * name another thread makes meanwhile (a symlink flipped into place, a
 * descriptor opened at that number) would run unjudged, a hand-off's
 * `sh -c 'rm ...'` too (tests/security/exec_flip.sh). The caller's
 * descriptors are its own whoever looks; a name not found is not found
 * by whoever sees the same file system (as we do, with more rights, or
 * the same) and walks it as the caller (missing_as_caller); a directory
 * not searched, only by the caller's own credentials (a PATH through
 * root's directories in a user's session: the hook was asked once a
 * miss). by_fd: the exec named a descriptor alone (fexecve), which is
 * not there: EBADF. Otherwise a name not found goes on to the kernel,
 * which may see another file system, and anything else is judged:
 * HS_FL_DECIDE means go on judging. */
static enum hs_fl_verdict nothing_to_run(const struct hs_floor_ctx *x,
					 struct hs_fl_call *c, int e,
					 int dirfd, const char *path,
					 bool by_fd)
{
	pid_t tid = (pid_t)c->n.pid;
	bool ours = false;

	if (c->asked)
		;
	else if (e == EBADF || (by_fd && e == ENOENT))
		ours = true, e = EBADF;
	else if (not_found(e) && e != ENAMETOOLONG && same_place(x, tid)) {
		int m = missing_as_caller(x, c, dirfd, path, &e);

		/* there now, or not to be told (a descriptor closed and
		 * opened again between the looks): judged */
		if (m != 0)
			return HS_FL_DECIDE;
		ours = true;
	} else if (e == EACCES)
		ours = look_is_callers(x, c);
	if (ours) {
		if (!hs_fl_valid(x->listener, c->n.id))
			return HS_FL_GONE;
		c->fail = e;
		return HS_FL_ANSWER;
	}
	return not_found(e) || e == EBADF ? HS_FL_CONTINUE : HS_FL_DECIDE;
}

/* When the session started (hs_fl_exec_start): what it wrote is newer. */
static struct timespec session_start;

void hs_fl_exec_start(void)
{
	clock_gettime(CLOCK_REALTIME, &session_start);
}

/* A program's name without a version (python3.12, python3: python). */
static size_t family(const char *name)
{
	size_t n = strlen(name);

	while (n > 1 && ((name[n - 1] >= '0' && name[n - 1] <= '9') ||
			 name[n - 1] == '.'))
		n--;
	return n;
}

/* Is st's change time the session's (since hs_fl_exec_start)? */
static bool changed_since(const struct stat *st)
{
	return st->st_ctim.tv_sec > session_start.tv_sec ||
	       (st->st_ctim.tv_sec == session_start.tv_sec &&
		st->st_ctim.tv_nsec >= session_start.tv_nsec);
}

/* Is the program tid's exec of path (from dirfd) runs one the tool
 * call's text cannot have shown -- outside the system's directories (by
 * the directory the kernel reaches: `l/../../usr/bin` after a symlink is
 * not /usr/bin), by a system program's name, and the session's: written
 * (or its mode or name changed) since it started, or a symlink made
 * since to a program of another name (`ln -s /bin/bash bin/ls`; a
 * virtualenv's python3 to python3.12 is one name)? A PATH of the
 * agent's finding its own `ls`, where the hook judged `ls`: what it runs
 * is then judged as a hand-off's. A program the text named by its place
 * (`./bin/ls`) is taken so too: more judging, never less. */
static bool shadows_system(pid_t tid, int dirfd, const char *path)
{
	char kpath[PATH_MAX], dir[PATH_MAX], real[PATH_MAX], sys[PATH_MAX];
	const char *name, *target, *sysdir;
	struct stat ls, st;
	char *slash;
	bool named = false;

	if (!kernel_path(tid, dirfd, path, kpath) ||
	    !(slash = strrchr(kpath, '/')) || !slash[1])
		return false;
	name = slash + 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - kpath),
		 kpath == slash ? "/" : kpath);
	if (!realpath(kpath == slash ? "/" : dir, real) ||
	    snprintf(sys, sizeof(sys), "%s/%s", real, name) >= (int)sizeof(sys) ||
	    hs_system_path(sys))
		return false;
	for (size_t i = 0; !named && (sysdir = hs_system_dir(i)); i++)
		named = snprintf(sys, sizeof(sys), "%s%s", sysdir, name) <
				(int)sizeof(sys) &&
			access(sys, X_OK) == 0;
	if (!named || lstat(kpath, &ls) != 0 || stat(kpath, &st) != 0)
		return false;
	if (changed_since(&st))
		return true;
	if (!S_ISLNK(ls.st_mode) || !changed_since(&ls) ||
	    !realpath(kpath, real))
		return false;
	target = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	return family(target) != family(name) ||
	       strncmp(target, name, family(name)) != 0;
}

/* Enforce mode without a hook on execs: no tool call is judged, but the
 * role the shim gives a tool call's shell still decides its reads, its
 * writes (writes.agent_only, beyond the scope) and its connections: an
 * agent-role caller's shell with a command string (every exec, with
 * tool_calls "every-exec") makes its next image a command's as a judged
 * one would (floor_lineage.c). Nothing is refused here. */
static void grant_unjudged(const struct hs_floor_ctx *x,
			   struct hs_fl_call *c, pid_t tid)
{
	const __u64 *a = c->n.data.args;
	bool at = c->n.data.nr == SYS_execveat;
	char path[PATH_MAX], role[16];

	if ((c->tgid = hs_fl_tgid(tid)) <= 0 ||
	    (hs_fl_role(c->tgid, role, sizeof(role)) &&
	     strcmp(role, "tool") == 0))
		return; /* gone, or a command's already */
	if (hs_fl_read_str(tid, at ? a[1] : a[0], path, sizeof(path)) < 0 ||
	    hs_fl_abs(tid, at ? (int)a[0] : AT_FDCWD, path, false, c->exe) <
		    0 ||
	    !hs_fl_exec_argv(c) || !c->argv[0])
		return;
	if (x->cfg->settings.all_execs || hs_command_shell_index(c->argv) >= 0)
		(void)hs_fl_lineage_granted(c->tgid, c->exe, c->argv, false,
					    x->listener, c->n.id);
}

/* Is caller tid's program one that runs what its settings name, git or
 * ssh (/proc/TID/exe, as the kernel resolved it)? */
static bool git_caller(pid_t tid)
{
	char p[48], exe[PATH_MAX];
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/%d/exe", (int)tid);
	if ((n = readlink(p, exe, sizeof(exe) - 1)) <= 0)
		return false;
	exe[n] = '\0';
	return hs_settings_runner(exe);
}

static enum hs_fl_verdict classify_exec(const struct hs_floor_ctx *x,
					struct hs_fl_call *c)
{
	const struct hs_settings *set = &x->cfg->settings;
	pid_t tid = (pid_t)c->n.pid;
	const __u64 *a = c->n.data.args;
	bool at = c->n.data.nr == SYS_execveat;
	uint64_t envp_p = at ? a[3] : a[2];
	int dirfd = at ? (int)a[0] : AT_FDCWD;
	char path[PATH_MAX], kpath[PATH_MAX], role[16];
	bool tool, handoff, git, by_fd;
	int dyn, r, kind = -1;

	/* hookshim run's own exec of the agent, from its fork child,
	 * judged before the fork when it is a tool call: the agent's first
	 * exec, whatever it is. Before anything is read: a child entering a
	 * user namespace is not dumpable until that exec, unreadable, and
	 * the exec left to the kernel there must not leave the pass to the
	 * agent's next one (a static agent's `bash -c`, unjudged) */
	if (x->enforce && tid == x->agent &&
	    !__atomic_exchange_n(x->agent_started, 1, __ATOMIC_ACQ_REL))
		return HS_FL_CONTINUE;
	/* enforce mode: a command's image the floor granted is confirmed
	 * before it execs another (floor_lineage.c) */
	if (x->enforce)
		kind = hs_fl_lineage_exec(hs_fl_tgid(tid));
	/* notified for floor_pending.c alone (a policy on writes only); a
	 * question then goes on to the kernel's EINVAL: not judged */
	if (!x->exec_hooks) {
		if (x->enforce)
			grant_unjudged(x, c, tid);
		return HS_FL_CONTINUE;
	}
	c->asked = at && a[5] == HS_FLOOR_ASK(x->cookie) &&
		   (int)a[4] == HS_FLOOR_ASK_FLAGS;
	errno = 0;
	if ((r = hs_fl_read_str(tid, at ? a[1] : a[0], path, sizeof(path))) < 0)
		return fail(x, c, -r, errno);
	if ((by_fd = at && !path[0] && ((int)a[4] & AT_EMPTY_PATH)))
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tid, dirfd);
	if ((r = hs_fl_abs(tid, dirfd, path, false, c->exe)) < 0) {
		/* a name too long for us to hold (a relative one under a
		 * deep directory) the kernel may still run */
		if (!c->asked && r == HS_PATH_TOOLONG)
			return fail(x, c, ENAMETOOLONG, 0);
		/* empty, a bad descriptor: the kernel fails it (or, not
		 * ours to say, is left to); something there all the same --
		 * a name we cannot make, a descriptor opened at the number
		 * since, a directory only the caller may search -- judged by
		 * the name as written, as a question's */
		if (!c->asked) {
			int e = kernel_path(tid, dirfd, path, kpath)
					? unnamed_errno(tid, dirfd, path, kpath)
					: 0;
			enum hs_fl_verdict v =
				e ? nothing_to_run(x, c, e, dirfd, path, by_fd)
				  : HS_FL_DECIDE;

			if (v != HS_FL_DECIDE)
				return v;
		}
		/* the shim found it: named as the shim names it */
		snprintf(c->exe, sizeof(c->exe), "%s", path);
	}
	if (!c->asked) {
		struct stat sb;

		/* enforce mode: no shim decides for the floor (a call the
		 * shim asked about is matched to its answer, tickets.h), so
		 * what the target is does not matter, only that the kernel
		 * finds it; guard mode reads it. Both look where the kernel
		 * will (c->exe is the name shown) */
		if (!kernel_path(tid, dirfd, path, kpath))
			dyn = 0;
		else if (x->enforce)
			dyn = stat(kpath, &sb) == 0 ? 0 : -errno;
		else if ((dyn = dynamic_elf(kpath, 0)) == -EACCES)
			/* a file we may not read, or a directory we may
			 * not search: only the second fails the exec */
			dyn = stat(kpath, &sb) == 0 ? -EPERM : -EACCES;
		if (dyn < 0) {
			enum hs_fl_verdict v = nothing_to_run(
				x, c, -dyn, dirfd, path, by_fd);

			if (v != HS_FL_DECIDE)
				return v;
		}
		/* anything else we cannot read the kernel may run (an
		 * exec-only file, mode 0111; a directory only the caller
		 * may search): judged as a static target, with no shim to
		 * decide. A dynamic one does load the shim, which judges
		 * it again: twice, never unjudged */
		if (dyn < 0)
			dyn = 0;
		if (dyn && env_has_shim(tid, envp_p, x->cookie))
			return hs_fl_valid(x->listener, c->n.id)
				       ? HS_FL_CONTINUE
				       : HS_FL_GONE;
	}
	c->tgid = hs_fl_tgid(tid);
	if (c->tgid < 0 || !hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	if (c->asked)
		asked_role(tid, envp_p, role, sizeof(role));
	else if (!x->enforce && hs_fl_has_shim(tid, c->tgid, x->cookie))
		return HS_FL_CONTINUE;
	else if (!hs_fl_role_known(c->tgid, kind, role, sizeof(role)))
		role[0] = '\0';
	/* enforce mode: a command's only where we saw it become one
	 * (floor_lineage.c; hs_fl_role checks its own reading); else the
	 * agent, whose shells are tool calls */
	if (c->asked && hs_fl_lineage_on()) {
		char claim[sizeof(role)];

		memcpy(claim, role, sizeof(claim));
		if (kind < 0)
			kind = hs_fl_lineage_kind(c->tgid);
		snprintf(role, sizeof(role), "%s",
			 hs_fl_lineage_role(kind, claim));
	}
	/* ... and a command's whatever it claims where its programs are
	 * judged (nested execs): one that dropped its role from its
	 * environment (`env -i`, a raw execve with an empty envp, no shim
	 * to put it back) is not the agent, whose programs are no events.
	 * Looked up only then (where the exec's look above has not):
	 * every agent's exec would pay for it */
	if (x->enforce && strcmp(role, "tool") != 0 &&
	    strcmp(role, "handoff") != 0 &&
	    (set->nested_exec ||
	     (hs_config_interest(x->cfg) & HS_INTEREST_EXEC_NESTED))) {
		if (kind < 0)
			kind = hs_fl_lineage_kind(c->tgid);
		if (kind > 0)
			snprintf(role, sizeof(role), "%s",
				 kind == 2 ? "handoff" : "tool");
	}
	tool = strcmp(role, "tool") == 0;
	handoff = c->beneath = c->in_handoff = strcmp(role, "handoff") == 0;
	/* git runs what its settings and hooks name (core.fsmonitor, a
	 * hook, an alias's !cmd), from files the session may have written:
	 * a program it starts that is not git's own is a tool call of its
	 * own, a command's git's as beneath a hand-off (the shim's rule,
	 * shim/exec_decide.c; here whether git's shim is there or not). By
	 * the program that runs, as the kernel names it */
	git = !handoff && git_caller(tid) && !hs_git_own(c->exe);
	if (tool && git)
		tool = false, handoff = c->beneath = true;
	/* git's command that is a script runs what its settings name from
	 * a shell of its own: every program it starts judged */
	if (git && x->enforce && hs_git_path(c->exe))
		hs_fl_lineage_handoff(c->tgid);
	/* enforce mode: a command's program that takes a system program's
	 * name, of the session's writing: its code unseen, every program
	 * it starts judged (floor_lineage.c, as a hand-off's) */
	if (tool && x->enforce && !c->asked &&
	    shadows_system(tid, dirfd, path))
		hs_fl_lineage_handoff(c->tgid);
	if (tool) {
		if (!set->nested_exec &&
		    !(hs_config_interest(x->cfg) & HS_INTEREST_EXEC_NESTED))
			return HS_FL_CONTINUE;
		c->nested = 1;
	} else {
		c->nested = 0;
	}
	errno = 0;
	if (!hs_fl_exec_argv(c)) {
		r = errno;
		return fail(x, c, r == E2BIG ? E2BIG : EFAULT, r);
	}
	if (!hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	if (!c->argv[0])
		return HS_FL_CONTINUE;
	/* beneath a hand-off every program is a tool call, but env, nohup,
	 * … and a shell fed on stdin only pass the role on (the shim's
	 * rule, shim/exec_decide.c; a shim in the new image takes it up) */
	if (handoff && hs_system_path(c->exe) &&
	    (hs_chain_name(c->exe) ||
	     (hs_shell_name(c->exe) && hs_shell_reads_stdin(c->argv))))
		return HS_FL_CONTINUE;
	if (!c->nested && !handoff && !set->all_execs && !git &&
	    hs_command_shell_index(c->argv) < 0)
		return HS_FL_CONTINUE; /* the agent running a program: no event */
	if (hs_fl_cwd(tid, c->cwd) < 0)
		c->cwd[0] = '\0';
	c->nev = 1;
	c->ev[0].op = "exec";
	c->ev[0].operation = NULL;
	snprintf(c->ev[0].path, sizeof(c->ev[0].path), "%s", c->exe);
	c->ev[0].has_new = false;
	return hs_fl_valid(x->listener, c->n.id) ? HS_FL_DECIDE : HS_FL_GONE;
}

bool hs_fl_spawned_tool_call(const struct hs_floor_ctx *x,
			     const struct hs_fl_call *c)
{
	char p[64], line[1024], *s;
	struct stat me, parent;
	long ppid = 0, threads = 0;

	if (!c->argv || c->nested || c->beneath || c->asked ||
	    c->tgid <= 0 || c->tgid == x->agent)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)c->tgid);
	if (hs_fl_read_small(p, line, sizeof(line)) <= 0)
		return false;
	/* after the name's last ")": state ppid ...; threads is field 20 */
	if (!(s = strrchr(line, ')')) ||
	    sscanf(s + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u "
			  "%*u %*d %*d %*d %*d %ld", &ppid, &threads) != 2 ||
	    threads != 1 || ppid <= 1)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/exe", (int)c->tgid);
	if (stat(p, &me) != 0)
		return false;
	snprintf(p, sizeof(p), "/proc/%ld/exe", ppid);
	/* Not its command line too: Codex starts each command through a
	 * helper, itself again (/proc/self/exe with arguments of its own),
	 * which execs the shell in place -- the very process whose output
	 * the agent reads */
	return stat(p, &parent) == 0 && me.st_dev == parent.st_dev &&
	       me.st_ino == parent.st_ino;
}

enum hs_fl_verdict hs_fl_exec(const struct hs_floor_ctx *x,
			      struct hs_fl_call *c)
{
	if (hs_fl_take_question(x, &c->n))
		return hs_fl_pending_take(x, c);
	return hs_fl_pending_exec(x, c, classify_exec(x, c));
}
