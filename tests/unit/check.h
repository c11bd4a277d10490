/* A tiny test vocabulary: each CHECK prints one PASS or FAIL line that
 * tests/run.sh counts. */
#ifndef HOOKSHIM_TESTS_CHECK_H
#define HOOKSHIM_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(name, cond)                                                    \
	do {                                                                 \
		if (cond) {                                                  \
			printf("PASS %s\n", (name));                         \
		} else {                                                     \
			printf("FAIL %s (%s:%d: %s)\n", (name), __FILE__,    \
			       __LINE__, #cond);                             \
			check_failures++;                                    \
		}                                                            \
		fflush(stdout);                                              \
	} while (0)

#define CHECK_STR(name, want, got)                                           \
	do {                                                                 \
		const char *w_ = (want), *g_ = (got);                        \
		int ok_ = (w_ == NULL && g_ == NULL) ||                      \
			  (w_ && g_ && strcmp(w_, g_) == 0);                 \
		CHECK(name, ok_);                                            \
		if (!ok_)                                                    \
			printf("# want [%s]\n# got  [%s]\n",                 \
			       w_ ? w_ : "(null)", g_ ? g_ : "(null)");      \
	} while (0)

#define CHECK_DONE() return check_failures ? 1 : 0

#endif
