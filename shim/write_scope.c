/* The write filter; see write_scope.h. Parsed into the start-up arena
 * before main, read-only afterwards: matching takes no lock and allocates
 * nothing. */
#include "write_scope.h"

#include <fcntl.h>
#include <limits.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../common/agent_place.h"
#include "../common/glob.h"
#include "../common/pathfold.h"
#include "../common/wire.h"
#include "../common/plainstr.h"
#include "path.h"
#include "real.h"
#include "state.h"

/* One glob of a set. Every path g matches starts with its first plen
 * bytes (for g NULL, the session root): one strncmp rejects most paths. */
struct wglob {
	const char *g;
	unsigned plen;
};

struct globs {
	struct wglob *e; /* n of them, in the arena */
	unsigned n;
	bool all;        /* "*": any path in scope */
};

/* The agent's own writes beyond the scope: 'A' where, 'a' not there,
 * 'n' names whose places are its own (common/agent_place.h) under home
 * (the '~' line). */
struct agent_scope {
	struct globs ainc, aexc, names;
	const char *home;
};

/* Only this header is static: the text and the globs go to the arena
 * (state.h), so a process touches as much storage as its filter is long,
 * in the page the rest of its start-up state shares. */
static struct {
	bool parsed;
	bool tree_ids; /* "@DEV:INO/" lines: a protected tree's directories */
	bool file_ids; /* other '@' lines: protected files' identities */
	bool name_ids; /* "@DEV:INO/NAME": a protected name by its directory */
	struct globs inc, exc, pre, post, rd, stage;
	/* the agent's own writes beyond the scope, in the arena when the
	 * filter has its lines (the page above has no room) */
	struct agent_scope *ag;
	/* literal paths, not globs; and "@DEV:INO", the identity of one
	 * that has other names (no room for a set of their own: the
	 * written data must stay in one page, layout.ld) */
	struct globs prot;
	struct hs_wopts o;
} F HS_HOT;

/* The literal text of g before its first wildcard. A '/' right before
 * "**" is left out: a trailing slash-star-star matches the directory
 * itself. */
HS_START_PATH
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

/* F.ag, taken from the arena at its first line; NULL without room (then
 * the agent's writes beyond the scope are not events: the older rule). */
HS_START_PATH
static struct agent_scope *agent_set(void)
{
	if (!F.ag && (F.ag = hs_arena_take(sizeof(*F.ag),
					   _Alignof(struct agent_scope))))
		memset(F.ag, 0, sizeof(*F.ag));
	return F.ag;
}

HS_START_PATH
static struct globs *set_of(char tag)
{
	switch (tag) {
	case 'A': return agent_set() ? &F.ag->ainc : NULL;
	case 'a': return agent_set() ? &F.ag->aexc : NULL;
	case 'n': return agent_set() ? &F.ag->names : NULL;
	case '+': return &F.inc;
	case '-': return &F.exc;
	case '<': return &F.pre;
	case '>': return &F.post;
	case '!':
	case '@':
	case '^': /* '@', '^' and '&' kept with their tag (runtime_file) */
	case '&': return &F.prot;
	case '(': return &F.rd;
	case '%': return &F.stage;
	}
	return NULL;
}

HS_START_PATH
static void set_option(char o)
{
	F.o.agent_only |= o == 'a';
	F.o.follow |= o == 'f';
	F.o.quiet |= o == 'q';
	F.o.judge_temps |= o == 't';
	F.o.own_name |= o == 'c';
}

/* Gives each set room for the n globs the first pass counted, in one
 * piece of the arena, and empties it for the second. Without room a set
 * widens, never narrows: false, and nothing more to parse. */
