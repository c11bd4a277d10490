/* Self-protection: the protected set and the built-in rule; see
 * protect.h. */
#include "protect.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../config/agent_profile.h"
#include "../config/load.h"
#include "../config/trust.h"
#include "hook_runtime.h"
#include "hook_scripts.h"
#include "strbuf.h"

static bool same_name(const struct hs_protect *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i].path, path) == 0)
			return true;
	return false;
}

/* path with its directory as the kernel reaches it (realpath), into
 * out; false when that is the name already, or its directory is not
 * there. */
static bool canonical(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	int n;

	if (!slash || slash == path || !slash[1] ||
	    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >=
		    (int)sizeof(dir) ||
	    !realpath(dir, real) || strcmp(real, dir) == 0)
		return false;
	n = snprintf(out, PATH_MAX, "%s%s", strcmp(real, "/") ? real : "",
		     slash);
	return n > 0 && n < PATH_MAX;
}

/* Adds path (made absolute and folded) unless it is there already. */
static void add(struct hs_protect *p, const char *path, const char *why)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	struct hs_protected *v, *e;
	struct stat sb;

	if (!path || !path[0])
		return;
	if (path[0] == '/') {
		if (snprintf(abs, sizeof(abs), "%s", path) >= (int)sizeof(abs))
			return;
	} else if (!getcwd(cwd, sizeof(cwd)) ||
		   snprintf(abs, sizeof(abs), "%s/%s", cwd, path) >=
			   (int)sizeof(abs)) {
		return;
	}
	hs_path_fold(abs);
	if (same_name(p, abs))
		return;
	if (!(v = realloc(p->v, (p->n + 1) * sizeof(*v))))
		return;
	p->v = v;
	e = &v[p->n];
	memset(e, 0, sizeof(*e));
	if (!(e->path = strdup(abs)) || !(e->why = strdup(why))) {
		free(e->path);
		return;
	}
	if (stat(abs, &sb) == 0) {
		e->has_id = true;
		e->dev = sb.st_dev;
		e->ino = sb.st_ino;
		e->nlink = sb.st_nlink;
	}
	p->n++;
	/* Reached through a symlink: the file itself is protected by its
	 * own name too -- one not there yet by its directory's (a HOME
	 * that is a symlink: ~/.jq made by its real name went unjudged,
	 * session 38's review) */
	if (e->has_id ? realpath(abs, cwd) && strcmp(cwd, abs) != 0
		      : canonical(abs, cwd))
		add(p, cwd, why);
}

struct script_ctx {
	struct hs_protect *p;
	char why[200];
};

static void add_script(const char *path, void *arg)
{
	struct script_ctx *x = arg;

	add(x->p, path, x->why);
}

/* "PreToolUse[Bash]#1": the event, its matcher, the hook's place among
 * the event's hooks (after `prefix`). */
static void hook_label(const struct hs_config *cfg, size_t i,
		       const char *prefix, char *buf, size_t cap)
{
	const struct hs_hook *h = &cfg->hooks[i];
	int nth = 1;

	for (size_t j = 0; j < i; j++)
		nth += strcmp(cfg->hooks[j].event_name, h->event_name) == 0;
	snprintf(buf, cap, "%s%s[%s]#%d", prefix, h->event_name,
		 h->matcher.kind == HS_MATCH_ALL ? "*" : h->matcher.pattern,
		 nth);
}

