/* A hookshim log record as an OTLP LogRecord, and the resource and scope
 * around a batch of them, in OTLP's JSON encoding (the protobuf JSON
 * mapping: 64-bit integers as strings, trace and span ids as hex).
 *
 * Attribute names follow the OpenTelemetry semantic conventions where
 * one fits -- event.name, session.id, gen_ai.tool.name,
 * gen_ai.tool.call.id, process.pid, process.command_line, file.path,
 * host.name, service.name -- and are hookshim.* otherwise: the decision,
 * its reason, the hook that decided (source, command or url, type,
 * verdict, failure, duration), the operation and who asked. */
#include "otlp_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/version.h"
#include "../engine/traceparent.h"

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void attr_str(cJSON *a, const char *k, const char *v)
{
	cJSON *e, *val;

	if (!v)
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "key", k);
	val = cJSON_AddObjectToObject(e, "value");
	cJSON_AddStringToObject(val, "stringValue", v);
	cJSON_AddItemToArray(a, e);
}

static void attr_int(cJSON *a, const char *k, long long v)
{
	cJSON *e = cJSON_CreateObject(), *val;
	char n[32];

	snprintf(n, sizeof(n), "%lld", v);
	cJSON_AddStringToObject(e, "key", k);
	val = cJSON_AddObjectToObject(e, "value");
	cJSON_AddStringToObject(val, "intValue", n); /* int64: a string */
	cJSON_AddItemToArray(a, e);
}

static void attr_bool(cJSON *a, const char *k, bool v)
{
	cJSON *e = cJSON_CreateObject(), *val;

	cJSON_AddStringToObject(e, "key", k);
	val = cJSON_AddObjectToObject(e, "value");
	cJSON_AddBoolToObject(val, "boolValue", v);
	cJSON_AddItemToArray(a, e);
}

/* A log record's fields and their attributes: the one list, read both
 * ways (hs_otlp_log_record, hs_otlp_records). */
static const struct field_attr {
	const char *field, *attr;
} rec_attrs[] = {
	{ "session", "session.id" },
	{ "tool_use_id", "gen_ai.tool.call.id" },
	{ "event", "hookshim.event" },
	{ "decision", "hookshim.decision" },
	{ "reason", "hookshim.reason" },
	{ "asked", "hookshim.asked" },
	{ "op", "hookshim.op" },
	{ "operation", "hookshim.operation" },
	{ "via", "hookshim.via" },
	{ "mode", "hookshim.mode" },
	{ "updated_command", "hookshim.updated_command" },
	{ "pid", "process.pid" },
	{ "command", "process.command_line" },
	{ "exe", "process.executable.path" },
	{ "cwd", "process.working_directory" },
	{ "path", "file.path" },
	{ "new_path", "hookshim.new_path" },
	{ "url", "url.full" },              /* a connection (docs/network.md) */
	{ "host", "server.address" },
	{ "address", "network.peer.address" },
	{ "port", "server.port" },
	{ "protocol", "network.transport" },
	{ "exit_code", "hookshim.exit_code" },
	{ "duration_ms", "hookshim.duration_ms" },
	{ NULL, NULL },
}, run_attrs[] = { /* the hook run that decided */
	{ "source", "hookshim.hook.source" },
	{ "event", "hookshim.hook.event" },
	{ "command", "hookshim.hook.command" },
	{ "type", "hookshim.hook.type" },
	{ "status", "hookshim.hook.status" },
	{ "verdict", "hookshim.hook.verdict" },
	{ "failure", "hookshim.hook.failure" },
	{ "exit_code", "hookshim.hook.exit_code" },
	{ "http_status", "hookshim.hook.http_status" },
	{ "duration_ms", "hookshim.hook.duration_ms" },
	{ NULL, NULL },
};

/* Each field of o the table names, as its attribute in a. */
static void attrs_of(cJSON *a, const cJSON *o, const struct field_attr *t)
{
	for (; t->field; t++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, t->field);

		if (cJSON_IsString(v))
			attr_str(a, t->attr, v->valuestring);
		else if (cJSON_IsNumber(v))
			attr_int(a, t->attr, (long long)v->valuedouble);
		else if (cJSON_IsBool(v))
			attr_bool(a, t->attr, cJSON_IsTrue(v));
	}
}

