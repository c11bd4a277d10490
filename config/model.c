/* Lifecycle of the loaded model; see model.h. */
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hs_config_init(struct hs_config *cfg, const char *root)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->root = strdup(root ? root : "/");
	cfg->settings.deny_exit = 126;
	cfg->settings.deny_errno = EACCES;
	cfg->settings.stage_content = true;
	cfg->settings.agent_anywhere = true;
	cfg->settings.ask_default = 2; /* HS_DENY */
	cfg->settings.notices = true;
	cfg->settings.net_keep = -1;
	cfg->settings.net_deny_errno = ECONNREFUSED;
}

const char *hs_config_locked(const struct hs_config *cfg, const char *key)
{
	for (size_t i = 0; i < cfg->managed.nlocks; i++)
		if (strcmp(cfg->managed.locks[i].key, key) == 0)
			return cfg->managed.locks[i].file;
	return NULL;
}

static void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

bool hs_hook_is_permission_rule(const struct hs_hook *h)
{
	return h->action == HS_ACTION_BUILTIN && h->command &&
	       strncmp(h->command, "permissions.", 12) == 0;
}

void hs_hook_free(struct hs_hook *h)
{
	free(h->event_name);
	hs_matcher_free(&h->matcher);
	free(h->rule.tool);
	free(h->rule.pattern);
	free(h->command);
	if (h->http) {
		free_strv(h->http->headers);
		free_strv(h->http->allowed_env);
		free(h->http);
	}
	free(h->work_dir);
	free_strv(h->env);
	free(h->name);
	free(h->source);
}

static void free_lists(struct hs_http_lists *l)
{
	for (size_t i = 0; i < l->nurls; i++)
		free(l->urls[i]);
	free(l->urls);
	for (size_t i = 0; i < l->nenv; i++)
		free(l->env[i]);
	free(l->env);
}

void hs_config_free(struct hs_config *cfg)
{
	if (hs_agents() == &cfg->agents)
		hs_agents_use(NULL);
	hs_agent_set_free(&cfg->agents);
	for (size_t i = 0; i < cfg->nhooks; i++)
		hs_hook_free(&cfg->hooks[i]);
	free(cfg->hooks);
	for (size_t i = 0; i < cfg->ndiags; i++)
		free(cfg->diags[i].text);
	free(cfg->diags);
	for (size_t i = 0; i < cfg->nsources; i++)
		free(cfg->sources[i]);
	free(cfg->sources);
	free_strv(cfg->settings.write_include);
	free_strv(cfg->settings.write_exclude);
	free_strv(cfg->settings.agent_state);
	free_strv(cfg->settings.net_exclude);
	free_strv(cfg->settings.wrap_tools);
	free(cfg->settings.bot_id);
	free(cfg->settings.otlp_endpoint);
	free_strv(cfg->settings.otlp_headers);
	free(cfg->settings.otlp_file);
	for (size_t i = 0; i < cfg->nenv; i++) {
		free(cfg->env[i].name);
		free(cfg->env[i].value);
		free(cfg->env[i].source);
	}
	free(cfg->env);
	free(cfg->root);
	free(cfg->root_alias);
	free(cfg->agent_name);
	free(cfg->claude.why_hooks);
	free(cfg->claude.why_rules);
	free(cfg->managed.why_hooks_only);
	for (size_t i = 0; i < cfg->managed.nlocks; i++) {
		free(cfg->managed.locks[i].key);
		free(cfg->managed.locks[i].file);
	}
	free(cfg->managed.locks);
	free_lists(&cfg->http);
	free_lists(&cfg->http_managed);
	memset(cfg, 0, sizeof(*cfg));
}

void hs_config_diag(struct hs_config *cfg, enum hs_diag_level level,
		    const char *fmt, ...)
{
	struct hs_diag *d;
	va_list ap;
	char *text = NULL;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		return;
	d = realloc(cfg->diags, (cfg->ndiags + 1) * sizeof(*d));
	if (!d) {
		free(text);
		return;
	}
	cfg->diags = d;
	cfg->diags[cfg->ndiags].text = text;
	cfg->diags[cfg->ndiags].error = level >= HS_DIAG_ERROR;
	cfg->diags[cfg->ndiags].fatal = level == HS_DIAG_FATAL;
	cfg->ndiags++;
}

void hs_config_diag_at(struct hs_config *cfg, enum hs_diag_level level,
		       const char *src, int line, int col, const char *fmt,
		       ...)
{
	va_list ap;

	va_start(ap, fmt);
	hs_config_vdiag_at(cfg, level, src, line, col, fmt, ap);
	va_end(ap);
}

