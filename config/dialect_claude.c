/* Claude Code: settings.json hooks, which are also hookshim's own format
 * (plus its top-level "hookshim" object). */
#include "loadkit.h"
#include "../engine/decide.h"
#include "../engine/payload.h"

static const struct hs_event_def claude_events[] = {
	{ "PreToolUse", HS_KIND_PRE, 0, HS_OP_ANY },
	{ "PostToolUse", HS_KIND_POST, HS_POST_SUCCESS, HS_OP_ANY },
	{ "PostToolUseFailure", HS_KIND_POST, HS_POST_FAILURE, HS_OP_ANY },
	{ "SessionStart", HS_KIND_SESSION_START, 0, 0 },
	{ "SessionEnd", HS_KIND_SESSION_END, 0, 0 },
	{ NULL, 0, 0, 0 },
};

static int load_claude(struct hs_load *ld, const cJSON *doc)
{
	static const struct hs_nested_rules rules = {
		.if_field = true,
		.inside_notice = true,
	};
	const cJSON *off = cJSON_GetObjectItemCaseSensitive(doc,
							    "disableAllHooks");
	const cJSON *settings = cJSON_GetObjectItemCaseSensitive(doc, "hookshim");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "env");

	if (settings && hs_load_settings(ld, settings) < 0)
		return -1;
	/* Claude Code applies "env" whatever the hooks say, disableAllHooks
	 * included: it is the session's environment, not the hooks'. */
	if (env)
		hs_load_session_env(ld, env);
	if (cJSON_IsTrue(off)) {
		/* what the file asks for, so no error */
		hs_load_diag(ld, HS_DIAG_WARNING, off, "disableAllHooks is "
			     "true: no hooks loaded from it");
		return 0;
	}
	return hs_load_nested(ld, doc, &rules);
}

const struct hs_dialect_ops hs_dialect_claude = {
	.name = "claude",
	.aliases = (const char *const[]){ "hookshim", "claude-code", NULL },
	.timeout_ms = 600 * 1000,
	.import_files = (const struct hs_file_place[]){
		{ HS_FILE_HOME, ".claude/settings.json" },
		{ HS_FILE_ROOT, ".claude/settings.json" },
		{ HS_FILE_ROOT, ".claude/settings.local.json" },
		{ 0, NULL },
	},
	/* hookshim's own files: user first, then project. */
	.default_files = (const struct hs_file_place[]){
		{ HS_FILE_CONFIG_HOME, "hookshim/hooks.json" },
		{ HS_FILE_ROOT, ".hookshim/hooks.json" },
		{ 0, NULL },
	},
	.path_hints = (const char *const[]){ "/.claude/", "/.hookshim/",
					     "/hookshim/", NULL },
	/* Claude-shaped files nest hooks under matchers: what is left when
	 * no other dialect recognises a file is read as one. */
	.fallback = true,
	.load = load_claude,
	.events = claude_events,
	.tools = { "Bash", "Write", "Edit", "Read" },
	.payload = hs_payload_claude,
	.decide = hs_decide_claude,
	.merge = HS_MERGE_ALL,
	.env = (const struct hs_hookenv_var[]){
		{ "CLAUDE_PROJECT_DIR", HS_HOOKENV_ROOT },
		{ NULL, 0 },
	},
	.session_env = true,
};
