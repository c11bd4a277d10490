/* The write rule; see write_rule.h. */
#include "write_rule.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "temp_name.h"

/* lstat, or stat when following, through the caller's ops when it has
 * its own (the floor keeps answers for one classification) */
static int st(const struct hs_wr_ops *o, void *x, const char *abs,
	      bool follow, struct stat *sb)
{
	if (o->stat)
		return o->stat(x, abs, follow, sb);
	return follow ? stat(abs, sb) : lstat(abs, sb);
}

/* The same: 1 exists (*sb), 0 not, -1 error -- the call fails anyway
 * (ENOTDIR, ELOOP, ...) -- or UNTOLD: the look was refused (EACCES,
 * EPERM), the name's directories ones the looker may not search, where
 * the caller's own walk, from its working directory or a descriptor,
 * need not cross them (`chmod 000 ..` above the session root: every
 * write by a relative name went unjudged, taken for one that fails). */
#define UNTOLD (-2)
static int look(const struct hs_wr_ops *o, void *x, const char *abs,
		bool follow, struct stat *sb)
{
	if (st(o, x, abs, follow, sb) == 0)
		return 1;
	return errno == ENOENT			  ? 0
	       : errno == EACCES || errno == EPERM ? UNTOLD
						   : -1;
}

static void add(struct hs_wr_plan *p, const char *op, const char *path,
		const char *new_path, unsigned sides)
{
	if (!sides || p->n >= 2)
		return;
	p->ev[p->n].op = op;
	p->ev[p->n].path = path;
	p->ev[p->n].new_path = new_path;
	p->ev[p->n].sides = sides;
	p->n++;
}

/* A pre for the built-in rule: the name `bit` of c is protected by
 * identity (hs_wr_call.prot), and the caller asks about pres. */
static unsigned prot_pre(const struct hs_wr_call *c, unsigned bit)
{
	return (c->prot & bit) && (c->want & HS_WR_PRE) ? HS_WR_PRE : 0;
}

/* A pre of its own when the caller asks about pres and abs is pinned: a
 * new object there would send the hooks' lookups elsewhere. */
static unsigned pinned_pre(const struct hs_wr_ops *o, void *x,
			   const struct hs_wr_call *c, const char *abs)
{
	return (c->want & HS_WR_PRE) && o->pinned(x, abs) ? HS_WR_PRE : 0;
}

/* The operation an open with flags performs on a, or NULL when it fires
 * nothing (it will fail, or it makes a silent temp file). */
static const char *open_op(const struct hs_wr_ops *o, void *x,
			   const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	int fl = c->flags;

	p->exists = look(o, x, c->a, c->follow, &p->sb);
	if (p->exists == UNTOLD) { /* whatever it is: judged */
		struct stat some = { .st_mode = S_IFREG, .st_size = 1 };

		p->exists = -1;
		/* a temp file as silent as ever, but in a protected tree */
		if ((fl & O_CREAT) && !(c->prot & HS_WR_PROT_A) &&
		    o->temp_silent(x, c->a))
			return NULL;
		/* as the tools it may be: a file replaced whole is a Write,
		 * made or not */
		return fl & O_APPEND  ? "append"
		       : fl & O_TRUNC ? o->replace_op(x, &some)
		       : fl & O_CREAT ? "create"
				      : "modify";
	}
	if (p->exists < 0)
		return NULL;
	if (!p->exists) {
		/* a temp file is silent, but not in a protected tree */
		if (!(fl & O_CREAT) ||
		    (!(c->prot & HS_WR_PROT_A) && o->temp_silent(x, c->a)))
			return NULL;
		return "create";
	}
	if ((fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) ||
	    !S_ISREG(p->sb.st_mode))
		return NULL; /* EEXIST, or a fifo/device/dir: no file write */
	if (fl & O_TRUNC)
		return o->replace_op(x, &p->sb);
	if (fl & O_APPEND)
		return "append";
	/* A file written whole without O_TRUNC: Bun opens O_WRONLY|O_CREAT,
	 * writes, then ftruncates to the length (opencode's write and edit
	 * tools); Copilot CLI opens O_WRONLY, ftruncates to 0, writes. From
	 * the agent's own process a write-only open of an existing file is
	 * the replacement an O_TRUNC open is (replace_op, asked as for a
	 * non-empty file, says whose process it is); a shell's `1<>f`, an
	 * O_RDWR database, any tool call's stays "modify". */
	if ((fl & O_ACCMODE) == O_WRONLY) {
		struct stat full = p->sb;

		full.st_size = full.st_size ? full.st_size : 1;
		if (strcmp(o->replace_op(x, &full), "edit") == 0)
			return o->replace_op(x, &p->sb);
	}
	return "modify";
}

/* A new temp file whose name says which file its atomic save publishes
 * (hs_temp_final): that file's Write, fired at this open so that a
 * denial keeps even the temp file off the disk; the rename is then
 * answered from this verdict (supervisor/atomic_save.h) and fires the
 * post. A content hook waits for the rename, where the content is. */
