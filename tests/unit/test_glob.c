/* common/glob.c: the cases fuzz/fuzz_glob.c found, kept as tests. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/glob.h"
#include "check.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	char pattern[64] = "", *subject = malloc(3001);
	double t0;
	bool hit;

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
	t0 = now();
	hit = hs_glob_match(pattern, subject, true);
	CHECK("many ** against a long path: no match", !hit);
	CHECK("many ** against a long path: in well under a second",
	      now() - t0 < 0.5);
	t0 = now();
	hit = hs_glob_match("******************[!]azz\\*", subject, true);
	CHECK("a run of stars: no match, fast", !hit && now() - t0 < 0.5);
	free(subject);
	CHECK_DONE();
}
