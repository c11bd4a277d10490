/* Claude Code: settings.json hooks, which are also hookshim's own format
 * (plus its top-level "hookshim" object). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/glob.h"
#include "../config/http_handler.h"
#include "../config/loadkit.h"
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

/* Claude Code's "permissions": its "deny" and "ask" rules (Bash(...),
 * Write(...), Edit(...), Read(...)) hold for every call hookshim sees, as
 * a pre hook with that "if" rule would: a built-in that answers deny or
 * ask with the rule as the reason (engine/dispatch.c run_builtin). A rule
 * for a tool decided inside the agent (WebSearch, MCP tools) is loaded and
 * said to be dead (engine/dead_rules.c). "allow" only spares the agent's
 * own prompt: hookshim asks nothing that it would spare. */
static void load_permissions(struct hs_load *ld, const cJSON *perm)
{
	static const char *const kinds[] = { "deny", "ask" };

	if (!perm)
		return;
	if (!cJSON_IsObject(perm)) {
		hs_load_diag(ld, HS_DIAG_ERROR, perm, "permissions must be an "
			     "object (ignored)");
		return;
	}
	for (size_t k = 0; k < 2; k++) {
		const cJSON *list = cJSON_GetObjectItemCaseSensitive(perm, kinds[k]);
		const cJSON *e;
		int i = 0;

		if (list && !cJSON_IsArray(list)) {
			hs_load_diag(ld, HS_DIAG_ERROR, list, "permissions.%s must "
				     "be an array of rules (ignored)", kinds[k]);
			continue;
		}
		cJSON_ArrayForEach(e, list) {
			struct hs_hook *h;

			if (!cJSON_IsString(e) || !(h = hs_load_new_hook(ld,
								   "PreToolUse")))
				goto bad;
			if (hs_rule_parse(e->valuestring, &h->rule) < 0 ||
			    (h->rule.pattern &&
			     strlen(h->rule.pattern) > HS_GLOB_MAX)) {
				hs_load_drop_last(ld);
				goto bad;
			}
			h->has_rule = true;
			h->action = HS_ACTION_BUILTIN;
			if (asprintf(&h->command, "permissions.%s %s", kinds[k],
				     e->valuestring) < 0)
				h->command = NULL;
			hs_jsonpos_find(ld->pos, e, &h->if_line, &h->if_col);
			if (!h->command ||
			    hs_load_matcher(ld, h, HS_MATCH_ALL, NULL, e,
					    "permissions") < 0) {
				hs_load_drop_last(ld);
				goto bad;
			}
			i++;
			continue;
bad:
			hs_load_diag(ld, HS_DIAG_ERROR, e, "permissions.%s[%d] must "
				     "look like Tool(pattern), e.g. \"Bash(rm "
				     "-rf *)\" (ignored)", kinds[k], i++);
		}
	}
}

/* A managed file's locks over the others (after_import applies them).
 * Claude Code treats a lock that is not a boolean as set: fail closed. */
static void managed_locks(struct hs_load *ld, const cJSON *doc)
{
	static const char *const keys[] = { "allowManagedHooksOnly",
					    "allowManagedPermissionRulesOnly" };

	for (int k = 0; k < 2; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, keys[k]);
		char **why = k ? &ld->cfg->claude.why_rules
			       : &ld->cfg->claude.why_hooks;

		if (!v || cJSON_IsFalse(v))
			continue;
		if (!cJSON_IsTrue(v))
			hs_load_diag(ld, HS_DIAG_ERROR, v, "%s must be true or "
				     "false (taken as true, as Claude Code "
				     "does)", keys[k]);
		*(k ? &ld->cfg->claude.rules_only : &ld->cfg->claude.hooks_only) =
			true;
		if (!*why)
			*why = strdup(ld->src);
	}
}

/* Claude Code's hierarchy, once every settings file of --import claude
 * is loaded: managed hooks hold whatever the others say;
 * allowManagedHooksOnly / allowManagedPermissionRulesOnly in a managed
 * file drop the other files' hooks / permission rules; disableAllHooks
 * in a managed file drops every hook, in another file every hook but the
 * managed ones. What is dropped is said, one line per reason. */
