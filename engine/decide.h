/* Reading what one hook said, by its dialect's rules. */
#ifndef HOOKSHIM_ENGINE_DECIDE_H
#define HOOKSHIM_ENGINE_DECIDE_H

#include <cjson/cJSON.h>

#include "dispatch.h"

#include "../config/dialect.h"

/* What each dialect's reading of a hook's exit status and output
 * (dialects/NAME.c, its hs_decide_fn) is made of. */

/* This hook's verdict, folded in: deny > ask > allow, the first reason
 * at the winning level kept. */
void hs_decide_say(struct hs_hook_run *run, struct hs_outcome *out,
		   enum hs_verdict v, const char *reason);
/* A deny with `reason`, or "blocked by hook ..." when it is empty. */
void hs_decide_deny(struct hs_hook_run *run, struct hs_outcome *out,
		    const char *reason);
/* A hook that timed out, crashed, could not start or whose request
 * failed: a warning, never a deny by itself. True when it was one. */
bool hs_decide_run_failed(struct hs_hook_run *run, struct hs_outcome *out);
/* An exit status that decides nothing: a warning with stderr's first
 * line. */
void hs_decide_nonblocking(struct hs_hook_run *run, struct hs_outcome *out);
/* stdout as a JSON object, or NULL when it is not one. */
cJSON *hs_decide_stdout_json(const struct hs_hook_run *run);
/* o[key] when it is a string, else NULL. */
const char *hs_decide_jstr(const cJSON *o, const char *key);
/* text, trimmed, appended to *dst on a line of its own. */
void hs_decide_append(char **dst, const char *text);
/* How a hook is named in messages: "name", or `its command`. */
const char *hs_decide_label(const struct hs_hook *h, char *buf, size_t len);

/* Where a failed hook fails closed (enforce and CI mode, "strict",
 * "on_hook_failure": "deny", a handler's "failClosed": the dispatcher
 * asks): a pre hook that did not run to a verdict (hs_run_failure:
 * killed, crashed, timed out, could not start, not found or not
 * executable) denies its call, the reason saying what failed and `why`
 * it denies. True when it did. Elsewhere the dialects' rule holds: such
 * a failure is a warning, never a deny by itself. */
bool hs_decide_fail_closed(struct hs_hook_run *run, struct hs_outcome *out,
			   const char *why);

void hs_outcome_warn(struct hs_outcome *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
