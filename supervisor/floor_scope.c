/* The write filter in the supervisor: the same HOOKSHIM_WRITE text the
 * shim parses (shim/write_scope.h), read the same way, so a write the
 * shim would let pass without asking is also answered by the floor
 * without asking: no hook spawned, nothing logged. Only the pre side is
 * needed here (the floor fires no post events, docs/floor.md). */
#include "floor_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/glob.h"

struct globs {
	char **g; /* NULL entry: the session root */
	size_t n;
	bool all;
};

struct hs_fscope {
	char *root;
	struct globs inc, exc, pre;
	bool follow, quiet, agent_only, judge_temps;
};

static void add(struct globs *gs, const char *g)
{
	char **v = realloc(gs->g, (gs->n + 1) * sizeof(*v));

	if (!v)
		return;
	gs->g = v;
	gs->g[gs->n++] = g ? strdup(g) : NULL;
}

static void parse_line(struct hs_fscope *sc, const char *l)
{
	struct globs *gs = NULL;

	switch (l[0]) {
	case '+': gs = &sc->inc; break;
	case '-': gs = &sc->exc; break;
	case '<':
	/* a content hook's paths: the floor cannot stage, it asks at the
	 * open like any pre (docs/staged-writes.md) */
	case '=': gs = &sc->pre; break;
	case 'o':
		sc->agent_only |= l[1] == 'a';
		sc->follow |= l[1] == 'f';
		sc->quiet |= l[1] == 'q';
		sc->judge_temps |= l[1] == 't';
		return;
	default: return; /* '>' post globs: not the floor's */
	}
	if (strcmp(l + 1, "*") == 0)
		gs->all = true;
	else
		add(gs, l + 1);
}

struct hs_fscope *hs_fscope_new(const char *text, const char *root)
{
	struct hs_fscope *sc = calloc(1, sizeof(*sc));
	char *copy, *save = NULL;

	if (!sc)
		return NULL;
	sc->root = strdup(root ? root : "/");
	if (!text || strncmp(text, "hsw1\n", 5) != 0) {
		sc->pre.all = true; /* as the shim: every write in the root */
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
	free(sc->root);
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

bool hs_fscope_pre(const struct hs_fscope *sc, const char *abs)
{
	if (!sc->pre.all && !sc->pre.n)
		return false;
	if (!any(sc, &sc->pre, abs))
		return false;
	return !(sc->exc.all || pseudo(abs) || !any(sc, &sc->inc, abs) ||
		 (sc->exc.n && any(sc, &sc->exc, abs)));
}

bool hs_fscope_protected(const struct hs_fscope *sc, const char *abs)
{
	for (size_t i = 0; i < sc->pre.n; i++)
		if (sc->pre.g[i] && glob_at(sc, sc->pre.g[i], abs))
			return hs_fscope_pre(sc, abs);
	return false;
}

bool hs_fscope_follow(const struct hs_fscope *sc) { return sc->follow; }
bool hs_fscope_quiet(const struct hs_fscope *sc) { return sc->quiet; }
bool hs_fscope_agent_only(const struct hs_fscope *sc) { return sc->agent_only; }
bool hs_fscope_judge_temps(const struct hs_fscope *sc) { return sc->judge_temps; }
