/* Glob matching; see glob.h. Written for the shim too: no allocation.
 *
 * Two matchers give the same answers. A backtracking one runs first: on
 * the patterns people write (a directory and a double star, "*.c" in
 * any directory, "git push *") it is the fastest, a few nanoseconds a
 * character. But backtracking is
 * exponential in the number of stars in the worst case, and the subject
 * is a path or a command the policed process chooses: cuts in the spirit
 * of git's wildmatch (below) still left a 37-byte pattern against a
 * 2,600-byte path running for more than ten seconds (fuzz/fuzz_rule.c).
 * So it runs on a budget of steps linear in the input, and a match that
 * spends it is answered by the second matcher, an automaton whose cost is
 * O(len(subject) * len(pattern)) whatever either holds.
 *
 * The automaton reads the pattern as a sequence of tokens (a literal,
 * '?', a bracket expression, '*', and in path mode '**'); the set of token
 * positions the subject so far can have reached is a bitset on the stack,
 * and each subject character moves every position in it at once.
 * fuzz/glob_ref.h keeps the plain backtracking matcher whose answers both
 * must give; tests/unit/test_glob.c compares all three on every short
 * pattern and subject. */
#include "glob.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pat {
	const char *p;
	size_t len;
	size_t close; /* one past the last ']' in the pattern, 0 if none */
	bool path;
	bool sure; /* a trailing double star was reached: a match */
};

enum tok { T_END, T_STAR, T_STARSTAR, T_ONE, T_SET, T_LIT };

/* Whether c is in the bracket expression at p; *after is the pattern
 * position past its ']'. Only called for a terminated expression. */
static bool in_set(const char *p, char c, const char **after)
{
	bool negate = false, in = false;
	const char *q = p + 1;

	if (*q == '!' || *q == '^') {
		negate = true;
		q++;
	}
	if (*q == ']') { /* a leading ']' is literal */
		in = c == ']';
		q++;
	}
	for (; *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			if ((unsigned char)c >= (unsigned char)q[0] &&
			    (unsigned char)c <= (unsigned char)q[2])
				in = true;
			q += 2;
		} else if (*q == c) {
			in = true;
		}
	}
	*after = q + 1;
	return in != negate;
}

/* Whether the '[' at i ends with a ']': the expression's first ']' is
 * searched for from past a leading '!'/'^' and a leading literal ']', and
 * a range never steps over one, so any ']' from there on ends it. An
 * unterminated '[' is a literal. One test per '[', not a scan: a pattern
 * of many unterminated '[' would otherwise be quadratic. */
static bool terminated(const struct pat *g, size_t i)
{
	size_t q = i + 1;

	if (g->p[q] == '!' || g->p[q] == '^')
		q++;
	if (g->p[q] == ']')
		q++;
	return g->close > q;
}

/* The token at position i, and where the automaton goes: *eps without
 * consuming a character (the stars), *next after consuming one. */
static enum tok token(const struct pat *g, size_t i, size_t *next,
		      size_t *eps)
{
	const char *p = g->p + i;

	switch (*p) {
	case '\0':
		return T_END;
	case '*':
		if (g->path && p[1] == '*') {
			/* "**" crosses '/'; "**" followed by '/' also
			 * matches no directory at all */
			*eps = i + 2 + (p[2] == '/');
			*next = i;
			return T_STARSTAR;
		}
		*eps = i + 1;
		*next = i;
		return T_STAR;
	case '?':
		*next = i + 1;
		return T_ONE;
	case '[':
		if (terminated(g, i))
			return T_SET;
		*next = i + 1;
		return T_LIT;
	case '\\':
		*next = i + 1 + (p[1] != '\0');
		return T_LIT;
	default:
		*next = i + 1;
		return T_LIT;
	}
}

static void set(uint64_t *s, size_t i)
{
	s[i / 64] |= (uint64_t)1 << (i % 64);
}

static bool has(const uint64_t *s, size_t i)
{
	return s[i / 64] >> (i % 64) & 1;
}

