/* W3C Trace Context for a session's tool calls: the session is a trace
 * (its 128-bit id is the trace id) and each tool call a span (an id
 * derived from its tool_use_id), so the OpenTelemetry records the
 * supervisor exports (supervisor/otlp.c) and whatever a hook or a policy
 * service records with the `traceparent` it is handed
 * (TRACEPARENT in a command hook's environment, a "traceparent" header
 * on an http hook's request) join up. */
#ifndef HOOKSHIM_ENGINE_TRACEPARENT_H
#define HOOKSHIM_ENGINE_TRACEPARENT_H

#include <stdbool.h>

/* trace: 32 lowercase hex digits and a NUL; span: 16 and a NUL. False
 * when session is not a 32-hex-digit id (no trace then). A call without
 * a tool_use_id (session start and end) gets the session's own span. */
bool hs_trace_ids(const char *session, const char *tool_use_id,
		  char trace[33], char span[17]);

/* "00-TRACE-SPAN-01" into buf (56 bytes), or false as above. */
bool hs_traceparent(const char *session, const char *tool_use_id,
		    char buf[56]);

#endif
