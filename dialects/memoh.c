/* memoh: {version:1, enabled, defaults, env, hooks:[{name, event, matcher,
 * enabled, priority, actions:[...]}]}. Each action becomes one hook; the
 * actions of a memoh hook share a group so on_error can stop the rest. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/loadkit.h"
#include "../engine/decide.h"
#include "../engine/payload.h"

#define POST_BOTH (HS_POST_SUCCESS | HS_POST_FAILURE)

/* The events that can fire here; memoh's model, memory and approval events
 * load as catalog-only (events.c). */
static const struct hs_event_def memoh_events[] = {
	{ "PreToolUse", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "PostToolUse", HS_KIND_POST, HS_POST_SUCCESS, HS_OP_ANY },
	{ "SessionStart", HS_KIND_SESSION_START, 0, 0 },
	{ "ToolError", HS_KIND_POST, HS_POST_FAILURE, HS_OP_ANY },
	{ "WorkspaceStart", HS_KIND_SESSION_START, 0, 0 },
	{ "WorkspaceStop", HS_KIND_SESSION_END, 0, 0 },
	{ "BeforeWorkspaceCommand", HS_KIND_PRE, 0, HS_OP_EXEC },
	{ "AfterWorkspaceCommand", HS_KIND_POST, POST_BOTH, HS_OP_EXEC },
	{ "BeforeFileWrite", HS_KIND_PRE, 0, HS_OP_WRITE },
	{ "AfterFileWrite", HS_KIND_POST, POST_BOTH, HS_OP_WRITE },
	{ NULL, 0, 0, 0 },
};

static const char *const top_keys[] = { "version", "enabled", "defaults",
				       "env", "hooks", "bot_id", NULL };
static const char *const default_keys[] = { "timeout", "on_error",
					   "max_output_bytes",
					   "trigger_nested_hooks", NULL };
static const char *const hook_keys[] = { "name", "event", "matcher",
					"enabled", "priority", "actions",
					"conditions", "description", NULL };
static const char *const action_keys[] = { "type", "command", "work_dir",
					  "timeout", "on_error", "tool",
					  "input", "content", NULL };

struct memoh_defaults {
	long timeout_ms;
	enum hs_on_error on_error;
	long max_output;
	int nested;
	char **env;
};

static int parse_on_error(const cJSON *v, enum hs_on_error *out)
{
	if (!cJSON_IsString(v))
		return -1;
	if (strcmp(v->valuestring, "ignore") == 0)
		*out = HS_ONERR_IGNORE;
	else if (strcmp(v->valuestring, "fail") == 0)
		*out = HS_ONERR_FAIL;
	else if (strcmp(v->valuestring, "block") == 0)
		*out = HS_ONERR_BLOCK;
	else
		return -1;
	return 0;
}

static char **env_vector(struct hs_load *ld, const cJSON *env)
{
	size_t n = (size_t)cJSON_GetArraySize(env), i = 0;
	char **v = calloc(n + 1, sizeof(*v));
	const cJSON *e;

	if (!v)
		return NULL;
	cJSON_ArrayForEach(e, env)
	{
		char *kv = NULL;

		if (!cJSON_IsString(e) || !e->string || !*e->string ||
		    strchr(e->string, '=')) {
			hs_load_diag(ld, HS_DIAG_ERROR, e, "env.%s: values must "
				     "be strings (skipped)",
				     e->string ? e->string : "?");
			continue;
		}
		if (asprintf(&kv, "%s=%s", e->string, e->valuestring) >= 0)
			v[i++] = kv;
	}
	return v;
}

