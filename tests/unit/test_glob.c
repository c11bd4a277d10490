/* common/glob.c: the cases the fuzzers found, kept as tests, and every
 * short pattern and subject over a small alphabet: hs_glob_match and the
 * automaton it falls back to against the plain backtracking matcher
 * whose answers both must give (fuzz/glob_ref.h). The long cases used to
 * hang: an alarm turns a hang into a failure. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/glob.h"
#include "check.h"
#include "../../fuzz/glob_ref.h"

/* Every string of up to `max` characters from `alpha`, in s[], one
 * after the other: returns false after the last. */
static bool next_string(char *s, const char *alpha, size_t max)
{
	size_t n = strlen(s), k = strlen(alpha);

	for (size_t i = n; i > 0; i--) {
		const char *at = strchr(alpha, s[i - 1]);

		if ((size_t)(at - alpha) + 1 < k) {
			s[i - 1] = at[1];
			for (size_t j = i; j < n; j++)
				s[j] = alpha[0];
			return true;
		}
	}
	if (n == max)
		return false;
	memset(s, alpha[0], n + 1);
	s[n + 1] = '\0';
	return true;
}

/* Patterns up to 4 characters from the special ones, subjects up to 4
 * characters: ~3 million comparisons, the first disagreements printed. */
static int exhaustive(void)
{
	char p[8] = "", s[8];
	int bad = 0;

	do {
		s[0] = '\0';
		do {
			for (int mode = 0; mode < 2; mode++) {
				bool want = ref_glob_match(p, s, mode);

				if ((hs_glob_match(p, s, mode) != want ||
				     hs_glob_match_automaton(p, s, mode) !=
					     want) &&
				    bad++ < 10)
					fprintf(stderr, "glob [%s] on [%s] "
						"(pathmode %d): not %d\n", p,
						s, mode, want);
			}
		} while (next_string(s, "a/]b", 4));
	} while (next_string(p, "a/*?[]!\\", 4));
	return bad;
}

/* 5,460 double stars, against themselves and against a long path. */
static void *many_double_stars(void *subject)
{
	size_t n = (HS_GLOB_MAX - 1) / 3 * 3; /* room for the b */
	char *stars = malloc(n + 2);
	bool ok;

	for (size_t i = 0; i < n; i += 3)
		memcpy(stars + i, "**a", 3);
	stars[n] = '\0';
	ok = hs_glob_match(stars, stars, true);
	strcat(stars, "b");
	ok = ok && !hs_glob_match(stars, subject, true);
	free(stars);
	return ok ? subject : NULL;
}

int main(void)
{
	char pattern[64] = "", *subject = malloc(3001);
	bool hit;

	alarm(120);
	CHECK("every short pattern and subject: the reference's answer",
	      exhaustive() == 0);

	CHECK("** crosses /", hs_glob_match("secrets/**", "secrets/a/b", true));
	CHECK("trailing /** matches the directory",
	      hs_glob_match("secrets/**", "secrets", true));
	CHECK("**/*.c", hs_glob_match("**/*.c", "a/b/c.c", true));
	CHECK("* stops at /", !hs_glob_match("*.c", "a/b.c", true));
	CHECK("several ** still match",
	      hs_glob_match("**a**a**a**b", "a/a/a/a/b", true));

	/* Twelve double stars against a 3000-byte path with no 'b': each
	 * tried every position of the path, O(len^12), a hang in the shim. */
	for (int i = 0; i < 12; i++)
		strcat(pattern, "**a");
	strcat(pattern, "**b");
	for (int i = 0; i < 3000; i += 2)
		memcpy(subject + i, "a/", 2);
	subject[3000] = '\0';
	hit = hs_glob_match(pattern, subject, true);
	CHECK("many ** against a long path: no match", !hit);
	hit = hs_glob_match("******************[!]azz\\*", subject, true);
	CHECK("a run of stars: no match", !hit);

	/* fuzz/fuzz_rule.c, from an Edit(...) rule: four double stars,
	 * a star and a bracket against a 2,600-byte path of stars; more
	 * than ten seconds with the backtracking matcher. */
	memset(subject, '*', 2600);
	subject[0] = '(';
	subject[2600] = '\0';
	hit = hs_glob_match("********?*[***u****\xeds(**\xd5\xca-t]?.c",
			    subject, true);
	CHECK("stars and a bracket against a long path: no match", !hit);
	memcpy(subject + 2597, "*.c", 3);
	hit = hs_glob_match("********?*[***u****\xeds(**\xd5\xca-t]?.c",
			    subject, true);
	CHECK("stars and a bracket against a long path: a match", hit);
	CHECK("the same by the automaton alone",
	      hs_glob_match_automaton("********?*[***u****\xeds(**\xd5\xca-t]?.c",
				      subject, true));

	/* thousands of double stars: the backtracking matcher recursed
	 * once per double star, a stack overflow in a thread with a small
	 * stack; past a few dozen, the automaton answers. In a thread with
	 * musl's default stack of 128 KiB. */
	pthread_attr_t attr;
	pthread_t th;
	void *res = NULL;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 * 1024);
	CHECK("a thread with a 128 KiB stack",
	      pthread_create(&th, &attr, many_double_stars, subject) == 0 &&
		      pthread_join(th, &res) == 0);
	CHECK("5,460 double stars: a match, and no match with a b after",
	      res == subject);

	/* many unterminated '[' (each a literal) against a long subject */
	char *brackets = malloc(HS_GLOB_MAX + 2);

	memset(brackets, '[', HS_GLOB_MAX);
	brackets[HS_GLOB_MAX] = '\0';
	CHECK("a pattern of HS_GLOB_MAX '[': no match on stars",
	      !hs_glob_match(brackets, subject, true));
	CHECK("HS_GLOB_MAX '[' match as many '['",
	      hs_glob_match(brackets + HS_GLOB_MAX - 3, "[[[", true));
	strcpy(brackets + HS_GLOB_MAX, "*");
	CHECK("a pattern over HS_GLOB_MAX never matches",
	      !hs_glob_match(brackets, brackets, true));
	free(brackets);
	free(subject);
	CHECK_DONE();
}
