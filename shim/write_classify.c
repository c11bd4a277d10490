/* Classifying one intercepted write: its paths named here, the rest by
 * common/write_rule.c; see write_classify.h. Everything here looks,
 * never touches (lstat, readlink).
 *
 * Temp files: editors and agents write "f.tmp.123" (or a mkstemp name)
 * and rename it over "f". A new file whose name looks like a temp, or
 * that mkstemp made, fires nothing itself (unless writes.judge_temp_files
 * asks, where a hook's path filter names it); the rename that publishes it
 * fires the pre (and later the post) for "f", with operation create or
 * overwrite. Deleting such a file fires nothing either. */
#include "write_classify.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/temp_name.h"
#include "../common/write_rule.h"
#include "floor_calls.h"
#include "path.h"
#include "state.h"
#include "write_scope.h"

/* --- temp names ------------------------------------------------------ */

static struct hs_temp_ring temps; /* recent mkstemp names */

void hs_wtemp_remember(const char *abs)
{
	hs_temp_ring_add(&temps, abs);
}

static bool remembered(const char *abs)
{
	return hs_temp_ring_has(&temps, abs);
}

static bool is_temp(const char *abs)
{
	return hs_temp_name(abs) || remembered(abs);
}

/* --- classifying ----------------------------------------------------- */

/* Temp files are silent unless the config asks for those in places a
 * hook's path filter names (writes.judge_temp_files). */
static bool temp_judged(const char *abs)
{
	return hs_wopts()->judge_temps && hs_wscope_protected(abs);
}

/* --- what this process's hooks watch, for the rule ------------------- */

/* the shim's sides are the rule's (its HS_W_PROT passes through) */
_Static_assert(HS_W_PRE == HS_WR_PRE && HS_W_POST == HS_WR_POST &&
		       HS_W_STAGE == HS_WR_STAGE &&
		       !(HS_W_PROT & (HS_WR_PRE | HS_WR_POST | HS_WR_STAGE)),
	       "write_scope.h and common/write_rule.h name the same sides");

static unsigned op_match(void *x, const char *abs, unsigned want)
{
	(void)x;
	return hs_wscope_match(abs, want);
}

static bool op_pinned(void *x, const char *abs)
{
	(void)x;
	return hs_wscope_pinned(abs);
}

static bool op_link_to_policy(void *x, const char *link, const char *text)
{
	(void)x;
	return hs_wscope_link_to_policy(link, text);
}

static bool op_is_temp(void *x, const char *abs)
{
	(void)x;
	return is_temp(abs);
}

static bool op_temp_silent(void *x, const char *abs)
{
	(void)x;
	return is_temp(abs) && !temp_judged(abs);
}

/* An in-place change of an existing file's content is "edit" (the tool
 * name Edit) when the agent's own process makes it -- the agent's
 * Write/Edit tool, whatever it is called: from outside, pi's write and
 * edit are the same open(O_TRUNC), Claude Code's the same atomic-save
 * rename. A tool call's shell and what it runs (role "tool"), and a
 * shell started as the agent (`hookshim run -- sh -c ...`) keep
 * "overwrite" (Write): `echo x > f` is a Bash write. An empty file
 * replaced is a create in all but name: "overwrite". */
static const char *op_replace(void *x, const struct stat *sb)
{
	(void)x;
	if (sb->st_size > 0 && hs_state()->role == HS_ROLE_AGENT &&
	    !hs_exe_is_shell())
		return "edit";
	return "overwrite";
}


/* A path relative to the working directory or a directory descriptor
 * that cannot fire: it stays below the directory (no ".."; folding "."
 * and "//" only shortens it), and no glob can match there. Saves the
 * getcwd or readlink, join, fold and match of every file `tar x` writes
 * outside the hooks' paths. */
static bool rel_dead(int dirfd, const char *path, bool follow)
{
	if (!path[0] || path[0] == '/' || follow ||
	    strstr(path, ".."))
		return false;
	if (dirfd == AT_FDCWD)
		return !hs_wscope_cwd_live();
	return !hs_wscope_dirfd_live(dirfd);
}

bool hs_wquick_dead(const struct hs_wcall *c, bool follow)
{
	switch (c->kind) {
	case HS_WK_SYMLINK:
		/* its text may name a protected file from anywhere */
		return rel_dead(c->dirfd2, c->path2, follow) && !hs_wscope_policy();
	case HS_WK_CHMOD:
	case HS_WK_CHOWN:
	case HS_WK_XATTR:
		/* these follow a symlink out of the directory (chmod l, l ->
		 * hooks/guard.sh); rare enough to be named each time */
		return false;
	case HS_WK_LINK: /* the source too: it may be a protected file */
		if (c->flags & AT_SYMLINK_FOLLOW)
			return false; /* a symlink followed goes anywhere */
		/* fall through */
	case HS_WK_RENAME:
		return rel_dead(c->dirfd, c->path, follow) &&
		       rel_dead(c->dirfd2, c->path2, follow);
	default:
		return rel_dead(c->dirfd, c->path, follow);
	}
}