/* The run that decided: the first that said deny, else the first that
 * said anything, else the first. */
static const cJSON *deciding_run(const cJSON *runs)
{
	const cJSON *r, *said = NULL;

	cJSON_ArrayForEach(r, runs) {
		const char *v = jstr(r, "verdict");

		if (v && strcmp(v, "deny") == 0)
			return r;
		if (v && !said)
			said = r;
	}
	return said ? said : cJSON_GetArrayItem(runs, 0);
}

/* The tool as Claude Code names it: the hook's own name for it when a
 * hook ran, else by the operation. */
static const char *tool_name(const cJSON *rec, const cJSON *run)
{
	const char *op = jstr(rec, "op"), *t = run ? jstr(run, "tool") : NULL;

	if (t)
		return t;
	if (!op)
		return NULL;
	return strcmp(op, "exec") == 0	   ? "Bash"
	       : strcmp(op, "write") == 0 ? "Write"
	       : strcmp(op, "read") == 0  ? "Read"
	       : strcmp(op, "connect") == 0 ? "WebFetch"
					  : op;
}

static const char *event_name(const char *ev)
{
	if (!ev)
		return "hookshim.event";
	if (strcmp(ev, "pre") == 0)
		return "hookshim.tool_decision";
	if (strcmp(ev, "post") == 0 || strcmp(ev, "post_failure") == 0)
		return "hookshim.tool_result";
	if (strcmp(ev, "session_start") == 0)
		return "hookshim.session_start";
	if (strcmp(ev, "session_end") == 0)
		return "hookshim.session_end";
	return "hookshim.event";
}

static void add_run(cJSON *a, const cJSON *runs)
{
	const cJSON *run = deciding_run(runs), *r;
	long long total = 0;

	cJSON_ArrayForEach(r, runs) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "duration_ms");

		if (cJSON_IsNumber(d))
			total += (long long)d->valuedouble;
	}
	attr_int(a, "hookshim.hooks.count", cJSON_GetArraySize(runs));
	attr_int(a, "hookshim.hooks.duration_ms", total);
	if (!run)
		return;
	attrs_of(a, run, run_attrs);
	if (!jstr(run, "type")) /* the log names only http hooks' */
		attr_str(a, "hookshim.hook.type", "command");
}

static void body_text(char *buf, size_t cap, const cJSON *rec,
		      const char *tool)
{
	const char *ev = jstr(rec, "event"), *dec = jstr(rec, "decision");
	const char *what = jstr(rec, "url")	  ? jstr(rec, "url")
			   : jstr(rec, "command") ? jstr(rec, "command")
						  : jstr(rec, "path");
	const char *why = jstr(rec, "reason");

	if (ev && strncmp(ev, "session_", 8) == 0)
		snprintf(buf, cap, "%s", ev);
	else
		snprintf(buf, cap, "%s %s%s%s%s%s", dec ? dec : "?",
			 tool ? tool : "call", what ? ": " : "",
			 what ? what : "", why ? " -- " : "", why ? why : "");
}

