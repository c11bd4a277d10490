/* The write filter; see write_scope.h. Parsed into static storage before
 * main, read-only afterwards: matching takes no lock and allocates
 * nothing. */
#include "write_scope.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../config/glob.h"
#include "../engine/dispatch.h"
#include "../engine/plainstr.h"
#include "path.h"
#include "state.h"

/* Per set. Past this a set widens, never narrows: the hooks' own globs
 * are applied again by the supervisor, but include and exclude only here,
 * so this is kept well above what configurations name. */
#define MAX_GLOBS 128

struct globs {
	const char *g[MAX_GLOBS];
	/* Every path g[i] matches starts with its first plen[i] bytes (for
	 * NULL, the session root): one strncmp rejects most paths. */
	unsigned plen[MAX_GLOBS];
	unsigned n;
	bool all;      /* "*": any path in scope */
};

static struct {
	bool parsed;
	struct globs inc, exc, pre, post;
	struct hs_wopts o;
} F HS_HOT;

/* The filter text, cut into the globs F points at. */
static char buf[4096];

/* The literal text of g before its first wildcard. A '/' right before
 * "**" is left out: a trailing slash-star-star matches the directory
 * itself. */
static unsigned literal_prefix(const char *g)
{
	size_t n = 0;

	while (g[n] && g[n] != '*' && g[n] != '?' && g[n] != '[' &&
	       g[n] != '\\')
		n++;
	if (n > 0 && g[n] == '*' && g[n + 1] == '*' && g[n - 1] == '/')
		n--;
	return (unsigned)n;
}

static void add(struct globs *gs, const char *g)
{
	if (gs->n == MAX_GLOBS && gs == &F.exc)
		return; /* excluding less widens */
	if (hs_same(g, "*") || gs->n == MAX_GLOBS) {
		gs->all = true;
	} else {
		gs->plen[gs->n] = literal_prefix(g);
		gs->g[gs->n++] = g;
	}
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
		F.o.judge_temps |= l[1] == 't';
		break;
	}
}

