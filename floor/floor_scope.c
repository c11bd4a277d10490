/* The write filter in the supervisor: the same HOOKSHIM_WRITE text the
 * shim parses (shim/write_scope.h), read the same way, so a write the
 * shim would let pass without asking is also answered by the floor
 * without asking: no hook spawned, nothing logged. The floor asks both
 * sides (its posts fire at the call's end, floor_post.c), and so does a
 * nested session (supervisor/outer.c) of each session's filter. */
#include "floor_int.h"

#include "../common/proclink.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/agent_place.h"
#include "../common/glob.h"
#include "../common/write_rule.h"
#include "../common/pathfold.h"

struct globs {
	char **g; /* NULL entry: the session root */
	size_t n;
	bool all;
};

struct hs_fscope {
	char *root;
	char *alias; /* the root's logical name ("=" line), or NULL */
	struct globs inc, exc, pre, post;
	struct globs rd; /* '(' lines: a Read hook's paths (floor_read.c) */
	struct globs stage; /* '%' lines: a content hook's paths, also in pre */
	struct globs prot; /* '!' lines: protected files, literal paths */
	struct globs trees; /* '^' lines: protected trees (hook_runtime.h) */
	struct globs pdirs, pnames; /* '&' lines: PATH directories, names */
	/* the agent's own writes beyond the scope (common/agent_place.h):
	 * 'A' where, 'a' not there, 'n' names whose places are its own
	 * under home ('~') */
	struct globs ainc, aexc, names;
	char *home;
	struct ident {
		unsigned long long dev, ino;
		bool multi; /* "+": it had other names at session start */
		bool dir;   /* "/": a protected tree's directory */
	} *ids;            /* '@' lines: "DEV:INO[+/]" */
	size_t nids;
	bool any_multi, any_dir;
	bool follow, quiet, agent_only, judge_temps, own_name;
};

static void add(struct globs *gs, const char *g)
{
	char **v = realloc(gs->g, (gs->n + 1) * sizeof(*v));

	if (!v)
		return;
	gs->g = v;
	gs->g[gs->n++] = g ? strdup(g) : NULL;
}

static void put(struct globs *gs, const char *g)
{
	if (strcmp(g, "*") == 0)
		gs->all = true;
	else
		add(gs, g);
}

static void add_id(struct hs_fscope *sc, const char *l)
{
	struct ident id, *v;
	int end = 0;

	/* (a name by its directory's, "DEV:INO/NAME", is the shim's: the
	 * floor follows names itself) */
	if (sscanf(l, "%llu:%llu%n", &id.dev, &id.ino, &end) != 2 ||
	    (l[end] == '/' && l[end + 1]) ||
	    !(v = realloc(sc->ids, (sc->nids + 1) * sizeof(*v))))
		return;
	id.multi = l[end] == '+';
	id.dir = l[end] == '/';
	sc->any_multi |= id.multi;
	sc->any_dir |= id.dir;
	sc->ids = v;
	sc->ids[sc->nids++] = id;
}

static void parse_line(struct hs_fscope *sc, const char *l)
{
	struct globs *gs = NULL;

	switch (l[0]) {
	case '+': gs = &sc->inc; break;
	case '-': gs = &sc->exc; break;
	case '%':
		/* a content hook's paths: the floor cannot stage, it asks at
		 * the open like any pre (docs/staged-writes.md), but an
		 * atomic save waits for its rename, where the content is */
		put(&sc->stage, l + 1);
		/* fall through */
	case '<': gs = &sc->pre; break;
	case '>': gs = &sc->post; break;
	case '(': gs = &sc->rd; break;
	case 'A': gs = &sc->ainc; break;
	case 'a': gs = &sc->aexc; break;
	case 'n':
		if (l[1])
			add(&sc->names, l + 1);
		return;
	case '~':
		if (l[1] == '/' && !sc->home)
			sc->home = strdup(l + 1);
		return;
	case '!':
		if (l[1] == '/')
			add(&sc->prot, l + 1);
		return;
	case '^':
		if (l[1] == '/')
			add(&sc->trees, l + 1);
		return;
	case '&':
		if (l[1])
			add(l[1] == '/' ? &sc->pdirs : &sc->pnames, l + 1);
		return;
	case '@':
		add_id(sc, l + 1);
		return;
	case 'o':
		sc->agent_only |= l[1] == 'a';
		sc->follow |= l[1] == 'f';
		sc->quiet |= l[1] == 'q';
		sc->judge_temps |= l[1] == 't';
		sc->own_name |= l[1] == 'c';
		return;
	case '=':
		if (l[1] == '/' && !sc->alias)
			sc->alias = strdup(l + 1);
		return;
	default: return;
	}
	put(gs, l + 1);
}