static bool temp_create(const struct hs_wr_ops *o, void *x,
			const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	struct stat sb;
	int e;

	if (!(c->want & HS_WR_PRE) || !(c->flags & O_CREAT) || !c->fin ||
	    !hs_temp_name(c->a) || !hs_temp_final(c->a, c->fin, PATH_MAX) ||
	    (o->match(x, c->fin, c->want & ~HS_WR_POST) &
	     (HS_WR_PRE | HS_WR_STAGE)) !=
		    HS_WR_PRE ||
	    look(o, x, c->a, c->follow, &sb) != 0 ||
	    (e = look(o, x, c->fin, false, &sb)) < 0)
		return false;
	add(p, e ? o->replace_op(x, &sb) : "create", c->fin, NULL, HS_WR_PRE);
	p->temp_create = c->a;
	return true;
}

/* A link: at its new name (a) a "link" (new_path the source), or a
 * "create" when it publishes a file without a name or a temp file; a new
 * name for a file a pre hook watches (`ln secrets/f h`) is a write to
 * that file: a "link" at the source (new_path the new name), alone when
 * the new name is unwatched, else as the second pre. */
static void link_(const struct hs_wr_ops *o, void *x,
		  const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	struct stat sb;
	unsigned m, m2;

	if (st(o, x, c->a, false, &sb) == 0 || c->src < 0)
		return; /* EEXIST, or the call fails anyway */
	m = o->match(x, c->a, c->want) | pinned_pre(o, x, c, c->a) |
	    prot_pre(c, HS_WR_PROT_A);
	if (m && (c->src == 0 || o->is_temp(x, c->b))) {
		add(p, "create", c->a, NULL, hs_wr_stage_as_pre(m));
		return;
	}
	m2 = c->src > 0 && (c->want & HS_WR_PRE)
		     ? o->match(x, c->b, c->want & ~HS_WR_POST) &
			       (HS_WR_PRE | HS_WR_STAGE)
		     : 0;
	add(p, "link", c->a, c->b, hs_wr_stage_as_pre(m));
	add(p, "link", c->b, c->a, m2 ? HS_WR_PRE : 0);
}

/* renameat2(RENAME_EXCHANGE): each name's content is replaced by the
 * other's, and each is moved away: an "exchange" at each name a pre hook
 * watches or that is pinned (path = that name, new_path = the other),
 * posted at the first a post hook watches. No temp name is a publish
 * here: both stay. */
static void exchange(const struct hs_wr_ops *o, void *x,
		     const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	struct stat sb;
	unsigned ma, mb;

	int e = look(o, x, c->b, false, &sb);

	if (e != 1 && e != UNTOLD)
		return; /* ENOENT */
	ma = hs_wr_stage_as_pre(o->match(x, c->a, c->want)) |
	     pinned_pre(o, x, c, c->a) | prot_pre(c, HS_WR_PROT_A);
	mb = hs_wr_stage_as_pre(o->match(x, c->b, c->want)) |
	     pinned_pre(o, x, c, c->b) | prot_pre(c, HS_WR_PROT_B);
	if (ma & HS_WR_POST)
		mb &= ~HS_WR_POST; /* one post: the first name's */
	if (!(ma & HS_WR_POST) && (mb & HS_WR_POST)) {
		/* the post is the second name's: it goes first */
		add(p, "exchange", c->b, c->a, mb);
		add(p, "exchange", c->a, c->b, ma);
		return;
	}
	add(p, "exchange", c->a, c->b, ma);
	add(p, "exchange", c->b, c->a, mb & HS_WR_PRE);
}

/* A rename: a watched source (or a pinned one: the root, a protected
 * file or a directory above one cannot be moved away unasked) is a
 * "rename" to the target, and a target a pre hook watches gets its own
 * pre, as the create/overwrite it is ("mv x secrets/"); an unwatched
 * source moved into watched ground, a temp file published above all, is
 * a create/overwrite of the target. */
