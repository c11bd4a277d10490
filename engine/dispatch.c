/* Selecting, running and merging hooks for one event. */
#include "dispatch.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "../config/session_env.h"
#include "decide.h"
#include "hook_runtime.h"
#include "hook_scripts.h"
#include "http_hook.h"
#include "match.h"
#include "payload.h"
#include "protect.h"
#include "traceparent.h"

extern char **environ;

const char *hs_verdict_name(enum hs_verdict v)
{
	return v == HS_DENY ? "deny" : v == HS_ASK ? "ask" : "allow";
}

static bool nested_allowed(const struct hs_config *cfg, const struct hs_hook *h)
{
	return h->nested >= 0 ? h->nested : cfg->settings.nested_exec;
}

unsigned hs_config_interest(const struct hs_config *cfg)
{
	unsigned bits = 0;
	struct hs_event probe = { 0 };

	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];
		bool pre = h->kind == HS_KIND_PRE, post = h->kind == HS_KIND_POST;

		if (!h->enabled || !(pre || post))
			continue;
		/* Only the tool name is known before a call; a hook whose
		 * matcher cannot accept this dialect's tool for an operation
		 * never costs that operation anything. */
		probe.op = HS_OP_EXEC;
		probe.command = "";
		if ((h->ops & HS_OP_EXEC) && hs_matcher_could_match(h, &probe)) {
			bits |= pre ? HS_INTEREST_EXEC_PRE : HS_INTEREST_EXEC_POST;
			if (nested_allowed(cfg, h))
				bits |= HS_INTEREST_EXEC_NESTED;
		}
		probe.op = HS_OP_WRITE;
		if ((h->ops & HS_OP_WRITE) && hs_matcher_could_match(h, &probe))
			bits |= pre ? HS_INTEREST_WRITE_PRE
				    : HS_INTEREST_WRITE_POST;
		if (pre && hs_hook_names_read(h))
			bits |= HS_INTEREST_READ_PRE;
		probe.op = HS_OP_NET;
		if ((h->ops & HS_OP_NET) && hs_matcher_could_match(h, &probe))
			bits |= pre ? HS_INTEREST_NET_PRE : HS_INTEREST_NET_POST;
	}
	if ((bits & (HS_INTEREST_NET_PRE | HS_INTEREST_NET_POST)) &&
	    cfg->settings.net_agent)
		bits |= HS_INTEREST_NET_AGENT;
	/* Protected files are judged with no write hook at all. */
	if (cfg->protect && cfg->protect->n)
		bits |= HS_INTEREST_WRITE_PRE;
	return bits;
}

static const char *env_value(const struct hs_config *cfg,
			     const struct hs_hook *h, const struct hs_event *ev,
			     const char *tool, enum hs_hookenv_value v)
{
	const char *s = NULL;

	switch (v) {
	case HS_HOOKENV_EVENT:
		s = h->event_name;
		break;
	case HS_HOOKENV_TOOL:
		s = tool;
		break;
	case HS_HOOKENV_SESSION:
		s = ev->session_id;
		break;
	case HS_HOOKENV_ROOT:
		s = ev->root;
		break;
	case HS_HOOKENV_HOOK_NAME:
		s = h->name;
		break;
	case HS_HOOKENV_BOT_ID:
		s = cfg->settings.bot_id;
		break;
	}
	return s ? s : "";
}

static bool in_outer; /* hs_dispatch_hooks_in_outer_session */

void hs_dispatch_hooks_in_outer_session(void)
{
	in_outer = true;
}

/* Of the outer session's variables, what this hook must not inherit as
 * it is: its role and marker are set anew, and INERT would switch the
 * outer shim off. */
static bool outer_dropped(const char *e)
{
	return strncmp(e, "HOOKSHIM_ROLE=", 14) == 0 ||
	       strncmp(e, "HOOKSHIM_CHECKED=", 17) == 0 ||
	       strncmp(e, "HOOKSHIM_INERT=", 15) == 0 ||
	       strncmp(e, "HOOKSHIM_FDS=", 13) == 0; /* for our image only */
}

/* The hook's environment: the host's, minus hookshim's own variables and
 * the shim (a hook must never be intercepted by its own session), plus
 * the settings "env" for the dialects that have one (over the host's
 * values), plus the dialect's; inside an outer session, that session's
 * shim and variables stay (hs_dispatch_hooks_in_outer_session). */
