/* common/write_rule.c, the one write rule of the shim and the floor: a
 * table of calls on a real directory (the rule looks at the names with
 * lstat and stat) under a scripted watch list, each with the events it
 * must make, in order, with their sides and the plan's temp marks. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/write_rule.h"
#include "check.h"

static char dir[64];

/* The scripted session: which names (their last component) each side
 * watches, which are pinned, which temp files a hook's path filter asks
 * about, whether the writer is the agent's own file tool. */
struct watch {
	const char *pre, *post, *stage, *pinned, *policy_links, *judged;
	bool agent_edit;
};

/* Is the last component of abs one of the space-separated names? */
static bool named(const char *list, const char *abs)
{
	const char *b = strrchr(abs, '/');
	size_t n;

	b = b ? b + 1 : abs;
	n = strlen(b);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, " ");

		if (k == n && strncmp(p, b, n) == 0)
			return true;
		p += k + (p[k] == ' ');
	}
	return false;
}

static unsigned w_match(void *x, const char *abs, unsigned want)
{
	const struct watch *w = x;
	unsigned m = 0;

	if ((want & HS_WR_PRE) && named(w->pre, abs))
		m |= HS_WR_PRE;
	if ((want & HS_WR_PRE) && named(w->stage, abs))
		m |= HS_WR_STAGE;
	if ((want & HS_WR_POST) && named(w->post, abs))
		m |= HS_WR_POST;
	return m;
}

static bool w_pinned(void *x, const char *abs)
{
	return named(((const struct watch *)x)->pinned, abs);
}

static bool w_link_to_policy(void *x, const char *link, const char *text)
{
	(void)link;
	return named(((const struct watch *)x)->policy_links, text);
}

static bool w_is_temp(void *x, const char *abs)
{
	(void)x;
	return strstr(abs, ".tmp") != NULL;
}

static bool w_temp_silent(void *x, const char *abs)
{
	return w_is_temp(x, abs) && !named(((const struct watch *)x)->judged, abs);
}

static const char *w_replace(void *x, const struct stat *sb)
{
	return sb->st_size > 0 && ((const struct watch *)x)->agent_edit
		       ? "edit"
		       : "overwrite";
}

/* A look at a name whose last component starts "locked" is refused,
 * as the kernel refuses one through a directory the looker may not
 * search; others are looked at. */
static int locked_stat(void *x, const char *abs, bool follow, struct stat *sb)
{
	const char *b = strrchr(abs, '/');

	(void)x;
	if (strncmp(b ? b + 1 : abs, "locked", 6) == 0) {
		errno = EACCES;
		return -1;
	}
	return follow ? stat(abs, sb) : lstat(abs, sb);
}

static const struct hs_wr_ops ops = {
	.match = w_match, .pinned = w_pinned,
	.link_to_policy = w_link_to_policy, .is_temp = w_is_temp,
	.temp_silent = w_temp_silent, .replace_op = w_replace,
};

static const char *sides(unsigned s)
{
	static char b[32];

	snprintf(b, sizeof(b), "%s%s%s", s & HS_WR_PRE ? "P" : "",
		 s & HS_WR_STAGE ? "S" : "", s & HS_WR_POST ? "p" : "");
	return b;
}

/* The plan as text: "op path [new_path] sides; ..." with names relative
 * to the directory, then " tc=", " tp=", " cf=" marks. */
static const char *show(const struct hs_wr_plan *p)
{
	static char out[1024];
	size_t n = 0, dl = strlen(dir) + 1;

	out[0] = '\0';
	for (int i = 0; i < p->n; i++) {
		const struct hs_wr_event *e = &p->ev[i];

		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s %s", i ? "; " : "",
				      e->op, e->path + dl);
		if (e->new_path)
			n += (size_t)snprintf(out + n, sizeof(out) - n, " %s",
					      e->new_path[0] == '/' ? e->new_path + dl
								    : e->new_path);
		n += (size_t)snprintf(out + n, sizeof(out) - n, " %s", sides(e->sides));
	}
	if (p->temp_create)
		n += (size_t)snprintf(out + n, sizeof(out) - n, " tc=%s", p->temp_create + dl);
	if (p->temp_publish)
		n += (size_t)snprintf(out + n, sizeof(out) - n, " tp=%s", p->temp_publish + dl);
	if (p->content_file)
		snprintf(out + n, sizeof(out) - n, " cf=%s", p->content_file + dl);
	return out;
}

