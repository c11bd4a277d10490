/* The write filter a session hands to the shim (HOOKSHIM_WRITE).
 *
 * It is the union of the path filters of every hook that can fire on a
 * write, as absolute path globs, plus the scope (include/exclude) and the
 * write options; the format is described in shim/write_scope.h. It is a
 * superset: the supervisor still matches every hook exactly, the shim only
 * skips writes no hook could want, so a hook narrowed to secrets/ costs
 * other writes nothing but a glob match. */
#ifndef HOOKSHIM_ENGINE_WRITE_FILTER_H
#define HOOKSHIM_ENGINE_WRITE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"

/* The shim's copy is bounded (shim/state.h): a longer filter is widened
 * to "any write in scope" rather than cut. */
#define HS_WRITE_FILTER_MAX 4000

/* The HOOKSHIM_WRITE value for cfg; malloc'd, NULL on allocation
 * failure. */
char *hs_write_filter(const struct hs_config *cfg);

/* The agent names ('n' lines) of a write filter, "a, b, c" into out. */
void hs_write_filter_names(const char *filter, char *out, size_t cap);

/* The pattern of h's "if" rule when it names a place outside the root by
 * an absolute or home path (a Write rule on ~/.ssh and below): the write
 * filter watches that place too. NULL otherwise. */
const char *hs_write_scope_rule(const struct hs_hook *h);

/* Why h's Write/Edit "if" rule names a place the write filter never
 * watches -- an agent's own state directory (~/.claude...), a
 * writes.exclude entry -- into why; NULL when it may be watched. */
const char *hs_write_unwatched(const struct hs_config *cfg,
			       const struct hs_hook *h, char *why, size_t n);

/* A memoh regex's mandatory literal (a run every match must contain), for
 * a glob; false when there is none worth using. Exposed for tests. */
bool hs_regex_literal(const char *re, char *out, size_t cap);

#endif