static char **strv_dup(char **src)
{
	size_t n = 0;
	char **v;

	if (!src)
		return NULL;
	while (src[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++)
		v[i] = strdup(src[i]);
	return v;
}

static void load_defaults(struct hs_load *ld, const cJSON *d,
			  struct memoh_defaults *def)
{
	const cJSON *v;
	bool b;

	if (!d)
		return;
	if (!cJSON_IsObject(d)) {
		hs_load_diag(ld, HS_DIAG_ERROR, d, "defaults must be an object "
			     "(ignored)");
		return;
	}
	hs_load_unknown_keys(ld, d, default_keys, "defaults");
	if ((v = cJSON_GetObjectItemCaseSensitive(d, "timeout"))) {
		long ms = hs_parse_duration_ms(v);

		if (ms <= 0)
			hs_load_diag(ld, HS_DIAG_ERROR, v, "defaults.timeout: "
				     "expected a duration like \"10s\" or "
				     "seconds (10s kept)");
		else
			def->timeout_ms = ms;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(d, "on_error")) &&
	    parse_on_error(v, &def->on_error) < 0)
		hs_load_diag(ld, HS_DIAG_ERROR, v, "defaults.on_error: expected "
			     "ignore, fail or block (fail kept)");
	if ((v = cJSON_GetObjectItemCaseSensitive(d, "max_output_bytes"))) {
		/* Capped before the cast: a double past LONG_MAX made it
		 * undefined (found by fuzz/fuzz_config.c). */
		if (cJSON_IsNumber(v) && v->valuedouble > 0)
			def->max_output = v->valuedouble < 1e15
						  ? (long)v->valuedouble
						  : 1000000000000000L;
		else
			hs_load_diag(ld, HS_DIAG_ERROR, v, "defaults."
				     "max_output_bytes must be positive "
				     "(65536 kept)");
	}
	if (hs_load_bool(ld, cJSON_GetObjectItemCaseSensitive(
				     d, "trigger_nested_hooks"),
			 "defaults", &b))
		def->nested = b;
}

/* The built-in a memoh "tool" action maps to, or NULL. */
static const char *builtin_for(const char *tool)
{
	static const char *const known[] = { "record_event", "log", "deny",
					     "allow", NULL };

	for (const char *const *k = known; *k; k++)
		if (strcmp(*k, tool) == 0)
			return *k;
	return NULL;
}

