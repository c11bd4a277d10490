/* What one intercepted write means: which path, which operation, whether
 * a hook may care, and the pre/post events. See write.h.
 *
 * Order matters for "changes nothing on disk": everything here runs
 * before the real call and looks, never touches (lstat, readlink); a
 * denied call returns before the real function runs.
 *
 * Temp files: editors and agents write "f.tmp.123" (or a mkstemp name)
 * and rename it over "f". A new file whose name looks like a temp, or
 * that mkstemp made, fires nothing itself (unless writes.judge_temp_files
 * asks, where a hook's path filter names it); the rename that publishes it
 * fires the pre (and later the post) for "f", with operation create or
 * overwrite. Deleting such a file fires nothing either. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/temp_name.h"
#include "client.h"
#include "fdtrack.h"
#include "path.h"
#include "read_event.h"
#include "reason.h"
#include "real.h"
#include "state.h"
#include "write.h"
#include "write_pin.h"
#include "write_scope.h"
#include "floor_calls.h"
#include "write_stage.h"

/* --- temp names ------------------------------------------------------ */

#define NTEMP 64
static unsigned long temps[NTEMP]; /* hashes of recent mkstemp names */
static unsigned temp_next;

static unsigned long hash(const char *s)
{
	unsigned long h = 1469598103934665603ul;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ul;
	return h | 1; /* 0 marks a free slot */
}

void hs_wtemp_remember(const char *abs)
{
	unsigned i = __atomic_fetch_add(&temp_next, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&temps[i % NTEMP], hash(abs), __ATOMIC_RELAXED);
}

static bool remembered(const char *abs)
{
	unsigned long h = hash(abs);

	for (int i = 0; i < NTEMP; i++)
		if (__atomic_load_n(&temps[i], __ATOMIC_RELAXED) == h)
			return true;
	return false;
}

static bool is_temp(const char *abs)
{
	return hs_temp_name(abs) || remembered(abs);
}

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

/* --- classifying ----------------------------------------------------- */

