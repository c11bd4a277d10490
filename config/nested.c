/* The Claude Code shape, {"hooks":{EVENT:[{matcher, hooks:[handler]}]}},
 * shared by Claude Code settings, hookshim's own files and mnemoai; what
 * differs between them is in struct hs_nested_rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/glob.h"
#include "http_handler.h"
#include "loadkit.h"

static const char *const handler_keys[] = { "type", "command", "timeout",
					   "if", "nested", "content", "async",
					   "statusMessage", "once", "shell",
					   "failClosed", NULL };
static const char *const http_keys[] = { "type", "url", "headers",
					"allowedEnvVars", "timeout", "if",
					"nested", "content", "statusMessage",
					"once", "failClosed", NULL };
static const char *const group_keys[] = { "matcher", "hooks", NULL };

static bool own_event(const struct hs_load *ld, const char *name)
{
	for (const struct hs_event_def *e = ld->ops->events; e && e->name; e++)
		if (strcmp(e->name, name) == 0)
			return true;
	return false;
}

static int handler_timeout(struct hs_load *ld, struct hs_hook *h,
			   const cJSON *t, int max_s, const char *where)
{
	long ms;

	if (!t)
		return 0;
	if (!cJSON_IsNumber(t) || t->valuedouble <= 0) {
		hs_load_diag(ld, HS_DIAG_ERROR, t, "%s: timeout must be a "
			     "positive number of seconds (default kept)", where);
		return 0;
	}
	/* Capped (duration.c): 1e300 seconds cast to long was undefined. */
	ms = hs_parse_duration_ms(t);
	if (max_s && ms > (long)max_s * 1000) {
		/* the dialect's documented ceiling, not a mistake */
		hs_load_diag(ld, HS_DIAG_WARNING, t, "%s: timeout %gs capped at "
			     "%ds", where, t->valuedouble, max_s);
		ms = (long)max_s * 1000;
	}
	h->timeout_ms = (int)ms;
	return 0;
}

static int load_handler(struct hs_load *ld, const struct hs_nested_rules *r,
			const char *event, const cJSON *m, const cJSON *hd,
			const char *where)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(hd, "type");
	const cJSON *cond = cJSON_GetObjectItemCaseSensitive(hd, "if");
	const cJSON *nested = cJSON_GetObjectItemCaseSensitive(hd, "nested");
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(hd, "content");
	const char *matcher = m ? m->valuestring : NULL;
	const char *field = "command";
	const cJSON *cmd;
	struct hs_hook *h;
	enum hs_match_kind kind;
	bool b, http = false;

	if (!cJSON_IsObject(hd)) {
		hs_load_diag(ld, HS_DIAG_ERROR, hd, "%s: a handler must be an "
			     "object (skipped)", where);
		return -1;
	}
	if (r->http && cJSON_IsString(type) &&
	    strcmp(type->valuestring, "http") == 0) {
		http = true;
		field = "url";
	} else if (type && !(cJSON_IsString(type) &&
			     strcmp(type->valuestring, "command") == 0)) {
		hs_load_diag(ld, HS_DIAG_ERROR, type, "%s: handler type %s cannot "
			     "run outside the agent; only \"command\"%s %s "
			     "supported (skipped)", where,
			     cJSON_IsString(type) ? type->valuestring : "?",
			     r->http ? " and \"http\"" : "",
			     r->http ? "are" : "is");
		return -1;
	}
	hs_load_unknown_keys(ld, hd, http ? http_keys : handler_keys, where);
	cmd = cJSON_GetObjectItemCaseSensitive(hd, field);
	if (!cmd) {
		hs_load_diag(ld, HS_DIAG_ERROR, hd, "%s: missing \"%s\" "
			     "(skipped)", where, field);
		return -1;
	}
	if (!cJSON_IsString(cmd) || !*cmd->valuestring) {
		hs_load_diag(ld, HS_DIAG_ERROR, cmd, "%s: \"%s\" must be a "
			     "non-empty string (skipped)", where, field);
		return -1;
	}
	h = hs_load_new_hook(ld, event);
	if (!h)
		return -1;
	h->command = strdup(cmd->valuestring);
	if (http && hs_load_http_handler(ld, h, hd, where) < 0) {
		hs_load_drop_last(ld);
		return -1;
	}
	hs_jsonpos_find(ld->pos, cmd, &h->cmd_line, &h->cmd_col);
	if (m)
		hs_jsonpos_find(ld->pos, m, &h->match_line, &h->match_col);
	if (cond)
		hs_jsonpos_find(ld->pos, cond, &h->if_line, &h->if_col);
	handler_timeout(ld, h, cJSON_GetObjectItemCaseSensitive(hd, "timeout"),
			r->max_timeout_s, where);
	if (hs_load_bool(ld, nested, where, &b))
		h->nested = b;
	/* Cursor's name for it: a pre hook that fails denies its call */
	if (hs_load_bool(ld, cJSON_GetObjectItemCaseSensitive(hd, "failClosed"),
			 where, &b))
		h->fail_closed = b;
	/* mnemoai documents tool_input.content; Claude handlers opt in. */
	h->want_content = r->glob_matcher;
	if (hs_load_bool(ld, content, where, &b)) {
		h->want_content = h->want_content || b;
		h->content_given = b;
	}
	if (r->if_field && cond) {
		if (!cJSON_IsString(cond) ||
		    hs_rule_parse(cond->valuestring, &h->rule) < 0) {
			hs_load_diag(ld, HS_DIAG_ERROR, cond, "%s: \"if\" must "
				     "look like Tool(pattern), e.g. "
				     "\"Bash(git push *)\" (hook skipped)",
				     where);
			hs_load_drop_last(ld);
			return -1;
		}
		if (h->rule.pattern && strlen(h->rule.pattern) > HS_GLOB_MAX) {
			hs_load_diag(ld, HS_DIAG_ERROR, cond, "%s: \"if\" pattern "
				     "is longer than %d bytes (hook skipped)",
				     where, HS_GLOB_MAX);
			hs_load_drop_last(ld);
			return -1;
		}
		h->has_rule = true;
	}
	if (h->kind == HS_KIND_SESSION_START || h->kind == HS_KIND_SESSION_END)
		matcher = NULL; /* matchers mean nothing for session events */
	if (r->glob_matcher)
		kind = (!matcher || !*matcher || strcmp(matcher, "*") == 0)
			       ? HS_MATCH_ALL
			       : HS_MATCH_GLOB;
	else
		kind = hs_matcher_claude_kind(matcher);
	if (hs_load_matcher(ld, h, kind, matcher, m, where) < 0) {
		hs_load_drop_last(ld);
		return -1;
	}
	return 0;
}