HS_START_PATH
static bool place_sets(void)
{
	struct globs none = { 0 };
	struct globs *ainc = F.ag ? &F.ag->ainc : &none,
		     *aexc = F.ag ? &F.ag->aexc : &none,
		     *names = F.ag ? &F.ag->names : &none;
	struct globs *sets[] = { &F.inc, &F.exc, &F.pre, &F.post, &F.rd,
				 &F.stage, &F.prot, ainc, aexc, names };
	const int nsets = sizeof(sets) / sizeof(sets[0]);
	unsigned total = 0;
	struct wglob *e;

	for (int i = 0; i < nsets; i++)
		total += sets[i]->n;
	e = hs_arena_take(total * sizeof(*e), _Alignof(struct wglob));
	for (int i = 0; i < nsets; i++) {
		/* (what says "not here" never widens to everywhere) */
		if (!e && sets[i] != &F.exc && sets[i] != aexc &&
		    sets[i] != names)
			sets[i]->all |= sets[i]->n > 0;
		sets[i]->e = e;
		if (e)
			e += sets[i]->n;
		sets[i]->n = 0;
	}
	return e != NULL;
}

HS_START_PATH
static void add(struct globs *gs, const char *g)
{
	gs->e[gs->n].g = g;
	if (gs == &F.prot || (F.ag && gs == &F.ag->names)) /* a literal */
		gs->e[gs->n++].plen = (unsigned)hs_len(g);
	else
		gs->e[gs->n++].plen = g ? literal_prefix(g)
					: (unsigned)hs_len(hs_st.root);
}

/* Is '@' line l a name by its directory's identity ("@DEV:INO/NAME")?
 * (start-up code: no libc string function) */
HS_START_PATH
static bool name_line(const char *l)
{
	while (*l && *l != '/')
		l++;
	return l[0] == '/' && l[1];
}

/* The lines text..end, NUL-separated by now: a first pass for the
 * options, the catch-alls and how many globs each set has, a second for
 * the globs. No include line means the session root (g NULL). */
HS_START_PATH
static void parse(char *text, const char *end)
{
	char *l;
	bool root;

	hs_path_alias(NULL);
	for (l = text; l < end; l += hs_len(l) + 1) {
		struct globs *gs = set_of(l[0]);

		if (!gs && l[0] == 'o')
			set_option(l[1]);
		else if (!gs && l[0] == '=' && l[1] == '/')
			hs_path_alias(l + 1);
		else if (!gs && l[0] == '~' && l[1] == '/' && agent_set())
			F.ag->home = l + 1;
		else if (l[0] == 'n' && !l[1])
			continue;
		else if ((gs == &F.prot && l[0] == '@') ||
			 (l[0] == '^' && l[1] == '/') || (l[0] == '&' && l[1]))
			gs->n++;
		else if (gs == &F.prot && l[1] != '/')
			continue; /* not an absolute path: nothing to match */
		else if (gs && gs != &F.prot && l[0] != 'n' &&
			 hs_same(l + 1, "*"))
			gs->all = true;
		else if (gs)
			gs->n++;
	}
	root = F.inc.n == 0 && !F.inc.all && hs_st.root[0];
	F.inc.n += root;
	if (!place_sets())
		return;
	for (l = text; l < end; l += hs_len(l) + 1) {
		struct globs *gs = set_of(l[0]);

		if ((gs == &F.prot && l[0] == '@') ||
		    (l[0] == '^' && l[1] == '/') || (l[0] == '&' && l[1])) {
			add(gs, l); /* kept with its tag */
			F.tree_ids |= l[0] == '@' && l[hs_len(l) - 1] == '/';
			F.name_ids |= l[0] == '@' && name_line(l);
			F.file_ids |= l[0] == '@' && l[hs_len(l) - 1] != '/' &&
				      !name_line(l);
		}
		else if (gs == &F.prot ? l[1] == '/'
			 : l[0] == 'n' ? gs && l[1] != '\0'
				       : gs && !hs_same(l + 1, "*"))
			add(gs, l + 1);
	}
	if (root)
		add(&F.inc, NULL);
}

