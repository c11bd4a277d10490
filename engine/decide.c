/* What a hook's exit status and output mean, per dialect. The only deny is
 * exit 2 or an explicit JSON decision, except where memoh's on_error: block
 * says a failed action denies, and where a session or a handler fails
 * closed: a hook that did not run to a verdict denies
 * (hs_decide_fail_closed). */
#include "decide.h"

#include <cjson/cJSON.h>
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

static void append(char **dst, const char *text)
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

static const char *label(const struct hs_hook *h, char *buf, size_t len)
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

/* Records this hook's verdict and folds it in: deny > ask > allow, and
 * the first reason at the winning level is kept. */
static void say(struct hs_hook_run *run, struct hs_outcome *out,
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
		     label(h, buf, sizeof(buf)), h->source) < 0)
		return NULL;
	return r;
}

static void deny(struct hs_hook_run *run, struct hs_outcome *out,
		 const char *reason)
{
	char *fallback = NULL;

	if (!reason || !*reason || strspn(reason, " \t\r\n") == strlen(reason))
		reason = fallback = default_reason(run->hook);
	say(run, out, HS_DENY, reason);
	free(fallback);
}

/* Timeouts, crashes and missing binaries: never a deny by themselves. */
static bool run_failed(struct hs_hook_run *run, struct hs_outcome *out)
{
	const struct hs_run_result *r = &run->res;
	char buf[128];

	switch (r->status) {
	case HS_RUN_TIMEOUT:
		hs_outcome_warn(out, "hook %s (%s) timed out after %d ms and "
				"was killed", label(run->hook, buf, sizeof(buf)),
				run->hook->source, run->hook->timeout_ms);
		return true;
	case HS_RUN_SIGNALED:
		hs_outcome_warn(out, "hook %s (%s) crashed with signal %d",
				label(run->hook, buf, sizeof(buf)),
				run->hook->source, r->signo);
		return true;
	case HS_RUN_SPAWN_FAILED:
		hs_outcome_warn(out, "hook %s (%s) could not start: %s",
				label(run->hook, buf, sizeof(buf)),
				run->hook->source, strerror(r->spawn_errno));
		return true;
	case HS_RUN_HTTP_FAILED:
		hs_outcome_warn(out, "hook %s (%s) failed: %s (non-blocking)",
				label(run->hook, buf, sizeof(buf)),
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
		     label(run->hook, buf, sizeof(buf)), run->hook->source,
		     what, why ? why : "fails closed") < 0)
		reason = NULL;
	deny(run, out, reason);
	free(reason);
	return true;
}

static void nonblocking_exit(struct hs_hook_run *run, struct hs_outcome *out)
{
	char buf[128];
	size_t n = strcspn(run->res.err, "\n");

	hs_outcome_warn(out, "hook %s (%s) exited %d (non-blocking)%s%.*s",
			label(run->hook, buf, sizeof(buf)), run->hook->source,
			run->res.exit_code, n ? ": " : "", (int)n,
			run->res.err);
}