static void rename_(const struct hs_wr_ops *o, void *x,
		    const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	bool noreplace = c->flags & RENAME_NOREPLACE;
	struct stat sa, sb;
	unsigned ra, rb, ma, mb;
	const char *op;
	int e;

	if ((e = look(o, x, c->a, false, &sa)) == UNTOLD)
		sa.st_mode = S_IFREG; /* not to be looked at: judged */
	else if (e != 1)
		return;
	if (c->flags & RENAME_EXCHANGE) {
		exchange(o, x, c, p);
		return;
	}
	ra = o->is_temp(x, c->a) ? 0 : o->match(x, c->a, c->want);
	rb = o->match(x, c->b, c->want) | pinned_pre(o, x, c, c->b);
	/* an atomic save: the target's content hooks read the file being
	 * renamed onto it */
	if ((rb & HS_WR_STAGE) && S_ISREG(sa.st_mode))
		p->content_file = c->a;
	ma = hs_wr_stage_as_pre(ra) | pinned_pre(o, x, c, c->a) |
	     prot_pre(c, HS_WR_PROT_A);
	mb = hs_wr_stage_as_pre(rb) | prot_pre(c, HS_WR_PROT_B);
	/* the target as it is: RENAME_NOREPLACE never replaces (EEXIST) */
	e = mb ? look(o, x, c->b, false, &sb) : -1;
	if (e == UNTOLD) /* judged as replaced */
		e = 1, sb.st_mode = S_IFREG, sb.st_size = 1;
	if (e > 0 && noreplace)
		e = 0;
	if (ma) {
		add(p, "rename", c->a, c->b, ma);
		if ((mb & HS_WR_PRE) && e >= 0) {
			/* the source's pre asked first; without one, this is
			 * the call's publish, named as such */
			op = !e ? "create"
			     : ma & HS_WR_PRE ? "overwrite"
					      : o->replace_op(x, &sb);
			add(p, op, c->b, NULL, HS_WR_PRE);
		}
		return;
	}
	if (!mb || e < 0)
		return;
	add(p, e ? o->replace_op(x, &sb) : "create", c->b, NULL, mb);
	if (hs_temp_name(c->a))
		p->temp_publish = c->a;
}

void hs_wr_classify(const struct hs_wr_ops *o, void *x,
		    const struct hs_wr_call *c, struct hs_wr_plan *p)
{
	struct stat sb;
	const char *op;
	unsigned m;
	int e;

	p->n = 0;
	p->temp_create = p->temp_publish = p->content_file = NULL;
	p->exists = -1;
	switch (c->kind) {
	case HS_WR_OPEN:
		if (temp_create(o, x, c, p))
			return;
		m = o->match(x, c->a, c->want) | prot_pre(c, HS_WR_PROT_A);
		if (m && (op = open_op(o, x, c, p)))
			/* STAGE kept: staged -- not where the file could not
			 * be looked at: no stage is made beside it, nor its
			 * content copied (asked as a pre, without content) */
			add(p, op, c->a, NULL,
			    p->exists < 0 ? hs_wr_stage_as_pre(m) : m);
		return;
	case HS_WR_TRUNC:
		m = o->match(x, c->a, c->want) | prot_pre(c, HS_WR_PROT_A);
		if (m && ((e = look(o, x, c->a, c->follow, &sb)) == 1 ||
			  e == UNTOLD))
			add(p, "truncate", c->a, NULL, hs_wr_stage_as_pre(m));
		return;
	case HS_WR_UNLINK:
	case HS_WR_REMOVE:
		/* never the last component followed: unlink removes the link
		 * itself; a temp file goes silently */
		m = o->match(x, c->a, c->want) | prot_pre(c, HS_WR_PROT_A);
		if (!m || o->is_temp(x, c->a))
			return;
		if ((e = look(o, x, c->a, false, &sb)) == UNTOLD)
			sb.st_mode = S_IFREG; /* not to be looked at: judged */
		else if (e != 1)
			return;
		if (c->kind == HS_WR_REMOVE)
			op = S_ISDIR(sb.st_mode) ? "rmdir" : "delete";
		else
			op = c->flags & AT_REMOVEDIR ? "rmdir" : "delete";
		add(p, op, c->a, NULL, hs_wr_stage_as_pre(m));
		return;
	case HS_WR_MKDIR:
		m = o->match(x, c->a, c->want) | prot_pre(c, HS_WR_PROT_A);
		if (m && st(o, x, c->a, false, &sb) != 0)
			add(p, "mkdir", c->a, NULL, hs_wr_stage_as_pre(m));
		return;
	case HS_WR_MKNOD:
		/* a regular file made by mknod is a create as O_CREAT|O_EXCL's;
		 * a fifo, socket or device a "mknod" */
		m = o->match(x, c->a, c->want) | prot_pre(c, HS_WR_PROT_A);
		if (!m || st(o, x, c->a, false, &sb) == 0)
			return;
		if ((c->mode & S_IFMT) == 0 || S_ISREG((mode_t)c->mode)) {
			if ((c->prot & HS_WR_PROT_A) || !o->temp_silent(x, c->a))
				add(p, "create", c->a, NULL, hs_wr_stage_as_pre(m));
		} else {
			add(p, "mknod", c->a, NULL, hs_wr_stage_as_pre(m));
		}
		return;
	case HS_WR_SYMLINK:
		/* new_path = its text, as written; one that would name a
		 * protected file is asked about wherever it is made */
		m = o->match(x, c->a, c->want) | pinned_pre(o, x, c, c->a) |
		    prot_pre(c, HS_WR_PROT_A) |
		    ((c->want & HS_WR_PRE) && o->link_to_policy(x, c->a, c->text)
			     ? HS_WR_PRE
			     : 0);
		if (m && st(o, x, c->a, false, &sb) != 0)
			add(p, "symlink", c->a, c->text, hs_wr_stage_as_pre(m));
		return;
	case HS_WR_LINK:
		link_(o, x, c, p);
		return;
	case HS_WR_RENAME:
		rename_(o, x, c, p);
		return;
	}
}
