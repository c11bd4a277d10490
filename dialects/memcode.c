/* memcode: {"hooks":{"pre_tool_use":[{matcher, command, timeout}]}},
 * matcher full-matched as a regexp, sh -c in the project root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/loadkit.h"
#include "../engine/decide.h"
#include "../engine/payload.h"

#define POST_BOTH (HS_POST_SUCCESS | HS_POST_FAILURE)

static const struct hs_event_def memcode_events[] = {
	{ "pre_tool_use", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "post_tool_use", HS_KIND_POST, POST_BOTH, HS_OP_ANY },
	{ "session_start", HS_KIND_SESSION_START, 0, 0 },
	{ "session_end", HS_KIND_SESSION_END, 0, 0 },
	{ NULL, 0, 0, 0 },
};

static const char *const entry_keys[] = { "matcher", "command", "timeout",
					 NULL };

static bool memcode_event(const char *name)
{
	for (const struct hs_event_def *e = memcode_events; e->name; e++)
		if (strcmp(e->name, name) == 0)
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
		hs_load_diag(ld, HS_DIAG_ERROR, cJSON_IsObject(e) && cmd ? cmd : e,
			     "%s: needs an object with a \"command\" string "
			     "(skipped)", where);
		return;
	}
	if (m && !cJSON_IsString(m)) {
		hs_load_diag(ld, HS_DIAG_ERROR, m, "%s: matcher must be a string "
			     "(skipped)", where);
		return;
	}
	hs_load_unknown_keys(ld, e, entry_keys, where);
	h = hs_load_new_hook(ld, event);
	if (!h)
		return;
	h->command = strdup(cmd->valuestring);
	hs_jsonpos_find(ld->pos, cmd, &h->cmd_line, &h->cmd_col);
	if (t) {
		long ms = cJSON_IsNumber(t) && t->valuedouble > 0
				  ? hs_parse_duration_ms(t) /* capped */
				  : -1;

		if (ms < 0)
			hs_load_diag(ld, HS_DIAG_ERROR, t, "%s: timeout must be "
				     "positive seconds (default 60 kept)",
				     where);
		else
			h->timeout_ms = (int)ms;
	}
	pattern = m && !session ? m->valuestring : "";
	if (hs_load_matcher(ld, h, *pattern ? HS_MATCH_REGEX_FULL : HS_MATCH_ALL,
			    pattern, m, where) < 0)
		hs_load_drop_last(ld);
}

static int load_memcode(struct hs_load *ld, const cJSON *doc)
{
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *ev;
	char where[160];

	if (!hooks)
		return 0;
	if (!cJSON_IsObject(hooks)) {
		hs_load_diag(ld, HS_DIAG_FATAL, hooks, "\"hooks\" must be an "
			     "object");
		return -1;
	}
	cJSON_ArrayForEach(ev, hooks)
	{
		const cJSON *e;
		int i = 0;

		if (hs_json_comment_key(ev->string))
			continue;
		if (!memcode_event(ev->string)) {
			hs_load_diag(ld, HS_DIAG_ERROR, ev, "unknown event \"%s\" "
				     "(memcode has pre_tool_use, post_tool_use, "
				     "session_start, session_end; skipped)",
				     ev->string);
			continue;
		}
		if (!cJSON_IsArray(ev)) {
			hs_load_diag(ld, HS_DIAG_ERROR, ev, "hooks.%s must be an "
				     "array (skipped)", ev->string);
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

/* memcode keys its events in snake_case with flat entries, and has no
 * schema version. */
static bool memcode_shape(const cJSON *doc)
{
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *ev;

	if (!cJSON_IsObject(hooks) ||
	    cJSON_GetObjectItemCaseSensitive(doc, "version"))
		return false;
	cJSON_ArrayForEach(ev, hooks)
	{
		if (ev->string && strchr(ev->string, '_') &&
		    !hs_json_comment_key(ev->string))
			return true;
	}
	return false;
}

/* ---- the payload its hooks read, and what their answers mean ---- */

/* memcode caps post results at 16 KiB. */
#define MEMCODE_RESULT_CAP 16384

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

static cJSON *payload(const struct hs_hook *h, const struct hs_event *ev,
			   const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	char *result;

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "event", h->event_name);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		add_str(o, "tool", tool);
		cJSON_AddItemToObject(o, "input",
				      hs_payload_tool_input(h, ev, "path"));
	}
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "root", ev->root);
	if (h->kind == HS_KIND_POST) {
		result = hs_payload_output(ev, MEMCODE_RESULT_CAP);
		cJSON_AddStringToObject(o, "result", result ? result : "");
		free(result);
		cJSON_AddBoolToObject(o, "is_error", ev->failed);
	}
	return o;
}

static bool decide(struct hs_hook_run *run, struct hs_outcome *out,
		       bool *stop_group)
{
	const struct hs_hook *h = run->hook;

	(void)stop_group; /* a group is memoh's: its actions */
	if (hs_decide_run_failed(run, out))
		return false;
	if (run->res.exit_code == 2 && h->kind == HS_KIND_PRE) {
		hs_decide_deny(run, out, run->res.err);
		return true;
	}
	if (run->res.exit_code != 0) {
		hs_decide_nonblocking(run, out);
		return false;
	}
	if (h->kind == HS_KIND_SESSION_START)
		hs_decide_append(&out->session_context, run->res.out);
	return false;
}

const struct hs_dialect_ops hs_dialect_memcode = {
	.name = "memcode",
	.timeout_ms = 60 * 1000,
	/* User first, then project. */
	.import_files = (const struct hs_file_place[]){
		{ HS_FILE_HOME, ".memcode/hooks.json" },
		{ HS_FILE_ROOT, ".memcode/hooks.json" },
		{ 0, NULL },
	},
	.path_hints = (const char *const[]){ "/.memcode/", NULL },
	.claims_shape = memcode_shape,
	.load = load_memcode,
	.events = memcode_events,
	.tools = { "bash", "edit_file", "edit_file", "read_file", "web_fetch" },
	.payload = payload,
	.decide = decide,
	.merge = HS_MERGE_ORDERED,
	.env = (const struct hs_hookenv_var[]){
		{ "MEMCODE_HOOK_EVENT", HS_HOOKENV_EVENT },
		{ "MEMCODE_TOOL_NAME", HS_HOOKENV_TOOL },
		{ "MEMCODE_SESSION_ID", HS_HOOKENV_SESSION },
		{ "MEMCODE_PROJECT_DIR", HS_HOOKENV_ROOT },
		{ NULL, 0 },
	},
};
