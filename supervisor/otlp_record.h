/* OTLP JSON for supervisor/otlp.c (otlp.h): a record of supervisor/log.c
 * as one LogRecord, and the request around a batch of them. */
#ifndef HOOKSHIM_SUPERVISOR_OTLP_RECORD_H
#define HOOKSHIM_SUPERVISOR_OTLP_RECORD_H

#include <cjson/cJSON.h>

/* One LogRecord's JSON, timestamped now; NULL without memory. */
char *hs_otlp_log_record(const cJSON *rec, const char *session_id);

/* An ExportLogsServiceRequest up to its logRecords array: its resource
 * (service.name, service.version, host.name, process.pid and
 * OTEL_RESOURCE_ATTRIBUTES) and scope; the records, comma-separated,
 * and hs_otlp_request_tail complete it. */
char *hs_otlp_request_head(void);
extern const char hs_otlp_request_tail[];

/* Each pair of an OTEL_* list ("k=v,k2=v2", values percent-encoded:
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS), decoded. */
void hs_otlp_pairs(const char *list,
		   void (*each)(void *arg, const char *k, const char *v),
		   void *arg);

/* The log records an ExportLogsServiceRequest of ours holds (OTLP JSON,
 * as the exporter or the OTLP file wrote it), for `hookshim log`: every
 * field the export carries, the hooks reduced to the one that decided.
 * Log records of other programs in the request are skipped. */
cJSON *hs_otlp_records(const cJSON *request);

#endif
