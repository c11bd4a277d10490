/* The write filter; see write_scope.h. Parsed into static storage before
 * main, read-only afterwards: matching takes no lock and allocates
 * nothing. */
#include "write_scope.h"

#include <string.h>

#include "../config/glob.h"
#include "../engine/dispatch.h"
#include "path.h"
#include "state.h"

#define MAX_GLOBS 128

struct globs {
	const char *g[MAX_GLOBS];
	unsigned n;
	bool all;      /* "*": any path in scope */
};

static struct {
	bool parsed;
	char buf[sizeof(hs_st.write)];
	struct globs inc, exc, pre, post;
	struct hs_wopts o;
} F;

static void add(struct globs *gs, const char *g)
{
	if (strcmp(g, "*") == 0 || gs->n == MAX_GLOBS)
		gs->all = true; /* overflow widens, never narrows */
	else
		gs->g[gs->n++] = g;
}

static void parse_line(char *l)
{
	switch (l[0]) {
	case '+': add(&F.inc, l + 1); break;
	case '-': add(&F.exc, l + 1); break;
	case '<': add(&F.pre, l + 1); break;
	case '>': add(&F.post, l + 1); break;
	case 'o':
		F.o.agent_only |= l[1] == 'a';
		F.o.follow |= l[1] == 'f';
		F.o.quiet |= l[1] == 'q';
		break;
	}
}

void hs_wscope_init(void)
{
	const struct hs_state *st = hs_state();
	char *l;

	if (__atomic_load_n(&F.parsed, __ATOMIC_ACQUIRE))
		return;
	memcpy(F.buf, st->write, sizeof(F.buf));
	if (strncmp(F.buf, "hsw1\n", 5) == 0) {
		for (l = F.buf + 5; l && *l;) {
			char *nl = strchr(l, '\n');

			if (nl)
				*nl = '\0';
			parse_line(l);
			l = nl ? nl + 1 : NULL;
		}
	} else {
		/* No filter (an older supervisor): every write in the root. */
		F.pre.all = F.post.all = true;
	}
	if (F.inc.n == 0 && !F.inc.all && st->root[0])
		F.inc.g[F.inc.n++] = NULL; /* NULL = the session root */
	__atomic_store_n(&F.parsed, true, __ATOMIC_RELEASE);
}

const struct hs_wopts *hs_wopts(void)
{
	return &F.o;
}

unsigned hs_wscope_active(void)
{
	const struct hs_state *st = hs_state();
	unsigned w = 0;

	if (!st->active)
		return 0;
	if (st->interest & HS_INTEREST_WRITE_PRE)
		w |= HS_W_PRE;
	if (st->interest & HS_INTEREST_WRITE_POST)
		w |= HS_W_POST;
	if (!w)
		return 0;
	if (!__atomic_load_n(&F.parsed, __ATOMIC_ACQUIRE))
		hs_wscope_init();
	if (F.o.agent_only && st->role != HS_ROLE_AGENT)
		return 0;
	return w;
}

static bool any(const struct globs *gs, const char *p)
{
	if (gs->all)
		return true;
	for (unsigned i = 0; i < gs->n; i++) {
		const char *g = gs->g[i];

		if (g ? hs_glob_match(g, p, true) : hs_path_under(p, hs_st.root))
			return true;
	}
	return false;
}

/* Kernel interfaces, never files anyone edits (/dev/shm is a tmpfs of
 * ordinary files, so it stays). */
static bool pseudo(const char *p)
{
	return (hs_path_under(p, "/dev") && !hs_path_under(p, "/dev/shm")) ||
	       hs_path_under(p, "/proc") || hs_path_under(p, "/sys");
}

unsigned hs_wscope_match(const char *abs, unsigned want)
{
	unsigned w = 0;

	if ((want & HS_W_PRE) && (F.pre.all || F.pre.n))
		w |= HS_W_PRE;
	if ((want & HS_W_POST) && (F.post.all || F.post.n))
		w |= HS_W_POST;
	if (!w || pseudo(abs) || !any(&F.inc, abs) || (F.exc.n && any(&F.exc, abs)) ||
	    (F.exc.all))
		return 0;
	if ((w & HS_W_PRE) && !any(&F.pre, abs))
		w &= ~HS_W_PRE;
	if ((w & HS_W_POST) && !any(&F.post, abs))
		w &= ~HS_W_POST;
	return w;
}
