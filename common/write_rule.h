/* What one write call means: the one rule the shim (shim/write_classify.c,
 * a libc call of its own process) and the floor (floor/floor_event.c, a
 * notified syscall of another) both follow, so that a dynamic program and
 * a static one writing the same file fire the same events.
 *
 * Each caller names the call's paths its own way (the shim from its own
 * cwd and descriptors, pinned with follow_symlinks; the floor from the
 * stopped caller's /proc) and says what its hooks watch (ops below); the
 * rule decides the rest, looking at the names (lstat/stat, never
 * touching) only as far as it needs:
 *   - an open fires only when it will write a regular file: "create"
 *     (O_CREAT, the file absent), "overwrite"/"edit" (O_TRUNC, or
 *     O_WRONLY from the agent's own process: the caller's replace_op),
 *     "append", "modify"; O_EXCL on an existing
 *     file, fifos, devices fire nothing;
 *   - a new file whose name looks like a temp file (common/temp_name.h),
 *     or that mkstemp made, fires nothing unless writes.judge_temp_files
 *     names its place (ops->temp_silent); its publishing rename does, as
 *     a create or overwrite of the target; one whose name says which file
 *     its atomic save publishes fires that file's Write at its open
 *     (temp_create), so a denial keeps even the temp file off the disk;
 *   - a rename of a watched file is a "rename" (new_path the target),
 *     with the target's own create/overwrite as a second pre when a pre
 *     hook watches it; renameat2(RENAME_EXCHANGE) an "exchange" at each
 *     name; a link a "link" at its new name and, when a pre hook watches
 *     its source, at the source (a new name for a protected file is a
 *     write to it); a symlink a "symlink" (new_path its text);
 *   - the root, a protected file or a directory above one (ops->pinned)
 *     is not moved away, nor replaced by a symlink or link, unasked.
 * Async-signal-safe: no allocation, no lock (the shim calls it on the
 * paths of vfork children). Table-tested in tests/unit/test_write_rule.c. */
#ifndef HOOKSHIM_COMMON_WRITE_RULE_H
#define HOOKSHIM_COMMON_WRITE_RULE_H

#include <stdbool.h>
#include <sys/stat.h>

/* Sides a hook may fire on. STAGE: a pre hook that reads the written
 * content (a '%' line of the write filter); PRE then says whether
 * another pre hook may fire. */
#define HS_WR_PRE   1u
#define HS_WR_POST  2u
#define HS_WR_STAGE 8u

/* hs_wr_call.prot */
#define HS_WR_PROT_A 1u
#define HS_WR_PROT_B 2u

enum hs_wr_kind {
	HS_WR_OPEN,    /* a: the file opened; flags: open(2)'s */
	HS_WR_TRUNC,   /* a: the file */
	HS_WR_UNLINK,  /* a: the name; flags: AT_REMOVEDIR */
	HS_WR_REMOVE,  /* a: the name; remove(3): rmdir when a directory */
	HS_WR_MKDIR,   /* a: the directory made */
	HS_WR_MKNOD,   /* a: the node made; mode: its type */
	HS_WR_SYMLINK, /* a: the link made; text: its text, as written */
	HS_WR_LINK,    /* a: the new name; b: the source, named as what it
			* is (src); flags: linkat's */
	HS_WR_RENAME,  /* a: the source; b: the target; flags: renameat2's */
};

/* What the caller's hooks watch, asked as the rule needs it; x is the
 * caller's. */
struct hs_wr_ops {
	/* The sides (HS_WR_*) of `want` a hook may fire on for a write to
	 * abs: the hooks' globs within the write scope, and a protected
	 * file's PRE whatever the scope. */
	unsigned (*match)(void *x, const char *abs, unsigned want);
	/* The root, a protected file, or a directory above one? */
	bool (*pinned)(void *x, const char *abs);
	/* Would a symlink at link with this text lead to a protected file
	 * or into a protected tree? */
	bool (*link_to_policy)(void *x, const char *link, const char *text);
	/* Is abs a temp file: a temp's name, or one mkstemp made? */
	bool (*is_temp)(void *x, const char *abs);
	/* A new file at abs that fires nothing (a temp no hook's path
	 * filter asks about)? */
	bool (*temp_silent)(void *x, const char *abs);
	/* The operation of an in-place change of the existing file sb:
	 * "edit" (the agent's own file tool) or "overwrite". */
	const char *(*replace_op)(void *x, const struct stat *sb);
	/* stat (follow) or lstat, as they answer; NULL: those */
	int (*stat)(void *x, const char *abs, bool follow, struct stat *sb);
};

struct hs_wr_call {
	enum hs_wr_kind kind;
	int flags;
	unsigned mode;
	const char *a, *b, *text;
	/* open, truncate: a is looked at through a symlink at its end (with
	 * writes.follow_symlinks, or when it leads to a protected file) */
	bool follow;
	/* what the names are by identity, whatever their own scope:
	 * HS_WR_PROT_A, a leads to a protected file or is in a protected
	 * tree (its directory is one of the tree's); HS_WR_PROT_B, b is in
	 * one. A pre, for the built-in rule to judge. */
	unsigned prot;
	/* link: its source is named in b (1), has no name (0: an O_TMPFILE,
	 * a deleted file, which the link publishes), or cannot be (-1) */
	int src;
	unsigned want; /* HS_WR_PRE|HS_WR_POST (and the caller's own bits,
			* passed to ops->match) */
	char *fin;     /* PATH_MAX bytes for the name a temp file publishes */
};

struct hs_wr_event {
	const char *op;       /* static string */
	const char *path, *new_path;
	unsigned sides;       /* HS_WR_PRE|HS_WR_POST|HS_WR_STAGE */
};

/* ev[0] is the call's event: the one its post (if any) is of, asked
 * first; ev[1] a second pre (a rename's target, a link's source, an
 * exchange's other name), or the first's pre when the post is
 * elsewhere. */
struct hs_wr_plan {
	struct hs_wr_event ev[2];
	int n;
	const char *temp_create;  /* this open makes the temp file whose
				   * atomic save ev[0] is */
	const char *temp_publish; /* this rename publishes that temp file */
	const char *content_file; /* a rename's source, for content hooks */
	int exists;               /* open: a exists (sb), 0 not, -1 error */
	struct stat sb;
};

/* Fills p; p->n events (0: nothing any hook can care about). */
void hs_wr_classify(const struct hs_wr_ops *o, void *x,
		    const struct hs_wr_call *c, struct hs_wr_plan *p);

/* STAGE as PRE: a call other than an open (and a rename, which carries
 * its content_file) cannot be staged, its content hooks are asked as any
 * pre hook. */
static inline unsigned hs_wr_stage_as_pre(unsigned m)
{
	return m & HS_WR_STAGE ? (m & ~HS_WR_STAGE) | HS_WR_PRE : m;
}

#endif
