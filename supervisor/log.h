/* The session's --log: one JSON line per event and its decision. */
#ifndef HOOKSHIM_SUPERVISOR_LOG_H
#define HOOKSHIM_SUPERVISOR_LOG_H

#include <stdbool.h>
#include <sys/types.h>

#include "../engine/command.h"
#include "message.h"
#include "session.h"

/* Appends one line for `ev` and what its hooks did; a no-op without a
 * log. `decision` is "allow", "deny", ...; `asked` whether a human was;
 * `why` (may be NULL) which agent wrapper the command came out of. */
void hs_log_event(struct hs_session *s, const struct hs_event *ev,
		  const struct hs_outcome *out, const char *decision,
		  bool asked, const struct hs_command_why *why);

/* "2025-01-31T12:34:56.789Z", now: the log's and the transcript's. */
void hs_log_timestamp(char *buf, size_t cap);

/* Appends a line for an exec that is the agent's own shell, not a tool
 * call: decision "agent_internal", `what` as its reason. */
void hs_log_internal(struct hs_session *s, const struct hs_msg *req,
		     const char *what);

/* Appends a line for a call the floor refused before any hook (floor_
 * refuse.c: a call no path check can judge; floor_reach.c: one that
 * reaches into the supervisor or a hook): op "syscall", the call as its
 * operation, the path when it has one, decision "deny". Reports and
 * notices count it as a denial. */
void hs_log_refused(struct hs_session *s, pid_t pid, const char *cwd,
		    const char *call, const char *path, const char *reason);

/* Starts the OpenTelemetry export the config or the OTEL_* environment
 * asks for (otlp.h): every record this file writes goes there too, log
 * or no log. A line on stderr when it cannot. */
void hs_log_export_start(struct hs_session *s);

/* Sends what is queued, waiting at most `ms` for the collector, and
 * stops; what was not delivered is said on stderr and in the log (an
 * "otlp_export" record). Nothing when no export runs. */
void hs_log_export_stop(struct hs_session *s, long ms);

#endif