static char **hook_env(const struct hs_config *cfg, const struct hs_hook *h,
		       const struct hs_event *ev, const char *tool)
{
	const struct hs_dialect_ops *ops = hs_dialect_ops(h->dialect);
	const struct hs_hookenv_var *vars = ops->env;
	bool settings_env = ops->session_env && cfg->nenv;
	size_t n = 0, extra = 0, i = 0;
	const char *safe = hs_hook_var(cfg, h, "PYTHONSAFEPATH");
	char **env;

	/* an inline python's module path without the session root ahead of
	 * its own library (hook_runtime.h): PYTHONSAFEPATH=1, for an empty
	 * one (unset to python) too, which is left out */
	if ((!safe || !safe[0]) && hs_hook_python_inline(cfg, h))
		safe = NULL;
	else
		safe = "";

	for (char **e = environ; *e; e++)
		n++;
	for (char **e = h->env; e && *e; e++)
		extra++;
	for (const struct hs_hookenv_var *v = vars; v && v->name; v++)
		extra++;
	if (settings_env)
		extra += cfg->nenv;
	env = calloc(n + extra + 5, sizeof(*env));
	if (!env)
		return NULL;
	for (char **e = environ; *e; e++) {
		if ((!safe && strcmp(*e, "PYTHONSAFEPATH=") == 0) ||
		    (in_outer ? outer_dropped(*e)
			      : strncmp(*e, "HOOKSHIM_", 9) == 0 ||
					strncmp(*e, "LD_PRELOAD=", 11) == 0) ||
		    strncmp(*e, "TRACEPARENT=", 12) == 0 ||
		    (settings_env && hs_session_env_sets(cfg, *e)))
			continue;
		env[i++] = strdup(*e);
	}
	{
		/* this call's span of the session's trace (traceparent.h) */
		char tp[56];

		if (hs_traceparent(ev->session_id, ev->tool_use_id, tp) &&
		    asprintf(&env[i], "TRACEPARENT=%s", tp) >= 0)
			i++;
	}
	for (size_t k = 0; settings_env && k < cfg->nenv; k++)
		if ((safe || strcmp(cfg->env[k].name, "PYTHONSAFEPATH") != 0) &&
		    asprintf(&env[i], "%s=%s", cfg->env[k].name,
			     cfg->env[k].value) >= 0)
			i++;
	for (char **e = h->env; e && *e; e++)
		if (safe || strcmp(*e, "PYTHONSAFEPATH=") != 0)
			env[i++] = strdup(*e);
	if (in_outer) {
		/* posix_spawn from this process: the marker names us */
		env[i++] = strdup("HOOKSHIM_ROLE=tool");
		if (asprintf(&env[i], "HOOKSHIM_CHECKED=spawn:%ld",
			     (long)getpid()) >= 0)
			i++;
	} else {
		env[i++] = strdup("HOOKSHIM_INERT=1");
	}
	for (const struct hs_hookenv_var *v = vars; v && v->name; v++)
		if (asprintf(&env[i], "%s=%s", v->name,
			     env_value(cfg, h, ev, tool, v->value)) >= 0)
			i++;
	if (!safe)
		env[i++] = strdup("PYTHONSAFEPATH=1");
	env[i] = NULL;
	return env;
}

static void free_env(char **env)
{
	if (!env)
		return;
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
}

static const char *hook_cwd(const struct hs_hook *h, const struct hs_event *ev)
{
	if (h->work_dir)
		return h->work_dir;
	if (hs_dialect_ops(h->dialect)->cwd_from_agent && ev->cwd)
		return ev->cwd;
	return ev->root;
}

/* memoh "tool" actions that map to built-ins: no process is spawned. */
static void run_builtin(const struct hs_hook *h, const char *payload,
			struct hs_run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = HS_RUN_EXITED;
	res->err = strdup("");
	if (hs_hook_is_permission_rule(h)) {
		/* a Claude permissions rule (dialects/claude.c):
		 * "permissions.deny RULE" or "permissions.ask RULE" */
		bool deny = strncmp(h->command + 12, "deny ", 5) == 0;
		cJSON *o = cJSON_CreateObject(), *hso;
		char *reason = NULL;

		if (asprintf(&reason, "%s by the permissions.%s rule %s (%s)",
			     deny ? "denied" : "to be confirmed",
			     deny ? "deny" : "ask", strchr(h->command, ' ') + 1,
			     h->source) < 0)
			reason = NULL;
		hso = cJSON_AddObjectToObject(o, "hookSpecificOutput");
		cJSON_AddStringToObject(hso, "hookEventName", "PreToolUse");
		cJSON_AddStringToObject(hso, "permissionDecision",
					deny ? "deny" : "ask");
		cJSON_AddStringToObject(hso, "permissionDecisionReason",
					reason ? reason : "permissions rule");
		res->out = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		free(reason);
	} else if (strcmp(h->command, "deny") == 0)
		res->out = strdup("{\"decision\":\"deny\",\"reason\":"
				  "\"denied by a memoh tool action\"}");
	else if (strcmp(h->command, "allow") == 0)
		res->out = strdup("{\"decision\":\"allow\"}");
	else /* record_event, log: the payload goes to the session log */
		res->out = strdup(payload);
	res->out_len = res->out ? strlen(res->out) : 0;
}