struct hs_protect *hs_protect_new(const struct hs_config *cfg,
				  const char *log, const char *junit)
{
	struct hs_protect *p = calloc(1, sizeof(*p));
	struct script_ctx x;
	char trust[PATH_MAX];

	if (!p)
		return NULL;
	p->root = strdup(cfg->root ? cfg->root : "/");
	for (size_t i = 0; i < cfg->nsources; i++)
		add(p, cfg->sources[i], "config file");
	for (size_t i = 0; i < cfg->nhooks; i++) {
		x.p = p;
		hook_label(cfg, i, "hook script of ", x.why, sizeof(x.why));
		hs_hook_scripts(cfg, &cfg->hooks[i], add_script, &x);
	}
	/* what else the hooks run and load (hook_runtime.h) */
	for (size_t i = 0; i < cfg->nhooks; i++) {
		hook_label(cfg, i, "", x.why, sizeof(x.why));
		hs_hook_runtime(cfg, &cfg->hooks[i], x.why, p);
	}
	add(p, log, "the --log file");
	add(p, junit, "the --junit file");
	/* the audit records exported to a file, as the log is */
	if (cfg->settings.otlp_set)
		add(p, cfg->settings.otlp_file, "the otlp file");
	/* What the next session trusts (config/trust.h): a record the agent
	 * wrote would load the project file it wrote. The directory, so
	 * that no file is renamed over the records either. Only under a
	 * policy: a session with no hook file protects nothing (and gets no
	 * floor for it). */
	if (cfg->nsources && hs_trust_records(trust, sizeof(trust)) == 0) {
		*strrchr(trust, '/') = '\0';
		hs_protect_put(p, trust, HS_PROT_TREE, "trust records");
	}
	/* What the next session takes for the agent's own shells: a profile
	 * the agent wrote could make any command one (agent_profile.h). */
	if (cfg->nsources && hs_agents_user_dir(trust, sizeof(trust)))
		hs_protect_put(p, trust, HS_PROT_TREE, "agent profiles");
	if (cfg->nsources) {
		char *m = hs_config_managed_dir();

		if (m && snprintf(trust, sizeof(trust), "%s/agents", m) <
				 (int)sizeof(trust))
			hs_protect_put(p, trust, HS_PROT_TREE,
				       "managed agent profiles");
		free(m);
	}
	return p;
}

void hs_protect_put(struct hs_protect *p, const char *path,
		    enum hs_prot_kind kind, const char *why)
{
	size_t n0;

	if (!p)
		return;
	n0 = p->n;
	add(p, path, why);
	for (size_t i = n0; i < p->n; i++)
		p->v[i].kind = kind;
}

void hs_protect_add(struct hs_protect *p, const char *path, const char *why)
{
	if (p)
		add(p, path, why);
}

void hs_protect_free(struct hs_protect *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].path);
		free(p->v[i].why);
	}
	free(p->v);
	free(p->root);
	free(p);
}

/* --- the rule ---------------------------------------------------------- */

/* A path in a reason: control characters escaped, so that a file name
 * cannot forge lines in what the model reads. */
static void put_path(struct hs_strbuf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c >= 0x20 && c != 0x7f) {
			hs_sb_addc(b, (char)c);
			continue;
		}
		snprintf(esc, sizeof(esc), c == '\n' ? "\\n" : "\\x%02x", c);
		hs_sb_adds(b, esc);
	}
}

/* how: 0 path is the protected file, 1 another name of it, 2 a
 * directory holding it, 3 inside it (a tree), 4 a name above it, 5 a
 * symlink to it. */
static char *reason(const char *path, const struct hs_protected *e, int how,
		    const char *verb)
{
	struct hs_strbuf b = { 0 };

	put_path(&b, path);
	if (how) {
		static const char *const rel[] = { "", " is ", " holds ",
						   " is in ", " is above ",
						   " would lead to " };

		hs_sb_adds(&b, rel[how]);
		put_path(&b, e->path);
		hs_sb_adds(&b, ",");
	} else {
		hs_sb_adds(&b, " is");
	}
	hs_sb_adds(&b, " part of this session's policy (");
	hs_sb_adds(&b, e->why);
	hs_sb_adds(&b, "); it cannot be ");
	hs_sb_adds(&b, verb);
	hs_sb_adds(&b, " during the session");
	return hs_sb_take(&b);
}

/* The protected entry `path` names, by name or (stat, or lstat when
 * `nofollow`) by identity; *other: named by another path. */
static const struct hs_protected *which(const struct hs_protect *p,
					const char *path, bool nofollow,
					bool *other)
{
	struct stat sb;

	*other = false;
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i].path, path) == 0)
			return &p->v[i];
	if ((nofollow ? lstat(path, &sb) : stat(path, &sb)) != 0)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].has_id && p->v[i].dev == sb.st_dev &&
		    p->v[i].ino == sb.st_ino) {
			*other = true;
			return &p->v[i];
		}
	return NULL;
}