/* lstat, or stat when following symlinks: 1 exists, 0 not, -1 error. */
static int look_at(const char *abs, bool follow, struct stat *sb)
{
	int r = follow ? stat(abs, sb) : lstat(abs, sb);

	if (r == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

static int look(const char *abs, struct stat *sb)
{
	return look_at(abs, hs_wopts()->follow, sb);
}

/* Temp files are silent unless the config asks for those in places a
 * hook's path filter names (writes.judge_temp_files). */
static bool temp_judged(const char *abs)
{
	return hs_wopts()->judge_temps && hs_wscope_protected(abs);
}

/* An in-place change of an existing file's content is "edit" (the tool
 * name Edit) when the agent's own process makes it -- the agent's
 * Write/Edit tool, whatever it is called: from outside, pi's write and
 * edit are the same open(O_TRUNC), Claude Code's the same atomic-save
 * rename. A tool call's shell and what it runs (role "tool"), and a
 * shell started as the agent (`hookshim run -- sh -c ...`) keep
 * "overwrite" (Write): `echo x > f` is a Bash write. An empty file
 * replaced is a create in all but name: "overwrite". */
static const char *replace_op(const struct stat *sb)
{
	if (sb->st_size > 0 && hs_state()->role == HS_ROLE_AGENT &&
	    !hs_exe_is_shell())
		return "edit";
	return "overwrite";
}

/* The operation an open with `fl` performs on `abs`, or NULL when it
 * fires nothing (it will fail, or it makes a temp file). */
static const char *open_op(const char *abs, int fl, struct hs_wticket *t)
{
	struct stat sb;
	int e = look_at(abs, hs_wopts()->follow && !hs_open_nofollow(fl), &sb);

	if (e < 0)
		return NULL;
	t->exists = e == 1;
	t->sb = sb;
	if (e == 0) {
		if (!(fl & O_CREAT) || (is_temp(abs) && !temp_judged(abs)))
			return NULL;
		return "create";
	}
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
	    !S_ISREG(sb.st_mode))
		return NULL; /* EEXIST, or a fifo/device/dir: no file write */
	if (fl & O_TRUNC)
		return replace_op(&sb);
	return fl & O_APPEND ? "append" : "modify";
}

/* A new temp file whose name says which file its atomic save publishes
 * (hs_temp_final): the pre of that file's Write, fired at this open so a
 * denial keeps even the temp file off the disk; the rename is answered
 * from its verdict (supervisor/atomic_save.h), and fires the post. The
 * floor's temp_create (supervisor/floor_event.c). A content hook waits
 * for the rename, where the content is. */
static unsigned temp_create(const struct hs_wcall *c, struct hs_wticket *t,
			    unsigned want)
{
	struct stat sb;
	int e;

	if (!(want & HS_W_PRE) || !(c->flags & O_CREAT) ||
	    !hs_temp_name(t->path) ||
	    !hs_temp_final(t->path, t->path2, sizeof(t->path2)) ||
	    (hs_wscope_match(t->path2, HS_W_PRE) & (HS_W_PRE | HS_W_STAGE)) !=
		    HS_W_PRE ||
	    look(t->path, &sb) != 0)
		return 0;
	if ((e = lstat(t->path2, &sb)) < 0 && errno != ENOENT)
		return 0;
	t->op = e == 0 ? replace_op(&sb) : "create";
	t->post_path = t->path2;
	t->temp_create = t->path;
	return HS_W_PRE;
}

/* A path relative to the working directory or a directory descriptor
 * that cannot fire: it stays below the directory (no ".."; folding "."
 * and "//" only shortens it), and no glob can match there. Saves the
 * getcwd or readlink, join, fold and match of every file `tar x` writes
 * outside the hooks' paths. */
static bool rel_dead(int dirfd, const char *path)
{
	if (!path[0] || path[0] == '/' || hs_wopts()->follow ||
	    strstr(path, ".."))
		return false;
	if (dirfd == AT_FDCWD)
		return !hs_wscope_cwd_live();
	return !hs_wscope_dirfd_live(dirfd);
}

/* Nothing c names can fire, decided without building a path. */
static bool quick_dead(const struct hs_wcall *c)
{
	switch (c->kind) {
	case HS_WK_SYMLINK:
		return rel_dead(c->dirfd2, c->path2);
	case HS_WK_CHMOD:
	case HS_WK_CHOWN:
	case HS_WK_XATTR:
		/* these follow a symlink out of the directory (chmod l, l ->
		 * hooks/guard.sh); rare enough to be named each time */
		return false;
	case HS_WK_LINK: /* the source too: it may be a protected file */
	case HS_WK_RENAME:
		return rel_dead(c->dirfd, c->path) &&
		       rel_dead(c->dirfd2, c->path2);
	default:
		return rel_dead(c->dirfd, c->path);
	}
}

static void swap_names(struct hs_wticket *t)
{
	struct hs_path_pin pin = t->pin;
	char tmp[PATH_MAX];

	memcpy(tmp, t->path, strlen(t->path) + 1);
	memcpy(t->path, t->path2, strlen(t->path2) + 1);
	memcpy(t->path2, tmp, strlen(tmp) + 1);
	t->pin = t->pin2;
	t->pin2 = pin;
	t->swapped = !t->swapped;
}

/* A link whose source is a descriptor (AT_EMPTY_PATH, /proc/self/fd/N:
 * an O_TMPFILE published): no name of its own to judge or pin. */
static bool link_of_fd(const struct hs_wcall *c)
{
	return ((c->flags & AT_EMPTY_PATH) && !c->path[0]) ||
	       strncmp(c->path, "/proc/self/fd/", 14) == 0;
}

/* Outside opens, a content hook is one more pre hook (no content to
 * wait for). */
static unsigned stage_as_pre(unsigned m)
{
	return m & HS_W_STAGE ? (m & ~HS_W_STAGE) | HS_W_PRE : m;
}

/* hs_path_abs, remembering a name the kernel takes but no buffer of ours
 * holds (path.h): such a write is denied whatever else it does. */
static int named(struct hs_wticket *t, int dirfd, const char *path,
		 bool follow, char *out)
{
	int r = hs_path_abs(dirfd, path, follow, out);

	if (r == HS_PATH_TOOLONG && !t->unnamed)
		t->unnamed = path;
	return r;
}

/* With follow_symlinks, named as the kernel will walk it (the last
 * component only when `last`), and what the walk ended on pinned in
 * t->pin, for the call to be made on (write_pin.h); without, named(). */
static int named_pinned(struct hs_wticket *t, int dirfd, const char *path,
			bool last, char *out, struct hs_path_pin *pin)
{
	int r;

	if (!hs_wopts()->follow)
		return named(t, dirfd, path, false, out);
	r = hs_path_pinned(dirfd, path, last, out, pin);
	if (r == HS_PATH_TOOLONG && !t->unnamed)
		t->unnamed = path;
	return r;
}

/* "/proc/<digits>/...": a process's entry by its number (its mem above
 * all), which under a floor is the floor's to judge: the supervisor's
 * and the hooks' are out of the session's reach (floor_reach.c). */
static bool proc_of_pid(const char *p)
{
	return hs_ck_on() && p[0] == '/' && p[1] == 'p' && p[2] == 'r' &&
	       p[3] == 'o' && p[4] == 'c' && p[5] == '/' && p[6] >= '1' &&
	       p[6] <= '9';
}

/* Decides path/op/new_path of c into t; returns the HS_W_* bits wanted. */
static unsigned classify(const struct hs_wcall *c, struct hs_wticket *t,
			 unsigned want)
{
	bool follow = hs_wopts()->follow;
	struct hs_path_pin *src_pin;
	struct stat sb;
	unsigned m, m2;
	int e;

	t->post_new_path = NULL;
	t->extra_op = NULL;
	t->post_path = t->path;
	t->content_file = NULL;
	t->temp_create = t->temp_publish = NULL;
	t->swapped = false;
	switch (c->kind) {
	case HS_WK_OPEN:
	case HS_WK_REOPEN:
		if ((c->flags & O_PATH) ||
		    (c->flags & O_TMPFILE) == O_TMPFILE)
			return 0;
		/* freopen opens inside libc, by the name: nothing to pin */
		e = c->kind == HS_WK_OPEN
			    ? named_pinned(t, c->dirfd, c->path,
					   !hs_open_nofollow(c->flags), t->path,
					   &t->pin)
			    : named(t, c->dirfd, c->path, follow, t->path);
		if (e < 0)
			return 0;
		if (proc_of_pid(t->path)) {
			t->to_floor = true;
			return 0;
		}
		if ((m = temp_create(c, t, want)))
			return m;
		if (!(m = hs_wscope_match(t->path, want)))
			return 0;
		t->op = open_op(t->path, c->flags, t);
		/* a content hook cannot see what freopen writes: it is
		 * asked at the open, as other pre hooks are */
		if (c->kind == HS_WK_REOPEN && (m & HS_W_STAGE))
			m = (m & ~HS_W_STAGE) | HS_W_PRE;
		return t->op ? m : 0;
	case HS_WK_TRUNC:
		if (named_pinned(t, AT_FDCWD, c->path, true, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want)) ||
		    look(t->path, &sb) != 1)
			return 0;
		t->op = "truncate";
		return m;
	case HS_WK_UNLINK:
	case HS_WK_REMOVE:
		/* never follow the last component: unlink removes the link
		 * itself (its directories, with follow_symlinks, are) */
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want)) ||
		    lstat(t->path, &sb) != 0 || is_temp(t->path))
			return 0;
		if (c->kind == HS_WK_REMOVE)
			t->op = S_ISDIR(sb.st_mode) ? "rmdir" : "delete";
		else
			t->op = c->flags & AT_REMOVEDIR ? "rmdir" : "delete";
		return m;
	case HS_WK_MKDIR:
		/* mkdir never follows its last component (EEXIST) */
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want)) ||
		    lstat(t->path, &sb) == 0)
			return 0;
		t->op = "mkdir";
		return m;
	case HS_WK_MKNOD:
		/* a node made in watched ground (the floor's rule): a regular
		 * file is a create, a fifo, socket or device a "mknod" */
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want)) ||
		    lstat(t->path, &sb) == 0)
			return 0;
		if ((c->flags & S_IFMT) == 0 || S_ISREG((mode_t)c->flags)) {
			if (is_temp(t->path) && !temp_judged(t->path))
				return 0;
			t->op = "create";
		} else {
			t->op = "mknod";
		}
		return m;
	case HS_WK_SYMLINK:
		/* path = the link made; new_path = its text, as written */
		if (named_pinned(t, c->dirfd2, c->path2, false, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want)) ||
		    lstat(t->path, &sb) == 0)
			return 0;
		t->op = "symlink";
		t->post_new_path = c->path;
		return m;
	case HS_WK_LINK:
		/* path = the new name; new_path = the file it names. An
		 * O_TMPFILE (AT_EMPTY_PATH, /proc/self/fd) or temp source is
		 * a publish: a create of the new name. */
		if (named_pinned(t, c->dirfd2, c->path2, false, t->path,
				 &t->pin) < 0)
			return 0;
		/* made on both directories (write_pin.c) unless it follows
		 * its source, which is then named by what it is */
		src_pin = c->flags & AT_SYMLINK_FOLLOW ? NULL : &t->pin2;
		if (lstat(t->path, &sb) == 0) {
			/* EEXIST, but on the judged directories: by its names
			 * it could find another one since */
			if (src_pin && !link_of_fd(c))
				named_pinned(t, c->dirfd, c->path, false,
					     t->path2, src_pin);
			return 0;
		}
		m = hs_wscope_match(t->path, want);
		t->op = "create";
		if (link_of_fd(c))
			return m;
		if (named_pinned(t, c->dirfd, c->path, false, t->path2,
				 src_pin) < 0 ||
		    (m && is_temp(t->path2)))
			return m;
		t->op = "link";
		t->post_new_path = t->path2;
		if (m)
			return m;
		/* An unwatched new name for a protected file (`ln secrets/f
		 * h`) is a write to that file: judged at the source, path =
		 * the source, new_path = the new name. */
		if (!(m = hs_wscope_match(t->path2, want & HS_W_PRE)))
			return 0;
		swap_names(t);
		return m;
	case HS_WK_RENAME:
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    named_pinned(t, c->dirfd2, c->path2, false, t->path2,
				 &t->pin2) < 0 ||
		    lstat(t->path, &sb) != 0)
			return 0;
		m = is_temp(t->path) ? 0
				     : stage_as_pre(hs_wscope_match(t->path, want));
		/* the root, a protected file or a directory above one cannot
		 * be moved away (engine/protect.h) */
		if ((want & HS_W_PRE) && hs_wscope_pinned(t->path))
			m |= HS_W_PRE;
		m2 = hs_wscope_match(t->path2, want);
		/* an atomic save: content hooks read the file being renamed */
		if (((m | m2) & HS_W_STAGE) && S_ISREG(sb.st_mode))
			t->content_file = t->path;
		m2 = stage_as_pre(m2);
		if (m) { /* a file moved: path = source, new_path = target */
			t->op = "rename";
			t->post_new_path = t->path2;
			/* A policy on the target ("mv x secrets/") must see it
			 * too: its own pre, as the create/overwrite it is. */
			if ((m2 & HS_W_PRE) && (e = look(t->path2, &sb)) >= 0)
				t->extra_op = e ? "overwrite" : "create";
			return m;
		}
		/* a temp published, or a file moved into watched ground: the
		 * target is created or overwritten */
		if (!m2 || (e = look(t->path2, &sb)) < 0)
			return 0;
		t->op = e ? replace_op(&sb) : "create";
		t->post_path = t->path2;
		if (hs_temp_name(t->path))
			t->temp_publish = t->path;
		return m2;
	case HS_WK_MKTEMP:
		/* The call makes the name; the template names the place.
		 * Only a protected place is judged. */
		if (!(want & HS_W_PRE) ||
		    named(t, c->dirfd, c->path, false, t->path) < 0 ||
		    !temp_judged(t->path))
			return 0;
		t->op = "create";
		t->post_path = t->path;
		return HS_W_PRE;
	case HS_WK_CHMOD:
	case HS_WK_CHOWN:
	case HS_WK_XATTR:
		/* Only a protected file's (engine/protect.h): the built-in
		 * rule denies it before any hook, and no other file's mode
		 * or owner is an event. Named as the kernel will walk it
		 * (these follow symlinks unless told not to); a descriptor
		 * by the kernel's name for it. */
		if (!(want & HS_W_PRE))
			return 0;
		if (!c->path[0] && (c->flags & AT_EMPTY_PATH)) {
			if ((e = hs_path_dirfd(c->dirfd, t->path)) < 0) {
				if (e == HS_PATH_TOOLONG)
					t->unnamed = "(a descriptor)";
				return 0;
			}
		} else if (named(t, c->dirfd, c->path,
				 !(c->flags & AT_SYMLINK_NOFOLLOW),
				 t->path) < 0) {
			return 0;
		}
		if (!hs_wscope_policy_file(t->path))
			return 0;
		t->op = c->kind == HS_WK_CHMOD	 ? "chmod"
			: c->kind == HS_WK_CHOWN ? "chown"
						 : "setxattr";
		return HS_W_PRE;
	}
	return 0;
}

