/* OpenTelemetry export of the session's records (issue 27 item 3): each
 * log record (supervisor/log.c: every decision, session start and end)
 * becomes an OTLP LogRecord, sent by a thread of its own over OTLP/HTTP
 * with JSON encoding (libcurl) and/or appended to an OTLP JSON-lines file
 * (one ExportLogsServiceRequest a line, the OTel file exporter's format).
 *
 * Never in a decision's way: hs_otlp_emit only queues (a bounded queue;
 * what does not fit is counted as dropped), batching, retries with
 * back-off (429, 502, 503, 504, no connection) and the collector's
 * latency are the thread's. hs_otlp_stop flushes within a deadline and
 * says what was sent and what was lost.
 *
 * Where it goes: the "otlp" setting when a file gives one; otherwise the
 * OTEL_* environment as the OpenTelemetry specification defines it:
 * OTEL_EXPORTER_OTLP_LOGS_ENDPOINT (as is), OTEL_EXPORTER_OTLP_ENDPOINT
 * ("/v1/logs" appended), OTEL_EXPORTER_OTLP[_LOGS]_HEADERS,
 * _TIMEOUT, _PROTOCOL (http/json is what is sent), OTEL_LOGS_EXPORTER
 * ("none" turns it off; "otlp" with no endpoint: http://localhost:4318),
 * OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES and the batch processor's
 * OTEL_BLRP_MAX_QUEUE_SIZE, _SCHEDULE_DELAY and _MAX_EXPORT_BATCH_SIZE. */
#ifndef HOOKSHIM_SUPERVISOR_OTLP_H
#define HOOKSHIM_SUPERVISOR_OTLP_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"

struct hs_otlp;

/* NULL when nothing is to be exported, or when the configuration cannot
 * be used: then `err` says why (a line for the terminal). `err` may also
 * be set with an exporter returned: a collector left out (libcurl could
 * not be loaded), the OTLP file still written. */
struct hs_otlp *hs_otlp_start(const struct hs_settings *s,
			      const char *session_id, char *err, size_t cap);

/* Where a session would export to, in words, for `hookshim check`. */
void hs_otlp_describe(const struct hs_settings *s, char *buf, size_t cap);

/* Queues one record of supervisor/log.c's (not consumed). */
void hs_otlp_emit(struct hs_otlp *x, const cJSON *record);

struct hs_otlp_summary {
	size_t sent;    /* records a collector or the file took */
	size_t dropped; /* queue full, given up on, or rejected */
	char error[256]; /* the last failure, "" when none */
	char where[512]; /* the endpoint and/or file, for messages */
};

/* Sends what is queued, waiting at most `ms` for a collector, and stops
 * the thread; false (sum empty) when it was stopped already. x stays
 * valid: a decision still in flight may emit (it is counted as dropped). */
bool hs_otlp_stop(struct hs_otlp *x, long ms, struct hs_otlp_summary *sum);

/* Stops (at once, if not yet) and frees x: only once no thread can emit. */
void hs_otlp_free(struct hs_otlp *x);

#endif
