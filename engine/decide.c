/* What every dialect's reading of a hook is made of: verdicts folded in,
 * a deny with its reason, a failed run as a warning (or, failing closed,
 * a deny: hs_decide_fail_closed), stdout's JSON. Each dialect's rules
 * are its file's (dialects/NAME.c): the only deny is exit 2 or an
 * explicit JSON decision, except where memoh's on_error: block says a
 * failed action denies. */
#include "decide.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hs_outcome_warn(struct hs_outcome *out, const char *fmt, ...)
{
	char *text = NULL, **w;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		return;
	w = realloc(out->warnings, (out->nwarnings + 1) * sizeof(*w));
	if (!w) {
		free(text);
		return;
	}
	out->warnings = w;
	out->warnings[out->nwarnings++] = text;
}

static char *trimmed(const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
		     s[n - 1] == '\t'))
		n--;
	return strndup(s, n);
}

void hs_decide_append(char **dst, const char *text)
{
	char *t = trimmed(text), *joined = NULL;

	if (!t || !*t) {
		free(t);
		return;
	}
	if (!*dst) {
		*dst = t;
		return;
	}
	if (asprintf(&joined, "%s\n%s", *dst, t) >= 0) {
		free(*dst);
		*dst = joined;
	}
	free(t);
}

const char *hs_decide_label(const struct hs_hook *h, char *buf, size_t len)
{
	if (h->name) {
		snprintf(buf, len, "\"%s\"", h->name);
	} else {
		size_t n = strcspn(h->command, "\n");

		snprintf(buf, len, "`%.*s%s`", (int)(n > 48 ? 48 : n),
			 h->command, n > 48 ? "..." : "");
	}
	return buf;
}

void hs_decide_say(struct hs_hook_run *run, struct hs_outcome *out,
		   enum hs_verdict v, const char *reason)
{
	run->verdict = v;
	run->said = true;
	if (v > out->verdict || (v == out->verdict && !out->reason && v)) {
		out->verdict = v;
		free(out->reason);
		out->reason = reason ? trimmed(reason) : NULL;
	}
}

static char *default_reason(const struct hs_hook *h)
{
	char buf[128], *r = NULL;

	if (asprintf(&r, "blocked by hook %s (%s)",
		     hs_decide_label(h, buf, sizeof(buf)), h->source) < 0)
		return NULL;
	return r;
}

void hs_decide_deny(struct hs_hook_run *run, struct hs_outcome *out,
		    const char *reason)
{
	char *fallback = NULL;

	if (!reason || !*reason || strspn(reason, " \t\r\n") == strlen(reason))
		reason = fallback = default_reason(run->hook);
	hs_decide_say(run, out, HS_DENY, reason);
	free(fallback);
}

bool hs_decide_run_failed(struct hs_hook_run *run, struct hs_outcome *out)
{
	const struct hs_run_result *r = &run->res;
	char buf[128];

	switch (r->status) {
	case HS_RUN_TIMEOUT:
		hs_outcome_warn(out, "hook %s (%s) timed out after %d ms and "
				"was killed", hs_decide_label(run->hook, buf, sizeof(buf)),
				run->hook->source, run->hook->timeout_ms);
		return true;
	case HS_RUN_SIGNALED:
		hs_outcome_warn(out, "hook %s (%s) crashed with signal %d",
				hs_decide_label(run->hook, buf, sizeof(buf)),
				run->hook->source, r->signo);
		return true;
	case HS_RUN_SPAWN_FAILED:
		hs_outcome_warn(out, "hook %s (%s) could not start: %s",
				hs_decide_label(run->hook, buf, sizeof(buf)),
				run->hook->source, strerror(r->spawn_errno));
		return true;
	case HS_RUN_HTTP_FAILED:
		hs_outcome_warn(out, "hook %s (%s) failed: %s (non-blocking)",
				hs_decide_label(run->hook, buf, sizeof(buf)),
				run->hook->source, r->err ? r->err : "");
		return true;
	default:
		return false;
	}
}

bool hs_decide_fail_closed(struct hs_hook_run *run, struct hs_outcome *out,
			   const char *why)
{
	char what[160], buf[128], *reason = NULL;

	if (!hs_run_failure(&run->res, what, sizeof(what)))
		return false;
	if (asprintf(&reason, "hook failed: %s (%s) %s: denied (%s)",
		     hs_decide_label(run->hook, buf, sizeof(buf)), run->hook->source,
		     what, why ? why : "fails closed") < 0)
		reason = NULL;
	hs_decide_deny(run, out, reason);
	free(reason);
	return true;
}

void hs_decide_nonblocking(struct hs_hook_run *run, struct hs_outcome *out)
{
	char buf[128];
	size_t n = strcspn(run->res.err, "\n");

	hs_outcome_warn(out, "hook %s (%s) exited %d (non-blocking)%s%.*s",
			hs_decide_label(run->hook, buf, sizeof(buf)), run->hook->source,
			run->res.exit_code, n ? ": " : "", (int)n,
			run->res.err);
}

cJSON *hs_decide_stdout_json(const struct hs_hook_run *run)
{
	const char *s = run->res.out;

	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	if (*s != '{')
		return NULL;
	return cJSON_Parse(s);
}

const char *hs_decide_jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

