/* Reading what one hook said, by its dialect's rules. */
#ifndef HOOKSHIM_ENGINE_DECIDE_H
#define HOOKSHIM_ENGINE_DECIDE_H

#include "dispatch.h"

#include "../config/dialect.h"

/* Each dialect's reading of a hook's exit status and output
 * (hs_decide_fn, config/dialect.h), named by the dialects' rows. Each
 * returns true when no further hook should run (a deny that
 * short-circuits); a memoh action error under on_error: fail stops only
 * its hook's actions, by *stop_group. */
hs_decide_fn hs_decide_claude;
hs_decide_fn hs_decide_memcode;
hs_decide_fn hs_decide_mnemoai;
hs_decide_fn hs_decide_memoh;

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
