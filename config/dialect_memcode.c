/* memcode: {"hooks":{"pre_tool_use":[{matcher, command, timeout}]}},
 * matcher full-matched as a regexp, sh -c in the project root. */
#include <stdio.h>
#include <string.h>

#include "dialect.h"
#include "load.h"

static const char *const memcode_events[] = { "pre_tool_use", "post_tool_use",
					      "session_start", "session_end",
					      NULL };

static const char *const entry_keys[] = { "matcher", "command", "timeout",
					 NULL };

static bool memcode_event(const char *name)
{
	for (const char *const *e = memcode_events; *e; e++)
		if (strcmp(*e, name) == 0)
			return true;
	return false;
}

static void load_entry(struct hs_load *ld, const char *event, const cJSON *e,
		       const char *where)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "matcher");
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "timeout");
	struct hs_hook *h;
	const char *pattern;
	bool session = strncmp(event, "session_", 8) == 0;

	if (!cJSON_IsObject(e) || !cJSON_IsString(cmd) || !*cmd->valuestring) {
		hs_config_diag(ld->cfg, false, "%s: %s: needs an object with a "
			       "\"command\" string (skipped)", ld->src, where);
		return;
	}
	if (m && !cJSON_IsString(m)) {
		hs_config_diag(ld->cfg, false, "%s: %s: matcher must be a string "
			       "(skipped)", ld->src, where);
		return;
	}
	hs_load_unknown_keys(ld, e, entry_keys, where);
	h = hs_load_new_hook(ld, event);
	if (!h)
		return;
	h->command = strdup(cmd->valuestring);
	if (t) {
		long ms = cJSON_IsNumber(t) && t->valuedouble > 0
				  ? (long)(t->valuedouble * 1000)
				  : -1;

		if (ms < 0)
			hs_config_diag(ld->cfg, false, "%s: %s: timeout must be "
				       "positive seconds (default 60 kept)",
				       ld->src, where);
		else
			h->timeout_ms = (int)ms;
	}
	pattern = m && !session ? m->valuestring : "";
	if (hs_load_matcher(ld, h, *pattern ? HS_MATCH_REGEX_FULL : HS_MATCH_ALL,
			    pattern, where) < 0)
		hs_load_drop_last(ld);
}

int hs_load_memcode(struct hs_load *ld, const cJSON *doc)
{
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *ev;
	char where[160];

	if (!hooks)
		return 0;
	if (!cJSON_IsObject(hooks)) {
		hs_config_diag(ld->cfg, true, "%s: \"hooks\" must be an object",
			       ld->src);
		return -1;
	}
	cJSON_ArrayForEach(ev, hooks)
	{
		const cJSON *e;
		int i = 0;

		if (hs_json_comment_key(ev->string))
			continue;
		if (!memcode_event(ev->string)) {
			hs_config_diag(ld->cfg, false, "%s: unknown event \"%s\" "
				       "(memcode has pre_tool_use, post_tool_use,"
				       " session_start, session_end; skipped)",
				       ld->src, ev->string);
			continue;
		}
		if (!cJSON_IsArray(ev)) {
			hs_config_diag(ld->cfg, false, "%s: hooks.%s must be an "
				       "array (skipped)", ld->src, ev->string);
			continue;
		}
		cJSON_ArrayForEach(e, ev)
		{
			snprintf(where, sizeof(where), "hooks.%s[%d]",
				 ev->string, i++);
			load_entry(ld, ev->string, e, where);
		}
	}
	return 0;
}
