/* Reading what one hook said, by its dialect's rules. */
#ifndef HOOKSHIM_ENGINE_DECIDE_H
#define HOOKSHIM_ENGINE_DECIDE_H

#include "dispatch.h"

/* Folds run (already executed) into out. Returns true when the dialect
 * says no further hook should run (a deny that short-circuits, or a memoh
 * action error under on_error: fail, which stops its hook's actions: then
 * *stop_group is set instead). */
bool hs_decide(struct hs_hook_run *run, const struct hs_event *ev,
	       struct hs_outcome *out, bool *stop_group);

void hs_outcome_warn(struct hs_outcome *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