/* Adds position i and every position the stars reach from it without
 * consuming a character: a chain, so a loop and not a recursion. A chain
 * of double stars to the pattern's end matches whatever follows: the
 * match is then certain (g->sure). */
static void reach(struct pat *g, uint64_t *s, size_t i)
{
	size_t next, eps;
	int doubles = 0; /* 1: only double stars so far; -1: not only */

	while (!has(s, i)) {
		set(s, i);
		switch (token(g, i, &next, &eps)) {
		case T_STARSTAR:
			doubles += !doubles;
			i = eps;
			break;
		case T_STAR:
			doubles = -1;
			i = eps;
			break;
		case T_END:
			g->sure |= doubles == 1;
			return;
		default:
			return;
		}
	}
}

/* Moves position i over the subject character c into s. */
static void step(struct pat *g, uint64_t *s, size_t i, char c)
{
	size_t next = i, eps;
	const char *after;
	bool slash = g->path && c == '/';

	switch (token(g, i, &next, &eps)) {
	case T_END:
		return;
	case T_STARSTAR:
		break;
	case T_STAR:
	case T_ONE:
		if (slash)
			return;
		break;
	case T_SET:
		if (slash || !in_set(g->p + i, c, &after))
			return;
		next = (size_t)(after - g->p);
		break;
	case T_LIT:
		if (g->p[i] == '\\' && g->p[i + 1] ? g->p[i + 1] != c
						   : g->p[i] != c)
			return;
		break;
	}
	reach(g, s, next);
}

/* At the end of the subject: the pattern's end, or in path mode a
 * trailing slash-double-star (it also matches the directory itself). */
static bool accepts(const struct pat *g, size_t i)
{
	return i == g->len || (g->path && strcmp(g->p + i, "/**") == 0);
}


/* The backtracking matcher. 1: match; 0: no match; GLOB_ABORT: no match
 * at this subject position nor at any later one; GLOB_SPENT: the budget
 * ran out, no answer. A double star tries every position of the subject
 * for the rest of the pattern; when the rest has failed at all of them,
 * a double star further out need not try its own later positions (each
 * would only retry a subset), so the failure goes straight out. */
#define GLOB_ABORT (-1)
#define GLOB_SPENT (-2)
/* A double star is a recursion: more than this many in a pattern go to
 * the automaton too, whose stack use does not grow with them. */
#define GLOB_DEPTH 32

/* Matches a bracket expression at p against c; returns the pattern
 * position after ']', or NULL when it is unterminated ('[' is literal). */
static const char *bracket(const char *p, char c, bool *hit)
{
	const char *q = p + 1;

	if (*q == '!' || *q == '^')
		q++;
	if (*q == ']')
		q++;
	if (!strchr(q, ']'))
		return NULL;
	*hit = in_set(p, c, &q);
	return q;
}

/* A pattern character that matches only itself. */
static bool literal(char c)
{
	return c && c != '*' && c != '?' && c != '[' && c != '\\';
}

