/* hookshim's own settings: the top-level "hookshim" object of a
 * Claude-shaped file. A setting that cannot be applied as written (a typo
 * in its name, a value of the wrong type) is an error: the file meant to
 * change how hooks are enforced, and the default stays. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/glob.h"
#include "loadkit.h"

static char **string_list(struct hs_load *ld, const cJSON *v, const char *key)
{
	size_t n, i = 0;
	char **out;
	const cJSON *e;

	if (!cJSON_IsArray(v)) {
		hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.%s must be an array "
			     "of strings (ignored)", key);
		return NULL;
	}
	n = (size_t)cJSON_GetArraySize(v);
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	cJSON_ArrayForEach(e, v)
	{
		if (cJSON_IsString(e) && strlen(e->valuestring) > HS_GLOB_MAX)
			hs_load_diag(ld, HS_DIAG_ERROR, e, "hookshim.%s[%zu] is "
				     "longer than %d bytes (ignored)", key, i,
				     HS_GLOB_MAX);
		else if (cJSON_IsString(e))
			out[i++] = strdup(e->valuestring);
		else
			hs_load_diag(ld, HS_DIAG_ERROR, e, "hookshim.%s[%zu] "
				     "must be a string (ignored)", key, i);
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

static bool managed_hooks(const struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->nhooks; i++)
		if (cfg->hooks[i].managed)
			return true;
	return false;
}

static bool is_str(const cJSON *v, const char *s)
{
	return cJSON_IsString(v) && strcmp(v->valuestring, s) == 0;
}

/* Would value v of `key` hide calls from hooks that see them now, or
 * let through what they would deny? */
static bool narrows(const char *key, const cJSON *v)
{
	if (strcmp(key, "floor") == 0)
		return is_str(v, "off");
	if (strcmp(key, "io_uring") == 0 || strcmp(key, "on_hook_failure") == 0 ||
	    strcmp(key, "ask_default") == 0)
		return is_str(v, "allow");
	if (strcmp(key, "mode") == 0)
		return is_str(v, "guard");
	if (strcmp(key, "writes.agent_only") == 0)
		return cJSON_IsTrue(v);
	if (strcmp(key, "writes.agent_anywhere") == 0)
		return cJSON_IsFalse(v);
	return strcmp(key, "floor_allow") == 0 ||
	       strcmp(key, "writes.exclude") == 0 ||
	       strcmp(key, "writes.agent_state") == 0 ||
	       strcmp(key, "network_exclude") == 0;
}

/* The managed layer's settings hold (model.h, cfg->managed): in one of
 * its files each key is recorded as locked; in any other file a locked
 * key, or a value that would weaken the managed hooks (a floor switched
 * off, floor_allow, io_uring allowed, writes excluded or narrowed to the
 * agent's own, guard mode, failures or asks that allow), is said and
 * ignored. True when the caller is to skip `key`. */
static bool locked(struct hs_load *ld, const cJSON *v, const char *key)
{
	struct hs_config *cfg = ld->cfg;
	const char *by = hs_config_locked(cfg, key);
	bool admin = cfg->managed.loading;
	struct hs_lock *l;

	if (by && !admin) {
		hs_load_diag(ld, HS_DIAG_WARNING, v, "hookshim.%s is locked by "
			     "the managed policy (%s): ignored", key, by);
		return true;
	}
	if (by) /* a later managed file's word: its file says it now */
		for (size_t i = 0; i < cfg->managed.nlocks; i++) {
			l = &cfg->managed.locks[i];
			if (l->file == by) {
				char *f = strdup(ld->src);

				if (f) {
					free(l->file);
					l->file = f;
				}
				return false;
			}
		}
	if (admin) {
		char *k = strdup(key), *f = strdup(ld->src);

		l = k && f ? realloc(cfg->managed.locks,
				     (cfg->managed.nlocks + 1) * sizeof(*l))
			   : NULL;
		if (!l) {
			/* a lock lost is the policy open: the layer fails */
			free(k);
			free(f);
			hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.%s: out of "
				     "memory to lock it", key);
			return false;
		}
		cfg->managed.locks = l;
		l[cfg->managed.nlocks].key = k;
		l[cfg->managed.nlocks++].file = f;
		return false;
	}
	if (!narrows(key, v) || !managed_hooks(cfg))
		return false;
	hs_load_diag(ld, HS_DIAG_WARNING, v, "hookshim.%s would hide calls "
		     "from the managed policy's hooks: ignored", key);
	return true;
}