static void run_hook(const struct hs_config *cfg, const struct hs_event *ev,
		     struct hs_hook_run *run)
{
	const struct hs_hook *h = run->hook;
	cJSON *payload = hs_dialect_ops(h->dialect)->payload(h, ev, run->tool_name,
							     &cfg->settings);
	char *text, *input = NULL;
	char **env;
	struct hs_run_spec spec = { 0 };

	hs_payload_lossless(payload);
	text = payload ? cJSON_PrintUnformatted(payload) : NULL;
	cJSON_Delete(payload);
	if (!text || asprintf(&input, "%s\n", text) < 0)
		input = NULL;
	free(text);
	if (h->action == HS_ACTION_BUILTIN) {
		run_builtin(h, input ? input : "", &run->res);
		free(input);
		return;
	}
	env = hook_env(cfg, h, ev, run->tool_name);
	if (h->action == HS_ACTION_HTTP) {
		hs_http_run(h, env, input ? input : "", input ? strlen(input) : 0,
			    ev->kind == HS_KIND_SESSION_END, &run->res);
		free_env(env);
		free(input);
		return;
	}
	spec.shell = h->shell;
	spec.command = h->command;
	spec.cwd = hook_cwd(h, ev);
	spec.env = env;
	spec.input = input ? input : "";
	spec.input_len = input ? strlen(input) : 0;
	spec.timeout_ms = h->timeout_ms;
	spec.max_output = h->max_output;
	spec.at_session_end = ev->kind == HS_KIND_SESSION_END;
	hs_run(&spec, &run->res);
	free_env(env);
	free(input);
}

static enum hs_merge merge_rule(const struct hs_hook *h)
{
	return hs_dialect_ops(h->dialect)->merge;
}

static const char *tool_name(const struct hs_hook *h, const struct hs_event *ev)
{
	return hs_tool_name(&hs_dialect_ops(h->dialect)->tools, ev);
}

/* Only runs so far are HS_MERGE_ALL ones: they all come first. */
static bool seen_handler(const struct hs_outcome *out, const struct hs_hook *h)
{
	for (size_t i = 0; i < out->nruns; i++)
		if (strcmp(out->runs[i].hook->command, h->command) == 0)
			return true;
	return false;
}

static struct hs_hook_run *new_run(struct hs_outcome *out,
				   const struct hs_hook *h, const char *tool)
{
	struct hs_hook_run *r = realloc(out->runs, (out->nruns + 1) * sizeof(*r));

	if (!r)
		return NULL;
	out->runs = r;
	r = &out->runs[out->nruns++];
	memset(r, 0, sizeof(*r));
	r->hook = h;
	r->tool_name = strdup(tool);
	return r;
}

/* A staged write's two pre asks split its hooks (event.h). */
static bool stage_allows(const struct hs_hook *h, const struct hs_event *ev)
{
	if (h->kind != HS_KIND_PRE || ev->stage == HS_STAGE_NONE)
		return true;
	return h->content_pre == (ev->stage == HS_STAGE_PUBLISH);
}

static bool eligible(const struct hs_config *cfg, const struct hs_hook *h,
		     const struct hs_event *ev)
{
	return h->enabled && stage_allows(h, ev) && hs_hook_matches(h, ev) &&
	       (!ev->nested || nested_allowed(cfg, h));
}

struct parallel_run {
	const struct hs_config *cfg;
	const struct hs_event *ev;
	struct hs_hook_run *run;
};

static void *run_thread(void *arg)
{
	struct parallel_run *p = arg;

	run_hook(p->cfg, p->ev, p->run);
	return NULL;
}

/* Claude Code runs every matching handler, in parallel; so do we. A
 * thread that cannot be created runs its hook inline. */
static void run_parallel(const struct hs_config *cfg, const struct hs_event *ev,
			 struct hs_hook_run *runs, size_t n)
{
	struct parallel_run *p = calloc(n, sizeof(*p));
	pthread_t *t = calloc(n, sizeof(*t));
	bool *started = calloc(n, sizeof(*started));

	for (size_t i = 0; i < n; i++) {
		if (p && t && started && n > 1) {
			p[i] = (struct parallel_run){ cfg, ev, &runs[i] };
			started[i] = pthread_create(&t[i], NULL, run_thread,
						    &p[i]) == 0;
		}
		if (!started || !started[i])
			run_hook(cfg, ev, &runs[i]);
	}
	for (size_t i = 0; started && i < n; i++)
		if (started[i])
			pthread_join(t[i], NULL);
	free(p);
	free(t);
	free(started);
}