char *hs_otlp_log_record(const cJSON *rec, const char *session_id)
{
	cJSON *r = cJSON_CreateObject(), *a, *b;
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(rec, "hooks");
	const cJSON *run = deciding_run(runs);
	const char *ev = jstr(rec, "event"), *dec = jstr(rec, "decision");
	const char *tool = ev && strncmp(ev, "session_", 8) == 0
				   ? NULL
				   : tool_name(rec, run);
	bool deny = dec && strcmp(dec, "deny") == 0;
	char nano[40], trace[33], span[17], *body, *out;
	struct timespec ts;
	size_t blen = 4096;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(nano, sizeof(nano), "%lld%09ld", (long long)ts.tv_sec,
		 ts.tv_nsec);
	cJSON_AddStringToObject(r, "timeUnixNano", nano);
	cJSON_AddStringToObject(r, "observedTimeUnixNano", nano);
	/* SeverityNumber: 9 INFO, 13 WARN (a denial) */
	cJSON_AddNumberToObject(r, "severityNumber", deny ? 13 : 9);
	cJSON_AddStringToObject(r, "severityText", deny ? "WARN" : "INFO");
	if ((body = malloc(blen))) {
		body_text(body, blen, rec, tool);
		b = cJSON_AddObjectToObject(r, "body");
		cJSON_AddStringToObject(b, "stringValue", body);
		free(body);
	}
	a = cJSON_AddArrayToObject(r, "attributes");
	attr_str(a, "event.name", event_name(ev));
	attr_str(a, "gen_ai.tool.name", tool);
	attrs_of(a, rec, rec_attrs);
	if (cJSON_IsArray(runs))
		add_run(a, runs);
	if (hs_trace_ids(session_id, jstr(rec, "tool_use_id"), trace, span)) {
		cJSON_AddStringToObject(r, "traceId", trace);
		cJSON_AddStringToObject(r, "spanId", span);
	}
	out = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	return out;
}

static bool has_key(const cJSON *a, const char *k)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, a)
		if (jstr(e, "key") && strcmp(jstr(e, "key"), k) == 0)
			return true;
	return false;
}

void hs_otlp_pairs(const char *list,
		   void (*each)(void *arg, const char *k, const char *v),
		   void *arg)
{
	char *copy = list ? strdup(list) : NULL, *save = NULL;

	for (char *kv = copy ? strtok_r(copy, ",", &save) : NULL; kv;
	     kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *w;

		if (!eq || eq == kv)
			continue;
		*eq = '\0';
		w = eq + 1;
		for (char *p = w; *p; p++, w++) {
			unsigned hi, lo;

			if (p[0] == '%' && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
				*w = (char)(hi * 16 + lo);
				p += 2;
			} else {
				*w = *p;
			}
		}
		*w = '\0';
		while (*kv == ' ')
			kv++;
		each(arg, kv, eq + 1);
	}
	free(copy);
}

static void resource_attr(void *a, const char *k, const char *v)
{
	attr_str(a, k, v);
}

char *hs_otlp_request_head(void)
{
	cJSON *res = cJSON_CreateObject(), *a, *scope;
	const char *svc = getenv("OTEL_SERVICE_NAME");
	char host[256] = "", *json, *out = NULL;

	a = cJSON_AddArrayToObject(res, "attributes");
	/* the environment's first; OTEL_SERVICE_NAME wins over its
	 * service.name, as the specification says, and "hookshim" is only
	 * the default: one service.name either way */
	hs_otlp_pairs(getenv("OTEL_RESOURCE_ATTRIBUTES"), resource_attr, a);
	for (int i = cJSON_GetArraySize(a) - 1; i >= 0; i--)
		if (strcmp(jstr(cJSON_GetArrayItem(a, i), "key"),
			   "service.name") == 0) {
			if (!svc || !*svc)
				break; /* the environment's stays */
			cJSON_DeleteItemFromArray(a, i);
		}
	if (svc && *svc)
		attr_str(a, "service.name", svc);
	else if (!has_key(a, "service.name"))
		attr_str(a, "service.name", "hookshim");
	attr_str(a, "service.version", HOOKSHIM_VERSION);
	if (gethostname(host, sizeof(host) - 1) == 0)
		attr_str(a, "host.name", host);
	attr_int(a, "process.pid", getpid());
	json = cJSON_PrintUnformatted(res);
	cJSON_Delete(res);
	scope = cJSON_CreateObject();
	cJSON_AddStringToObject(scope, "name", "hookshim");
	cJSON_AddStringToObject(scope, "version", HOOKSHIM_VERSION);
	{
		char *sj = cJSON_PrintUnformatted(scope);

		if (json && sj &&
		    asprintf(&out, "{\"resourceLogs\":[{\"resource\":%s,"
			     "\"scopeLogs\":[{\"scope\":%s,\"logRecords\":[",
			     json, sj) < 0)
			out = NULL;
		free(sj);
	}
	cJSON_Delete(scope);
	free(json);
	return out;
}