/* writes.include from a file outside the managed layer when that layer
 * has hooks: added to the scope (the root when none is set), never
 * narrowing it. */
static void widen_list(char ***slot, char **v)
{
	size_t n = 0, k = 0;
	char **all;

	if (!v)
		return;
	while (*slot && (*slot)[n])
		n++;
	while (v[k])
		k++;
	all = calloc(n + k + 2, sizeof(*all));
	if (!all) {
		for (size_t i = 0; i < k; i++)
			free(v[i]);
		free(v);
		return;
	}
	if (!*slot)
		all[n++] = strdup("**");
	else
		memcpy(all, *slot, n * sizeof(*all));
	memcpy(all + n, v, k * sizeof(*all));
	free(*slot);
	free(v);
	*slot = all;
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

/* A denied connection's errno: a name a client reports well, or a
 * number. */
static int parse_net_errno(const cJSON *v)
{
	static const struct {
		const char *name;
		int err;
	} names[] = { { "ECONNREFUSED", ECONNREFUSED },
		      { "ENETUNREACH", ENETUNREACH },
		      { "EHOSTUNREACH", EHOSTUNREACH },
		      { "ETIMEDOUT", ETIMEDOUT },
		      { "ECONNRESET", ECONNRESET } };

	for (size_t i = 0; cJSON_IsString(v) && i < sizeof(names) /
							sizeof(names[0]);
	     i++)
		if (strcmp(v->valuestring, names[i].name) == 0)
			return names[i].err;
	return parse_errno(v);
}

static void load_writes(struct hs_load *ld, const cJSON *w)
{
	struct hs_settings *s = &ld->cfg->settings;
	static const struct {
		const char *key;
		size_t off;
	} flags[] = {
		{ "agent_only", offsetof(struct hs_settings, agent_writes_only) },
		{ "agent_anywhere", offsetof(struct hs_settings, agent_anywhere) },
		{ "follow_symlinks", offsetof(struct hs_settings, follow_symlinks) },
		{ "judge_temp_files", offsetof(struct hs_settings, judge_temp_files) },
		{ "stage_content", offsetof(struct hs_settings, stage_content) },
		{ "quiet", offsetof(struct hs_settings, quiet_denials) },
	};
	const cJSON *v;

	if (!cJSON_IsObject(w)) {
		hs_load_diag(ld, HS_DIAG_ERROR, w, "hookshim.writes must be an "
			     "object (ignored)");
		return;
	}
	cJSON_ArrayForEach(v, w)
	{
		char key[64];
		size_t f;

		if (hs_json_comment_key(v->string))
			continue;
		snprintf(key, sizeof(key), "writes.%s", v->string);
		if (locked(ld, v, key))
			continue;
		if (strcmp(v->string, "include") == 0 &&
		    !ld->cfg->managed.loading && managed_hooks(ld->cfg)) {
			widen_list(&s->write_include,
				   string_list(ld, v, "writes.include"));
			continue;
		}
		if (strcmp(v->string, "include") == 0) {
			replace_list(&s->write_include,
				     string_list(ld, v, "writes.include"));
			continue;
		}
		if (strcmp(v->string, "exclude") == 0) {
			replace_list(&s->write_exclude,
				     string_list(ld, v, "writes.exclude"));
			continue;
		}
		if (strcmp(v->string, "agent_state") == 0) {
			replace_list(&s->agent_state,
				     string_list(ld, v, "writes.agent_state"));
			continue;
		}
		for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
			if (strcmp(v->string, flags[f].key) == 0)
				break;
		if (f < sizeof(flags) / sizeof(flags[0])) {
			hs_load_bool(ld, v, "hookshim.writes",
				     (bool *)((char *)s + flags[f].off));
			if (flags[f].off ==
			    offsetof(struct hs_settings, follow_symlinks))
				s->follow_symlinks_set = true;
		}
		else
			hs_load_diag(ld, HS_DIAG_ERROR, v, "unknown field "
				     "hookshim.writes.%s (ignored)", v->string);
	}
}

/* "floor_allow": the groups of calls the floor lets through (config/
 * model.h HS_FLOOR_ALLOW_GROUPS); the list replaces an earlier file's. A
 * name that is not a group is an error at that name: the user meant to
 * allow something, and nothing is allowed by a typo. */
static void load_floor_allow(struct hs_load *ld, const cJSON *v)
{
	unsigned bits = 0;
	const cJSON *e;
	size_t i = 0;

	if (!cJSON_IsArray(v)) {
		hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.floor_allow must "
			     "be an array of names (default kept)");
		return;
	}
	cJSON_ArrayForEach(e, v)
	{
		int g = HS_FA_COUNT;

		if (cJSON_IsString(e))
			for (g = 0; g < HS_FA_COUNT; g++)
				if (strcmp(e->valuestring,
					   hs_floor_allow_name(g)) == 0)
					break;
		if (g < HS_FA_COUNT) {
			bits |= 1u << g;
		} else {
			char names[256];
			size_t n = 0;

			names[0] = '\0';
			for (int k = 0; k < HS_FA_COUNT && n < sizeof(names);
			     k++)
				n += (size_t)snprintf(names + n,
						      sizeof(names) - n,
						      "%s\"%s\"", k ? ", " : "",
						      hs_floor_allow_name(k));
			hs_load_diag(ld, HS_DIAG_ERROR, e, "hookshim.floor_allow"
				     "[%zu] is not one of %s (ignored)", i,
				     names);
		}
		i++;
	}
	ld->cfg->settings.floor_allow = bits;
	ld->cfg->settings.floor_allow_set = true;
}