void hs_config_vdiag_at(struct hs_config *cfg, enum hs_diag_level level,
			const char *src, int line, int col, const char *fmt,
			va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	if (!msg)
		return;
	if (!line) {
		hs_config_diag(cfg, level, "%s: %s", src, msg);
	} else {
		hs_config_diag(cfg, level, "%s:%d:%d: %s", src, line, col, msg);
		if (cfg->ndiags) {
			cfg->diags[cfg->ndiags - 1].line = line;
			cfg->diags[cfg->ndiags - 1].col = col;
		}
	}
	free(msg);
}

struct hs_hook *hs_config_add_hook(struct hs_config *cfg)
{
	struct hs_hook *h = realloc(cfg->hooks, (cfg->nhooks + 1) * sizeof(*h));

	if (!h)
		return NULL;
	cfg->hooks = h;
	h = &cfg->hooks[cfg->nhooks];
	memset(h, 0, sizeof(*h));
	h->order = (int)cfg->nhooks;
	h->nested = -1;
	h->fail_closed = -1;
	h->enabled = true;
	h->shell = "/bin/sh";
	/* a JSON decision this long is still read whole (a reason may quote
	 * a long command); one cut is a failed run (hs_run_failure) */
	h->max_output = 1024 * 1024;
	cfg->nhooks++;
	return h;
}

bool hs_config_has_fatal(const struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->ndiags; i++)
		if (cfg->diags[i].fatal)
			return true;
	return false;
}

void hs_config_diag_counts(const struct hs_config *cfg, size_t *errors,
			   size_t *warnings)
{
	*errors = *warnings = 0;
	for (size_t i = 0; i < cfg->ndiags; i++)
		++*(cfg->diags[i].error ? errors : warnings);
}

bool hs_settings_want_enforce(const struct hs_settings *s, bool ci,
			      bool *explicit_mode)
{
	*explicit_mode = s->mode != HS_MODE_AUTO;
	if (s->mode != HS_MODE_AUTO)
		return s->mode == HS_MODE_ENFORCE;
	/* 1: HS_FLOOR_REQUIRE (floor/floor.h) */
	return ci || s->strict || s->floor == 1;
}

void hs_settings_resolve_failure(struct hs_settings *s, bool ci)
{
	s->fail_closed = true;
	if (s->hook_failure == HS_FAILURE_DENY)
		s->fail_closed_why = "on_hook_failure: deny";
	else if (s->hook_failure == HS_FAILURE_ALLOW)
		s->fail_closed = false;
	else if (s->enforce)
		s->fail_closed_why = "enforce mode fails closed";
	else if (ci)
		s->fail_closed_why = "CI mode fails closed";
	else if (s->strict)
		s->fail_closed_why = "strict fails closed";
	else
		s->fail_closed = false;
	if (!s->fail_closed)
		s->fail_closed_why = NULL;
}

const char *hs_floor_allow_name(int i)
{
	static const char *const names[] = {
#define HS_FA_NAME_(id, name) name,
		HS_FLOOR_ALLOW_GROUPS(HS_FA_NAME_)
#undef HS_FA_NAME_
	};

	return i >= 0 && i < HS_FA_COUNT ? names[i] : "?";
}

void hs_settings_floor_defaults(struct hs_settings *s)
{
	/* 1: HS_FLOOR_OPENS_ALL (floor/floor.h) */
	if (!s->floor_opens_set && s->enforce)
		s->floor_opens = 1;
	/* a symlink the session makes (`ln -s secrets/k k; echo > k`) is
	 * something it wrote: in enforce mode it takes no part in the
	 * decision, the file it leads to is judged */
	if (!s->follow_symlinks_set && s->enforce)
		s->follow_symlinks = true;
	/* Landlock's refusal serves enforce mode alone (floor_refuse.c):
	 * guard mode lets a sandbox have it whatever "floor_allow" says; so
	 * does process_image's (floor/floor_lineage.c tells enforce mode's
	 * roles apart by a process's image; guard mode believes them) */
	if (!s->enforce)
		s->floor_allow |= HS_FA(LANDLOCK) | HS_FA(PROCESS_IMAGE);
	if (s->floor_allow_set || s->enforce)
		return;
	s->floor_allow |= HS_FA(NAMESPACES);
	s->floor_sandbox_mounts = true;
}
