/* common/glob.c as it was before the double-star fix (fuzz_glob.c),
 * kept verbatim but renamed: the fixed matcher must give the same answer
 * wherever this one finishes in reasonable time. Exponential in the
 * number of double stars: only for short inputs. */
#include <stdbool.h>
#include <stddef.h>

/* Matches a bracket expression at p against c; returns the pattern position
 * after ']' or NULL when the expression is unterminated (then '[' is
 * literal). *hit tells whether c is in the set. */
static const char *ref_bracket(const char *p, char c, bool *hit)
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
static bool ref_literal(char c)
{
	return c && c != '*' && c != '?' && c != '[' && c != '\\';
}

static bool ref_glob_match(const char *p, const char *s, bool pathmode)
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
					if (ref_literal(*rest))
						while (*t && *t != *rest)
							t++;
					if (ref_glob_match(rest, t, pathmode))
						return true;
					if (!*t)
						return false;
				}
			}
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (pathmode && p[0] == '/' && p[1] == '*' && p[2] == '*' &&
		    p[3] == '\0' && *s == '\0')
			return true;
		if (*s) {
			bool ok = false;
			const char *next = p + 1;

			if (*p == '?') {
				ok = !(pathmode && *s == '/');
			} else if (*p == '[') {
				bool hit = false;
				const char *after = ref_bracket(p, *s, &hit);

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
		return false;
	}
	return true;
}
