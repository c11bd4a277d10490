/* Glob matching shared by the CLI and the preload shim. */
#ifndef HOOKSHIM_CONFIG_GLOB_H
#define HOOKSHIM_CONFIG_GLOB_H

#include <stdbool.h>

/* "*", "?" and "[...]"/"[!...]". With `pathmode`, "*" and "?" stop at '/'
 * and "**" crosses it (a trailing slash-star-star also matches the directory
 * itself). Async-signal-safe: no allocation, no locale. */
bool hs_glob_match(const char *pattern, const char *subject, bool pathmode);

#endif