/* "otlp": {"endpoint": URL, "headers": {NAME: VALUE}, "file": PATH}, a
 * whole: a later file's replaces an earlier one's. */
static void load_otlp(struct hs_load *ld, const cJSON *o)
{
	struct hs_settings *s = &ld->cfg->settings;
	const cJSON *v;

	if (!cJSON_IsObject(o)) {
		hs_load_diag(ld, HS_DIAG_ERROR, o, "hookshim.otlp must be an "
			     "object (ignored)");
		return;
	}
	free(s->otlp_endpoint);
	free(s->otlp_file);
	replace_list(&s->otlp_headers, calloc(1, sizeof(char *)));
	s->otlp_endpoint = s->otlp_file = NULL;
	s->otlp_set = true;
	cJSON_ArrayForEach(v, o)
	{
		const char *k = v->string;

		if (hs_json_comment_key(k))
			continue;
		if ((strcmp(k, "endpoint") == 0 || strcmp(k, "file") == 0) &&
		    !(cJSON_IsString(v) && *v->valuestring))
			hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.otlp.%s must "
				     "be a non-empty string (ignored)", k);
		else if (strcmp(k, "endpoint") == 0 &&
			 strncmp(v->valuestring, "http://", 7) != 0 &&
			 strncmp(v->valuestring, "https://", 8) != 0)
			hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.otlp.endpoint "
				     "must be an http:// or https:// URL "
				     "(ignored)");
		else if (strcmp(k, "endpoint") == 0)
			s->otlp_endpoint = strdup(v->valuestring);
		else if (strcmp(k, "file") == 0)
			s->otlp_file = strdup(v->valuestring);
		else if (strcmp(k, "headers") == 0 && cJSON_IsObject(v)) {
			const cJSON *h;
			size_t n = 0;
			char **l = calloc((size_t)cJSON_GetArraySize(v) + 1,
					  sizeof(*l));

			cJSON_ArrayForEach(h, v)
				if (l && cJSON_IsString(h) &&
				    !strpbrk(h->string, ": \r\n") &&
				    !strpbrk(h->valuestring, "\r\n") &&
				    asprintf(&l[n], "%s: %s", h->string,
					     h->valuestring) >= 0)
					n++;
				else
					hs_load_diag(ld, HS_DIAG_ERROR, h,
						     "hookshim.otlp.headers.%s "
						     "must be a one-line string "
						     "(ignored)", h->string);
			replace_list(&s->otlp_headers, l);
		} else
			hs_load_diag(ld, HS_DIAG_ERROR, v, "unknown field "
				     "hookshim.otlp.%s (ignored)", k);
	}
}