struct hs_fscope *hs_fscope_new(const char *text, const char *root)
{
	struct hs_fscope *sc = calloc(1, sizeof(*sc));
	char *copy, *save = NULL;

	if (!sc)
		return NULL;
	sc->root = strdup(root ? root : "/");
	if (!text || strncmp(text, "hsw1\n", 5) != 0) {
		/* as the shim (shim/write_scope.c): every write and read
		 * in the root */
		sc->pre.all = sc->post.all = sc->rd.all = true;
		add(&sc->inc, NULL);
		return sc;
	}
	copy = strdup(text + 5);
	for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save))
		parse_line(sc, l);
	free(copy);
	if (!sc->inc.n && !sc->inc.all && sc->root[0])
		add(&sc->inc, NULL);
	return sc;
}

static void free_globs(struct globs *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		free(gs->g[i]);
	free(gs->g);
}

void hs_fscope_free(struct hs_fscope *sc)
{
	if (!sc)
		return;
	free_globs(&sc->inc);
	free_globs(&sc->exc);
	free_globs(&sc->pre);
	free_globs(&sc->post);
	free_globs(&sc->rd);
	free_globs(&sc->stage);
	free_globs(&sc->prot);
	free_globs(&sc->trees);
	free_globs(&sc->pdirs);
	free_globs(&sc->pnames);
	free_globs(&sc->ainc);
	free_globs(&sc->aexc);
	free_globs(&sc->names);
	free(sc->home);
	free(sc->ids);
	free(sc->root);
	free(sc->alias);
	free(sc);
}

static bool under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return p[0] == '/';
	return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

static bool glob_at(const struct hs_fscope *sc, const char *g, const char *p)
{
	return g ? hs_glob_match(g, p, true) : under(p, sc->root);
}

static bool any(const struct hs_fscope *sc, const struct globs *gs,
		const char *p)
{
	if (gs->all)
		return true;
	for (size_t i = 0; i < gs->n; i++)
		if (glob_at(sc, gs->g[i], p))
			return true;
	return false;
}

/* Kernel interfaces, never files anyone edits (the shim's rule). */
static bool pseudo(const char *p)
{
	return (under(p, "/dev") && !under(p, "/dev/shm")) ||
	       under(p, "/proc") || under(p, "/sys");
}

/* The hooks' runtime (the shim's runtime_file): abs in a protected
 * tree, or a PATH directory's file of a program's name. */
static bool runtime_file(const struct hs_fscope *sc, const char *abs)
{
	const char *slash = strrchr(abs, '/');
	size_t dl = slash ? (size_t)(slash - abs) : 0;
	bool dir = false, name = false;

	for (size_t i = 0; i < sc->trees.n; i++)
		if (under(abs, sc->trees.g[i]))
			return true;
	if (!slash)
		return false;
	for (size_t i = 0; i < sc->pdirs.n && !dir; i++)
		dir = dl ? strlen(sc->pdirs.g[i]) == dl &&
				   strncmp(sc->pdirs.g[i], abs, dl) == 0
			 : strcmp(sc->pdirs.g[i], "/") == 0;
	for (size_t i = 0; dir && i < sc->pnames.n && !name; i++)
		name = strcmp(sc->pnames.g[i], slash + 1) == 0;
	return dir && name;
}

/* Is sb a protected file's identity (with only_multi, of one that had
 * other names at session start)? */
static bool id_is_protected(const struct hs_fscope *sc, const struct stat *sb,
			    bool only_multi)
{
	for (size_t i = 0; i < sc->nids; i++)
		if (!sc->ids[i].dir && (sc->ids[i].multi || !only_multi) &&
		    sc->ids[i].dev == (unsigned long long)sb->st_dev &&
		    sc->ids[i].ino == (unsigned long long)sb->st_ino)
			return true;
	return false;
}

/* Another name of a protected file that had other names at session
 * start (the shim's protected_id): one stat, only then. */
static bool protected_id(const struct hs_fscope *sc, const char *abs)
{
	struct stat sb;

	if (!sc->any_multi || hs_fl_stat(abs, true, &sb) != 0 ||
	    sb.st_nlink < 2)
		return false;
	return id_is_protected(sc, &sb, true);
}

