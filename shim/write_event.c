/* What one intercepted write means (classified by write_classify.c: which
 * path, which operation, whether a hook may care), and its pre/post
 * events. See write.h.
 *
 * Order matters for "changes nothing on disk": everything here runs
 * before the real call and looks, never touches (lstat, readlink); a
 * denied call returns before the real function runs. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/temp_name.h"
#include "../common/write_rule.h"
#include "client.h"
#include "fdtrack.h"
#include "floor_calls.h"
#include "path.h"
#include "read_event.h"
#include "reason.h"
#include "real.h"
#include "state.h"
#include "write.h"
#include "write_classify.h"
#include "write_pin.h"
#include "write_scope.h"
#include "write_stage.h"

/* --- asking ------------------------------------------------------------ */

void hs_say_denied(const char *what, const char *path, const char *reason)
{
	if (hs_wopts()->quiet && isatty(2))
		return;
	hs_write_str(2, "hookshim: ");
	hs_write_str(2, what);
	hs_write_str(2, " ");
	hs_write_escaped(2, path);
	hs_write_str(2, " denied");
	if (reason[0]) {
		hs_write_str(2, ": ");
		hs_write_str(2, reason);
		if (reason[hs_len(reason) - 1] != '\n')
			hs_write_str(2, "\n");
	} else {
		hs_write_str(2, "\n");
	}
}

static void ask(const char *phase, const char *id, const char *path,
		const char *new_path, const char *op, struct hs_reply *rep)
{
	struct hs_msg req = {
		.op = "write", .phase = phase, .nested = -1, .id = id,
		.path = path, .new_path = new_path, .operation = op,
	};

	hs_ask(&req, rep);
}

/* The pre of the call t describes. A process the agent's sandbox hides
 * from the supervisor gets rep->hidden instead of a verdict (client.h):
 * the floor judges it. */
static void ask_pre(const struct hs_wticket *t, struct hs_reply *rep)
{
	struct hs_msg req = {
		.op = "write", .phase = "pre", .nested = -1, .id = t->id,
		.path = t->post_path, .new_path = t->post_new_path,
		.operation = t->op,
		.stage = t->want & HS_W_STAGE ? "open" : NULL,
		.content_file = t->content_file,
		.temp_create = t->temp_create, .temp_publish = t->temp_publish,
	};

	hs_ask_or_floor(&req, rep);
}

static void post(const char *id, const char *path, const char *new_path,
		 const char *op, bool ok)
{
	struct hs_reply rep;

	ask(ok ? "post" : "post-failure", id, path, new_path, op, &rep);
	if (rep.context[0]) {
		/* The model reads the tool's stderr: the context goes there. */
		hs_write_str(2, rep.context);
		hs_write_str(2, "\n");
	}
}

/* --- the interposers' entry points ------------------------------------ */

/* A pre event of its own (no post follows): 0 allowed, -1 denied, 3
 * for the floor to judge (the agent's sandbox hides the supervisor:
 * hs_ask_or_floor). */
static int deny_pre(const char *path, const char *new_path, const char *op)
{
	struct hs_msg req = {
		.op = "write", .phase = "pre", .nested = -1, .path = path,
		.new_path = new_path, .operation = op,
	};
	struct hs_reply rep;
	char id[64];

	hs_make_id(id);
	req.id = id;
	hs_ask_or_floor(&req, &rep);
	if (rep.hidden)
		return 3;
	if (!rep.deny)
		return 0;
	hs_say_denied("write to", path, rep.reason);
	hs_pending_set("write to", path, rep.reason);
	errno = rep.deny_errno ? rep.deny_errno : EACCES;
	hs_reason_set(errno, rep.reason);
	return -1;
}

/* A write naming a path no buffer of ours holds (path.h): what it names
 * cannot be judged, so it fails, with ENAMETOOLONG unless the session
 * says otherwise, whatever the supervisor answers or whether it answers
 * at all. It is asked all the same, with the caller's own text, so the
 * denial is logged. */
static int deny_unnamed(const struct hs_wticket *t)
{
	static const char why[] =
		"hookshim: the path is PATH_MAX or longer once joined to its "
		"directory, so no hook can judge what it names";
	const char *reason;
	struct hs_reply rep;
	char id[64];

	hs_make_id(id);
	ask("pre", id, t->unnamed, NULL, HS_OPERATION_UNNAMED, &rep);
	reason = rep.deny && rep.reason[0] ? rep.reason : why;
	hs_say_denied("write to", t->unnamed, reason);
	hs_pending_set("write to", t->unnamed, reason);
	errno = rep.deny && rep.deny_errno ? rep.deny_errno : ENAMETOOLONG;
	hs_reason_set(errno, reason);
	return -1;
}