void hs_wscope_init(void)
{
	const struct hs_state *st = hs_state();
	char *l;

	if (__atomic_load_n(&F.parsed, __ATOMIC_ACQUIRE))
		return;
	/* Copy only the string: every page of buf touched is a page fault
	 * in every process the shim loads into. One too long to hold means
	 * no filter, as a missing one does. */
	{
		size_t n = hs_len(st->write);

		if (n >= sizeof(buf))
			n = 0;
		hs_copy(buf, st->write, n);
		buf[n] = '\0';
	}
	if (hs_starts(buf, "hsw1\n")) {
		for (l = buf + 5; *l;) {
			char *nl = l;

			while (*nl && *nl != '\n')
				nl++;
			if (*nl)
				*nl++ = '\0';
			parse_line(l);
			l = nl;
		}
	} else {
		/* No filter (an older supervisor): every write in the root. */
		F.pre.all = F.post.all = true;
	}
	if (F.inc.n == 0 && !F.inc.all && st->root[0]) {
		F.inc.plen[F.inc.n] = (unsigned)hs_len(st->root);
		F.inc.g[F.inc.n++] = NULL; /* NULL = the session root */
	}
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

static bool glob_at(const struct globs *gs, unsigned i, const char *p)
{
	const char *g = gs->g[i];
	unsigned k = gs->plen[i];

	if (!g)
		return hs_path_under(p, hs_st.root);
	/* the literal prefix has no star to backtrack to: matching may
	 * start after it */
	return strncmp(p, g, k) == 0 && hs_glob_match(g + k, p + k, true);
}

static bool any(const struct globs *gs, const char *p)
{
	if (gs->all)
		return true;
	for (unsigned i = 0; i < gs->n; i++)
		if (glob_at(gs, i, p))
			return true;
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
	/* the hooks' own globs first: they are the narrow ones */
	if ((w & HS_W_PRE) && !any(&F.pre, abs))
		w &= ~HS_W_PRE;
	if ((w & HS_W_POST) && !any(&F.post, abs))
		w &= ~HS_W_POST;
	if (!w || F.exc.all || pseudo(abs) || !any(&F.inc, abs) ||
	    (F.exc.n && any(&F.exc, abs)))
		return 0;
	return w;
}

bool hs_wscope_protected(const char *abs)
{
	for (unsigned i = 0; i < F.pre.n; i++)
		if (F.pre.g[i] && glob_at(&F.pre, i, abs))
			return hs_wscope_match(abs, HS_W_PRE) != 0;
	return false;
}

/* May a glob whose matches start with l[0..ln) match `dir` (dn bytes) or
 * a path below it? */
static bool prefix_meets(const char *l, size_t ln, const char *dir, size_t dn)
{
	if (ln <= dn)
		return memcmp(l, dir, ln) == 0;
	return memcmp(l, dir, dn) == 0 && l[dn] == '/';
}

static bool any_below(const struct globs *gs, const char *dir, size_t dn)
{
	if (gs->all)
		return true;
	for (unsigned i = 0; i < gs->n; i++)
		if (prefix_meets(gs->g[i] ? gs->g[i] : hs_st.root, gs->plen[i],
				 dir, dn))
			return true;
	return false;
}

/* Can a write to `dir` or below fire anything? Conservative: true unless
 * no glob can match there. */
static bool dir_live(const char *dir)
{
	/* path.c rewrites /proc/self/fd/N/... to wherever N points */
	static const char *const fd_links[] = { "/proc/self/fd/", "/dev/fd/",
						"/proc/thread-self/fd/" };
	size_t dn = strlen(dir);

	for (size_t i = 0; i < sizeof(fd_links) / sizeof(fd_links[0]); i++)
		if (prefix_meets(fd_links[i], strlen(fd_links[i]), dir, dn))
			return true;
	if (dn <= 1)
		return true;
	return any_below(&F.inc, dir, dn) &&
	       (any_below(&F.pre, dir, dn) || any_below(&F.post, dir, dn));
}

/* The verdict for the working directory, kept while it is current:
 * (generation << 2) | 2 (set) | 1 (live). Racing writers store the same
 * thing; a chdir meanwhile changes the generation, so a verdict computed
 * for the old directory is never used. */
static unsigned long cwd_verdict;

bool hs_wscope_cwd_live(void)
{
	unsigned long v = __atomic_load_n(&cwd_verdict, __ATOMIC_ACQUIRE);
	char cwd[PATH_MAX];
	unsigned gen;
	bool live;

	if (!hs_path_cwd_gen(&gen))
		return true;
	if ((v & 2) && (v >> 2) == gen)
		return v & 1;
	if (hs_path_dirfd(AT_FDCWD, cwd) < 0)
		return true;
	live = dir_live(cwd);
	__atomic_store_n(&cwd_verdict, (unsigned long)gen << 2 | 2 | live,
			 __ATOMIC_RELEASE);
	return live;
}

/* Verdicts for directory descriptors (the dirfd of openat, unlinkat...):
 * naming one costs a readlink of /proc/self/fd/N, as dear as the write
 * itself, for every file `tar -C dir` extracts. A slot per fd % NDIR:
 * w = seq << 32 | (fd + 1) << 1 | dead, valid while the slot's seq is.
 * Every libc call that closes or replaces a descriptor (write.c) bumps
 * the seq, before and after the real call, once any verdict exists; a
 * verdict computed meanwhile was read under the old seq and never used.
 * Only the process the shim loaded in stores: a vfork child shares our
 * memory but not our descriptor table. */
#define NDIR 64

static struct {
	uint64_t w;
	unsigned seq;
} dirs[NDIR];
static int dirs_used;

bool hs_wdir_used(void)
{
	return __atomic_load_n(&dirs_used, __ATOMIC_RELAXED);
}

void hs_wdir_forget(int fd)
{
	if (fd >= 0 && __atomic_load_n(&dirs_used, __ATOMIC_SEQ_CST))
		__atomic_fetch_add(&dirs[fd % NDIR].seq, 1, __ATOMIC_SEQ_CST);
}

void hs_wdir_forget_all(void)
{
	if (!__atomic_load_n(&dirs_used, __ATOMIC_SEQ_CST))
		return;
	for (int i = 0; i < NDIR; i++)
		__atomic_fetch_add(&dirs[i].seq, 1, __ATOMIC_SEQ_CST);
}

bool hs_wscope_dirfd_live(int fd)
{
	char dir[PATH_MAX];
	uint64_t w;
	unsigned seq;
	bool live;

	if (fd < 0 || fd > 0x3fffffff)
		return true;
	w = __atomic_load_n(&dirs[fd % NDIR].w, __ATOMIC_ACQUIRE);
	seq = __atomic_load_n(&dirs[fd % NDIR].seq, __ATOMIC_ACQUIRE);
	if ((unsigned)(w >> 32) == seq && (uint32_t)w >> 1 == (uint32_t)fd + 1)
		return !(w & 1);
	/* from here on a close of fd bumps seq */
	__atomic_store_n(&dirs_used, 1, __ATOMIC_SEQ_CST);
	seq = __atomic_load_n(&dirs[fd % NDIR].seq, __ATOMIC_SEQ_CST);
	if (hs_path_dirfd(fd, dir) < 0)
		return true;
	live = dir_live(dir);
	if (hs_getpid() == hs_st.pid)
		__atomic_store_n(&dirs[fd % NDIR].w,
				 (uint64_t)seq << 32 | ((uint64_t)fd + 1) << 1 | !live,
				 __ATOMIC_RELEASE);
	return live;
}