bool hs_fscope_protected_target(const struct hs_fscope *sc, const char *abs,
				bool follow)
{
	struct hs_proclink l;
	struct stat sb;
	char std[16];

	/* a name floor_name.c left as written because the caller's
	 * descriptor there has none (a pipe, a socket) is the caller's, not
	 * ours to stat: no file there. Only the whole name of one of its
	 * own descriptors, or the standard /dev/stdout (a planted symlink
	 * of that name is stat'ed as any) */
	if (strlen(abs) < sizeof(std)) {
		memcpy(std, abs, strlen(abs) + 1);
		if (hs_proclink_stdio(std, "") >= 0)
			return false;
	}
	if (hs_proclink(abs, &l) && l.self && abs[l.end] == '\0')
		return false;
	return sc->nids &&
	       hs_fl_stat(abs, follow, &sb) == 0 &&
	       S_ISREG(sb.st_mode) && id_is_protected(sc, &sb, false);
}

bool hs_fscope_in_tree(const struct hs_fscope *sc, const char *abs)
{
	char dir[PATH_MAX];
	struct stat sb;
	size_t n;

	if (!sc->any_dir || abs[0] != '/')
		return false;
	/* the directory the last component is in ("/a/b/" is b's: /a) */
	for (n = strlen(abs); n > 1 && abs[n - 1] == '/'; n--)
		;
	while (n > 0 && abs[n - 1] != '/')
		n--;
	if (n == 0 || n >= sizeof(dir))
		return false;
	memcpy(dir, abs, n);
	dir[n] = '\0';
	if (hs_fl_stat(dir, true, &sb) != 0)
		return false;
	for (size_t i = 0; i < sc->nids; i++)
		if (sc->ids[i].dir &&
		    sc->ids[i].dev == (unsigned long long)sb.st_dev &&
		    sc->ids[i].ino == (unsigned long long)sb.st_ino)
			return true;
	return false;
}

bool hs_fscope_protected_fd(const struct hs_fscope *sc, int fd)
{
	struct stat sb;

	return sc->nids && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	       id_is_protected(sc, &sb, false);
}

bool hs_fscope_protected_file(const struct hs_fscope *sc, const char *abs)
{
	for (size_t i = 0; i < sc->prot.n; i++)
		if (strcmp(sc->prot.g[i], abs) == 0)
			return true;
	return runtime_file(sc, abs) || protected_id(sc, abs);
}

bool hs_fscope_link_to_policy(const struct hs_fscope *sc, const char *link,
			      const char *text)
{
	char t[PATH_MAX];
	const char *slash = strrchr(link, '/');
	int r;

	if (!text[0] || (!sc->prot.n && !sc->trees.n))
		return false;
	r = text[0] == '/' ? snprintf(t, sizeof(t), "%s", text)
			   : snprintf(t, sizeof(t), "%.*s/%s",
				      (int)(slash ? slash - link : 0), link, text);
	if (r < 0 || r >= (int)sizeof(t))
		return false;
	hs_path_fold(t);
	for (size_t i = 0; i < sc->prot.n; i++)
		if (strcmp(sc->prot.g[i], t) == 0)
			return true;
	for (size_t i = 0; i < sc->trees.n; i++)
		if (under(t, sc->trees.g[i]))
			return true;
	return false;
}

bool hs_fscope_pinned(const struct hs_fscope *sc, const char *abs)
{
	if (sc->root[0] && under(sc->root, abs))
		return true;
	for (size_t i = 0; i < sc->prot.n; i++)
		if (under(sc->prot.g[i], abs))
			return true;
	for (size_t i = 0; i < sc->trees.n; i++)
		if (under(sc->trees.g[i], abs))
			return true;
	for (size_t i = 0; i < sc->pdirs.n; i++)
		if (under(sc->pdirs.g[i], abs))
			return true;
	return false;
}

bool hs_fscope_in_scope(const struct hs_fscope *sc, const char *abs)
{
	return !(sc->exc.all || pseudo(abs) || !any(sc, &sc->inc, abs) ||
		 (sc->exc.n && any(sc, &sc->exc, abs)));
}

/* Is abs one of the agent's own places: an 'a' glob, a place of a name
 * the filter gives or of the writer's own (comm)? */
static bool agent_own(const struct hs_fscope *sc, const char *abs,
		      const char *comm)
{
	bool at_home = sc->home && under(abs, sc->home);

	for (size_t i = 0; i < sc->aexc.n; i++)
		if (!(at_home &&
		      hs_agent_glob_above_home(sc->aexc.g[i], sc->home)) &&
		    glob_at(sc, sc->aexc.g[i], abs))
			return true;
	if (!sc->home)
		return false;
	for (size_t i = 0; i < sc->names.n; i++)
		if (hs_agent_place(abs, sc->home, sc->names.g[i],
				   strlen(sc->names.g[i])))
			return true;
	return comm && hs_agent_place(abs, sc->home, comm, strlen(comm));
}

