/* Claude Code's settings "env": "environment variables that will be
 * applied to every session". Claude Code copies them into its own process
 * environment at start-up (over what the shell gave it), so both its
 * hooks and the commands its Bash tool runs see them. hookshim gives them
 * to the hooks of Claude-dialect files and, under `hookshim run`, to the
 * agent's environment too (docs/configuration.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loadkit.h"
#include "session_env.h"

/* Claude Code coerces numbers and booleans to strings; anything else is
 * not a value an environment can hold. */
static char *value_text(const cJSON *v)
{
	char buf[64];

	if (cJSON_IsString(v))
		return strdup(v->valuestring);
	if (cJSON_IsBool(v))
		return strdup(cJSON_IsTrue(v) ? "true" : "false");
	if (cJSON_IsNumber(v)) {
		/* a double past long long's range has no such integer (the
		 * cast is undefined: found by fuzz/fuzz_config.c) */
		if (v->valuedouble > -9.2e18 && v->valuedouble < 9.2e18 &&
		    v->valuedouble == (double)(long long)v->valuedouble)
			snprintf(buf, sizeof(buf), "%lld",
				 (long long)v->valuedouble);
		else
			snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
		return strdup(buf);
	}
	return NULL;
}

static bool good_name(const char *n)
{
	if (!n[0])
		return false;
	for (const char *p = n; *p; p++)
		if (*p == '=')
			return false;
	return true;
}

static void set_var(struct hs_config *cfg, const char *name, char *value,
		    const char *source)
{
	struct hs_session_var *v;

	for (size_t i = 0; i < cfg->nenv; i++) {
		if (strcmp(cfg->env[i].name, name) != 0)
			continue;
		free(cfg->env[i].value);
		free(cfg->env[i].source);
		cfg->env[i].value = value;
		cfg->env[i].source = strdup(source);
		return;
	}
	v = realloc(cfg->env, (cfg->nenv + 1) * sizeof(*v));
	if (!v) {
		free(value);
		return;
	}
	cfg->env = v;
	v = &cfg->env[cfg->nenv++];
	v->name = strdup(name);
	v->value = value;
	v->source = strdup(source);
}

void hs_load_session_env(struct hs_load *ld, const cJSON *env)
{
	const cJSON *v;

	if (!cJSON_IsObject(env)) {
		hs_load_diag(ld, HS_DIAG_ERROR, env, "env must be an object of "
			     "NAME: \"value\" (ignored)");
		return;
	}
	cJSON_ArrayForEach(v, env)
	{
		char *text;

		if (hs_json_comment_key(v->string))
			continue;
		if (!good_name(v->string)) {
			hs_load_diag(ld, HS_DIAG_ERROR, v, "env: \"%s\" is not "
				     "a variable name (ignored)", v->string);
			continue;
		}
		text = value_text(v);
		if (!text) {
			hs_load_diag(ld, HS_DIAG_ERROR, v, "env.%s must be a "
				     "string (ignored)", v->string);
			continue;
		}
		set_var(ld->cfg, v->string, text, ld->src);
	}
}

bool hs_session_env_sets(const struct hs_config *cfg, const char *entry)
{
	size_t n = strcspn(entry, "=");

	for (size_t i = 0; i < cfg->nenv; i++)
		if (strlen(cfg->env[i].name) == n &&
		    strncmp(cfg->env[i].name, entry, n) == 0)
			return true;
	return false;
}

/* Case-insensitive: is w a word of name (between '_' or the ends)? */
static bool has_word(const char *name, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = name; *p; p++) {
		if (p != name && p[-1] != '_')
			continue;
		if (strncasecmp(p, w, n) == 0 && (p[n] == '\0' || p[n] == '_'))
			return true;
	}
	return false;
}

bool hs_session_env_secret(const char *name)
{
	static const char *const words[] = {
		"KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD",
		"PASS", "PWD", "CREDENTIAL", "CREDENTIALS", "AUTH", "PRIVATE",
		"COOKIE", "SESSION", NULL,
	};

	/* PWD alone is the working directory, not a password. */
	if (strcmp(name, "PWD") == 0 || strcmp(name, "OLDPWD") == 0)
		return false;
	for (const char *const *w = words; *w; w++)
		if (has_word(name, *w))
			return true;
	return false;
}
