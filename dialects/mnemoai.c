/* mnemoai: ~/.mnemoai/hooks/hooks.json, Claude's shape with glob matchers,
 * bash -c in the agent's cwd. */
#include <stdlib.h>
#include <string.h>

#include "../config/loadkit.h"
#include "../engine/decide.h"
#include "../engine/payload.h"

static const struct hs_event_def mnemoai_events[] = {
	{ "PreToolUse", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "PostToolUse", HS_KIND_POST, HS_POST_SUCCESS, HS_OP_ANY },
	{ "PostToolUseFailure", HS_KIND_POST, HS_POST_FAILURE, HS_OP_ANY },
	{ NULL, 0, 0, 0 },
};

static int load_mnemoai(struct hs_load *ld, const cJSON *doc)
{
	static const struct hs_nested_rules rules = {
		.glob_matcher = true,
		.max_timeout_s = 600,
	};

	return hs_load_nested(ld, doc, &rules);
}

/* ---- the payload its hooks read, and what their answers mean ---- */

/* mnemoai caps long input strings and lists them under _truncated. */
#define MNEMOAI_CAP 10000

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

/* mnemoai: long strings are capped and named under _truncated. */
static void cap_strings(cJSON *in)
{
	cJSON *v, *list = NULL;

	cJSON_ArrayForEach(v, in)
	{
		if (cJSON_IsString(v) && strlen(v->valuestring) > MNEMOAI_CAP) {
			v->valuestring[MNEMOAI_CAP] = '\0';
			/* Do not cut a UTF-8 sequence in half. */
			for (int i = MNEMOAI_CAP - 1;
			     i > MNEMOAI_CAP - 4 &&
			     ((unsigned char)v->valuestring[i] & 0xC0) == 0x80;
			     i--)
				v->valuestring[i] = '\0';
			if (!list)
				list = cJSON_CreateArray();
			cJSON_AddItemToArray(list, cJSON_CreateString(v->string));
		}
	}
	if (list)
		cJSON_AddItemToObject(in, "_truncated", list);
}

static cJSON *payload(const struct hs_hook *h, const struct hs_event *ev,
			   const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *in = hs_payload_tool_input(h, ev, "path");
	char *resp;

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	add_str(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	add_str(o, "hook_event_name", h->event_name);
	add_str(o, "tool_name", tool);
	cap_strings(in);
	cJSON_AddItemToObject(o, "tool_input", in);
	if (h->kind == HS_KIND_POST) {
		resp = hs_payload_output(ev, 1u << 20);
		cJSON_AddStringToObject(o, "tool_response", resp ? resp : "");
		free(resp);
	}
	return o;
}

static bool decide(struct hs_hook_run *run, struct hs_outcome *out,
		       bool *stop_group)
{
	const struct hs_hook *h = run->hook;
	cJSON *j;
	const char *dec, *s;
	bool denied = false;

	(void)stop_group; /* a group is memoh's: its actions */
	if (hs_decide_run_failed(run, out))
		return false;
	if (run->res.exit_code == 2) {
		if (h->kind != HS_KIND_PRE) {
			hs_decide_nonblocking(run, out);
			return false;
		}
		hs_decide_deny(run, out, run->res.err);
		return true;
	}
	if (run->res.exit_code != 0) {
		hs_decide_nonblocking(run, out);
		return false;
	}
	j = hs_decide_stdout_json(run);
	if (!j) {
		if (strspn(run->res.out, " \t\r\n") != run->res.out_len)
			hs_outcome_warn(out, "hook output (for you, not the "
					"model): %s", run->res.out);
		return false;
	}
	if ((s = hs_decide_jstr(j, "additionalContext")))
		hs_decide_append(&out->context, s);
	dec = hs_decide_jstr(j, "decision");
	if (dec && strcmp(dec, "deny") == 0 && h->kind == HS_KIND_PRE) {
		hs_decide_deny(run, out, hs_decide_jstr(j, "reason"));
		denied = true;
	} else if (dec && strcmp(dec, "allow") == 0) {
		hs_decide_say(run, out, HS_ALLOW, hs_decide_jstr(j, "reason"));
	}
	cJSON_Delete(j);
	return denied;
}

const struct hs_dialect_ops hs_dialect_mnemoai = {
	.name = "mnemoai",
	.timeout_ms = 30 * 1000,
	.shell = "/bin/bash",
	.cwd_from_agent = true,
	/* The app home only, by design. */
	.import_files = (const struct hs_file_place[]){
		{ HS_FILE_HOME, ".mnemoai/hooks/hooks.json" },
		{ 0, NULL },
	},
	.path_hints = (const char *const[]){ "/.mnemoai/", NULL },
	.load = load_mnemoai,
	.events = mnemoai_events,
	.tools = { "execute_bash", "fs_write", "fs_write", "fs_read", "web_fetch" },
	.payload = payload,
	.decide = decide,
	.merge = HS_MERGE_ORDERED,
	.env = (const struct hs_hookenv_var[]){
		{ "MNEMOAI_HOOK_EVENT", HS_HOOKENV_EVENT },
		{ "MNEMOAI_TOOL_NAME", HS_HOOKENV_TOOL },
		{ NULL, 0 },
	},
};
