/* The session's --log: one JSON line per event and its decision. */
#ifndef HOOKSHIM_SUPERVISOR_LOG_H
#define HOOKSHIM_SUPERVISOR_LOG_H

#include <stdbool.h>

#include "session.h"

/* Appends one line for `ev` and what its hooks did; a no-op without a
 * log. `decision` is "allow", "deny", ...; `asked` whether a human was. */
void hs_log_event(struct hs_session *s, const struct hs_event *ev,
		  const struct hs_outcome *out, const char *decision,
		  bool asked);

#endif
