/* Glob matching; see glob.h. Written for the shim too: no allocation. */
#include "glob.h"

#include <stddef.h>

/* Matches a bracket expression at p against c; returns the pattern position
 * after ']' or NULL when the expression is unterminated (then '[' is
 * literal). *hit tells whether c is in the set. */
static const char *bracket(const char *p, char c, bool *hit)
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
	for (; *q && *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			if ((unsigned char)c >= (unsigned char)q[0] &&
			    (unsigned char)c <= (unsigned char)q[2])
				in = true;
			q += 2;
		} else if (*q == c) {
			in = true;
		}
	}
	if (*q != ']')
		return NULL;
	*hit = in != negate;
	return q + 1;
}

/* A pattern character that matches only itself. */
static bool literal(char c)
{
	return c && c != '*' && c != '?' && c != '[' && c != '\\';
}

/* 1: match; 0: no match; GLOB_ABORT: no match at this subject position
 * nor at any later one. A double star tries every position of the subject
 * for the rest of the pattern; when the rest has failed at all of them,
 * a double star further out need not try its own later positions (each
 * would only retry a subset), so the failure goes straight out. Without
 * that, n double stars cost O(len^n): a pattern such as a**a**a**b
 * against a long path ("aaaa...") hung the shim in the agent's write
 * (found by fuzz/fuzz_glob.c). Git's wildmatch does the same. */
#define GLOB_ABORT (-1)

static int glob(const char *p, const char *s, bool pathmode)
{
	const char *star_p = NULL, *star_s = NULL;

	while (*s || *p) {
		if (*p == '*') {
			if (pathmode && p[1] == '*') {
				/* A double star crosses '/'; a trailing
				 * slash-double-star also matches the
				 * directory itself. */
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
					int r = glob(rest, t, pathmode);

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
		 * without it a ** before a * was cubic). */
		return star_p && !*star_s ? GLOB_ABORT : 0;
	}
	return 1;
}

bool hs_glob_match(const char *pattern, const char *subject, bool pathmode)
{
	return glob(pattern, subject, pathmode) == 1;
}
