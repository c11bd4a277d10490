/* The glob matcher shared by the CLI and the shim (common/glob.c): write
 * filters, mnemoai matchers and Claude's path rules all end here, with a
 * subject (a path) the agent chooses.
 *
 * Input: a flags byte (bit 0: path mode), then the pattern and the
 * subject, NUL-separated. Checked besides "no crash, no hang":
 *   - the automaton alone gives hs_glob_match's answer (which is the
 *     backtracking matcher's, unless that spent its budget);
 *   - the subject with every special character escaped matches itself;
 *   - on short inputs, the answer is the one of the matcher before the
 *     double-star fix (glob_ref.h), which differs only in speed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/glob.h"
#include "fuzz.h"
#include "glob_ref.h"

/* The subject as a pattern that matches exactly it. */
/* Stars in a pattern: the reference is exponential in them. */
static size_t stars(const char *p)
{
	size_t n = 0;

	for (; *p; p++)
		n += *p == '*';
	return n;
}

static char *escaped(const char *s)
{
	char *e = malloc(2 * strlen(s) + 1), *p = e;

	if (!e)
		return NULL;
	for (; *s; s++) {
		if (strchr("*?[\\", *s))
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	bool pathmode;
	const char *pattern, *subject;
	char *lit;

	fz_init(&f, data, size);
	pathmode = fz_byte(&f) & 1;
	pattern = fz_str(&f);
	subject = fz_str(&f);
	if (pattern && subject) {
		bool hit = hs_glob_match(pattern, subject, pathmode);

		if (strlen(pattern) <= 40 && strlen(subject) <= 40 &&
		    stars(pattern) <= 6 &&
		    ref_glob_match(pattern, subject, pathmode) != hit) {
			fprintf(stderr, "glob [%s] on [%s] (pathmode %d): %d, "
				"was %d\n", pattern, subject, pathmode, hit,
				!hit);
			abort();
		}
		if (hs_glob_match_automaton(pattern, subject, pathmode) != hit) {
			fprintf(stderr, "glob [%s] on [%s] (pathmode %d): %d, "
				"the automaton %d\n", pattern, subject,
				pathmode, hit, !hit);
			abort();
		}
		lit = escaped(subject);
		if (lit && !hs_glob_match(lit, subject, pathmode)) {
			fprintf(stderr, "escaped subject does not match: [%s]\n",
				subject);
			abort();
		}
		free(lit);
	}
	fz_free(&f);
	return 0;
}