HS_START_PATH
void hs_wscope_init(void)
{
	const struct hs_state *st = hs_state();
	size_t n;
	char *text;

	if (__atomic_load_n(&F.parsed, __ATOMIC_ACQUIRE))
		return;
	n = hs_len(st->write);
	/* A filter that cannot be held means none, as a missing one does. */
	text = hs_starts(st->write, "hsw1\n") ? hs_arena_take(n + 1, 1) : NULL;
	if (text) {
		hs_copy(text, st->write, n + 1);
		for (size_t i = 0; i < n; i++)
			if (text[i] == '\n')
				text[i] = '\0';
		parse(text + 5, text + n);
	} else {
		char none[1] = "";

		/* every write in the root */
		F.pre.all = F.post.all = F.rd.all = true;
		parse(none, none);
	}
	__atomic_store_n(&F.parsed, true, __ATOMIC_RELEASE);
}

HS_START_PATH
void hs_wscope_reset(void)
{
	memset(&F, 0, sizeof(F));
}

const struct hs_wopts *hs_wopts(void)
{
	return &F.o;
}

HS_START_PATH
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
		return F.prot.n && (w & HS_W_PRE) ? HS_W_PRE | HS_W_PROT : 0;
	return w;
}

static bool glob_at(const struct globs *gs, unsigned i, const char *p)
{
	const char *g = gs->e[i].g;
	unsigned k = gs->e[i].plen;

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

/* The hooks' runtime ('^' and '&' lines, kept with their tag): is abs
 * in a protected tree, or a PATH directory's file of a program's name? */
static bool runtime_file(const char *abs)
{
	const char *slash = strrchr(abs, '/');
	size_t dl = slash ? (size_t)(slash - abs) : 0;
	bool dir = false, name = false;

	for (unsigned i = 0; i < F.prot.n; i++) {
		const char *g = F.prot.e[i].g;

		if (g[0] == '^' && hs_path_under(abs, g + 1))
			return true;
		if (g[0] != '&' || !slash)
			continue;
		if (g[1] == '/')
			dir |= dl ? F.prot.e[i].plen - 1 == dl &&
					    strncmp(g + 1, abs, dl) == 0
				  : hs_same(g + 1, "/");
		else
			name |= hs_same(g + 1, slash + 1);
	}
	return dir && name;
}

static bool prefix_meets(const char *l, size_t ln, const char *dir,
			 size_t dn);

/* Is abs, or a directory above it, a protected tree or a PATH directory
 * ('^', '&/' lines)? dir_live's and pinned's test for them. */
static bool runtime_dir_under(const char *abs, bool above)
{
	size_t n = strlen(abs);

	for (unsigned i = 0; i < F.prot.n; i++) {
		const char *g = F.prot.e[i].g;

		if (g[0] != '^' && !(g[0] == '&' && g[1] == '/'))
			continue;
		if (above ? hs_path_under(g + 1, abs)
			  : prefix_meets(g + 1, F.prot.e[i].plen - 1, abs, n))
			return true;
	}
	return false;
}

/* A decimal number at *p, *p moved past it. */
static unsigned long long number(const char **p)
{
	unsigned long long v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (unsigned long long)(*(*p)++ - '0');
	return v;
}

/* The identity of an '@' line ("@DEV:INO", "+" after it when the file
 * had other hard links at session start; "/" when it is a tree's
 * directory, "/NAME" a name in that directory): *multi says which, *name
 * the NAME or NULL. */
static bool line_id_name(const char *g, unsigned long long *dev,
			 unsigned long long *ino, bool *multi,
			 const char **name)
{
	const char *p = g + 1;

	if (g[0] != '@')
		return false;
	if (p[0] == '*' && p[1] == '/' && p[2]) {
		/* "@", an asterisk, "/NAME": the name in any directory
		 * (the filter had no room for its directory's identity):
		 * 0:0 */
		*dev = *ino = 0;
		*multi = false;
		*name = p + 2;
		return true;
	}
	*dev = number(&p);
	if (*p++ != ':')
		return false;
	*ino = number(&p);
	*multi = *p == '+';
	*name = p[0] == '/' && p[1] ? p + 1 : NULL;
	return true;
}

/* ... of a file or a tree's directory alone */
static bool line_id(const char *g, unsigned long long *dev,
		    unsigned long long *ino, bool *multi)
{
	const char *name;

	return line_id_name(g, dev, ino, multi, &name) && !name;
}

/* Is a protected file's identity sb's (with `multi`, only those that had
 * other names at session start)? */
static bool id_is_protected(const struct stat *sb, bool only_multi)
{
	unsigned long long dev, ino;
	bool multi;

	for (unsigned i = 0; i < F.prot.n; i++)
		if (line_id(F.prot.e[i].g, &dev, &ino, &multi) &&
		    (multi || !only_multi) &&
		    dev == (unsigned long long)sb->st_dev &&
		    ino == (unsigned long long)sb->st_ino)
			return true;
	return false;
}

/* Has a protected file other hard links, which may be anywhere (then no
 * directory is dead ground)? */
static bool any_ids(void)
{
	for (unsigned i = 0; i < F.prot.n; i++)
		if (F.prot.e[i].g[0] == '@' && F.prot.e[i].plen > 1 &&
		    F.prot.e[i].g[F.prot.e[i].plen - 1] == '+')
			return true;
	return false;
}

/* Is abs another name of a protected file that had other names at
 * session start? One stat, only then. */
static bool protected_id(const char *abs)
{
	struct stat sb;

	if (!any_ids() || stat(abs, &sb) != 0 || sb.st_nlink < 2)
		return false;
	return id_is_protected(&sb, true);
}

/* Is "@DEV:INO/NAME" line g's NAME the n bytes at c? (its dev:ino in
 * *dev, *ino) */
static bool names_line(const char *g, size_t len, const char *c, size_t n,
		  unsigned long long *dev, unsigned long long *ino)
{
	const char *name;
	bool multi;

	return line_id_name(g, dev, ino, &multi, &name) && name &&
	       (size_t)(g + len - name) == n && memcmp(name, c, n) == 0;
}

bool hs_wscope_in_tree(int dirfd, const char *path)
{
	char dir[PATH_MAX];
	unsigned long long dev, ino;
	struct stat sb;
	size_t n, k;
	bool multi, named = false;
	int r;

	if ((!F.tree_ids && !F.name_ids) || !path[0])
		return false;
	/* the directory the last component is in ("a/b/" is b's: a) */
	for (n = hs_len(path); n > 1 && path[n - 1] == '/'; n--)
		;
	for (k = n; k > 0 && path[k - 1] != '/'; k--)
		;
	/* a protected name's by its letters first: no stat for the rest;
	 * one said by its name alone is asked about wherever it is */
	for (unsigned i = 0; F.name_ids && !named && i < F.prot.n; i++)
		named = names_line(F.prot.e[i].g, F.prot.e[i].plen, path + k,
				   n - k, &dev, &ino);
	if (named && !dev && !ino)
		return true;
	if (!F.tree_ids && !named)
		return false;
	if (k == 0) {
		r = dirfd == AT_FDCWD ? stat(".", &sb) : fstat(dirfd, &sb);
	} else {
		if (k >= sizeof(dir))
			return false;
		hs_copy(dir, path, k);
		dir[k] = '\0';
		r = fstatat(dirfd, dir, &sb, 0);
	}
	if (r != 0)
		return false;
	for (unsigned i = 0; i < F.prot.n; i++) {
		const char *g = F.prot.e[i].g;
		size_t len = F.prot.e[i].plen;

		if (g[0] != '@')
			continue;
		if ((g[len - 1] == '/' && line_id(g, &dev, &ino, &multi)) ||
		    (named && names_line(g, len, path + k, n - k, &dev, &ino))) {
			if (dev == (unsigned long long)sb.st_dev &&
			    ino == (unsigned long long)sb.st_ino)
				return true;
		}
	}
	return false;
}

bool hs_wscope_protected_target(int dirfd, const char *path, int atflags)
{
	struct stat sb;

	if (!F.file_ids || fstatat(dirfd, path, &sb, atflags) != 0 ||
	    !S_ISREG(sb.st_mode))
		return false;
	return id_is_protected(&sb, false);
}

static bool protected_file(const char *abs)
{
	for (unsigned i = 0; i < F.prot.n; i++)
		if (hs_same(abs, F.prot.e[i].g))
			return true;
	return runtime_file(abs) || protected_id(abs);
}

bool hs_wscope_link_to_policy(const char *link, const char *text)
{
	char t[PATH_MAX];
	size_t n = 0, k = hs_len(text);
	const char *slash = strrchr(link, '/');

	if (!F.prot.n || !k)
		return false;
	if (text[0] != '/') { /* from the link's directory */
		n = slash ? (size_t)(slash - link) : 0;
		if (n + 1 >= sizeof(t))
			return false;
		memcpy(t, link, n);
		t[n++] = '/';
	}
	if (n + k >= sizeof(t))
		return false;
	memcpy(t + n, text, k + 1);
	hs_path_fold(t);
	for (unsigned i = 0; i < F.prot.n; i++) {
		const char *g = F.prot.e[i].g;

		if (g[0] == '/' ? hs_same(t, g)
				: g[0] == '^' && hs_path_under(t, g + 1))
			return true;
	}
	return false;
}

bool hs_wscope_policy(void)
{
	return (hs_wscope_active() & HS_W_PRE) && F.prot.n;
}

bool hs_wscope_policy_file(const char *abs)
{
	return F.prot.n && protected_file(abs);
}

/* Is dir abs itself or above p? */
static bool at_or_above(const char *abs, const char *p)
{
	return hs_path_under(p, abs);
}

bool hs_wscope_pinned(const char *abs)
{
	if (hs_st.root[0] && at_or_above(abs, hs_st.root))
		return true;
	for (unsigned i = 0; i < F.prot.n; i++)
		if (at_or_above(abs, F.prot.e[i].g))
			return true;
	return runtime_dir_under(abs, true);
}

/* In scope as writes are (include, exclude, never /dev /proc /sys). */
static bool in_scope(const char *abs)
{
	return !F.exc.all && !pseudo(abs) && any(&F.inc, abs) &&
	       !(F.exc.n && any(&F.exc, abs));
}

/* This process's name into out (32 bytes): /proc/self/comm, the thread
 * group's (the title an agent sets, else its executable's name; a
 * thread's own, PR_GET_NAME, may be a pool's). Raw calls: no interposer
 * of ours runs, errno is kept. */
static size_t own_comm(char *out)
{
	int e = errno;
	long fd = HS_REAL(syscall)(SYS_openat, AT_FDCWD, "/proc/self/comm",
				   O_RDONLY | O_CLOEXEC);
	long n = -1;

	if (fd >= 0) {
		n = HS_REAL(syscall)(SYS_read, (int)fd, out, 31);
		HS_REAL(syscall)(SYS_close, (int)fd);
	}
	errno = e;
	if (n <= 0)
		return 0;
	if (out[n - 1] == '\n')
		n--;
	out[n] = '\0';
	return (size_t)n;
}

/* Is abs one of the agent's own places: an 'a' glob, a place of a name
 * the filter gives, or of this program's own name? */
static bool agent_own(const char *abs)
{
	const struct agent_scope *a = F.ag;
	char comm[32];
	size_t n;

	bool at_home = a->home && hs_path_under(abs, a->home);

	for (unsigned i = 0; i < a->aexc.n; i++)
		if (!(at_home &&
		      hs_agent_glob_above_home(a->aexc.e[i].g, a->home)) &&
		    glob_at(&a->aexc, i, abs))
			return true;
	if (!a->home)
		return false;
	for (unsigned i = 0; i < a->names.n; i++)
		if (hs_agent_place(abs, a->home, a->names.e[i].g,
				   a->names.e[i].plen))
			return true;
	return F.o.own_name && (n = own_comm(comm)) > 0 &&
	       hs_agent_place(abs, a->home, comm, n);
}

HS_CHILD_PATH
bool hs_wscope_beyond(void)
{
	if (!hs_wscope_active())
		return false;
	return F.ag && (F.ag->ainc.all || F.ag->ainc.n);
}

/* May this process's writes to abs fire as the agent's own beyond the
 * scope ('A' lines: writes.agent_anywhere)? Only the agent's process
 * (its role, state.h); never /dev, /proc, /sys or an exclusion. */
static bool agent_scope(const char *abs)
{
	return hs_st.role == HS_ROLE_AGENT && F.ag &&
	       (F.ag->ainc.all || F.ag->ainc.n) && !F.exc.all && !pseudo(abs) &&
	       any(&F.ag->ainc, abs) &&
	       !(F.exc.n && any(&F.exc, abs)) && !agent_own(abs);
}

/* What the hooks' globs and the scope say. */
static unsigned hooks_match(const char *abs, unsigned want)
{
	unsigned w = 0;

	if ((want & HS_W_PRE) && (F.pre.all || F.pre.n))
		w |= HS_W_PRE;
	if ((want & HS_W_PRE) && (F.stage.all || F.stage.n) && any(&F.stage, abs))
		w |= HS_W_STAGE;
	if ((want & HS_W_POST) && (F.post.all || F.post.n))
		w |= HS_W_POST;
	/* the hooks' own globs first: they are the narrow ones */
	if ((w & HS_W_PRE) && !any(&F.pre, abs))
		w &= ~HS_W_PRE;
	if ((w & HS_W_POST) && !any(&F.post, abs))
		w &= ~HS_W_POST;
	return w && (in_scope(abs) || agent_scope(abs)) ? w : 0;
}

bool hs_rscope_match(const char *abs)
{
	if (!__atomic_load_n(&F.parsed, __ATOMIC_ACQUIRE))
		hs_wscope_init();
	return (F.rd.all || F.rd.n) && any(&F.rd, abs) && in_scope(abs);
}

unsigned hs_wscope_match(const char *abs, unsigned want)
{
	unsigned w = want & HS_W_PROT ? 0 : hooks_match(abs, want);

	/* the built-in rule: no scope or exclusion hides a protected file */
	if ((want & HS_W_PRE) && F.prot.n && protected_file(abs))
		w |= HS_W_PRE;
	return w;
}

static bool names(const struct globs *gs, const char *abs)
{
	for (unsigned i = 0; i < gs->n; i++)
		if (gs->e[i].g && glob_at(gs, i, abs))
			return true;
	return false;
}

bool hs_wscope_protected(const char *abs)
{
	return (names(&F.pre, abs) || names(&F.stage, abs)) &&
	       hs_wscope_match(abs, HS_W_PRE) != 0;
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
		if (prefix_meets(gs->e[i].g ? gs->e[i].g : hs_st.root,
				 gs->e[i].plen, dir, dn))
			return true;
	return false;
}

/* Can a write to `dir` or below fire anything? Conservative: true unless
 * no glob can match there. */
static bool dir_live(const char *dir)
{
	size_t dn = strlen(dir);

	/* path.c rewrites magic links (/proc/self/cwd/..., /dev/fd/N/...)
	 * to wherever they point: a directory there may lead anywhere. The
	 * rest of /dev (/dev/shm, a tmpfs where tar and tests unpack) is
	 * ground like any other. */
	if (dn <= 1 || hs_path_under(dir, "/proc") || strcmp(dir, "/dev") == 0 ||
	    hs_path_under(dir, "/dev/fd"))
		return true;
	/* another name of a protected file may be anywhere */
	if (any_ids())
		return true;
	return any_below(&F.prot, dir, dn) || runtime_dir_under(dir, false) ||
	       ((any_below(&F.inc, dir, dn) ||
		 (hs_st.role == HS_ROLE_AGENT && F.ag &&
		  any_below(&F.ag->ainc, dir, dn))) &&
		(any_below(&F.pre, dir, dn) || any_below(&F.post, dir, dn) ||
		 any_below(&F.stage, dir, dn)));
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
/* Every forget counts here too, before the slot's seq: a fresh file's
 * verdict is stored only if nothing was closed since its open began. */
static unsigned long closes;

bool hs_wdir_used(void)
{
	return __atomic_load_n(&dirs_used, __ATOMIC_RELAXED);
}

void hs_wdir_forget(int fd)
{
	if (fd >= 0 && __atomic_load_n(&dirs_used, __ATOMIC_SEQ_CST)) {
		__atomic_fetch_add(&closes, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&dirs[fd % NDIR].seq, 1, __ATOMIC_SEQ_CST);
	}
}

void hs_wdir_forget_all(void)
{
	if (!__atomic_load_n(&dirs_used, __ATOMIC_SEQ_CST))
		return;
	__atomic_fetch_add(&closes, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < NDIR; i++)
		__atomic_fetch_add(&dirs[i].seq, 1, __ATOMIC_SEQ_CST);
}

/* The verdict kept for fd (0 live, 1 dead), or -1: none, or a stale one. */
static int kept(int fd)
{
	uint64_t w = __atomic_load_n(&dirs[fd % NDIR].w, __ATOMIC_ACQUIRE);
	unsigned seq = __atomic_load_n(&dirs[fd % NDIR].seq, __ATOMIC_ACQUIRE);

	if ((unsigned)(w >> 32) == seq && (uint32_t)w >> 1 == (uint32_t)fd + 1)
		return (int)(w & 1);
	return -1;
}

/* Keeps a verdict for fd, computed while the slot's seq was `seq`. */
static void keep(int fd, unsigned seq, bool dead)
{
	__atomic_store_n(&dirs[fd % NDIR].w,
			 (uint64_t)seq << 32 | ((uint64_t)fd + 1) << 1 | dead,
			 __ATOMIC_RELEASE);
}

bool hs_wscope_dirfd_live(int fd)
{
	char dir[PATH_MAX];
	unsigned seq;
	bool live;
	int k;

	if (fd < 0 || fd > 0x3fffffff)
		return true;
	if ((k = kept(fd)) >= 0)
		return !k;
	/* from here on a close of fd bumps seq */
	__atomic_store_n(&dirs_used, 1, __ATOMIC_SEQ_CST);
	seq = __atomic_load_n(&dirs[fd % NDIR].seq, __ATOMIC_SEQ_CST);
	if (hs_path_dirfd(fd, dir) < 0)
		return true;
	live = dir_live(dir);
	if (hs_getpid() == hs_st.pid)
		keep(fd, seq, !live);
	return live;
}

unsigned long hs_wfresh_begin(void)
{
	/* from here on every close counts */
	__atomic_store_n(&dirs_used, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&closes, __ATOMIC_SEQ_CST);
}

void hs_wfresh_mark(int fd, unsigned long gen)
{
	unsigned seq;

	if (fd < 0 || fd > 0x3fffffff || hs_getpid() != hs_st.pid)
		return;
	/* the slot's seq first, the count second: a close of fd by another
	 * thread bumps the count first, the seq second, so it is seen in
	 * one or the other */
	seq = __atomic_load_n(&dirs[fd % NDIR].seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&closes, __ATOMIC_SEQ_CST) != gen)
		return;
	keep(fd, seq, true);
}

bool hs_wscope_fd_fresh(int fd)
{
	/* a dead directory's verdict says as much: nothing protected at
	 * or below it */
	return fd >= 0 && fd <= 0x3fffffff && kept(fd) == 1;
}
