/* mnemoai: ~/.mnemoai/hooks/hooks.json, Claude's shape with glob matchers,
 * bash -c in the agent's cwd. */
#include "loadkit.h"
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
	.payload = hs_payload_mnemoai,
	.decide = hs_decide_mnemoai,
	.merge = HS_MERGE_ORDERED,
	.env = (const struct hs_hookenv_var[]){
		{ "MNEMOAI_HOOK_EVENT", HS_HOOKENV_EVENT },
		{ "MNEMOAI_TOOL_NAME", HS_HOOKENV_TOOL },
		{ NULL, 0 },
	},
};