/* A link whose source is a descriptor (AT_EMPTY_PATH, or a magic link:
 * /proc/self/fd/N, /dev/fd/N...): no name of its own to pin. */
static bool link_of_fd(const struct hs_wcall *c)
{
	return ((c->flags & AT_EMPTY_PATH) && !c->path[0]) ||
	       strncmp(c->path, "/proc/", 6) == 0 ||
	       strncmp(c->path, "/dev/fd/", 8) == 0;
}

/* hs_path_abs, remembering a name the kernel takes but no buffer of ours
 * holds (path.h): such a write is denied whatever else it does. */
static int named(struct hs_wticket *t, int dirfd, const char *path,
		 bool follow, bool last, char *out)
{
	int r = hs_path_named(dirfd, path, follow, last, out);

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

	if (!t->follow)
		return named(t, dirfd, path, false, last, out);
	r = hs_path_pinned(dirfd, path, last, out, pin);
	if (r == HS_PATH_TOOLONG && !t->unnamed)
		t->unnamed = path;
	return r;
}

/* The file a link's source is, named into t->path2 as what it is: a
 * descriptor (AT_EMPTY_PATH) by the kernel's name for it, a magic link
 * (/proc/self/fd/N) by its target, a symlink followed (AT_SYMLINK_FOLLOW)
 * by what it resolves to; otherwise by its name, pinned in src_pin. 1
 * named; 0 a file with no name (an O_TMPFILE, a deleted file: the link
 * publishes it, a create); -1 nothing to judge (the call will fail). The
 * floor's link_source (floor/floor_event.c) says the same. */
static int link_source(struct hs_wticket *t, const struct hs_wcall *c,
		       struct hs_path_pin *src_pin)
{
	bool follow = c->flags & AT_SYMLINK_FOLLOW;
	struct stat sb;
	int r;