/* Is dir a proper ancestor of path (both absolute, folded)? */
static bool holds(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[1] != '\0';
	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static bool op_is(const struct hs_event *ev, const char *op)
{
	return ev->operation && strcmp(ev->operation, op) == 0;
}

/* A rename whose source holds the root or a protected file. */
static char *judge_rename_source(const struct hs_protect *p, const char *src)
{
	struct hs_strbuf b = { 0 };

	if (strcmp(src, p->root) == 0 || holds(src, p->root)) {
		put_path(&b, src);
		hs_sb_adds(&b, strcmp(src, p->root) == 0
				       ? " is this session's root"
				       : " holds this session's root");
		hs_sb_adds(&b, "; it cannot be renamed during the session");
		return hs_sb_take(&b);
	}
	for (size_t i = 0; i < p->n; i++)
		if (holds(src, p->v[i].path))
			return reason(src, &p->v[i], 2, "renamed");
	return NULL;
}

/* --- trees and the names above protected ones ------------------------ */

/* The tree `name` is in, by name or by the identity of one of its
 * directories (another name of the tree: a symlink, a bind mount); NULL
 * when none. The name itself being the tree is which()'s. */
static const struct hs_protected *tree_of(const struct hs_protect *p,
					  const char *name)
{
	char dir[PATH_MAX];
	struct stat sb;
	bool ids = false;
	char *slash;

	for (size_t i = 0; i < p->n; i++) {
		if ((p->v[i].kind == HS_PROT_TREE) && holds(p->v[i].path, name))
			return &p->v[i];
		ids |= (p->v[i].kind == HS_PROT_TREE) && p->v[i].has_id;
	}
	if (!ids || snprintf(dir, sizeof(dir), "%s", name) >= (int)sizeof(dir))
		return NULL;
	/* its directories as the kernel will walk them (following) */
	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (stat(dir, &sb) != 0)
			continue;
		for (size_t i = 0; i < p->n; i++)
			if ((p->v[i].kind == HS_PROT_TREE) && p->v[i].has_id &&
			    p->v[i].dev == sb.st_dev && p->v[i].ino == sb.st_ino)
				return &p->v[i];
	}
	return NULL;
}

/* The protected entry a new object at `name` would lead to: name is a
 * directory above it (a symlink made there, or a directory renamed
 * onto it, would send the hook's lookup elsewhere). */
static const struct hs_protected *below(const struct hs_protect *p,
					const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (holds(name, p->v[i].path))
			return &p->v[i];
	return NULL;
}

/* A symlink made to a protected file or into a protected tree: a name
 * for it that writes would be judged by as written (without
 * follow_symlinks), by name, by identity and by where it resolves. Not a
 * program on the hooks' PATH: a venv links its interpreter. */
static const struct hs_protected *link_target(const struct hs_protect *p,
					      const struct hs_event *ev)
{
	const struct hs_protected *e;
	char t[PATH_MAX], real[PATH_MAX];
	const char *text = ev->new_path, *slash = strrchr(ev->path, '/');
	bool other;
	int r;

	if (!text || !text[0])
		return NULL;
	r = text[0] == '/'
		    ? snprintf(t, sizeof(t), "%s", text)
		    : snprintf(t, sizeof(t), "%.*s/%s",
			       (int)(slash ? slash - ev->path : 0), ev->path,
			       text);
	if (r < 0 || r >= (int)sizeof(t))
		return NULL;
	hs_path_fold(t);
	for (int pass = 0; pass < 2; pass++) {
		if ((e = which(p, t, false, &other)) &&
		    e->kind != HS_PROT_ON_PATH)
			return e;
		if ((e = tree_of(p, t)))
			return e;
		if (pass || !realpath(t, real) || strcmp(real, t) == 0)
			break;
		memcpy(t, real, strlen(real) + 1);
	}
	return NULL;
}

