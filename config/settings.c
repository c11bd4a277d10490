/* hookshim's own settings: the top-level "hookshim" object of a
 * Claude-shaped file. Unknown keys are named, never fatal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadkit.h"

static char **string_list(struct hs_load *ld, const cJSON *v, const char *key)
{
	size_t n, i = 0;
	char **out;
	const cJSON *e;

	if (!cJSON_IsArray(v)) {
		hs_config_diag(ld->cfg, false, "%s: hookshim.%s must be an array "
			       "of strings", ld->src, key);
		return NULL;
	}
	n = (size_t)cJSON_GetArraySize(v);
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	cJSON_ArrayForEach(e, v)
	{
		if (cJSON_IsString(e))
			out[i++] = strdup(e->valuestring);
	}
	return out;
}

static void replace_list(char ***slot, char **v)
{
	if (!v)
		return;
	if (*slot) {
		for (char **p = *slot; *p; p++)
			free(*p);
		free(*slot);
	}
	*slot = v;
}

static int parse_errno(const cJSON *v)
{
	if (cJSON_IsNumber(v) && v->valueint > 0)
		return v->valueint;
	if (cJSON_IsString(v)) {
		if (strcmp(v->valuestring, "EACCES") == 0)
			return EACCES;
		if (strcmp(v->valuestring, "EPERM") == 0)
			return EPERM;
	}
	return -1;
}

static void load_writes(struct hs_load *ld, const cJSON *w)
{
	struct hs_settings *s = &ld->cfg->settings;
	const cJSON *v;

	cJSON_ArrayForEach(v, w)
	{
		if (strcmp(v->string, "include") == 0)
			replace_list(&s->write_include,
				     string_list(ld, v, "writes.include"));
		else if (strcmp(v->string, "exclude") == 0)
			replace_list(&s->write_exclude,
				     string_list(ld, v, "writes.exclude"));
		else if (strcmp(v->string, "agent_only") == 0)
			s->agent_writes_only = cJSON_IsTrue(v);
		else if (strcmp(v->string, "follow_symlinks") == 0)
			s->follow_symlinks = cJSON_IsTrue(v);
		else if (strcmp(v->string, "judge_temp_files") == 0)
			s->judge_temp_files = cJSON_IsTrue(v);
		else if (strcmp(v->string, "quiet") == 0)
			s->quiet_denials = cJSON_IsTrue(v);
		else if (!hs_json_comment_key(v->string))
			hs_config_diag(ld->cfg, false, "%s: unknown field "
				       "hookshim.writes.%s (ignored)", ld->src,
				       v->string);
	}
}

int hs_load_settings(struct hs_load *ld, const cJSON *obj)
{
	struct hs_settings *s = &ld->cfg->settings;
	const cJSON *v;

	if (!cJSON_IsObject(obj)) {
		hs_config_diag(ld->cfg, false, "%s: \"hookshim\" must be an "
			       "object (ignored)", ld->src);
		return 0;
	}
	cJSON_ArrayForEach(v, obj)
	{
		const char *k = v->string;

		if (hs_json_comment_key(k))
			continue;
		if (strcmp(k, "deny_exit") == 0 && cJSON_IsNumber(v) &&
		    v->valueint >= 0 && v->valueint < 256) {
			s->deny_exit = v->valueint;
		} else if (strcmp(k, "deny_errno") == 0 && parse_errno(v) > 0) {
			s->deny_errno = parse_errno(v);
		} else if (strcmp(k, "strict") == 0 && cJSON_IsBool(v)) {
			s->strict = cJSON_IsTrue(v);
		} else if (strcmp(k, "ask_default") == 0 && cJSON_IsString(v) &&
			   (strcmp(v->valuestring, "deny") == 0 ||
			    strcmp(v->valuestring, "allow") == 0)) {
			s->ask_default = v->valuestring[0] == 'd' ? 2 : 0;
		} else if (strcmp(k, "tool_calls") == 0 && cJSON_IsString(v) &&
			   (strcmp(v->valuestring, "shell") == 0 ||
			    strcmp(v->valuestring, "every-exec") == 0)) {
			s->all_execs = v->valuestring[0] == 'e';
		} else if (strcmp(k, "nested_exec") == 0 && cJSON_IsBool(v)) {
			s->nested_exec = cJSON_IsTrue(v);
		} else if (strcmp(k, "on_supervisor_loss") == 0 &&
			   cJSON_IsString(v) &&
			   (strcmp(v->valuestring, "deny") == 0 ||
			    strcmp(v->valuestring, "allow") == 0)) {
			s->deny_on_loss = v->valuestring[0] == 'd';
		} else if (strcmp(k, "notices") == 0 && cJSON_IsBool(v)) {
			s->notices = cJSON_IsTrue(v);
		} else if (strcmp(k, "writes") == 0 && cJSON_IsObject(v)) {
			load_writes(ld, v);
		} else if (strcmp(k, "wrap") == 0) {
			replace_list(&s->wrap_tools, string_list(ld, v, "wrap"));
		} else if (strcmp(k, "floor") == 0 && cJSON_IsString(v) &&
			   (strcmp(v->valuestring, "auto") == 0 ||
			    strcmp(v->valuestring, "require") == 0 ||
			    strcmp(v->valuestring, "off") == 0)) {
			/* 0 auto, 1 require, 2 off: supervisor/floor.h */
			s->floor = v->valuestring[0] == 'a'   ? 0
				   : v->valuestring[0] == 'r' ? 1
							      : 2;
		} else if (strcmp(k, "io_uring") == 0 && cJSON_IsString(v) &&
			   (strcmp(v->valuestring, "deny") == 0 ||
			    strcmp(v->valuestring, "allow") == 0)) {
			s->io_uring_allow = v->valuestring[0] == 'a';
		} else if (strcmp(k, "bot_id") == 0 && cJSON_IsString(v)) {
			free(s->bot_id);
			s->bot_id = strdup(v->valuestring);
		} else {
			hs_config_diag(ld->cfg, false, "%s: hookshim.%s: unknown "
				       "field or bad value (ignored)", ld->src,
				       k);
		}
	}
	return 0;
}