/* --- the interposers' entry points ------------------------------------ */

/* A pre event of its own (no post follows): 0 allowed, -1 denied. */
static int deny_pre(const char *path, const char *op)
{
	struct hs_reply rep;
	char id[64];

	hs_make_id(id);
	ask("pre", id, path, NULL, op, &rep);
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

static int wbegin(const struct hs_wcall *c, struct hs_wticket *t)
{
	unsigned active = hs_wscope_active(), want = active;
	struct hs_reply rep;

	t->want = 0;
	t->pin.fd = t->pin2.fd = -1;
	t->event = false;
	t->sfd = -1;
	t->exists = false;
	t->unnamed = NULL;
	t->to_floor = false;
	if (c->kind == HS_WK_OPEN && !(c->flags & HS_WFLAGS))
		return hs_rbegin(c->dirfd, c->path, c->flags);
	t->saved_errno = errno;
	hs_guard_enter();
	if (want && quick_dead(c))
		want = 0;
	if (want)
		want = classify(c, t, want);
	if (c->kind != HS_WK_OPEN && c->kind != HS_WK_REOPEN &&
	    c->kind != HS_WK_RENAME)
		want = stage_as_pre(want);
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
		if (t->extra_op && deny_pre(t->path2, t->extra_op) < 0)
			return -1;
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