/* A pre hook that failed to decide denies (decide.h) where the session
 * fails closed (hs_settings_resolve_failure) or the handler says
 * "failClosed": true; "failClosed": false keeps the dialect's rule. */
static bool fail_closed(const struct hs_config *cfg, const struct hs_event *ev,
			struct hs_hook_run *run, struct hs_outcome *out)
{
	int own = run->hook->fail_closed;

	if (ev->kind != HS_KIND_PRE ||
	    !(own >= 0 ? own : cfg->settings.fail_closed))
		return false;
	return hs_decide_fail_closed(run, out,
				     own > 0 ? "failClosed"
					     : cfg->settings.fail_closed_why);
}

/* HS_MERGE_ALL handlers (Claude Code's) first, all of them, identical
 * commands once. */
static void dispatch_all(const struct hs_config *cfg,
			 const struct hs_event *ev, struct hs_outcome *out)
{
	bool stop_group;

	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];

		if (merge_rule(h) != HS_MERGE_ALL || !eligible(cfg, h, ev) ||
		    seen_handler(out, h))
			continue;
		if (!new_run(out, h, tool_name(h, ev)))
			break;
	}
	run_parallel(cfg, ev, out->runs, out->nruns);
	/* a run that failed closed says only that (not also "non-blocking") */
	for (size_t i = 0; i < out->nruns; i++)
		if (!fail_closed(cfg, ev, &out->runs[i], out))
			hs_dialect_ops(out->runs[i].hook->dialect)
				->decide(&out->runs[i], out, &stop_group);
}

/* The ordered dialects, each stopping at a deny as documented; a memoh
 * action error under on_error: fail skips the rest of its hook (its
 * group: a number that means something only within its dialect). */
static void dispatch_ordered(const struct hs_config *cfg,
			     const struct hs_event *ev, struct hs_outcome *out)
{
	const struct hs_hook *stopped = NULL;

	for (size_t i = 0; i < cfg->nhooks && out->verdict != HS_DENY; i++) {
		const struct hs_hook *h = &cfg->hooks[i];
		struct hs_hook_run *run;
		bool stop_group = false;

		if (merge_rule(h) != HS_MERGE_ORDERED || !eligible(cfg, h, ev))
			continue;
		if (stopped && h->dialect == stopped->dialect &&
		    h->group == stopped->group)
			continue;
		run = new_run(out, h, tool_name(h, ev));
		if (!run)
			break;
		run_hook(cfg, ev, run);
		if (fail_closed(cfg, ev, run, out) ||
		    hs_dialect_ops(h->dialect)->decide(run, out, &stop_group))
			break;
		if (stop_group)
			stopped = h;
	}
}

/* A write (or the agent's read) whose name the shim or the floor could
 * not build (HS_OPERATION_UNNAMED, common/wire.h): no hook can judge a
 * file nobody can name, so none is asked, and the call fails as the
 * kernel would fail a name too long for it. */
static bool unnamed(const struct hs_event *ev, struct hs_outcome *out)
{
	if ((ev->op != HS_OP_WRITE && ev->op != HS_OP_READ) ||
	    ev->kind != HS_KIND_PRE ||
	    !ev->operation || strcmp(ev->operation, HS_OPERATION_UNNAMED) != 0)
		return false;
	out->reason = strdup("hookshim: the path is PATH_MAX or longer once "
			     "joined to its directory, so no hook can judge "
			     "what it names");
	out->verdict = HS_DENY;
	out->deny_errno = ENAMETOOLONG;
	return true;
}

void hs_dispatch(const struct hs_config *cfg, const struct hs_event *ev,
		 struct hs_outcome *out)
{
	memset(out, 0, sizeof(*out));
	if (unnamed(ev, out))
		return;
	/* The built-in rule first: no hook is asked about changing the
	 * policy itself, so none can allow it (protect.h). */
	if ((out->reason = hs_protect_judge(cfg->protect, ev))) {
		out->verdict = HS_DENY;
		return;
	}
	dispatch_all(cfg, ev, out);
	dispatch_ordered(cfg, ev, out);
}

void hs_outcome_free(struct hs_outcome *out)
{
	for (size_t i = 0; i < out->nruns; i++) {
		hs_run_result_free(&out->runs[i].res);
		free(out->runs[i].tool_name);
		free(out->runs[i].note);
	}
	free(out->runs);
	for (size_t i = 0; i < out->nwarnings; i++)
		free(out->warnings[i]);
	free(out->warnings);
	free(out->reason);
	free(out->updated_command);
	free(out->context);
	free(out->system_message);
	free(out->stop_reason);
	free(out->session_context);
	memset(out, 0, sizeof(*out));
}