static void load_action(struct hs_load *ld, const cJSON *hk, const cJSON *a,
			const struct memoh_defaults *def, int group,
			const char *where)
{
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(hk, "event");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(hk, "matcher");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(hk, "name");
	const cJSON *prio = cJSON_GetObjectItemCaseSensitive(hk, "priority");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(a, "type");
	const cJSON *v;
	struct hs_hook *h;
	const char *pattern = cJSON_IsString(m) ? m->valuestring : "";
	bool b;

	if (!cJSON_IsObject(a) || !cJSON_IsString(type)) {
		hs_load_diag(ld, HS_DIAG_ERROR, cJSON_IsObject(a) && type ? type : a,
			     "%s: an action needs a \"type\" string (skipped)",
			     where);
		return;
	}
	hs_load_unknown_keys(ld, a, action_keys, where);
	h = hs_load_new_hook(ld, ev->valuestring);
	if (!h)
		return;
	h->group = group;
	h->name = cJSON_IsString(name) ? strdup(name->valuestring) : NULL;
	h->priority = cJSON_IsNumber(prio) ? prio->valueint : 0;
	h->timeout_ms = (int)def->timeout_ms;
	h->on_error = def->on_error;
	h->max_output = (size_t)def->max_output;
	h->nested = def->nested;
	h->env = strv_dup(def->env);
	if (strcmp(type->valuestring, "command") == 0) {
		v = cJSON_GetObjectItemCaseSensitive(a, "command");
		if (!cJSON_IsString(v) || !*v->valuestring) {
			hs_load_diag(ld, HS_DIAG_ERROR, v ? v : a, "%s: command "
				     "action without a \"command\" string "
				     "(skipped)", where);
			hs_load_drop_last(ld);
			return;
		}
		h->command = strdup(v->valuestring);
		hs_jsonpos_find(ld->pos, v, &h->cmd_line, &h->cmd_col);
	} else if (strcmp(type->valuestring, "tool") == 0) {
		v = cJSON_GetObjectItemCaseSensitive(a, "tool");
		if (!cJSON_IsString(v) || !builtin_for(v->valuestring)) {
			hs_load_diag(ld, HS_DIAG_ERROR, v ? v : a, "%s: tool "
				     "action \"%s\" names a Bot tool hookshim "
				     "does not have (skipped; built-ins: "
				     "record_event, log, deny, allow)", where,
				     cJSON_IsString(v) ? v->valuestring : "?");
			hs_load_drop_last(ld);
			return;
		}
		h->action = HS_ACTION_BUILTIN;
		h->command = strdup(v->valuestring);
		hs_jsonpos_find(ld->pos, v, &h->cmd_line, &h->cmd_col);
	} else {
		hs_load_diag(ld, HS_DIAG_ERROR, type, "%s: action type \"%s\" is "
			     "not supported (mcp_tool is reserved; skipped)",
			     where, type->valuestring);
		hs_load_drop_last(ld);
		return;
	}
	if (hs_load_bool(ld, cJSON_GetObjectItemCaseSensitive(a, "content"),
			 where, &b)) {
		h->want_content = b;
		h->content_given = b;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(a, "work_dir"))) {
		if (cJSON_IsString(v) && *v->valuestring)
			h->work_dir = strdup(v->valuestring);
		else if (!cJSON_IsString(v))
			hs_load_diag(ld, HS_DIAG_ERROR, v, "%s: work_dir must be "
				     "a string (ignored)", where);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(a, "timeout"))) {
		long ms = hs_parse_duration_ms(v);

		if (ms <= 0)
			hs_load_diag(ld, HS_DIAG_ERROR, v, "%s: bad timeout "
				     "(default kept)", where);
		else
			h->timeout_ms = (int)ms;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(a, "on_error")) &&
	    parse_on_error(v, &h->on_error) < 0)
		hs_load_diag(ld, HS_DIAG_ERROR, v, "%s: on_error must be "
			     "ignore, fail or block (default kept)", where);
	if (hs_load_matcher(ld, h, *pattern ? HS_MATCH_REGEX : HS_MATCH_ALL,
			    pattern, m, where) < 0)
		hs_load_drop_last(ld);
}

static void load_hook(struct hs_load *ld, const cJSON *hk, int idx,
		      const struct memoh_defaults *def)
{
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(hk, "event");
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(hk, "enabled");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(hk, "matcher");
	const cJSON *actions = cJSON_GetObjectItemCaseSensitive(hk, "actions");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(hk, "name");
	const cJSON *prio = cJSON_GetObjectItemCaseSensitive(hk, "priority");
	const cJSON *a;
	bool on = true;
	enum hs_kind kind;
	unsigned mask, ops;
	char where[200];
	int ai = 0;
	/* The index of the first action is unique across every file. */
	int group = (int)ld->cfg->nhooks;

	if (!cJSON_IsObject(hk) || !cJSON_IsString(ev)) {
		hs_load_diag(ld, HS_DIAG_ERROR, cJSON_IsObject(hk) && ev ? ev : hk,
			     "hooks[%d]: needs an \"event\" string (skipped)",
			     idx);
		return;
	}
	if (hs_dialect_event(ld->ops, ev->valuestring, &kind, &mask, &ops) < 0) {
		hs_load_diag(ld, HS_DIAG_ERROR, ev, "hooks[%d]: unknown event "
			     "\"%s\" (skipped)", idx, ev->valuestring);
		return;
	}
	if (m && !cJSON_IsString(m)) {
		hs_load_diag(ld, HS_DIAG_ERROR, m, "hooks[%d]: matcher must be a "
			     "string (skipped)", idx);
		return;
	}
	snprintf(where, sizeof(where), "hooks[%d]", idx);
	if (hs_load_bool(ld, en, where, &on) && !on)
		return;
	hs_load_unknown_keys(ld, hk, hook_keys, where);
	if (name && !cJSON_IsString(name))
		hs_load_diag(ld, HS_DIAG_ERROR, name, "hooks[%d]: name must be "
			     "a string (ignored)", idx);
	if (prio && !cJSON_IsNumber(prio))
		hs_load_diag(ld, HS_DIAG_ERROR, prio, "hooks[%d]: priority must "
			     "be a number (0 used)", idx);
	if (kind == HS_KIND_NONE)
		hs_load_diag(ld, HS_DIAG_WARNING, ev, "hooks[%d]: event %s cannot "
			     "be produced by this host (loaded, never fires)",
			     idx, ev->valuestring);
	if (!cJSON_IsArray(actions)) {
		hs_load_diag(ld, HS_DIAG_ERROR, actions ? actions : hk,
			     "hooks[%d]: \"actions\" must be an array "
			     "(skipped)", idx);
		return;
	}
	cJSON_ArrayForEach(a, actions)
	{
		snprintf(where, sizeof(where), "hooks[%d].actions[%d]", idx,
			 ai++);
		load_action(ld, hk, a, def, group, where);
	}
}

