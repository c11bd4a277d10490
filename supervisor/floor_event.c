/* One notified write, read out of the stopped caller and classified the
 * way the shim classifies the same libc call (shim/write_event.c): which
 * path, which operation, and whether a pre hook may care. The rules are
 * the shim's so that a static program and a dynamic one writing the same
 * file fire the same event:
 *   - an open fires only when it will write a regular file: "create"
 *     (O_CREAT, the file absent), "overwrite" (O_TRUNC), "append",
 *     "modify"; O_EXCL on an existing file, fifos, devices, O_TMPFILE
 *     and O_PATH fire nothing;
 *   - a new file whose name looks like a temp file (engine/temp_name.h)
 *     fires nothing unless writes.judge_temp_files names its place; its
 *     publishing rename does, as a create/overwrite of the target;
 *   - a rename of a watched file is a "rename" (new_path the target),
 *     plus the target's own create/overwrite when a pre hook watches it.
 * Everything is looked at, never touched: lstat/stat, readlink. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../common/temp_name.h"

#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif
#ifndef __O_SYNC
#define __O_SYNC 04000000
#endif

bool hs_fl_valid(int listener, uint64_t id)
{
	__u64 v = id;

	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &v) == 0;
}

/* What a syscall does, whatever its number. */
enum kind { K_OPEN, K_TRUNC, K_RENAME, K_LINK, K_SYMLINK, K_UNLINK,
	    K_MKDIR, K_MKNOD, K_NONE };

struct call {
	enum kind kind;
	int dirfd, dirfd2;
	uint64_t p1, p2; /* path addresses in the caller */
	uint64_t flags;
	unsigned mode;
	struct open_how how; /* an open's, as the kernel takes it */
	bool how_whole;      /* all of it read (openat2 of today's size) */
	char path[PATH_MAX + 1], path2[PATH_MAX]; /* as passed (the kernel's
						   * limit: PATH_MAX with the NUL) */
};

/* What open/openat/creat hand on to the kernel's openat2 code
 * (build_open_how in fs/open.c): unknown flags dropped, O_PATH taking
 * only its own, a mode only for creating opens. */
#define LEGACY_OPEN_FLAGS                                                    \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |     \
	 O_NONBLOCK | __O_SYNC | O_DSYNC | FASYNC | O_DIRECT | O_LARGEFILE | \
	 O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC | O_PATH |         \
	 HS_O_TMPFILE_BIT)

static void legacy_how(struct open_how *how, unsigned flags, unsigned mode)
{
	how->flags = (flags & LEGACY_OPEN_FLAGS) | O_LARGEFILE;
	how->mode = mode & 07777;
	if (how->flags & O_PATH)
		how->flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	if (!(how->flags & (O_CREAT | HS_O_TMPFILE_BIT)))
		how->mode = 0;
}

#define A(i) (c->n.data.args[i])
#define FD(i) ((int)A(i))