	if ((c->flags & AT_EMPTY_PATH) && !c->path[0]) {
		r = hs_path_dirfd(c->dirfd, t->path2);
		if (r == HS_PATH_TOOLONG && !t->unnamed)
			t->unnamed = "(a descriptor)";
	} else if (follow) {
		r = named(t, c->dirfd, c->path, true, true, t->path2);
	} else {
		r = named_pinned(t, c->dirfd, c->path, false, t->path2,
				 src_pin);
	}
	if (r < 0) /* no name: an O_TMPFILE's descriptor reads "anon" */
		return r == -1 &&
				       fstatat(c->dirfd, c->path, &sb,
					       c->path[0] ? 0 : AT_EMPTY_PATH) ==
					       0 &&
				       sb.st_nlink == 0
			       ? 0
			       : -1;
	/* the name the kernel gave is gone ("... (deleted)"), or the file
	 * has none left: the link makes a new file's only name */
	if ((follow ? stat(t->path2, &sb) : lstat(t->path2, &sb)) != 0 ||
	    sb.st_nlink == 0)
		return 0;
	return 1;
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

/* The plan's events into t: ev[0] is the call's (its pre asked, its post
 * made), ev[1] a second pre; their sides are returned. */
static unsigned take(struct hs_wticket *t, const struct hs_wr_plan *p)
{
	if (!p->n)
		return 0;
	t->op = p->ev[0].op;
	t->post_path = p->ev[0].path;
	t->post_new_path = p->ev[0].new_path;
	if (p->n > 1) {
		t->extra_op = p->ev[1].op;
		t->extra_path = p->ev[1].path;
		t->extra_new = p->ev[1].new_path;
	}
	t->temp_create = p->temp_create;
	t->temp_publish = p->temp_publish;
	t->content_file = p->content_file;
	t->exists = p->exists == 1;
	t->sb = p->sb;
	return p->ev[0].sides;
}

unsigned hs_wclassify(const struct hs_wcall *c, struct hs_wticket *t,
		      unsigned want, bool follow)
{
	struct hs_wr_call r = { .want = want, .flags = c->flags, .a = t->path,
				.b = t->path2, .prot = t->prot };
	/* on the stack, not in static data: the shim's written data must
	 * fit its first page (shim/layout.ld), and a table of pointers is
	 * written data without RELRO */
	const struct hs_wr_ops ops = {
		.match = op_match, .pinned = op_pinned,
		.link_to_policy = op_link_to_policy, .is_temp = op_is_temp,
		.temp_silent = op_temp_silent, .replace_op = op_replace,
	};
	struct hs_path_pin *src_pin;
	struct hs_wr_plan p;
	struct stat sb;
	unsigned m;
	int e;

	t->follow = follow;
	t->post_new_path = NULL;
	t->extra_op = t->extra_new = t->extra_path = NULL;
	t->post_path = t->path;
	t->content_file = NULL;
	t->temp_create = t->temp_publish = NULL;
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
			    : named(t, c->dirfd, c->path, follow, true,
				    t->path);
		if (e < 0)
			return 0;
		if (proc_of_pid(t->path)) {
			t->to_floor = true;
			return 0;
		}
		r.kind = HS_WR_OPEN;
		r.follow = (follow || t->prot) && !hs_open_nofollow(c->flags);
		r.prot = t->prot;
		r.fin = t->path2; /* an atomic save's final name */
		hs_wr_classify(&ops, NULL, &r, &p);
		m = take(t, &p);
		/* a content hook cannot see what freopen writes: it is
		 * asked at the open, as other pre hooks are */
		if (c->kind == HS_WK_REOPEN && (m & HS_W_STAGE))
			m = (m & ~HS_W_STAGE) | HS_W_PRE;
		return m;
	case HS_WK_TRUNC:
		if (named_pinned(t, AT_FDCWD, c->path, true, t->path, &t->pin) < 0)
			return 0;
		r.kind = HS_WR_TRUNC;
		r.follow = follow;
		r.prot = t->prot;
		break;
	case HS_WK_UNLINK:
	case HS_WK_REMOVE:
		/* never follow the last component: unlink removes the link
		 * itself (its directories, with follow_symlinks, are) */
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0)
			return 0;
		r.kind = c->kind == HS_WK_REMOVE ? HS_WR_REMOVE : HS_WR_UNLINK;
		break;
	case HS_WK_MKDIR:
		/* mkdir never follows its last component (EEXIST) */
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0)
			return 0;
		r.kind = HS_WR_MKDIR;
		break;
	case HS_WK_MKNOD:
	case HS_WK_BIND:
		/* a bind is made by its name as written, never pinned: the
		 * address a socket keeps (getsockname, a peer's getpeername)
		 * is the string it was bound with, and bind has no *at form
		 * to make it from a pinned directory (guard mode: a flip of
		 * its directories since is the kernel's walk) */
		if ((c->kind == HS_WK_BIND
			     ? named(t, c->dirfd, c->path, t->follow, false, t->path)
			     : named_pinned(t, c->dirfd, c->path, false, t->path,
					    &t->pin)) < 0)
			return 0;
		r.kind = HS_WR_MKNOD;
		r.mode = (unsigned)c->flags;
		break;
	case HS_WK_SYMLINK:
		/* path = the link made; new_path = its text, as written */
		if (named_pinned(t, c->dirfd2, c->path2, false, t->path, &t->pin) < 0)
			return 0;
		r.kind = HS_WR_SYMLINK;
		r.text = c->path;
		break;
	case HS_WK_LINK:
		/* path = the new name; path2 = the file it names, named as
		 * what it is (link_source) */
		if (named_pinned(t, c->dirfd2, c->path2, false, t->path,
				 &t->pin) < 0)
			return 0;
		/* made on both directories (write_pin.c) unless it follows
		 * its source or names it by descriptor */
		src_pin = (c->flags & AT_SYMLINK_FOLLOW) || link_of_fd(c)
				  ? NULL
				  : &t->pin2;
		if (lstat(t->path, &sb) == 0) {
			/* EEXIST, but on the judged directories: by its names
			 * it could find another one since */
			if (src_pin)
				named_pinned(t, c->dirfd, c->path, false,
					     t->path2, src_pin);
			return 0;
		}
		r.kind = HS_WR_LINK;
		r.src = link_source(t, c, src_pin);
		break;
	case HS_WK_RENAME:
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    named_pinned(t, c->dirfd2, c->path2, false, t->path2,
				 &t->pin2) < 0)
			return 0;
		r.kind = HS_WR_RENAME;
		break;
	case HS_WK_MKTEMP:
		/* The call makes the name; the template names the place.
		 * Only a protected place is judged (a hook's path filter
		 * with writes.judge_temp_files, or a protected tree). */
		if (!(want & HS_W_PRE) ||
		    named(t, c->dirfd, c->path, false, false, t->path) < 0 ||
		    (!temp_judged(t->path) && !t->prot))
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
			/* a file its open created, or a dead directory:
			 * no protected file (write_scope.h) */
			if (hs_wscope_fd_fresh(c->dirfd))
				return 0;
			if ((e = hs_path_dirfd(c->dirfd, t->path)) < 0) {
				if (e == HS_PATH_TOOLONG)
					t->unnamed = "(a descriptor)";
				return 0;
			}
		} else if (named(t, c->dirfd, c->path,
				 !(c->flags & AT_SYMLINK_NOFOLLOW),
				 !(c->flags & AT_SYMLINK_NOFOLLOW), t->path) < 0) {
			return 0;
		}
		if (!hs_wscope_policy_file(t->path))
			return 0;
		t->op = c->kind == HS_WK_CHMOD	 ? "chmod"
			: c->kind == HS_WK_CHOWN ? "chown"
						 : "setxattr";
		return HS_W_PRE;
	default:
		return 0;
	}
	hs_wr_classify(&ops, NULL, &r, &p);
	return take(t, &p);
}