static int load_memoh(struct hs_load *ld, const cJSON *doc)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(doc, "enabled");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "env");
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *bot = cJSON_GetObjectItemCaseSensitive(doc, "bot_id");
	struct memoh_defaults def = {
		.timeout_ms = 10000,
		.on_error = HS_ONERR_FAIL,
		.max_output = 65536,
		.nested = 0,
	};
	const cJSON *hk;
	int idx = 0;
	bool on = true;

	if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
		hs_load_diag(ld, HS_DIAG_FATAL, ver ? ver : doc, "\"version\" "
			     "must be 1 (memoh schema version)");
		return -1;
	}
	if (hs_load_bool(ld, en, NULL, &on) && !on) {
		/* what the file asks for, so no error */
		hs_load_diag(ld, HS_DIAG_WARNING, en, "enabled is false: no "
			     "hooks loaded from it");
		return 0;
	}
	if (hooks && !cJSON_IsArray(hooks)) {
		hs_load_diag(ld, HS_DIAG_FATAL, hooks, "\"hooks\" must be an "
			     "array");
		return -1;
	}
	hs_load_unknown_keys(ld, doc, top_keys, "top level");
	if (bot && !cJSON_IsString(bot))
		hs_load_diag(ld, HS_DIAG_ERROR, bot, "bot_id must be a string "
			     "(ignored)");
	if (cJSON_IsString(bot) && !ld->cfg->settings.bot_id)
		ld->cfg->settings.bot_id = strdup(bot->valuestring);
	load_defaults(ld, cJSON_GetObjectItemCaseSensitive(doc, "defaults"),
		      &def);
	if (cJSON_IsObject(env))
		def.env = env_vector(ld, env);
	else if (env)
		hs_load_diag(ld, HS_DIAG_ERROR, env, "env must be an object of "
			     "strings (ignored)");
	cJSON_ArrayForEach(hk, hooks)
		load_hook(ld, hk, idx++, &def);
	if (def.env) {
		for (char **p = def.env; *p; p++)
			free(*p);
		free(def.env);
	}
	return 0;
}

/* memoh files carry a schema version and a hooks array. */
static bool memoh_shape(const cJSON *doc)
{
	return cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "hooks")) ||
	       cJSON_GetObjectItemCaseSensitive(doc, "version");
}

/* ---- the payload its hooks read, and what their answers mean ---- */

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

