/* Glob matching shared by the CLI and the preload shim. */
#ifndef HOOKSHIM_CONFIG_GLOB_H
#define HOOKSHIM_CONFIG_GLOB_H

#include <stdbool.h>

/* The longest pattern hs_glob_match takes (a longer one never matches;
 * the config loaders refuse it with an error). The match keeps two bits
 * per pattern byte on the stack: 4 KiB at the most. */
#define HS_GLOB_MAX 16383

/* "*", "?" and "[...]"/"[!...]". With `pathmode`, "*" and "?" stop at '/'
 * and "**" crosses it (a trailing slash-star-star also matches the directory
 * itself). O(len(subject) * len(pattern)), whatever either holds.
 * Async-signal-safe: no allocation, no locale. */
bool hs_glob_match(const char *pattern, const char *subject, bool pathmode);

/* The same answer by the automaton alone (what hs_glob_match falls back
 * to when backtracking gets expensive): for the tests. */
bool hs_glob_match_automaton(const char *pattern, const char *subject,
			     bool pathmode);

#endif