static void claude_after_import(struct hs_config *cfg, size_t first)
{
	size_t kept = first, gone[3] = { 0, 0, 0 };

	for (size_t i = first; i < cfg->nhooks; i++) {
		struct hs_hook *h = &cfg->hooks[i];
		bool rule = hs_hook_is_permission_rule(h);
		int why = -1;

		if (h->dialect != HS_CLAUDE)
			;
		else if (!rule && cfg->claude.off_managed)
			why = 0;
		else if (!rule && !h->managed &&
			 (cfg->claude.off_others || cfg->claude.hooks_only))
			why = cfg->claude.hooks_only ? 1 : 0;
		else if (rule && !h->managed && cfg->claude.rules_only)
			why = 2;
		if (why < 0) {
			cfg->hooks[kept++] = *h;
			continue;
		}
		gone[why]++;
		hs_hook_free(h);
	}
	cfg->nhooks = kept;
	if (gone[0])
		hs_config_diag(cfg, HS_DIAG_WARNING, "disableAllHooks: %zu hook(s) "
			       "of the other Claude settings files not loaded "
			       "either%s", gone[0], cfg->claude.off_managed ? ""
			       : " (managed hooks still are)");
	if (gone[1])
		hs_config_diag(cfg, HS_DIAG_WARNING, "allowManagedHooksOnly (%s): "
			       "%zu hook(s) of the user's and the project's "
			       "settings not loaded", cfg->claude.why_hooks,
			       gone[1]);
	if (gone[2])
		hs_config_diag(cfg, HS_DIAG_WARNING, "allowManagedPermissionRules"
			       "Only (%s): %zu permission rule(s) of the user's "
			       "and the project's settings not applied",
			       cfg->claude.why_rules, gone[2]);
}

static int load_claude(struct hs_load *ld, const cJSON *doc)
{
	static const struct hs_nested_rules rules = {
		.if_field = true,
		.inside_notice = true,
		.http = true,
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
	/* they constrain every file's http hooks, this one's or not */
	hs_load_http_lists(ld, doc);
	/* permission rules are not hooks: disableAllHooks leaves them */
	load_permissions(ld, cJSON_GetObjectItemCaseSensitive(doc,
							       "permissions"));
	if (ld->managed)
		managed_locks(ld, doc);
	if (cJSON_IsTrue(off)) {
		if (ld->managed)
			ld->cfg->claude.off_managed = true;
		else
			ld->cfg->claude.off_others = true;
		/* what the file asks for, so no error */
		hs_load_diag(ld, HS_DIAG_WARNING, off, "disableAllHooks is "
			     "true: no hooks loaded from it");
		return 0;
	}
	return hs_load_nested(ld, doc, &rules);
}

/* ---- the payload its hooks read, and what their answers mean ---- */

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
}

static cJSON *claude_response(const struct hs_event *ev)
{
	cJSON *r = cJSON_CreateObject();

	if (ev->op == HS_OP_WRITE) {
		add_str(r, "filePath", ev->path);
		cJSON_AddBoolToObject(r, "success", !ev->failed);
		return r;
	}
	if (ev->op == HS_OP_NET) { /* a connection's close */
		if (ev->has_bytes) {
			cJSON_AddNumberToObject(r, "bytes_sent",
						(double)ev->bytes_sent);
			cJSON_AddNumberToObject(r, "bytes_received",
						(double)ev->bytes_received);
		}
		cJSON_AddNumberToObject(r, "duration_ms", (double)ev->duration_ms);
		return r;
	}
	cJSON_AddStringToObject(r, "stdout", ev->out ? ev->out : "");
	cJSON_AddStringToObject(r, "stderr", ev->err ? ev->err : "");
	cJSON_AddBoolToObject(r, "interrupted", ev->signo != 0);
	cJSON_AddBoolToObject(r, "isImage", 0);
	cJSON_AddNumberToObject(r, "exit_code", ev->exit_code);
	if (ev->signo)
		cJSON_AddNumberToObject(r, "signal", ev->signo);
	cJSON_AddNumberToObject(r, "duration_ms", (double)ev->duration_ms);
	return r;
}