static cJSON *stdout_json(const struct hs_hook_run *run)
{
	const char *s = run->res.out;

	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	if (*s != '{')
		return NULL;
	return cJSON_Parse(s);
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* updatedInput: Claude Code's replacement of the whole tool input. A
 * command is what hookshim can rewrite -- the shell of the call runs the
 * new one instead (shim/exec_decide.c) --; a write's path or content
 * cannot be swapped from outside, which is said. The last hook to
 * rewrite wins, as the last one to answer does in Claude Code. */
static void updated_input(struct hs_hook_run *run, const cJSON *upd,
			  struct hs_outcome *out)
{
	const char *exec = hs_dialect_ops(run->hook->dialect)->tools.exec;
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(upd, "command");

	if (!upd)
		return;
	if (run->tool_name && exec && strcmp(run->tool_name, exec) == 0 &&
	    cJSON_IsString(cmd) && cmd->valuestring[0]) {
		free(out->updated_command);
		out->updated_command = strdup(cmd->valuestring);
		return;
	}
	hs_outcome_warn(out, "hook in %s returned updatedInput; hookshim "
			"rewrites a command's \"command\", not a %s call's "
			"input (ignored)", run->hook->source,
			run->tool_name ? run->tool_name : "tool");
}

static void claude_json(struct hs_hook_run *run, const cJSON *j,
			struct hs_outcome *out)
{
	const cJSON *hso = cJSON_GetObjectItemCaseSensitive(j, "hookSpecificOutput");
	const cJSON *cont = cJSON_GetObjectItemCaseSensitive(j, "continue");
	const char *pd = jstr(hso, "permissionDecision");
	const char *dec = jstr(j, "decision");
	const char *reason = jstr(hso, "permissionDecisionReason");
	const char *s;

	if (cJSON_IsFalse(cont)) {
		out->stop = true;
		if ((s = jstr(j, "stopReason")) && !out->stop_reason)
			out->stop_reason = strdup(s);
	}
	if ((s = jstr(j, "systemMessage")))
		append(&out->system_message, s);
	if ((s = jstr(hso, "additionalContext")))
		append(run->hook->kind == HS_KIND_SESSION_START
			       ? &out->session_context
			       : &out->context,
		       s);
	if (!reason)
		reason = jstr(j, "reason");
	if (run->hook->kind == HS_KIND_POST) {
		/* A post "block" cannot undo the call: Claude Code feeds
		 * the reason back to the model. */
		if (dec && strcmp(dec, "block") == 0 && reason)
			append(&out->context, reason);
		return;
	}
	if (run->hook->kind != HS_KIND_PRE)
		return;
	/* with "allow", "ask" or no decision (a deny wins anyway) */
	updated_input(run, cJSON_GetObjectItemCaseSensitive(hso,
							     "updatedInput"),
		      out);
	if (!pd && dec)
		pd = strcmp(dec, "approve") == 0 ? "allow"
		     : strcmp(dec, "block") == 0 ? "deny"
						 : dec;
	if (!pd)
		return;
	if (strcmp(pd, "deny") == 0)
		deny(run, out, reason);
	else if (strcmp(pd, "ask") == 0)
		say(run, out, HS_ASK, reason);
	else if (strcmp(pd, "allow") == 0)
		say(run, out, HS_ALLOW, reason);
}

bool hs_decide_claude(struct hs_hook_run *run, struct hs_outcome *out,
		      bool *stop_group)
{
	const struct hs_hook *h = run->hook;
	cJSON *j;

	(void)stop_group; /* a group is memoh's: its actions */
	if (run_failed(run, out))
		return false;
	if (run->res.exit_code == 2) {
		if (h->kind == HS_KIND_PRE)
			deny(run, out, run->res.err);
		else if (h->kind == HS_KIND_POST)
			append(&out->context, run->res.err);
		else
			nonblocking_exit(run, out);
		return false;
	}
	if (run->res.exit_code != 0) {
		nonblocking_exit(run, out);
		return false;
	}
	j = stdout_json(run);
	if (j) {
		claude_json(run, j, out);
		cJSON_Delete(j);
	} else if (h->kind == HS_KIND_SESSION_START) {
		append(&out->session_context, run->res.out);
	}
	return false;
}

bool hs_decide_memcode(struct hs_hook_run *run, struct hs_outcome *out,
		       bool *stop_group)
{
	const struct hs_hook *h = run->hook;

	(void)stop_group; /* a group is memoh's: its actions */
	if (run_failed(run, out))
		return false;
	if (run->res.exit_code == 2 && h->kind == HS_KIND_PRE) {
		deny(run, out, run->res.err);
		return true;
	}
	if (run->res.exit_code != 0) {
		nonblocking_exit(run, out);
		return false;
	}
	if (h->kind == HS_KIND_SESSION_START)
		append(&out->session_context, run->res.out);
	return false;
}

bool hs_decide_mnemoai(struct hs_hook_run *run, struct hs_outcome *out,
		       bool *stop_group)
{
	const struct hs_hook *h = run->hook;
	cJSON *j;
	const char *dec, *s;
	bool denied = false;

	(void)stop_group; /* a group is memoh's: its actions */
	if (run_failed(run, out))
		return false;
	if (run->res.exit_code == 2) {
		if (h->kind != HS_KIND_PRE) {
			nonblocking_exit(run, out);
			return false;
		}
		deny(run, out, run->res.err);
		return true;
	}
	if (run->res.exit_code != 0) {
		nonblocking_exit(run, out);
		return false;
	}
	j = stdout_json(run);
	if (!j) {
		if (strspn(run->res.out, " \t\r\n") != run->res.out_len)
			hs_outcome_warn(out, "hook output (for you, not the "
					"model): %s", run->res.out);
		return false;
	}
	if ((s = jstr(j, "additionalContext")))
		append(&out->context, s);
	dec = jstr(j, "decision");
	if (dec && strcmp(dec, "deny") == 0 && h->kind == HS_KIND_PRE) {
		deny(run, out, jstr(j, "reason"));
		denied = true;
	} else if (dec && strcmp(dec, "allow") == 0) {
		say(run, out, HS_ALLOW, jstr(j, "reason"));
	}
	cJSON_Delete(j);
	return denied;
}

static bool memoh_error(struct hs_hook_run *run, struct hs_outcome *out,
			bool *stop_group)
{
	char buf[128], *reason = NULL;

	switch (run->hook->on_error) {
	case HS_ONERR_IGNORE:
		return false;
	case HS_ONERR_FAIL:
		*stop_group = true;
		hs_outcome_warn(out, "memoh hook %s: action failed; its "
				"remaining actions are skipped (on_error: fail)",
				label(run->hook, buf, sizeof(buf)));
		return false;
	case HS_ONERR_BLOCK:
		if (asprintf(&reason, "hook %s failed and on_error is block%s%s",
			     label(run->hook, buf, sizeof(buf)),
			     *run->res.err ? ": " : "", run->res.err) < 0)
			reason = NULL;
		deny(run, out, reason);
		free(reason);
		return true;
	}
	return false;
}

bool hs_decide_memoh(struct hs_hook_run *run, struct hs_outcome *out,
		     bool *stop_group)
{
	cJSON *j;
	const char *dec, *s;
	bool denied = false;

	if (run_failed(run, out))
		return memoh_error(run, out, stop_group);
	if (run->res.exit_code != 0) {
		nonblocking_exit(run, out);
		return memoh_error(run, out, stop_group);
	}
	j = stdout_json(run);
	if (!j)
		return false; /* non-JSON stdout is allow */
	dec = jstr(j, "decision");
	if ((s = jstr(j, "append_context")))
		append(&out->context, s);
	if (dec && strcmp(dec, "deny") == 0) {
		deny(run, out, jstr(j, "reason"));
		denied = true;
	} else if (dec && strcmp(dec, "ask_approval") == 0) {
		say(run, out, HS_ASK, jstr(j, "reason"));
	} else if (dec && strcmp(dec, "allow") == 0) {
		say(run, out, HS_ALLOW, jstr(j, "reason"));
	} else if (dec && strcmp(dec, "append_context") != 0) {
		hs_outcome_warn(out, "memoh hook returned unknown decision "
				"\"%s\" (treated as allow)", dec);
	}
	cJSON_Delete(j);
	return denied;
}