/* The staged file in place of the target, tracked for its close. */
static int stage(const struct hs_wcall *c, struct hs_wticket *t)
{
	struct hs_fdt_info stale;
	unsigned flags;
	int fd, added;

	hs_guard_enter();
	fd = hs_stage_make(t->path, c->flags, c->mode,
			   t->exists ? &t->sb : NULL, &flags);
	if (fd < 0) {
		hs_guard_leave();
		return -1;
	}
	if (t->want & HS_W_POST)
		flags |= HS_FDT_POST;
	added = hs_fdt_add(fd, t->post_path, t->op, t->id, flags, &stale);
	if ((added & HS_FDT_ADD_STALE) && (stale.flags & HS_FDT_POST))
		post(stale.id, stale.path, NULL, stale.op, true);
	if (!(added & HS_FDT_ADDED)) {
		HS_REAL(close)(fd);
		hs_guard_leave();
		errno = EMFILE; /* no room to remember it: no write at all */
		return -1;
	}
	hs_fdt_init();
	hs_guard_leave();
	t->sfd = fd;
	errno = t->saved_errno;
	return 2;
}

FILE *hs_wstaged_file(struct hs_wticket *t)
{
	struct hs_fdt_info info;
	int fl = fcntl(t->sfd, F_GETFL);
	const char *mode = fl & O_APPEND ? "a+" : "r+";
	FILE *f = fdopen(t->sfd, mode);

	if (!f) {
		int e = errno;

		hs_fdt_release(t->sfd, &info);
		HS_REAL(close)(t->sfd);
		errno = e;
	}
	return f;
}

/* A name of the kernel's own, as passed: a file of /proc/sys or /sys, or a
 * device other than the everyday ones (a block device, /dev/userfaultfd).
 * Under the floor its open goes without the cookie, so that the floor
 * judges it (floor/floor_refuse.c refuses block devices and the
 * kernel's settings, /proc/sysrq-trigger with them, unless "floor_allow"
 * names them). A relative name or a
 * symlink into those places stays the shim's: guard mode's limit. */
static bool kernel_name(const char *p)
{
	/* names, not pointers (docs/architecture.md, the shim's rule 7) */
	static const char everyday[] =
		"null\0zero\0full\0tty\0pts/\0fd/\0std\0shm/\0random\0"
		"urandom\0console\0ptmx\0";

	if (p[0] != '/')
		return false;
	if (hs_starts(p, "/proc/sys") || hs_starts(p, "/sys/"))
		return true; /* /proc/sys/ and /proc/sysrq-trigger */
	if (!hs_starts(p, "/dev/"))
		return false;
	for (const char *e = everyday; *e; e += hs_len(e) + 1)
		if (hs_starts(p + 5, e))
			return false;
	return true;
}

/* Does c follow its name to a protected file, whatever that name is
 * (a symlink made before the session, or a symlinked directory above
 * it)? Only the calls that write an existing file's content: opens for
 * writing (all but O_CREAT|O_EXCL's), truncate. An open that may try
 * O_EXCL first (hs_wcall.excl_first) is not looked at: t->excl_skipped
 * says so, and the call, made exclusive, either makes a new file, which
 * is no protected one, or fails EEXIST and is judged again with the
 * look (write.c). */