static cJSON *payload(const struct hs_hook *h, const struct hs_event *ev,
			  const char *tool, const struct hs_settings *settings)
{
	cJSON *o = cJSON_CreateObject();
	char buf[64];

	(void)settings; /* only memoh payloads name the bot */
	add_str(o, "session_id", ev->session_id ? ev->session_id : "");
	cJSON_AddStringToObject(o, "transcript_path",
				ev->transcript_path ? ev->transcript_path : "");
	add_str(o, "cwd", ev->cwd ? ev->cwd : ev->root);
	if (h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST)
		cJSON_AddStringToObject(o, "permission_mode", "default");
	add_str(o, "hook_event_name", h->event_name);
	if (h->kind == HS_KIND_SESSION_START) {
		cJSON_AddStringToObject(o, "source", "startup");
		return o;
	}
	if (h->kind == HS_KIND_SESSION_END) {
		cJSON_AddStringToObject(o, "reason", "other");
		return o;
	}
	add_str(o, "tool_name", tool);
	cJSON_AddItemToObject(o, "tool_input",
			      hs_payload_tool_input(h, ev, "file_path"));
	add_str(o, "tool_use_id", ev->tool_use_id ? ev->tool_use_id : "");
	if (h->kind == HS_KIND_POST && !ev->failed)
		cJSON_AddItemToObject(o, "tool_response", claude_response(ev));
	if (h->kind == HS_KIND_POST && ev->failed) {
		cJSON_AddStringToObject(o, "error",
					hs_payload_failure_text(ev, buf, sizeof(buf)));
		cJSON_AddBoolToObject(o, "is_interrupt", ev->signo != 0);
	}
	return o;
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
	const char *pd = hs_decide_jstr(hso, "permissionDecision");
	const char *dec = hs_decide_jstr(j, "decision");
	const char *reason = hs_decide_jstr(hso, "permissionDecisionReason");
	const char *s;

	if (cJSON_IsFalse(cont)) {
		out->stop = true;
		if ((s = hs_decide_jstr(j, "stopReason")) && !out->stop_reason)
			out->stop_reason = strdup(s);
	}
	if ((s = hs_decide_jstr(j, "systemMessage")))
		hs_decide_append(&out->system_message, s);
	if ((s = hs_decide_jstr(hso, "additionalContext")))
		hs_decide_append(run->hook->kind == HS_KIND_SESSION_START
			       ? &out->session_context
			       : &out->context,
		       s);
	if (!reason)
		reason = hs_decide_jstr(j, "reason");
	if (run->hook->kind == HS_KIND_POST) {
		/* A post "block" cannot undo the call: Claude Code feeds
		 * the reason back to the model. */
		if (dec && strcmp(dec, "block") == 0 && reason)
			hs_decide_append(&out->context, reason);
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
		hs_decide_deny(run, out, reason);
	else if (strcmp(pd, "ask") == 0)
		hs_decide_say(run, out, HS_ASK, reason);
	else if (strcmp(pd, "allow") == 0)
		hs_decide_say(run, out, HS_ALLOW, reason);
}

static bool decide(struct hs_hook_run *run, struct hs_outcome *out,
		      bool *stop_group)
{
	const struct hs_hook *h = run->hook;
	cJSON *j;

	(void)stop_group; /* a group is memoh's: its actions */
	if (hs_decide_run_failed(run, out))
		return false;
	if (run->res.exit_code == 2) {
		if (h->kind == HS_KIND_PRE)
			hs_decide_deny(run, out, run->res.err);
		else if (h->kind == HS_KIND_POST)
			hs_decide_append(&out->context, run->res.err);
		else
			hs_decide_nonblocking(run, out);
		return false;
	}
	if (run->res.exit_code != 0) {
		hs_decide_nonblocking(run, out);
		return false;
	}
	j = hs_decide_stdout_json(run);
	if (j) {
		claude_json(run, j, out);
		cJSON_Delete(j);
	} else if (h->kind == HS_KIND_SESSION_START) {
		hs_decide_append(&out->session_context, run->res.out);
	}
	return false;
}

const struct hs_dialect_ops hs_dialect_claude = {
	.name = "claude",
	.aliases = (const char *const[]){ "hookshim", "claude-code", NULL },
	.timeout_ms = 600 * 1000,
	.import_files = (const struct hs_file_place[]){
		{ HS_FILE_HOME, ".claude/settings.json" },
		{ HS_FILE_ROOT, ".claude/settings.json" },
		{ HS_FILE_ROOT, ".claude/settings.local.json" },
		{ HS_FILE_MANAGED, "claude-code/managed-settings.json" },
		{ HS_FILE_MANAGED, "claude-code/managed-settings.d/*.json" },
		{ 0, NULL },
	},
	.after_import = claude_after_import,
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
	.tools = { "Bash", "Write", "Edit", "Read", "WebFetch" },
	.payload = payload,
	.decide = decide,
	.merge = HS_MERGE_ALL,
	.env = (const struct hs_hookenv_var[]){
		{ "CLAUDE_PROJECT_DIR", HS_HOOKENV_ROOT },
		{ NULL, 0 },
	},
	.session_env = true,
};