static void load_group(struct hs_load *ld, const struct hs_nested_rules *r,
		       const char *event, const cJSON *grp, int gi)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(grp, "matcher");
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(grp, "hooks");
	const cJSON *hd;
	char where[256];
	int hi = 0;

	if (!cJSON_IsObject(grp)) {
		hs_load_diag(ld, HS_DIAG_ERROR, grp, "hooks.%s[%d]: must be an "
			     "object {\"matcher\", \"hooks\"} (skipped)",
			     event, gi);
		return;
	}
	if (m && !cJSON_IsString(m)) {
		hs_load_diag(ld, HS_DIAG_ERROR, m, "hooks.%s[%d].matcher: must be "
			     "a string (group skipped)", event, gi);
		return;
	}
	snprintf(where, sizeof(where), "hooks.%s[%d]", event, gi);
	hs_load_unknown_keys(ld, grp, group_keys, where);
	if (!cJSON_IsArray(hooks)) {
		hs_load_diag(ld, HS_DIAG_ERROR, hooks ? hooks : grp,
			     "hooks.%s[%d]: \"hooks\" must be an array (group "
			     "skipped)", event, gi);
		return;
	}
	cJSON_ArrayForEach(hd, hooks)
	{
		snprintf(where, sizeof(where), "hooks.%s[%d].hooks[%d]", event,
			 gi, hi++);
		load_handler(ld, r, event, m, hd, where);
	}
}

int hs_load_nested(struct hs_load *ld, const cJSON *doc,
		   const struct hs_nested_rules *r)
{
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *ev;

	if (!hooks)
		return 0; /* a settings.json without hooks is fine */
	if (!cJSON_IsObject(hooks)) {
		hs_load_diag(ld, HS_DIAG_FATAL, hooks, "\"hooks\" must be an "
			     "object keyed by event name");
		return -1;
	}
	cJSON_ArrayForEach(ev, hooks)
	{
		const cJSON *grp;
		int gi = 0;

		if (hs_json_comment_key(ev->string))
			continue;
		if (!own_event(ld, ev->string)) {
			if (r->inside_notice &&
			    hs_event_catalog_only(ev->string)) {
				hs_load_diag(ld, HS_DIAG_WARNING, ev, "event "
					     "%s happens inside the agent; "
					     "hookshim cannot observe it from "
					     "outside (loaded, never fires)",
					     ev->string);
			} else {
				hs_load_diag(ld, HS_DIAG_ERROR, ev, "unknown "
					     "event \"%s\" (skipped)",
					     ev->string);
			}
			continue;
		}
		if (!cJSON_IsArray(ev)) {
			hs_load_diag(ld, HS_DIAG_ERROR, ev, "hooks.%s must be an "
				     "array (skipped)", ev->string);
			continue;
		}
		cJSON_ArrayForEach(grp, ev)
		{
			if (cJSON_IsObject(grp) || !cJSON_IsString(grp) ||
			    !hs_json_comment_key(grp->valuestring))
				load_group(ld, r, ev->string, grp, gi);
			gi++;
		}
	}
	return 0;
}