struct row {
	const char *name;
	struct watch w;
	enum hs_wr_kind kind;
	int flags;
	unsigned mode;
	const char *a, *b, *text;
	int src;
	unsigned prot; /* HS_WR_PROT_A|B */
	const char *want;
};

#define PP (HS_WR_PRE | HS_WR_POST)
#define RW (O_WRONLY | O_CREAT | O_TRUNC)

static const struct row rows[] = {
	/* opens */
	{ "open: O_TRUNC of a watched file", { .pre = "f", .post = "f" }, HS_WR_OPEN, RW, 0, "f", 0, 0, 0, 0, "overwrite f Pp" },
	{ "open: the agent's file tool", { .pre = "f", .agent_edit = true }, HS_WR_OPEN, RW, 0, "f", 0, 0, 0, 0, "edit f P" },
	{ "open: an empty file replaced", { .pre = "e", .agent_edit = true }, HS_WR_OPEN, RW, 0, "e", 0, 0, 0, 0, "overwrite e P" },
	{ "open: a new file", { .pre = "n" }, HS_WR_OPEN, RW, 0, "n", 0, 0, 0, 0, "create n P" },
	{ "open: no O_CREAT, absent", { .pre = "n" }, HS_WR_OPEN, O_WRONLY, 0, "n", 0, 0, 0, 0, "" },
	{ "open: O_EXCL on an existing file", { .pre = "f" }, HS_WR_OPEN, O_WRONLY | O_CREAT | O_EXCL, 0, "f", 0, 0, 0, 0, "" },
	{ "open: a fifo", { .pre = "p" }, HS_WR_OPEN, O_WRONLY, 0, "p", 0, 0, 0, 0, "" },
	{ "open: O_APPEND", { .post = "f" }, HS_WR_OPEN, O_WRONLY | O_APPEND, 0, "f", 0, 0, 0, 0, "append f p" },
	{ "open: in place", { .pre = "f" }, HS_WR_OPEN, O_RDWR, 0, "f", 0, 0, 0, 0, "modify f P" },
	{ "open: write-only, in place, by a tool call", { .pre = "f" }, HS_WR_OPEN, O_WRONLY, 0, "f", 0, 0, 0, 0, "modify f P" },
	{ "open: write-only by the agent's file tool (Copilot CLI: then ftruncate)", { .pre = "f", .agent_edit = true }, HS_WR_OPEN, O_WRONLY, 0, "f", 0, 0, 0, 0, "edit f P" },
	{ "open: ... O_CREAT without O_TRUNC (Bun: write, then ftruncate)", { .pre = "f", .agent_edit = true }, HS_WR_OPEN, O_WRONLY | O_CREAT, 0, "f", 0, 0, 0, 0, "edit f P" },
	{ "open: ... of an empty file", { .pre = "e", .agent_edit = true }, HS_WR_OPEN, O_WRONLY | O_CREAT, 0, "e", 0, 0, 0, 0, "overwrite e P" },
	{ "open: ... read-write stays in place (a database)", { .pre = "f", .agent_edit = true }, HS_WR_OPEN, O_RDWR, 0, "f", 0, 0, 0, 0, "modify f P" },
	{ "open: ... appending", { .pre = "f", .agent_edit = true }, HS_WR_OPEN, O_WRONLY | O_APPEND, 0, "f", 0, 0, 0, 0, "append f P" },
	{ "open: unwatched", { .pre = "g" }, HS_WR_OPEN, RW, 0, "f", 0, 0, 0, 0, "" },
	{ "open: leads to a protected file", { .pre = "g" }, HS_WR_OPEN, RW, 0, "f", 0, 0, 0, 1, "overwrite f P" },
	{ "open: a content hook's file is staged", { .pre = "f", .stage = "f" }, HS_WR_OPEN, RW, 0, "f", 0, 0, 0, 0, "overwrite f PS" },
	{ "open: a temp file, silent", { .pre = "x.tmp" }, HS_WR_OPEN, RW, 0, "x.tmp", 0, 0, 0, 0, "" },
	{ "open: a temp file a filter asks about", { .pre = "x.tmp", .judged = "x.tmp" }, HS_WR_OPEN, RW, 0, "x.tmp", 0, 0, 0, 0, "create x.tmp P" },
	{ "open: an atomic save's temp file fires its file's Write", { .pre = "f" }, HS_WR_OPEN, O_WRONLY | O_CREAT | O_EXCL, 0, "f.tmp.4242.abcdef", 0, 0, 0, 0, "overwrite f P tc=f.tmp.4242.abcdef" },
	{ "open: ... not when a content hook waits for its content", { .pre = "f", .stage = "f" }, HS_WR_OPEN, O_WRONLY | O_CREAT | O_EXCL, 0, "f.tmp.4242.abcdef", 0, 0, 0, 0, "" },
	{ "open: ... a new one is a create", { .pre = "n" }, HS_WR_OPEN, O_WRONLY | O_CREAT | O_EXCL, 0, "n.tmp.4242.abcdef", 0, 0, 0, 0, "create n P tc=n.tmp.4242.abcdef" },
	/* truncate, unlink, mkdir, mknod */
	{ "truncate", { .pre = "f", .stage = "f" }, HS_WR_TRUNC, 0, 0, "f", 0, 0, 0, 0, "truncate f P" },
	{ "truncate: absent", { .pre = "n" }, HS_WR_TRUNC, 0, 0, "n", 0, 0, 0, 0, "" },
	{ "unlink", { .pre = "f", .post = "f" }, HS_WR_UNLINK, 0, 0, "f", 0, 0, 0, 0, "delete f Pp" },
	{ "unlink: rmdir", { .pre = "dir" }, HS_WR_UNLINK, AT_REMOVEDIR, 0, "dir", 0, 0, 0, 0, "rmdir dir P" },
	{ "remove: a directory", { .pre = "dir" }, HS_WR_REMOVE, 0, 0, "dir", 0, 0, 0, 0, "rmdir dir P" },
	{ "unlink: a temp file", { .pre = "y.tmp" }, HS_WR_UNLINK, 0, 0, "y.tmp", 0, 0, 0, 0, "" },
	{ "unlink: absent", { .pre = "n" }, HS_WR_UNLINK, 0, 0, "n", 0, 0, 0, 0, "" },
	{ "mkdir", { .post = "n" }, HS_WR_MKDIR, 0, 0, "n", 0, 0, 0, 0, "mkdir n p" },
	{ "mkdir: exists", { .pre = "dir" }, HS_WR_MKDIR, 0, 0, "dir", 0, 0, 0, 0, "" },
	{ "mknod: a regular file", { .pre = "n" }, HS_WR_MKNOD, 0, S_IFREG, "n", 0, 0, 0, 0, "create n P" },
	{ "mknod: a fifo", { .pre = "n" }, HS_WR_MKNOD, 0, S_IFIFO, "n", 0, 0, 0, 0, "mknod n P" },
	{ "mknod: a silent temp file", { .pre = "z.tmp" }, HS_WR_MKNOD, 0, 0, "z.tmp", 0, 0, 0, 0, "" },
	/* names in a protected tree however the path names them */
	{ "unlink: in a protected tree", { .pre = "x" }, HS_WR_UNLINK, 0, 0, "f", 0, 0, 0, HS_WR_PROT_A, "delete f P" },
	{ "mkdir: in a protected tree", { .post = "n" }, HS_WR_MKDIR, 0, 0, "n", 0, 0, 0, HS_WR_PROT_A, "mkdir n Pp" },
	{ "open: a new file in a protected tree", { .pre = "x" }, HS_WR_OPEN, RW, 0, "n", 0, 0, 0, HS_WR_PROT_A, "create n P" },
	{ "open: a temp file in a protected tree is no silent one", { .pre = "x" }, HS_WR_OPEN, RW, 0, "x.tmp", 0, 0, 0, HS_WR_PROT_A, "create x.tmp P" },
	{ "rename: out of a protected tree", { .pre = "x" }, HS_WR_RENAME, 0, 0, "f", "n", 0, 0, HS_WR_PROT_A, "rename f n P" },
	{ "rename: into a protected tree", { .pre = "x" }, HS_WR_RENAME, 0, 0, "f", "g", 0, 0, HS_WR_PROT_B, "overwrite g P" },
	{ "link: a new name in a protected tree", { .pre = "x" }, HS_WR_LINK, 0, 0, "n", "f", 0, 1, HS_WR_PROT_A, "link n f P" },
	{ "unlink: a protected name a post hook watches", { .post = "f" }, HS_WR_UNLINK, 0, 0, "f", 0, 0, 0, HS_WR_PROT_A, "delete f Pp" },
	/* symlinks */
	{ "symlink", { .pre = "n" }, HS_WR_SYMLINK, 0, 0, "n", 0, "f", 0, 0, "symlink n f P" },
	{ "symlink: to a protected file", { .policy_links = "hook.sh" }, HS_WR_SYMLINK, 0, 0, "n", 0, "hook.sh", 0, 0, "symlink n hook.sh P" },
	{ "symlink: at a pinned name", { .pinned = "n" }, HS_WR_SYMLINK, 0, 0, "n", 0, "f", 0, 0, "symlink n f P" },
	{ "symlink: exists", { .pre = "l" }, HS_WR_SYMLINK, 0, 0, "l", 0, "f", 0, 0, "" },
	/* links */
	{ "link: both names watched", { .pre = "n f", .post = "n" }, HS_WR_LINK, 0, 0, "n", "f", 0, 1, 0, "link n f Pp; link f n P" },
	{ "link: a new name for a watched file", { .pre = "f" }, HS_WR_LINK, 0, 0, "n", "f", 0, 1, 0, "link f n P" },
	{ "link: the source's post is no event", { .post = "f" }, HS_WR_LINK, 0, 0, "n", "f", 0, 1, 0, "" },
	{ "link: a file without a name published", { .pre = "n" }, HS_WR_LINK, 0, 0, "n", "f", 0, 0, 0, "create n P" },
	{ "link: a temp file published", { .pre = "n" }, HS_WR_LINK, 0, 0, "n", "y.tmp", 0, 1, 0, "create n P" },
	{ "link: nothing to link", { .pre = "n f" }, HS_WR_LINK, 0, 0, "n", "f", 0, -1, 0, "" },
	{ "link: the new name exists", { .pre = "l f" }, HS_WR_LINK, 0, 0, "l", "f", 0, 1, 0, "" },
	/* renames */
	{ "rename: a watched file over a watched one", { .pre = "f g", .post = "f" }, HS_WR_RENAME, 0, 0, "f", "g", 0, 0, 0, "rename f g Pp; overwrite g P" },
	{ "rename: a watched file to a new name", { .pre = "f n" }, HS_WR_RENAME, 0, 0, "f", "n", 0, 0, 0, "rename f n P; create n P" },
	{ "rename: RENAME_NOREPLACE never replaces", { .pre = "f g" }, HS_WR_RENAME, RENAME_NOREPLACE, 0, "f", "g", 0, 0, 0, "rename f g P; create g P" },
	{ "rename: an unwatched file into watched ground", { .pre = "g", .post = "g", .agent_edit = true }, HS_WR_RENAME, 0, 0, "f", "g", 0, 0, 0, "edit g Pp" },
	{ "rename: a temp file published", { .pre = "g y.tmp" }, HS_WR_RENAME, 0, 0, "y.tmp", "g", 0, 0, 0, "overwrite g P tp=y.tmp" },
	{ "rename: a content hook reads the renamed file", { .stage = "g" }, HS_WR_RENAME, 0, 0, "y.tmp", "g", 0, 0, 0, "overwrite g P tp=y.tmp cf=y.tmp" },
	{ "rename: a pinned name moved away", { .pinned = "dir" }, HS_WR_RENAME, 0, 0, "dir", "n", 0, 0, 0, "rename dir n P" },
	{ "rename: a source only a post hook watches, a target a pre hook does", { .pre = "g", .post = "f", .agent_edit = true }, HS_WR_RENAME, 0, 0, "f", "g", 0, 0, 0, "rename f g p; edit g P" },
	{ "rename: nothing watched", { .pre = "x" }, HS_WR_RENAME, 0, 0, "f", "g", 0, 0, 0, "" },
	{ "rename: the source is absent", { .pre = "n g" }, HS_WR_RENAME, 0, 0, "n", "g", 0, 0, 0, "" },
	/* exchanges */
	{ "exchange: both watched", { .pre = "f g", .post = "f g" }, HS_WR_RENAME, RENAME_EXCHANGE, 0, "f", "g", 0, 0, 0, "exchange f g Pp; exchange g f P" },
	{ "exchange: the second name's post", { .pre = "f", .post = "g" }, HS_WR_RENAME, RENAME_EXCHANGE, 0, "f", "g", 0, 0, 0, "exchange g f p; exchange f g P" },
	{ "exchange: a pinned name", { .pinned = "g" }, HS_WR_RENAME, RENAME_EXCHANGE, 0, "f", "g", 0, 0, 0, "exchange g f P" },
	{ "exchange: a temp name stays a name", { .pre = "y.tmp" }, HS_WR_RENAME, RENAME_EXCHANGE, 0, "y.tmp", "f", 0, 0, 0, "exchange y.tmp f P" },
	{ "exchange: the other name is absent", { .pre = "f n" }, HS_WR_RENAME, RENAME_EXCHANGE, 0, "f", "n", 0, 0, 0, "" },
};