const char hs_otlp_request_tail[] = "]}]}]}";

/* ---- back: OTLP requests into log records, for `hookshim log` ---- */

static const cJSON *attr_value(const cJSON *attrs, const char *key)
{
	const cJSON *a;

	cJSON_ArrayForEach(a, attrs)
		if (jstr(a, "key") && strcmp(jstr(a, "key"), key) == 0)
			return cJSON_GetObjectItemCaseSensitive(a, "value");
	return NULL;
}

/* attribute `key` of attrs into o as `field`: strings as strings, ints
 * (strings in OTLP JSON) and doubles as numbers, booleans as booleans */
static void put(cJSON *o, const char *field, const cJSON *attrs,
		const char *key)
{
	const cJSON *v = attr_value(attrs, key), *x;

	if ((x = cJSON_GetObjectItemCaseSensitive(v, "stringValue")) &&
	    cJSON_IsString(x))
		cJSON_AddStringToObject(o, field, x->valuestring);
	else if ((x = cJSON_GetObjectItemCaseSensitive(v, "intValue")))
		cJSON_AddNumberToObject(o, field, cJSON_IsString(x)
				       ? strtod(x->valuestring, NULL)
				       : x->valuedouble);
	else if ((x = cJSON_GetObjectItemCaseSensitive(v, "doubleValue")) &&
		 cJSON_IsNumber(x))
		cJSON_AddNumberToObject(o, field, x->valuedouble);
	else if ((x = cJSON_GetObjectItemCaseSensitive(v, "boolValue")) &&
		 cJSON_IsBool(x))
		cJSON_AddBoolToObject(o, field, cJSON_IsTrue(x));
}

/* "1796324598583344141" -> "2026-12-03T18:03:18.583Z" */
static void iso_time(const char *nano, char *buf, size_t cap)
{
	unsigned long long ns = nano ? strtoull(nano, NULL, 10) : 0;
	time_t sec = (time_t)(ns / 1000000000ull);
	struct tm tm;

	if (!gmtime_r(&sec, &tm)) {
		buf[0] = '\0';
		return;
	}
	size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);

	if (n + 6 <= cap)
		snprintf(buf + n, cap - n, ".%03uZ",
			 (unsigned)(ns / 1000000ull % 1000));
}

static cJSON *record_of(const cJSON *lr)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(lr, "attributes");
	cJSON *o = cJSON_CreateObject(), *runs, *run;
	char ts[40];

	iso_time(jstr(lr, "timeUnixNano"), ts, sizeof(ts));
	cJSON_AddStringToObject(o, "ts", ts);
	for (const struct field_attr *t = rec_attrs; t->field; t++)
		put(o, t->field, a, t->attr);
	runs = cJSON_AddArrayToObject(o, "hooks");
	if (attr_value(a, "hookshim.hook.source")) { /* the deciding one */
		run = cJSON_CreateObject();
		for (const struct field_attr *t = run_attrs; t->field; t++)
			put(run, t->field, a, t->attr);
		put(run, "tool", a, "gen_ai.tool.name");
		cJSON_AddItemToArray(runs, run);
	}
	return o;
}

cJSON *hs_otlp_records(const cJSON *request)
{
	cJSON *out = cJSON_CreateArray();
	const cJSON *rl, *sl, *lr;

	cJSON_ArrayForEach(rl, cJSON_GetObjectItemCaseSensitive(request,
								 "resourceLogs"))
		cJSON_ArrayForEach(sl, cJSON_GetObjectItemCaseSensitive(rl,
									"scopeLogs"))
			cJSON_ArrayForEach(lr, cJSON_GetObjectItemCaseSensitive(
						      sl, "logRecords"))
				if (attr_value(cJSON_GetObjectItemCaseSensitive(
						       lr, "attributes"),
					       "hookshim.event"))
					cJSON_AddItemToArray(out, record_of(lr));
	return out;
}
