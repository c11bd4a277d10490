/* The session log; see log.h. */
#include "log.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "notice.h"
#include "otlp.h"
#include "report.h"

void hs_log_timestamp(char *buf, size_t cap)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

static const char *kind_name(const struct hs_event *ev)
{
	switch (ev->kind) {
	case HS_KIND_PRE: return "pre";
	case HS_KIND_POST: return ev->failed ? "post_failure" : "post";
	case HS_KIND_SESSION_START: return "session_start";
	case HS_KIND_SESSION_END: return "session_end";
	default: return "none";
	}
}

static void add_opt_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
}

static cJSON *log_runs(const struct hs_outcome *out)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < out->nruns; i++) {
		const struct hs_hook_run *r = &out->runs[i];
		cJSON *o = cJSON_CreateObject();
		char what[192] = "hook failed: ";

		add_opt_str(o, "source", r->hook->source);
		add_opt_str(o, "event", r->hook->event_name);
		cJSON_AddStringToObject(o, "dialect",
					hs_dialect_name(r->hook->dialect));
		add_opt_str(o, "command", r->hook->command);
		add_opt_str(o, "tool", r->tool_name);
		cJSON_AddStringToObject(o, "status",
					hs_run_status_name(r->res.status));
		if (r->hook->action == HS_ACTION_HTTP)
			cJSON_AddStringToObject(o, "type", "http");
		if (r->res.http_status)
			cJSON_AddNumberToObject(o, "http_status",
						r->res.http_status);
		if (r->res.status == HS_RUN_EXITED)
			cJSON_AddNumberToObject(o, "exit_code",
						r->res.exit_code);
		if (r->res.status == HS_RUN_SIGNALED)
			cJSON_AddNumberToObject(o, "signal", r->res.signo);
		if (r->res.status == HS_RUN_SPAWN_FAILED)
			cJSON_AddNumberToObject(o, "errno", r->res.spawn_errno);
		if (hs_run_failure(&r->res, what + 13, sizeof(what) - 13))
			cJSON_AddStringToObject(o, "failure", what);
		cJSON_AddNumberToObject(o, "duration_ms",
					(double)r->res.duration_ms);
		if (r->said)
			cJSON_AddStringToObject(o, "verdict",
						hs_verdict_name(r->verdict));
		add_opt_str(o, "note", r->note);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* One line: o as JSON, written under the lock, and to the export; o is
 * consumed. */
static void write_line(struct hs_session *s, cJSON *o)
{
	char *line = s->log_fd >= 0 ? cJSON_PrintUnformatted(o) : NULL;

	hs_otlp_emit(s->otlp, o);
	cJSON_Delete(o);
	if (!line)
		return;
	/* One write per line under the lock: lines never interleave, even
	 * with another session appending to the same file (O_APPEND). */
	{
		size_t n = strlen(line);
		char *buf = realloc(line, n + 2);

		if (buf) {
			line = buf;
			line[n++] = '\n';
			pthread_mutex_lock(&s->log_mu);
			if (write(s->log_fd, line, n) < 0) {
				/* nothing useful to do: logging is advisory */
			}
			pthread_mutex_unlock(&s->log_mu);
		}
	}
	free(line);
}

static cJSON *line_start(struct hs_session *s)
{
	cJSON *o = cJSON_CreateObject();
	char ts[40];

	hs_log_timestamp(ts, sizeof(ts));
	cJSON_AddStringToObject(o, "ts", ts);
	cJSON_AddStringToObject(o, "session", s->id);
	return o;
}

void hs_log_internal(struct hs_session *s, const struct hs_msg *req,
		     const char *what)
{
	cJSON *o, *argv;

	if (s->log_fd < 0 && !s->otlp)
		return;
	o = line_start(s);
	cJSON_AddStringToObject(o, "event", "pre");
	cJSON_AddStringToObject(o, "op", "exec");
	if (req->pid)
		cJSON_AddNumberToObject(o, "pid", (double)req->pid);
	add_opt_str(o, "cwd", req->cwd);
	argv = cJSON_AddArrayToObject(o, "argv");
	for (size_t i = 0; req->argv && req->argv[i]; i++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(req->argv[i]));
	add_opt_str(o, "exe", req->exe);
	cJSON_AddStringToObject(o, "decision", "agent_internal");
	cJSON_AddStringToObject(o, "reason", what);
	write_line(s, o);
}

void hs_log_event(struct hs_session *s, const struct hs_event *ev,
		  const struct hs_outcome *out, const char *decision,
		  bool asked, const struct hs_command_why *why)
{
	cJSON *o;

	/* A notice needs a denial, a hook that ran or context: without a
	 * log or a report, nothing else is worth a record. */
	if (s->log_fd < 0 && !s->report && !s->otlp &&
	    !(s->notices && (out->nruns || out->context ||
			     out->verdict == HS_DENY)))
		return;
	o = line_start(s);
	cJSON_AddStringToObject(o, "event", kind_name(ev));
	if (ev->op & HS_OP_EXEC)
		cJSON_AddStringToObject(o, "op", "exec");
	else if (ev->op & HS_OP_WRITE)
		cJSON_AddStringToObject(o, "op", "write");
	else if (ev->op & HS_OP_READ)
		cJSON_AddStringToObject(o, "op", "read");
	else if (ev->op & HS_OP_NET)
		cJSON_AddStringToObject(o, "op", "connect");
	add_opt_str(o, "tool_use_id", ev->tool_use_id);
	if (ev->pid)
		cJSON_AddNumberToObject(o, "pid", ev->pid);
	add_opt_str(o, "cwd", ev->cwd);
	/* who asked: the floor, a PATH wrapper, hookshim run; none said is
	 * the shim in the process that made the call */
	add_opt_str(o, "via", ev->via);
	if (ev->kind == HS_KIND_SESSION_START) { /* what the hooks read */
		add_opt_str(o, "transcript_path", ev->transcript_path);
		/* the trust model the session runs in, for an audit */
		cJSON_AddStringToObject(o, "mode", s->cfg->settings.enforce
							   ? "enforce"
							   : "guard");
	}
	if (ev->op & HS_OP_EXEC) {
		cJSON *argv = cJSON_AddArrayToObject(o, "argv");

		cJSON_AddBoolToObject(o, "nested", ev->nested);
		add_opt_str(o, "command", ev->command);
		if (why && why->agent) {
			cJSON *w = cJSON_AddObjectToObject(o, "wrapper");

			cJSON_AddStringToObject(w, "agent", why->agent);
			cJSON_AddStringToObject(w, "shape", why->shape);
		}
		/* its text runs a string the hook did not see: what it runs
		 * is judged too (engine/handoff.h) */
		if (why && why->beneath && !ev->nested)
			cJSON_AddBoolToObject(o, "handoff", true);
		if (ev->beneath && !ev->line)
			cJSON_AddBoolToObject(o, "beneath_handoff", true);
		if (ev->line)
			cJSON_AddBoolToObject(o, "stdin_line", true);
		add_opt_str(o, "exe", ev->exe);
		for (size_t i = 0; ev->argv && ev->argv[i]; i++)
			cJSON_AddItemToArray(argv,
					     cJSON_CreateString(ev->argv[i]));
	}
	if (ev->op & HS_OP_NET) {
		char url[400];
		bool v6 = ev->host && strchr(ev->host, ':');

		/* the subject reports show: what the connection reached */
		snprintf(url, sizeof(url), "%s://%s%s%s:%d",
			 ev->protocol ? ev->protocol : "tcp", v6 ? "[" : "",
			 ev->host ? ev->host : "", v6 ? "]" : "", ev->port);
		cJSON_AddStringToObject(o, "url", url);
		add_opt_str(o, "host", ev->host);
		add_opt_str(o, "address", ev->address);
		cJSON_AddNumberToObject(o, "port", ev->port);
		add_opt_str(o, "protocol", ev->protocol);
		add_opt_str(o, "command", ev->command);
	}
	add_opt_str(o, "path", ev->path);
	add_opt_str(o, "new_path", ev->new_path);
	add_opt_str(o, "operation", ev->operation);
	if (ev->kind == HS_KIND_POST && ev->op == HS_OP_NET && ev->has_bytes) {
		cJSON_AddNumberToObject(o, "bytes_sent", (double)ev->bytes_sent);
		cJSON_AddNumberToObject(o, "bytes_received",
					(double)ev->bytes_received);
	}
	if (ev->kind == HS_KIND_POST) {
		if (ev->signo)
			cJSON_AddNumberToObject(o, "signal", ev->signo);
		else if (ev->op != HS_OP_NET)
			cJSON_AddNumberToObject(o, "exit_code", ev->exit_code);
		cJSON_AddNumberToObject(o, "duration_ms",
					(double)ev->duration_ms);
	}
	cJSON_AddStringToObject(o, "decision", decision);
	if (out->verdict == HS_ASK)
		cJSON_AddBoolToObject(o, "asked", asked);
	add_opt_str(o, "reason", out->reason);
	add_opt_str(o, "context", out->context);
	/* what ran instead of "command" (updatedInput), when it was let run */
	if (strcmp(decision, "allow") == 0 && ev->op == HS_OP_EXEC)
		add_opt_str(o, "updated_command", out->updated_command);
	add_opt_str(o, "system_message", out->system_message);
	add_opt_str(o, "session_context", out->session_context);
	if (out->stop)
		cJSON_AddStringToObject(o, "stop_reason",
					out->stop_reason ? out->stop_reason : "");
	cJSON_AddItemToObject(o, "hooks", log_runs(out));
	if (out->nwarnings) {
		cJSON *w = cJSON_AddArrayToObject(o, "warnings");

		for (size_t i = 0; i < out->nwarnings; i++)
			cJSON_AddItemToArray(w,
					     cJSON_CreateString(out->warnings[i]));
	}
	/* The same record feeds the report and the notices, so what a user
	 * reads later with `hookshim log` is what the session told them. */
	if (s->report)
		hs_report_add(s->report, o);
	if (s->notices)
		hs_notice(s->notices, o);
	write_line(s, o);
}

void hs_log_refused(struct hs_session *s, pid_t pid, const char *cwd,
		    const char *call, const char *path, const char *reason)
{
	cJSON *o;

	if (s->log_fd < 0 && !s->report && !s->notices && !s->otlp)
		return;
	o = line_start(s);
	cJSON_AddStringToObject(o, "event", "pre");
	cJSON_AddStringToObject(o, "op", "syscall");
	if (pid > 0)
		cJSON_AddNumberToObject(o, "pid", pid);
	add_opt_str(o, "cwd", cwd);
	add_opt_str(o, "path", path);
	cJSON_AddStringToObject(o, "operation", call);
	cJSON_AddStringToObject(o, "decision", "deny");
	add_opt_str(o, "reason", reason);
	cJSON_AddItemToObject(o, "hooks", cJSON_CreateArray());
	if (s->report)
		hs_report_add(s->report, o);
	if (s->notices)
		hs_notice(s->notices, o);
	write_line(s, o);
}

void hs_log_export_start(struct hs_session *s)
{
	char err[256];

	s->otlp = hs_otlp_start(&s->cfg->settings, s->id, err, sizeof(err));
	/* an error, or what is left out (a collector without libcurl) */
	if (err[0])
		fprintf(stderr, "hookshim: OpenTelemetry export: %s\n", err);
}

void hs_log_export_stop(struct hs_session *s, long ms)
{
	struct hs_otlp_summary sum;
	cJSON *o;

	if (!hs_otlp_stop(s->otlp, ms, &sum))
		return;
	if (sum.dropped)
		fprintf(stderr, "hookshim: OpenTelemetry export to %s: %zu "
				"record(s) sent, %zu not delivered%s%s\n",
			sum.where, sum.sent, sum.dropped,
			sum.error[0] ? ": " : "", sum.error);
	o = line_start(s);
	cJSON_AddStringToObject(o, "event", "otlp_export");
	/* not exported itself: the export is over */
	cJSON_AddStringToObject(o, "destination", sum.where);
	cJSON_AddNumberToObject(o, "sent", (double)sum.sent);
	cJSON_AddNumberToObject(o, "dropped", (double)sum.dropped);
	if (sum.error[0])
		cJSON_AddStringToObject(o, "error", sum.error);
	write_line(s, o);
}
