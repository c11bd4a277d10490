/* Classifying one intercepted write: which path, which operation,
 * whether a hook may care; see write_classify.h. Everything here looks,
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
	int e = look_at(abs, (hs_wopts()->follow || t->prot_target) &&
				     !hs_open_nofollow(fl),
			&sb);

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
 * floor's temp_create (floor/floor_event.c). A content hook waits
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

bool hs_wquick_dead(const struct hs_wcall *c)
{
	switch (c->kind) {
	case HS_WK_SYMLINK:
		/* its text may name a protected file from anywhere */
		return rel_dead(c->dirfd2, c->path2) && !hs_wscope_policy();
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
		r = named(t, c->dirfd, c->path, true, t->path2);
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

/* renameat2(RENAME_EXCHANGE): each name's content is replaced by the
 * other's, and each is moved away. Judged at each name a hook watches or
 * that is pinned (the root, a protected file, a directory above one):
 * op "exchange", path = that name, new_path = the other; the first as
 * the call's pre (and post), the second as its second pre. No temp name
 * is a publish here: both stay. */
static unsigned exchanged(struct hs_wticket *t, unsigned want)
{
	struct stat sb;
	unsigned m, m2;

	if (lstat(t->path2, &sb) != 0)
		return 0; /* ENOENT */
	m = stage_as_pre(hs_wscope_match(t->path, want));
	m2 = stage_as_pre(hs_wscope_match(t->path2, want));
	if ((want & HS_W_PRE) && hs_wscope_pinned(t->path))
		m |= HS_W_PRE;
	if ((want & HS_W_PRE) && hs_wscope_pinned(t->path2))
		m2 |= HS_W_PRE;
	if (!m && !m2)
		return 0;
	if (!m) { /* made the same way round: an exchange is symmetric */
		swap_names(t);
		m = m2;
		m2 = 0;
	}
	t->op = "exchange";
	t->post_new_path = t->path2;
	if (m2 & HS_W_PRE) {
		t->extra_op = "exchange";
		t->extra_new = t->path;
	}
	return m;
}

/* A new object at `abs` (a symlink, a link, a directory renamed there)
 * above a protected name would send the hooks' lookups elsewhere
 * (engine/protect.h): asked about, as a pre. */
static unsigned above_policy(const char *abs, unsigned want)
{
	return (want & HS_W_PRE) && hs_wscope_pinned(abs) ? HS_W_PRE : 0;
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

unsigned hs_wclassify(const struct hs_wcall *c, struct hs_wticket *t,
		      unsigned want)
{
	bool follow = hs_wopts()->follow;
	struct hs_path_pin *src_pin;
	struct stat sb;
	unsigned m, m2;
	int e;

	t->post_new_path = NULL;
	t->extra_op = t->extra_new = NULL;
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
		/* reached by another name: the built-in rule's */
		if (!(m = hs_wscope_match(t->path, want) |
			  (t->prot_target ? HS_W_PRE : 0)))
			return 0;
		t->op = open_op(t->path, c->flags, t);
		/* a content hook cannot see what freopen writes: it is
		 * asked at the open, as other pre hooks are */
		if (c->kind == HS_WK_REOPEN && (m & HS_W_STAGE))
			m = (m & ~HS_W_STAGE) | HS_W_PRE;
		return t->op ? m : 0;
	case HS_WK_TRUNC:
		if (named_pinned(t, AT_FDCWD, c->path, true, t->path, &t->pin) < 0 ||
		    !(m = hs_wscope_match(t->path, want) |
			  (t->prot_target ? HS_W_PRE : 0)) ||
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
		    !(m = hs_wscope_match(t->path, want) | above_policy(t->path, want) |
			  ((want & HS_W_PRE) &&
					   hs_wscope_link_to_policy(t->path, c->path)
				   ? HS_W_PRE : 0)) ||
		    lstat(t->path, &sb) == 0)
			return 0;
		t->op = "symlink";
		t->post_new_path = c->path;
		return m;
	case HS_WK_LINK:
		/* path = the new name; new_path = the file it names, named as
		 * what it is (link_source). An O_TMPFILE or temp source is a
		 * publish: a create of the new name. */
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
		m = hs_wscope_match(t->path, want) | above_policy(t->path, want);
		t->op = "create";
		if (link_source(t, c, src_pin) <= 0 || (m && is_temp(t->path2)))
			return m;
		t->op = "link";
		t->post_new_path = t->path2;
		/* A new name for a protected file (`ln secrets/f h`, or by
		 * its descriptor) is a write to that file: judged at the
		 * source, path = the source, new_path = the new name -- alone
		 * when the new name is unwatched, else as a second pre. */
		m2 = hs_wscope_match(t->path2, want & HS_W_PRE);
		if (m) {
			if (m2 & HS_W_PRE) {
				t->extra_op = "link";
				t->extra_new = t->path;
			}
			return m;
		}
		if (!m2)
			return 0;
		swap_names(t);
		return m2;
	case HS_WK_RENAME:
		if (named_pinned(t, c->dirfd, c->path, false, t->path, &t->pin) < 0 ||
		    named_pinned(t, c->dirfd2, c->path2, false, t->path2,
				 &t->pin2) < 0 ||
		    lstat(t->path, &sb) != 0)
			return 0;
		if (c->flags & RENAME_EXCHANGE)
			return exchanged(t, want);
		m = is_temp(t->path) ? 0
				     : stage_as_pre(hs_wscope_match(t->path, want));
		/* the root, a protected file or a directory above one cannot
		 * be moved away (engine/protect.h) */
		if ((want & HS_W_PRE) && hs_wscope_pinned(t->path))
			m |= HS_W_PRE;
		m2 = hs_wscope_match(t->path2, want) | above_policy(t->path2, want);
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
				t->extra_op = e && !(c->flags & RENAME_NOREPLACE)
						      ? "overwrite"
						      : "create";
			return m;
		}
		/* a temp published, or a file moved into watched ground: the
		 * target is created or overwritten */
		if (!m2 || (e = look(t->path2, &sb)) < 0)
			return 0;
		/* RENAME_NOREPLACE never replaces: EEXIST */
		t->op = e && !(c->flags & RENAME_NOREPLACE) ? replace_op(&sb)
							     : "create";
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