static int backtrack(const char *p, const char *s, bool pathmode,
		     long *budget, int depth)
{
	const char *star_p = NULL, *star_s = NULL;

	while (*s || *p) {
		if (--*budget < 0)
			return GLOB_SPENT;
		if (*p == '*') {
			if (pathmode && p[1] == '*') {
				const char *rest = p + 2;

				if (*rest == '/')
					rest++;
				for (const char *t = s;; t++) {
					/* a literal can only match itself: skip
					 * to it (the end is always tried, for a
					 * trailing slash-double-star) */
					if (literal(*rest))
						while (*t && *t != *rest)
							t++;
					int r = depth < GLOB_DEPTH
							? backtrack(rest, t, pathmode,
								    budget, depth + 1)
							: GLOB_SPENT;

					if (r != 0)
						return r;
					/* A rest that starts with a single star
					 * tried every position up to the next
					 * '/' from here already. */
					if (rest[0] == '*' && rest[1] != '*')
						while (*t && *t != '/')
							t++;
					if (!*t)
						return GLOB_ABORT;
				}
			}
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (pathmode && p[0] == '/' && p[1] == '*' && p[2] == '*' &&
		    p[3] == '\0' && *s == '\0')
			return 1;
		if (*s) {
			bool ok = false;
			const char *next = p + 1;

			if (*p == '?') {
				ok = !(pathmode && *s == '/');
			} else if (*p == '[') {
				bool hit = false;
				const char *after = bracket(p, *s, &hit);

				if (after) {
					ok = hit && !(pathmode && *s == '/');
					next = after;
				} else {
					ok = *s == '[';
				}
			} else if (*p == '\\' && p[1]) {
				ok = p[1] == *s;
				next = p + 2;
			} else if (*p) {
				ok = *p == *s;
			}
			if (ok) {
				p = next;
				s++;
				continue;
			}
		}
		/* Backtrack to the last single star, unless it would have to
		 * swallow a '/' in path mode. */
		if (star_p && *star_s && !(pathmode && *star_s == '/')) {
			p = star_p;
			s = ++star_s;
			continue;
		}
		/* The star reached the end of the subject: a later start
		 * cannot do better either (the same cut as for a double star;
		 * without it a double star before a star was cubic). */
		return star_p && !*star_s ? GLOB_ABORT : 0;
	}
	return 1;
}

/* The positions in a bitset of `words` words, in order. */
#define EACH_POSITION(set, words, i)                                       \
	for (size_t w_ = 0; w_ < (words); w_++)                              \
		for (uint64_t b_ = (set)[w_]; b_ &&                          \
		     ((i) = w_ * 64 + (size_t)__builtin_ctzll(b_), 1);       \
		     b_ &= b_ - 1)

bool hs_glob_match_automaton(const char *pattern, const char *subject,
			     bool pathmode)
{
	struct pat g = { .p = pattern, .path = pathmode };
	size_t words, start = 0, i;
	bool any = true;

	g.len = strlen(pattern);
	if (g.len > HS_GLOB_MAX)
		return false;
	if (strchr(pattern, '[')) {
		const char *close = strrchr(pattern, ']');

		g.close = close ? (size_t)(close - pattern) + 1 : 0;
	}
	/* A literal start (most patterns have one: the directory before a
	 * double star) is matched directly, and most subjects are told
	 * apart there; up to a trailing slash-double-star, whose position
	 * accepts() needs. */
	while (pattern[start] && !strchr("*?[\\", pattern[start]) &&
	       !accepts(&g, start)) {
		if (*subject++ != pattern[start++])
			return false;
	}
	words = g.len / 64 + 1;

	uint64_t a[words], b[words], *cur = a, *nxt = b, *t;

	memset(cur, 0, sizeof(a));
	reach(&g, cur, start);
	for (; *subject && any && !g.sure; subject++) {
		memset(nxt, 0, sizeof(a));
		EACH_POSITION(cur, words, i)
			step(&g, nxt, i, *subject);
		any = false;
		for (size_t w = 0; w < words; w++)
			any |= nxt[w] != 0;
		t = cur;
		cur = nxt;
		nxt = t;
	}
	if (g.sure)
		return true;
	EACH_POSITION(cur, words, i)
		if (accepts(&g, i))
			return true;
	return false;
}

bool hs_glob_match(const char *pattern, const char *subject, bool pathmode)
{
	/* Enough for any sane pattern on any subject many times over; what
	 * spends it costs at most a constant times the automaton's work. */
	size_t len = strlen(pattern);
	long budget = 8 * (long)(len + strlen(subject)) + 256;
	int r;

	if (len > HS_GLOB_MAX)
		return false;
	r = backtrack(pattern, subject, pathmode, &budget, 0);

	if (r == GLOB_SPENT)
		return hs_glob_match_automaton(pattern, subject, pathmode);
	return r == 1;
}