static enum kind decode(struct hs_fl_call *c, struct call *k, pid_t tid,
			int lfd)
{
	k->dirfd = k->dirfd2 = AT_FDCWD;
	k->p1 = k->p2 = 0;
	k->how_whole = true;
	k->flags = 0;
	k->mode = 0;
	memset(&k->how, 0, sizeof(k->how));
	switch (c->n.data.nr) {
	case SYS_open:
		k->p1 = A(0);
		legacy_how(&k->how, (unsigned)A(1), (unsigned)A(2));
		break;
	case SYS_openat:
		k->dirfd = FD(0); k->p1 = A(1);
		legacy_how(&k->how, (unsigned)A(2), (unsigned)A(3));
		break;
	case SYS_creat:
		k->p1 = A(0);
		legacy_how(&k->how, O_WRONLY | O_CREAT | O_TRUNC, (unsigned)A(1));
		break;
	case SYS_openat2:
		/* the flags live in the caller's struct: read them (all of a
		 * struct of today's size, to open with it), then check the
		 * caller is still the one we read */
		if (A(3) < sizeof(k->how.flags) ||
		    hs_fl_read(tid, A(2), &k->how,
			       A(3) == sizeof(k->how) ? sizeof(k->how)
						      : sizeof(k->how.flags)) < 0 ||
		    !hs_fl_valid(lfd, c->n.id))
			return K_NONE;
		k->dirfd = FD(0); k->p1 = A(1);
		k->how_whole = A(3) == sizeof(k->how);
		break;
	}
	if (k->p1) {
		k->flags = k->how.flags;
		return K_OPEN;
	}
	switch (c->n.data.nr) {
	case SYS_truncate: k->p1 = A(0); return K_TRUNC;
	case SYS_rename: k->p1 = A(0); k->p2 = A(1); return K_RENAME;
	case SYS_renameat:
	case SYS_renameat2:
		k->dirfd = FD(0); k->p1 = A(1); k->dirfd2 = FD(2); k->p2 = A(3);
		return K_RENAME;
	case SYS_link: k->p1 = A(0); k->p2 = A(1); return K_LINK;
	case SYS_linkat:
		k->dirfd = FD(0); k->p1 = A(1); k->dirfd2 = FD(2); k->p2 = A(3);
		k->flags = A(4);
		return K_LINK;
	case SYS_symlink: k->p1 = A(0); k->p2 = A(1); return K_SYMLINK;
	case SYS_symlinkat:
		k->p1 = A(0); k->dirfd2 = FD(1); k->p2 = A(2);
		return K_SYMLINK;
	case SYS_unlink: k->p1 = A(0); return K_UNLINK;
	case SYS_unlinkat:
		k->dirfd = FD(0); k->p1 = A(1); k->flags = A(2);
		return K_UNLINK;
	case SYS_rmdir: k->p1 = A(0); k->flags = AT_REMOVEDIR; return K_UNLINK;
	case SYS_mkdir: k->p1 = A(0); return K_MKDIR;
	case SYS_mkdirat: k->dirfd = FD(0); k->p1 = A(1); return K_MKDIR;
	case SYS_mknod: k->p1 = A(0); k->mode = (unsigned)A(1); return K_MKNOD;
	case SYS_mknodat:
		k->dirfd = FD(0); k->p1 = A(1); k->mode = (unsigned)A(2);
		return K_MKNOD;
	}
	return K_NONE;
}