bool hs_fscope_agent_any(const struct hs_fscope *sc)
{
	return sc->ainc.all || sc->ainc.n;
}

bool hs_fscope_agent_matters(const struct hs_fscope *sc, const char *abs,
			     unsigned want)
{
	if (!hs_fscope_agent_any(sc))
		return false;
	if (!(((want & HS_WR_PRE) && any(sc, &sc->pre, abs)) ||
	      ((want & HS_WR_POST) && any(sc, &sc->post, abs))))
		return false; /* no hook's glob names it: nobody's write fires */
	return !hs_fscope_in_scope(sc, abs);
}

/* The agent's own write beyond the scope (writes.agent_anywhere), as
 * the shim's agent_scope (shim/write_scope.c) judges it. */
static bool agent_scope(const struct hs_fscope *sc, const char *abs,
			const char *comm)
{
	return hs_fscope_agent_any(sc) && !sc->exc.all && !pseudo(abs) &&
	       any(sc, &sc->ainc, abs) &&
	       !(sc->exc.n && any(sc, &sc->exc, abs)) &&
	       !agent_own(sc, abs, comm);
}

/* In scope, and some hook of that side (pre or post globs) may fire.
 * agent: the writer is the agent's own process, of that comm (""
 * unknown); NULL: another process. */
static bool fires_by(const struct hs_fscope *sc, const struct globs *side,
		     const char *abs, const char *agent)
{
	if (!side->all && !side->n)
		return false;
	return any(sc, side, abs) &&
	       (hs_fscope_in_scope(sc, abs) ||
		(agent && agent_scope(sc, abs, agent)));
}

static bool fires(const struct hs_fscope *sc, const struct globs *side,
		  const char *abs)
{
	return fires_by(sc, side, abs, NULL);
}

unsigned hs_fscope_sides(const struct hs_fscope *sc, const char *abs,
			 unsigned want, const char *agent)
{
	unsigned m = 0;

	if ((want & HS_WR_PRE) && (hs_fscope_protected_file(sc, abs) ||
				   fires_by(sc, &sc->pre, abs, agent)))
		m |= HS_WR_PRE;
	if ((m & HS_WR_PRE) && fires_by(sc, &sc->stage, abs, agent))
		m |= HS_WR_STAGE;
	if ((want & HS_WR_POST) && fires_by(sc, &sc->post, abs, agent))
		m |= HS_WR_POST;
	return m;
}

bool hs_fscope_pre(const struct hs_fscope *sc, const char *abs)
{
	/* the built-in rule: no scope or exclusion hides a protected file */
	return hs_fscope_protected_file(sc, abs) || fires(sc, &sc->pre, abs);
}

bool hs_fscope_post(const struct hs_fscope *sc, const char *abs)
{
	return fires(sc, &sc->post, abs);
}

bool hs_fscope_read(const struct hs_fscope *sc, const char *abs)
{
	return fires(sc, &sc->rd, abs);
}

bool hs_fscope_any_read(const struct hs_fscope *sc)
{
	return sc->rd.all || sc->rd.n;
}

bool hs_fscope_any_post(const struct hs_fscope *sc)
{
	return sc->post.all || sc->post.n;
}

bool hs_fscope_protected(const struct hs_fscope *sc, const char *abs)
{
	for (size_t i = 0; i < sc->pre.n; i++)
		if (sc->pre.g[i] && glob_at(sc, sc->pre.g[i], abs))
			return hs_fscope_pre(sc, abs);
	return false;
}

void hs_fscope_unalias(const struct hs_fscope *sc, char *p)
{
	size_t al, rl = strlen(sc->root), tail;

	if (!sc->alias || rl <= 1 || !under(p, sc->alias))
		return;
	al = strlen(sc->alias);
	tail = strlen(p + al);
	if (rl + tail >= PATH_MAX)
		return;
	memmove(p + rl, p + al, tail + 1);
	memcpy(p, sc->root, rl);
}

bool hs_fscope_follow(const struct hs_fscope *sc) { return sc->follow; }
bool hs_fscope_quiet(const struct hs_fscope *sc) { return sc->quiet; }
bool hs_fscope_agent_only(const struct hs_fscope *sc) { return sc->agent_only; }
bool hs_fscope_judge_temps(const struct hs_fscope *sc) { return sc->judge_temps; }
bool hs_fscope_own_name(const struct hs_fscope *sc) { return sc->own_name; }