/* A string setting with a fixed set of values: its index, or -1 after
 * saying which values there are. */
static int choice(struct hs_load *ld, const cJSON *v, const char *a,
		  const char *b)
{
	if (cJSON_IsString(v) && strcmp(v->valuestring, a) == 0)
		return 0;
	if (cJSON_IsString(v) && strcmp(v->valuestring, b) == 0)
		return 1;
	hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.%s must be \"%s\" or "
		     "\"%s\" (default kept)", v->string, a, b);
	return -1;
}

/* The same of three: 0, 1 or 2. */
static int choice3(struct hs_load *ld, const cJSON *v, const char *a,
		   const char *b, const char *c)
{
	const char *const names[] = { a, b, c };

	for (int i = 0; i < 3; i++)
		if (cJSON_IsString(v) && strcmp(v->valuestring, names[i]) == 0)
			return i;
	hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim.%s must be \"%s\", "
		     "\"%s\" or \"%s\" (default kept)", v->string, a, b, c);
	return -1;
}

int hs_load_settings(struct hs_load *ld, const cJSON *obj)
{
	struct hs_settings *s = &ld->cfg->settings;
	const cJSON *v;
	int c;

	if (!cJSON_IsObject(obj)) {
		hs_load_diag(ld, HS_DIAG_ERROR, obj, "\"hookshim\" must be an "
			     "object (ignored)");
		return 0;
	}
	cJSON_ArrayForEach(v, obj)
	{
		const char *k = v->string;

		if (hs_json_comment_key(k) ||
		    (strcmp(k, "writes") != 0 && locked(ld, v, k)))
			continue;
		if (strcmp(k, "deny_exit") == 0) {
			if (cJSON_IsNumber(v) && v->valueint >= 0 &&
			    v->valueint < 256)
				s->deny_exit = v->valueint;
			else
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "deny_exit must be a number 0-255 "
					     "(default kept)");
		} else if (strcmp(k, "deny_errno") == 0) {
			if (parse_errno(v) > 0)
				s->deny_errno = parse_errno(v);
			else
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "deny_errno must be \"EACCES\", "
					     "\"EPERM\" or a number (default "
					     "kept)");
		} else if (strcmp(k, "strict") == 0) {
			hs_load_bool(ld, v, "hookshim", &s->strict);
		} else if (strcmp(k, "strict_config") == 0) {
			hs_load_bool(ld, v, "hookshim", &s->strict_config);
		} else if (strcmp(k, "ask_default") == 0) {
			if ((c = choice(ld, v, "allow", "deny")) >= 0)
				s->ask_default = c ? 2 : 0; /* HS_DENY, HS_ALLOW */
		} else if (strcmp(k, "tool_calls") == 0) {
			if ((c = choice(ld, v, "shell", "every-exec")) >= 0)
				s->all_execs = c == 1;
		} else if (strcmp(k, "nested_exec") == 0) {
			hs_load_bool(ld, v, "hookshim", &s->nested_exec);
		} else if (strcmp(k, "on_supervisor_loss") == 0) {
			if ((c = choice(ld, v, "allow", "deny")) >= 0)
				s->deny_on_loss = c == 1;
		} else if (strcmp(k, "notices") == 0) {
			hs_load_bool(ld, v, "hookshim", &s->notices);
		} else if (strcmp(k, "writes") == 0) {
			load_writes(ld, v);
		} else if (strcmp(k, "wrap") == 0) {
			replace_list(&s->wrap_tools, string_list(ld, v, "wrap"));
		} else if (strcmp(k, "network_agent") == 0) {
			hs_load_bool(ld, v, "hookshim", &s->net_agent);
		} else if (strcmp(k, "network_exclude") == 0) {
			replace_list(&s->net_exclude,
				     string_list(ld, v, "network_exclude"));
		} else if (strcmp(k, "network_cache") == 0) {
			if (cJSON_IsBool(v))
				s->net_keep = cJSON_IsTrue(v) ? -1 : 0;
			else if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
				 v->valuedouble <= 86400 * 365)
				s->net_keep = (int)v->valuedouble;
			else
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "network_cache must be true (the "
					     "session), false (never) or seconds "
					     "(default kept)");
		} else if (strcmp(k, "network_deny_errno") == 0) {
			if (parse_net_errno(v) > 0)
				s->net_deny_errno = parse_net_errno(v);
			else
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "network_deny_errno must be "
					     "\"ECONNREFUSED\", \"ENETUNREACH\", "
					     "\"EHOSTUNREACH\", \"ETIMEDOUT\", "
					     "\"ECONNRESET\", \"EACCES\", "
					     "\"EPERM\" or a number (default "
					     "kept)");
		} else if (strcmp(k, "floor") == 0) {
			/* 0 auto, 1 require, 2 off: floor/floor.h */
			if (cJSON_IsString(v) && strcmp(v->valuestring, "off") == 0)
				s->floor = 2;
			else if ((c = choice(ld, v, "auto", "require")) >= 0)
				s->floor = c;
		} else if (strcmp(k, "mode") == 0) {
			/* HS_MODE_GUARD / HS_MODE_ENFORCE (config/model.h) */
			if ((c = choice(ld, v, "guard", "enforce")) >= 0)
				s->mode = c + 1;
		} else if (strcmp(k, "on_hook_failure") == 0) {
			if ((c = choice(ld, v, "deny", "allow")) >= 0)
				s->hook_failure = c + 1; /* HS_FAILURE_* */
		} else if (strcmp(k, "io_uring") == 0) {
			if ((c = choice(ld, v, "deny", "allow")) >= 0)
				s->io_uring_allow = c == 1;
		} else if (strcmp(k, "floor_opens") == 0) {
			/* 0 judged (guard mode's default), 1 all (enforce
			 * mode's), 2 kernel: HS_FLOOR_OPENS_* in
			 * floor/floor.h */
			if ((c = choice3(ld, v, "judged", "all", "kernel")) >= 0) {
				s->floor_opens = c;
				s->floor_opens_set = true;
			}
		} else if (strcmp(k, "floor_userns") == 0) {
			/* 0 auto (the default), 1 on, 2 off:
			 * HS_FLOOR_USERNS_* in floor/floor.h */
			if ((c = choice3(ld, v, "auto", "on", "off")) >= 0)
				s->floor_userns = c;
		} else if (strcmp(k, "floor_allow") == 0) {
			load_floor_allow(ld, v);
		} else if (strcmp(k, "otlp") == 0) {
			load_otlp(ld, v);
		} else if (strcmp(k, "allow_managed_hooks_only") == 0) {
			/* Claude Code's allowManagedHooksOnly, by hookshim's
			 * naming: the managed layer's word only */
			bool b;

			if (!ld->cfg->managed.loading)
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "allow_managed_hooks_only means "
					     "something only in a managed file "
					     "(ignored)");
			else if (hs_load_bool(ld, v, "hookshim", &b) && b) {
				ld->cfg->claude.hooks_only = true;
				if (!ld->cfg->claude.why_hooks)
					ld->cfg->claude.why_hooks =
						strdup(ld->src);
			}
		} else if (strcmp(k, "project_files") == 0) {
			if ((c = choice(ld, v, "trusted", "never")) >= 0)
				s->project_never = c == 1;
		} else if (strcmp(k, "bot_id") == 0) {
			if (cJSON_IsString(v)) {
				free(s->bot_id);
				s->bot_id = strdup(v->valuestring);
			} else {
				hs_load_diag(ld, HS_DIAG_ERROR, v, "hookshim."
					     "bot_id must be a string (ignored)");
			}
		} else {
			hs_load_diag(ld, HS_DIAG_ERROR, v, "unknown field "
				     "hookshim.%s (ignored)", k);
		}
	}
	return 0;
}