/* lstat, or stat when following: 1 exists, 0 not, -1 error. */
static int look(const char *abs, bool follow, struct stat *sb)
{
	if ((follow ? stat(abs, sb) : lstat(abs, sb)) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

static bool temp_silent(const struct hs_floor_ctx *x, const char *abs)
{
	return hs_temp_name(abs) &&
	       !(hs_fscope_judge_temps(x->scope) &&
		 hs_fscope_protected(x->scope, abs));
}

static struct hs_fl_event *event(struct hs_fl_call *c, const char *op,
				 const char *path, const char *new_path)
{
	struct hs_fl_event *e = &c->ev[c->nev++];

	e->op = "write";
	e->operation = op;
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->has_new = new_path != NULL;
	if (new_path)
		snprintf(e->new_path, sizeof(e->new_path), "%s", new_path);
	return e;
}

static const char *open_op(const struct hs_floor_ctx *x, const char *abs,
			   uint64_t fl, bool follow)
{
	struct stat sb;
	int e = look(abs, follow, &sb);

	if (e < 0)
		return NULL;
	if (e == 0) {
		if (!(fl & O_CREAT) || temp_silent(x, abs))
			return NULL;
		return "create";
	}
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
	    !S_ISREG(sb.st_mode))
		return NULL;
	if (fl & O_TRUNC)
		return "overwrite";
	return fl & O_APPEND ? "append" : "modify";
}

/* hs_fl_abs, and without following, a path through the root's logical
 * name named under the root (as the shim names it). */
static int name_of(const struct hs_floor_ctx *x, pid_t tid, int dirfd,
		   const char *path, bool follow, char *out)
{
	if (hs_fl_abs(tid, dirfd, path, follow, out) < 0)
		return -1;
	if (!follow)
		hs_fscope_unalias(x->scope, out);
	return 0;
}

/* The events of k into c (c->nev of them). */
static void classify(const struct hs_floor_ctx *x, struct hs_fl_call *c,
		     struct call *k, pid_t tid)
{
	const struct hs_fscope *sc = x->scope;
	bool follow = hs_fscope_follow(sc);
	char a[PATH_MAX], b[PATH_MAX];
	struct stat sb;
	const char *op;
	int e;

	switch (k->kind) {
	case K_OPEN:
		if (name_of(x, tid, k->dirfd, k->path, follow, a) < 0)
			return;
		memcpy(c->open.judged, a, strlen(a) + 1);
		if ((k->flags & O_PATH) || (k->flags & __O_TMPFILE) ||
		    !hs_fscope_pre(sc, a))
			return;
		if ((op = open_op(x, a, k->flags, follow)))
			event(c, op, a, NULL);
		return;
	case K_TRUNC:
		if (name_of(x, tid, AT_FDCWD, k->path, follow, a) == 0 &&
		    hs_fscope_pre(sc, a) && look(a, follow, &sb) == 1)
			event(c, "truncate", a, NULL);
		return;
	case K_UNLINK:
		if (name_of(x, tid, k->dirfd, k->path, false, a) == 0 &&
		    hs_fscope_pre(sc, a) && lstat(a, &sb) == 0 &&
		    !hs_temp_name(a))
			event(c, k->flags & AT_REMOVEDIR ? "rmdir" : "delete",
			      a, NULL);
		return;
	case K_MKDIR:
		if (name_of(x, tid, k->dirfd, k->path, follow, a) == 0 &&
		    hs_fscope_pre(sc, a) && lstat(a, &sb) != 0)
			event(c, "mkdir", a, NULL);
		return;
	case K_MKNOD:
		/* a regular file made by mknod is a create like O_CREAT|O_EXCL;
		 * fifos, sockets and devices are "mknod" */
		if (name_of(x, tid, k->dirfd, k->path, false, a) < 0 ||
		    !hs_fscope_pre(sc, a) || lstat(a, &sb) == 0)
			return;
		if ((k->mode & S_IFMT) == 0 || S_ISREG(k->mode)) {
			if (!temp_silent(x, a))
				event(c, "create", a, NULL);
		} else {
			event(c, "mknod", a, NULL);
		}
		return;
	case K_SYMLINK:
		/* path = the link made; new_path = its text, as written */
		if (name_of(x, tid, k->dirfd2, k->path2, false, a) == 0 &&
		    hs_fscope_pre(sc, a) && lstat(a, &sb) != 0)
			event(c, "symlink", a, k->path);
		return;
	case K_LINK:
		if (name_of(x, tid, k->dirfd2, k->path2, false, a) < 0 ||
		    lstat(a, &sb) == 0)
			return;
		if (!hs_fscope_pre(sc, a)) {
			/* an unwatched new name for a protected file is a
			 * write to that file: judged at the source */
			if (!((k->flags & AT_EMPTY_PATH) && !k->path[0]) &&
			    strncmp(k->path, "/proc/", 6) != 0 &&
			    name_of(x, tid, k->dirfd, k->path, false, b) == 0 &&
			    hs_fscope_pre(sc, b))
				event(c, "link", b, a);
			return;
		}
		/* an O_TMPFILE or temp source published: a create */
		if (((k->flags & AT_EMPTY_PATH) && !k->path[0]) ||
		    name_of(x, tid, k->dirfd, k->path, false, b) < 0 ||
		    strncmp(k->path, "/proc/", 6) == 0 || hs_temp_name(b))
			event(c, "create", a, NULL);
		else
			event(c, "link", a, b);
		return;
	case K_RENAME: {
		bool m, m2;

		if (name_of(x, tid, k->dirfd, k->path, false, a) < 0 ||
		    name_of(x, tid, k->dirfd2, k->path2, false, b) < 0 ||
		    lstat(a, &sb) != 0)
			return;
		m = (!hs_temp_name(a) && hs_fscope_pre(sc, a)) ||
		    hs_fscope_pinned(sc, a);
		m2 = hs_fscope_pre(sc, b);
		e = m2 ? look(b, false, &sb) : -1;
		if (m) {
			event(c, "rename", a, b);
			if (e >= 0)
				event(c, e ? "overwrite" : "create", b, NULL);
		} else if (e >= 0) {
			event(c, e ? "overwrite" : "create", b, NULL);
		}
		return;
	}
	case K_NONE:
		return;
	}
}

/* Does an event of c name a protected file, or rename one (or the root)
 * away? The built-in rule holds for every role. */
static bool touches_policy(const struct hs_fscope *sc,
			   const struct hs_fl_call *c)
{
	for (int i = 0; i < c->nev; i++)
		if (hs_fscope_protected_file(sc, c->ev[i].path) ||
		    (c->ev[i].has_new &&
		     hs_fscope_protected_file(sc, c->ev[i].new_path)) ||
		    (strcmp(c->ev[i].operation, "rename") == 0 &&
		     hs_fscope_pinned(sc, c->ev[i].path)))
			return true;
	return false;
}

enum hs_fl_verdict hs_fl_classify(const struct hs_floor_ctx *x,
				  struct hs_fl_call *c)
{
	pid_t tid = (pid_t)c->n.pid;
	struct call k;
	int e;

	c->nev = 0;
	if (c->n.data.nr == SYS_execve || c->n.data.nr == SYS_execveat)
		return hs_fl_exec(x, c);
	k.kind = decode(c, &k, tid, x->listener);
	if (k.kind == K_NONE)
		return HS_FL_CONTINUE;
	k.path[0] = k.path2[0] = '\0';
	c->open.on = false;
	c->open.judged[0] = '\0';
	c->open.read_err = 0;
	/* An unreadable path: the kernel will fail the call itself (EFAULT)
	 * unless the caller can read what we cannot. */
	if ((e = hs_fl_read_str(tid, k.p1, k.path, sizeof(k.path))) < 0 ||
	    (k.p2 && hs_fl_read_str(tid, k.p2, k.path2, sizeof(k.path2)) < 0)) {
		if (k.kind != K_OPEN)
			return HS_FL_CONTINUE;
		/* an open answered from what we read: the kernel's reading
		 * again could find other bytes there by then */
		c->open.read_err = -e;
	}
	if (k.kind == K_OPEN) {
		/* an O_PATH descriptor cannot be handed over (ADDFD wants
		 * a file); it writes nothing anyway */
		c->open.on = k.how_whole && !(k.how.flags & O_PATH);
		c->open.dirfd = k.dirfd;
		c->open.how = k.how;
		memcpy(c->open.path, k.path, sizeof(k.path));
		if (c->open.read_err)
			return HS_FL_CONTINUE;
	}
	classify(x, c, &k, tid);
	/* Nothing to decide: continuing a call whose id went stale is
	 * refused by the kernel, so no check is needed for that. Anything
	 * else acts on what was read, which is only good while the caller
	 * is the one we read (a recycled tid would answer for a dead one). */
	if (!c->nev)
		return HS_FL_CONTINUE;
	if (!hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	c->tgid = hs_fl_tgid(tid);
	if (c->tgid < 0 || !hs_fl_valid(x->listener, c->n.id))
		return HS_FL_GONE;
	if (hs_fscope_agent_only(x->scope)) {
		char role[16];

		/* writes.agent_only: a tool's writes are not events */
		if (hs_fl_environ(c->tgid, "HOOKSHIM_ROLE", role, sizeof(role)) &&
		    strcmp(role, "tool") == 0 && !touches_policy(x->scope, c))
			return HS_FL_CONTINUE;
	}
	if (hs_fl_cwd(tid, c->cwd) < 0)
		c->cwd[0] = '\0';
	return HS_FL_DECIDE;
}

void hs_fl_call_free(struct hs_fl_call *c)
{
	if (c->argv) {
		for (char **a = c->argv; *a; a++)
			free(*a);
		free(c->argv);
	}
	c->argv = NULL;
}