static bool to_protected(const struct hs_wcall *c, struct hs_wticket *t)
{
	switch (c->kind) {
	case HS_WK_OPEN:
	case HS_WK_REOPEN:
		/* O_CREAT|O_EXCL makes a new file; O_NOFOLLOW still follows
		 * the directories above the last component */
		if ((c->flags & O_PATH) || (c->flags & O_TMPFILE) == O_TMPFILE ||
		    (c->flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
			return false;
		if (c->excl_first && (c->flags & O_CREAT)) {
			t->excl_skipped = true;
			return false;
		}
		return hs_wscope_protected_target(
			c->dirfd, c->path,
			c->flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0);
	case HS_WK_TRUNC:
		return hs_wscope_protected_target(AT_FDCWD, c->path, 0);
	default:
		return false;
	}
}

/* Which names of c are protected by their identity (hs_wr_call.prot):
 * one it follows to a protected file, one in a protected tree's
 * directory however the path names it. */
static unsigned protected_names(const struct hs_wcall *c,
				struct hs_wticket *t, unsigned active)
{
	if (!(active & HS_W_PRE))
		return 0;
	switch (c->kind) {
	case HS_WK_OPEN:
	case HS_WK_REOPEN:
	case HS_WK_TRUNC:
		return to_protected(c, t) ||
				       hs_wscope_in_tree(c->dirfd, c->path)
			       ? HS_WR_PROT_A
			       : 0;
	case HS_WK_UNLINK:
	case HS_WK_REMOVE:
	case HS_WK_MKDIR:
	case HS_WK_MKNOD:
	case HS_WK_BIND:
	case HS_WK_MKTEMP: /* its template names the directory */
		return hs_wscope_in_tree(c->dirfd, c->path) ? HS_WR_PROT_A : 0;
	case HS_WK_SYMLINK:
	case HS_WK_LINK: /* the name made */
		return hs_wscope_in_tree(c->dirfd2, c->path2) ? HS_WR_PROT_A : 0;
	case HS_WK_RENAME:
		return (hs_wscope_in_tree(c->dirfd, c->path) ? HS_WR_PROT_A : 0) |
		       (hs_wscope_in_tree(c->dirfd2, c->path2) ? HS_WR_PROT_B : 0);
	default:
		return 0;
	}
}

/* What the shim asks about c, into t (hs_wclassify). In enforce mode the
 * floor names and judges every call of the session, following symlinks
 * and knowing protected files by their identity, whatever the shim does
 * (docs/floor.md, "Enforce mode"): the shim first reads the names as
 * written, and walks them (and stats their targets) only where those may
 * fire a hook. A name that cannot, but follows a symlink to one that
 * can, is left to the floor, which judges it as it judges a static
 * program's (the hook runs; its reason reaches the agent's next tool
 * call rather than this call's error text). Guard mode trusts the shim's
 * word, so walks every name. */
static unsigned classify(const struct hs_wcall *c, struct hs_wticket *t,
			 unsigned want, unsigned active)
{
	bool follow = hs_wopts()->follow;
	unsigned got;

	if (hs_state()->enforce) {
		if (hs_wquick_dead(c, false))
			return 0;
		if (!hs_wclassify(c, t, want, false) && !t->unnamed &&
		    !t->to_floor)
			return 0;
		t->unnamed = NULL;
		t->to_floor = false;
	}
	t->prot = protected_names(c, t, active);
	if (!t->prot && hs_wquick_dead(c, follow))
		return 0;
	got = hs_wclassify(c, t, want, follow);
	if (t->excl_skipped &&
	    (got || hs_wpinned(t) || t->unnamed || t->to_floor)) {
		/* made as judged, not tried O_EXCL first (write.c): the
		 * look, and judged again where it finds a protected file */
		struct hs_wcall as_asked = *c;

		as_asked.excl_first = false;
		t->excl_skipped = false;
		if (to_protected(&as_asked, t)) {
			hs_wunpin(t);
			t->unnamed = NULL;
			t->to_floor = false;
			t->prot |= HS_WR_PROT_A;
			got = hs_wclassify(c, t, want, follow);
		}
	}
	return got;
}

static int wbegin(const struct hs_wcall *c, struct hs_wticket *t)
{
	unsigned active = hs_wscope_active(), want = active;
	struct hs_reply rep;
	int r;

	t->want = 0;
	t->pin.fd = t->pin2.fd = -1;
	t->event = false;
	t->sfd = -1;
	t->exists = false;
	t->unnamed = NULL;
	t->to_floor = false;
	t->prot = 0;
	t->excl_skipped = false;
	/* a name at NULL: EFAULT, the kernel's answer to every call here
	 * today -- said by us, not left to a kernel where NULL with
	 * AT_EMPTY_PATH may come to mean the descriptor itself (any other
	 * bad pointer is read here first: docs/limits.md) */
	if (!c->path || (!c->path2 && (c->kind == HS_WK_RENAME ||
				       c->kind == HS_WK_LINK ||
				       c->kind == HS_WK_SYMLINK))) {
		errno = EFAULT;
		return -1;
	}
	if (c->kind == HS_WK_OPEN && !(c->flags & HS_WFLAGS))
		return hs_rbegin(c->dirfd, c->path, c->flags);
	if (c->kind == HS_WK_OPEN && hs_ck_on() && kernel_name(c->path))
		return 3; /* the floor's to judge, without the cookie */
	t->saved_errno = errno;
	hs_guard_enter();
	if (want)
		want = classify(c, t, want, active);
	hs_guard_leave();
	if (t->unnamed)
		return deny_unnamed(t);
	errno = t->saved_errno;
	if (t->to_floor)
		return 3;
	if (!want) /* a mkstemp name is remembered in hs_wend all the same */
		return c->kind == HS_WK_MKTEMP && active ? 1 : 0;
	t->want = want;
	hs_make_id(t->id);
	if (want & HS_W_PRE) {
		ask_pre(t, &rep);
		/* the floor judges the call made without the cookie, at
		 * open (no staging), and fires its post itself */
		if (rep.hidden) {
			errno = t->saved_errno;
			return 3;
		}
		if (rep.id[0])
			memcpy(t->id, rep.id, sizeof(t->id));
		if (rep.deny) {
			hs_say_denied("write to", t->post_path, rep.reason);
			hs_pending_set("write to", t->post_path, rep.reason);
			errno = rep.deny_errno ? rep.deny_errno : EACCES;
			hs_reason_set(errno, rep.reason);
			return -1;
		}
		t->event = true;
	}
	/* a second pre (common/write_rule.h): also when the call's own
	 * event is a post's alone */
	if (t->extra_op &&
	    (r = deny_pre(t->extra_path, t->extra_new, t->extra_op)) != 0) {
		errno = r == 3 ? t->saved_errno : errno;
		return r;
	}
	if (want & HS_W_STAGE)
		return stage(c, t);
	errno = t->saved_errno;
	return 1;
}

/* hs_wbegin's answers other than "make the call" leave nothing pinned
 * (write_pin.h). */
int hs_wbegin(const struct hs_wcall *c, struct hs_wticket *t)
{
	int r = wbegin(c, t);

	/* a rename or a link is made on its two directories, or by its
	 * names */
	if ((r != 0 && r != 1) ||
	    ((c->kind == HS_WK_RENAME || c->kind == HS_WK_LINK) &&
	     (t->pin.fd < 0 || t->pin2.fd < 0)))
		hs_wunpin(t);
	return r;
}

void hs_wend(const struct hs_wcall *c, struct hs_wticket *t, bool ok, int fd)
{
	int err = errno;
	struct hs_fdt_info stale;

	if (t->sfd >= 0) /* staged: tracked since hs_wbegin */
		return;
	hs_guard_enter();
	if (c->kind == HS_WK_MKTEMP) {
		if (ok && hs_path_abs(AT_FDCWD, c->path, false, t->path) == 0)
			hs_wtemp_remember(t->path);
	} else if (!(t->want & HS_W_POST)) {
		/* nothing after */
	} else if ((c->kind == HS_WK_OPEN || c->kind == HS_WK_REOPEN) && ok) {
		/* the write completes at close */
		if (hs_fdt_add(fd, t->post_path, t->op, t->id, HS_FDT_POST,
			       &stale) & HS_FDT_ADD_STALE)
			post(stale.id, stale.path, NULL, stale.op, true);
	} else {
		post(t->id, t->post_path, t->post_new_path, t->op, ok);
	}
	hs_guard_leave();
	errno = err;
}

bool hs_wclosing(int fd, struct hs_fdt_info *info)
{
	int err = errno;
	bool last = hs_fdt_release(fd, info);

	errno = err;
	return last;
}

/* The pre of a staged write's content hooks, with the content in cf. */
static void ask_publish(const struct hs_fdt_info *info, const char *cf,
			struct hs_reply *rep)
{
	struct hs_msg req = {
		.op = "write", .phase = "pre", .nested = -1, .id = info->id,
		.path = info->path, .operation = info->op, .stage = "publish",
		.content_file = cf,
	};

	hs_ask(&req, rep);
}

int hs_wpublish(int fd, struct hs_fdt_info *info)
{
	char cf[64], num[24];
	struct hs_reply rep;
	int saved = errno, err = 0;

	if (!(info->flags & HS_FDT_STAGED))
		return 0;
	hs_copy(cf, "/proc/", 7);
	hs_copy(cf + 6, hs_utoa((unsigned long)hs_getpid(), num), 24);
	hs_copy(cf + hs_len(cf), "/fd/", 5);
	hs_copy(cf + hs_len(cf), hs_utoa((unsigned long)fd, num), 24);
	hs_guard_enter();
	ask_publish(info, cf, &rep);
	if (rep.deny) {
		hs_say_denied("write to", info->path, rep.reason);
		info->flags |= HS_FDT_DENIED;
		err = rep.deny_errno ? rep.deny_errno : EACCES;
		/* as a denial at open: the close's error text (strerror)
		 * and the agent's next tool call carry the reason */
		hs_pending_set("write to", info->path, rep.reason);
		hs_reason_set(err, rep.reason);
	} else if (hs_stage_publish(fd, info->path, info->flags) < 0) {
		err = errno;
		hs_write_str(2, "hookshim: the staged write to ");
		hs_write_escaped(2, info->path);
		hs_write_str(2, " could not be published (errno ");
		hs_write_str(2, hs_utoa((unsigned long)err, num));
		hs_write_str(2, ")\n");
	}
	hs_guard_leave();
	errno = saved;
	return err;
}

void hs_wclosed(const struct hs_fdt_info *info, bool ok, int err)
{
	int saved = errno;

	(void)err;
	if (!(info->flags & HS_FDT_POST) || (info->flags & HS_FDT_DENIED))
		return;
	hs_guard_enter();
	post(info->id, info->path, NULL, info->op, ok);
	hs_guard_leave();
	errno = saved;
}