static cJSON *payload(const struct hs_hook *h, const struct hs_event *ev,
			 const char *tool, const struct hs_settings *settings)
{
	const char *bot_id = settings->bot_id;
	cJSON *o = cJSON_CreateObject();
	cJSON *extra = cJSON_CreateObject();
	cJSON *call;
	char buf[64];

	add_str(o, "event", h->event_name);
	add_str(o, "bot_id", bot_id ? bot_id : "");
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "workspace_dir", ev->root);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST) {
		call = cJSON_AddObjectToObject(o, "tool");
		add_str(call, "name", tool);
		cJSON_AddItemToObject(call, "input",
				      hs_payload_tool_input(h, ev, "path"));
		if (h->kind == HS_KIND_POST) {
			char *res = hs_payload_output(ev, h->max_output);

			cJSON_AddStringToObject(call, "result", res ? res : "");
			free(res);
			if (ev->failed)
				cJSON_AddStringToObject(
					call, "error",
					hs_payload_failure_text(ev, buf, sizeof(buf)));
			cJSON_AddNumberToObject(extra, "exit_code",
						ev->exit_code);
		}
	}
	if (ev->op == HS_OP_EXEC)
		add_str(extra, "command", ev->command);
	if (ev->op == HS_OP_WRITE || ev->op == HS_OP_READ) {
		add_str(extra, "path", ev->path);
		add_str(extra, "operation", ev->operation ? ev->operation
				: ev->op == HS_OP_READ ? "read" : "write");
	}
	add_str(extra, "cwd", ev->cwd);
	cJSON_AddItemToObject(o, "extra", extra);
	return o;
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
				hs_decide_label(run->hook, buf, sizeof(buf)));
		return false;
	case HS_ONERR_BLOCK:
		if (asprintf(&reason, "hook %s failed and on_error is block%s%s",
			     hs_decide_label(run->hook, buf, sizeof(buf)),
			     *run->res.err ? ": " : "", run->res.err) < 0)
			reason = NULL;
		hs_decide_deny(run, out, reason);
		free(reason);
		return true;
	}
	return false;
}

static bool decide(struct hs_hook_run *run, struct hs_outcome *out,
		     bool *stop_group)
{
	cJSON *j;
	const char *dec, *s;
	bool denied = false;

	if (hs_decide_run_failed(run, out))
		return memoh_error(run, out, stop_group);
	if (run->res.exit_code != 0) {
		hs_decide_nonblocking(run, out);
		return memoh_error(run, out, stop_group);
	}
	j = hs_decide_stdout_json(run);
	if (!j)
		return false; /* non-JSON stdout is allow */
	dec = hs_decide_jstr(j, "decision");
	if ((s = hs_decide_jstr(j, "append_context")))
		hs_decide_append(&out->context, s);
	if (dec && strcmp(dec, "deny") == 0) {
		hs_decide_deny(run, out, hs_decide_jstr(j, "reason"));
		denied = true;
	} else if (dec && strcmp(dec, "ask_approval") == 0) {
		hs_decide_say(run, out, HS_ASK, hs_decide_jstr(j, "reason"));
	} else if (dec && strcmp(dec, "allow") == 0) {
		hs_decide_say(run, out, HS_ALLOW, hs_decide_jstr(j, "reason"));
	} else if (dec && strcmp(dec, "append_context") != 0) {
		hs_outcome_warn(out, "memoh hook returned unknown decision "
				"\"%s\" (treated as allow)", dec);
	}
	cJSON_Delete(j);
	return denied;
}

const struct hs_dialect_ops hs_dialect_memoh = {
	.name = "memoh",
	.timeout_ms = 10 * 1000,
	.on_error = HS_ONERR_FAIL,
	.import_files = (const struct hs_file_place[]){
		{ HS_FILE_ABSOLUTE, "/data/.memoh/hooks.json" },
		{ 0, NULL },
	},
	.path_hints = (const char *const[]){ "/.memoh/", NULL },
	.claims_shape = memoh_shape,
	.load = load_memoh,
	.events = memoh_events,
	.tools = { "exec", "write_file", "write_file", "read_file", "web_fetch" },
	.matcher_on_request = true,
	.priorities = true,
	.payload = payload,
	.decide = decide,
	.merge = HS_MERGE_ORDERED,
	.env = (const struct hs_hookenv_var[]){
		{ "MEMOH_HOOK_EVENT", HS_HOOKENV_EVENT },
		{ "MEMOH_HOOK_NAME", HS_HOOKENV_HOOK_NAME },
		{ "MEMOH_BOT_ID", HS_HOOKENV_BOT_ID },
		{ "MEMOH_SESSION_ID", HS_HOOKENV_SESSION },
		{ NULL, 0 },
	},
};