/* Inside a protected tree nothing is made, replaced, removed or renamed
 * (a hook's sibling module, a usercustomize.py in its interpreter's user
 * site); above any protected name no symlink, file or renamed directory
 * is made (~/.local -> elsewhere would move ~/.local/bin/jq). */
static char *judge_runtime(const struct hs_protect *p,
			   const struct hs_event *ev)
{
	const struct hs_protected *e;
	bool renaming = op_is(ev, "rename") || op_is(ev, "exchange");
	bool linking = op_is(ev, "link");
	/* a symlink's new_path is its text, no name */
	bool second = ev->new_path && !op_is(ev, "symlink");

	if ((e = tree_of(p, ev->path)))
		return reason(ev->path, e, 3, renaming ? "renamed" : "changed");
	if (second && (e = tree_of(p, ev->new_path)))
		return reason(ev->new_path, e, 3,
			      linking ? "given another name" : "replaced");
	if (op_is(ev, "symlink") && (e = link_target(p, ev)))
		return reason(ev->path, e, 5, "made");
	if ((op_is(ev, "symlink") || op_is(ev, "create") ||
	     op_is(ev, "overwrite") || linking || op_is(ev, "mknod")) &&
	    ((e = below(p, ev->path)) ||
	     (linking && ev->new_path && (e = below(p, ev->new_path)))))
		return reason(e == below(p, ev->path) ? ev->path : ev->new_path,
			      e, 4, "made");
	if (renaming && ev->new_path && (e = below(p, ev->new_path)))
		return reason(ev->new_path, e, 4, "replaced");
	return NULL;
}

static char *judge(const struct hs_protect *p, const struct hs_event *ev)
{
	const struct hs_protected *e;
	bool other, linking = op_is(ev, "link");
	/* an exchange moves both names away, and replaces both */
	bool exchanging = op_is(ev, "exchange");
	bool renaming = op_is(ev, "rename") || exchanging;
	bool nofollow = renaming || linking || op_is(ev, "delete") ||
			op_is(ev, "rmdir") || op_is(ev, "symlink");
	char *r;

	if (!p || ev->op != HS_OP_WRITE || ev->kind != HS_KIND_PRE ||
	    !ev->path)
		return NULL;
	if (renaming && (r = judge_rename_source(p, ev->path)))
		return r;
	if (exchanging && ev->new_path &&
	    (r = judge_rename_source(p, ev->new_path)))
		return r;
	if ((e = which(p, ev->path, nofollow, &other)))
		return reason(ev->path, e, other ? 1 : 0,
			      renaming ? "renamed" : "changed");
	if (!ev->new_path)
		return judge_runtime(p, ev);
	/* rename onto a protected file; a new name for one (link) */
	if ((renaming || linking) &&
	    ((e = which(p, ev->new_path, true, &other)) ||
	     (linking && (e = which(p, ev->new_path, false, &other)))))
		return reason(ev->new_path, e, other ? 1 : 0,
			      linking ? "given another name" : "replaced");
	return judge_runtime(p, ev);
}

/* By name as written, then as its directory is reached: a name through
 * a symlinked directory of the agent's (`ln -s $HOME hh; echo > hh/.jq`,
 * `ln -s .. a; mv a/proj a/old`) is the protected name it reaches, in
 * guard mode too, where the shim asks by the directory's identity
 * (engine/write_filter.c, "@DEV:INO/NAME"; session 38's attack run). */
char *hs_protect_judge(const struct hs_protect *p, const struct hs_event *ev)
{
	char a[PATH_MAX], b[PATH_MAX];
	struct hs_event c;
	bool ca, cb;
	char *r = judge(p, ev);

	if (r || !p || ev->op != HS_OP_WRITE || ev->kind != HS_KIND_PRE ||
	    !ev->path)
		return r;
	ca = canonical(ev->path, a);
	cb = ev->new_path && !op_is(ev, "symlink") &&
	     canonical(ev->new_path, b);
	if (!ca && !cb)
		return NULL;
	c = *ev;
	if (ca)
		c.path = a;
	if (cb)
		c.new_path = b;
	return judge(p, &c);
}