static void make(const char *name, const char *body)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(body, f);
		fclose(f);
	}
}

int main(void)
{
	char p[PATH_MAX], a[PATH_MAX], b[PATH_MAX], fin[PATH_MAX];
	struct hs_wr_plan plan;

	snprintf(dir, sizeof(dir), "/tmp/hookshim-wrule.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	make("f", "content\n");
	make("g", "other\n");
	make("e", "");
	make("y.tmp", "temp\n");
	snprintf(p, sizeof(p), "%s/dir", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/p", dir);
	mkfifo(p, 0644);
	snprintf(p, sizeof(p), "%s/l", dir);
	if (symlink("f", p) != 0)
		return 1;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct watch w = r->w;
		struct hs_wr_call c = {
			.kind = r->kind, .flags = r->flags, .mode = r->mode,
			.a = a, .b = r->b ? b : NULL, .text = r->text,
			.src = r->src, .prot = r->prot,
			.want = HS_WR_PRE | HS_WR_POST, .fin = fin,
		};

		snprintf(a, sizeof(a), "%s/%s", dir, r->a);
		if (r->b)
			snprintf(b, sizeof(b), "%s/%s", dir, r->b);
		hs_wr_classify(&ops, &w, &c, &plan);
		CHECK_STR(r->name, r->want, show(&plan));
	}

	/* pre only asked: no post side anywhere */
	{
		struct watch w = { .pre = "f g", .post = "f g" };
		struct hs_wr_call c = { .kind = HS_WR_RENAME, .a = a, .b = b,
					.want = HS_WR_PRE, .fin = fin };

		snprintf(a, sizeof(a), "%s/f", dir);
		snprintf(b, sizeof(b), "%s/g", dir);
		hs_wr_classify(&ops, &w, &c, &plan);
		CHECK_STR("rename: only the pre side asked", "rename f g P; overwrite g P", show(&plan));
	}

	/* a name whose look is refused (EACCES: a directory above it the
	 * looker may not search, where the caller's relative walk need not
	 * cross it): judged as a write that may make or change it, never
	 * taken for one that fails */
	{
		static const struct {
			const char *name;
			enum hs_wr_kind kind;
			int flags;
			const char *a, *b, *want;
		} untold[] = {
			{ "refused look: an open that replaces whole (a Write, made or not)", HS_WR_OPEN, RW, "locked", 0, "overwrite locked P" },
			{ "refused look: an open that may create", HS_WR_OPEN, O_WRONLY | O_CREAT, "locked", 0, "create locked P" },
			{ "refused look: a temp file stays silent", HS_WR_OPEN, RW, "locked.tmp", 0, "" },
			{ "refused look: a content hook's file is asked, not staged", HS_WR_OPEN, RW, "lockedst", 0, "overwrite lockedst P" },
			{ "refused look: appending", HS_WR_OPEN, O_WRONLY | O_APPEND, "locked", 0, "append locked P" },
			{ "refused look: in place", HS_WR_OPEN, O_RDWR, "locked", 0, "modify locked P" },
			{ "refused look: truncate", HS_WR_TRUNC, 0, "locked", 0, "truncate locked P" },
			{ "refused look: unlink", HS_WR_UNLINK, 0, "locked", 0, "delete locked P" },
			{ "refused look: a rename away", HS_WR_RENAME, 0, "locked", "n", "rename locked n P" },
			{ "refused look: a rename onto it", HS_WR_RENAME, 0, "f", "locked", "overwrite locked P" },
			{ "refused look: an exchange", HS_WR_RENAME, RENAME_EXCHANGE, "f", "locked", "exchange locked f P" },
			{ "refused look: mkdir", HS_WR_MKDIR, 0, "locked", 0, "mkdir locked P" },
		};
		struct hs_wr_ops o2 = ops;

		o2.stat = locked_stat;
		for (size_t i = 0; i < sizeof(untold) / sizeof(untold[0]); i++) {
			struct watch w = { .pre = "locked locked.tmp",
					   .stage = "lockedst" };
			struct hs_wr_call c = {
				.kind = untold[i].kind, .flags = untold[i].flags,
				.a = a, .b = untold[i].b ? b : NULL,
				.want = HS_WR_PRE | HS_WR_POST, .fin = fin,
			};

			snprintf(a, sizeof(a), "%s/%s", dir, untold[i].a);
			if (untold[i].b)
				snprintf(b, sizeof(b), "%s/%s", dir, untold[i].b);
			hs_wr_classify(&o2, &w, &c, &plan);
			CHECK_STR(untold[i].name, untold[i].want, show(&plan));
		}
	}

	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	if (system(p) != 0)
		return 1;
	CHECK_DONE();
}
