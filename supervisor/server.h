/* The session's abstract-socket server: a thread per connection, each
 * deciding one request through hs_session_decide. */
#ifndef HOOKSHIM_SUPERVISOR_SERVER_H
#define HOOKSHIM_SUPERVISOR_SERVER_H

#include <stdbool.h>

#include "session.h"

struct hs_supervisor;

/* Listens on the abstract socket "\0<name>" and serves `s` until stopped.
 * NULL (with a message) if the socket cannot be had. */
struct hs_supervisor *hs_supervisor_start(struct hs_session *s,
					  const char *name);
/* Stops accepting, waits up to grace_ms for requests in flight, frees.
 * Returns false if some were still running (the session and config must
 * then stay alive: the caller should just exit). */
bool hs_supervisor_stop(struct hs_supervisor *sv, int grace_ms);

#endif
