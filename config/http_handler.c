/* Claude Code's "http" handlers as written (http_handler.h). What Claude
 * Code documents, kept: the url is POSTed to; "headers" values may name
 * $VAR or ${VAR}, filled only for the variables "allowedEnvVars" lists
 * (any other is sent as an empty string); "allowedHttpHookUrls" ('*'
 * wildcards; an empty list allows none) and "httpHookAllowedEnvVars"
 * constrain every http hook, merged across files. Where Claude Code
 * blocks a hook in silence, hookshim says so: a dropped hook is an error
 * at its url, a header naming a variable it cannot read a warning. */
#include "http_handler.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadkit.h"

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

bool hs_http_env_ref(const char *s, size_t *at, size_t *name, size_t *len,
		     size_t *end)
{
	for (size_t i = *at; s[i]; i++) {
		size_t n = i + 1, k;
		bool brace = s[n] == '{';

		if (s[i] != '$')
			continue;
		n += brace;
		for (k = n; name_char(s[k], k == n); k++)
			;
		if (k == n || (brace && s[k] != '}'))
			continue;
		*name = n;
		*len = k - n;
		*end = k + brace;
		*at = *end;
		return true;
	}
	return false;
}

bool hs_http_env_allowed(const struct hs_hook *h, const char *name,
			 size_t len)
{
	for (char **v = h->http ? h->http->allowed_env : NULL; v && *v; v++)
		if (strlen(*v) == len && memcmp(*v, name, len) == 0)
			return true;
	return false;
}

bool hs_http_url_matches(const char *p, const char *u)
{
	const char *star = NULL, *mark = NULL;

	while (*u) {
		if (*p == '*') {
			star = p++;
			mark = u;
		} else if (*p == *u) {
			p++;
			u++;
		} else if (star) {
			p = star + 1;
			u = ++mark;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

/* A JSON array of strings as a NULL-terminated vector; NULL (after an
 * error) when it is not one. */
static char **string_list(struct hs_load *ld, const cJSON *a, const char *what)
{
	char **v;
	size_t n = 0;
	const cJSON *e;

	if (!cJSON_IsArray(a)) {
		hs_load_diag(ld, HS_DIAG_ERROR, a, "%s must be an array of "
			     "strings (ignored)", what);
		return NULL;
	}
	v = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	cJSON_ArrayForEach(e, a) {
		if (!v)
			break;
		if (!cJSON_IsString(e)) {
			hs_load_diag(ld, HS_DIAG_ERROR, e, "%s: every entry "
				     "must be a string (this one ignored)",
				     what);
			continue;
		}
		v[n++] = strdup(e->valuestring);
	}
	return v;
}

static bool header_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s == ':' || *s == 0x7f)
			return false;
	return true;
}

static int load_headers(struct hs_load *ld, struct hs_http *hp,
			const cJSON *o, const char *where)
{
	const cJSON *e;
	size_t n = 0;

	if (!o)
		return 0;
	if (!cJSON_IsObject(o)) {
		hs_load_diag(ld, HS_DIAG_ERROR, o, "%s: \"headers\" must be an "
			     "object of header names and string values (hook "
			     "skipped)", where);
		return -1;
	}
	hs_jsonpos_find(ld->pos, o, &hp->headers_line, &hp->headers_col);
	hp->headers = calloc((size_t)cJSON_GetArraySize(o) + 1,
			     sizeof(*hp->headers));
	if (!hp->headers)
		return -1;
	cJSON_ArrayForEach(e, o) {
		if (!header_name_ok(e->string) || !cJSON_IsString(e) ||
		    strpbrk(e->valuestring, "\r\n")) {
			hs_load_diag(ld, HS_DIAG_ERROR, e, "%s: header \"%s\" "
				     "must be a name without spaces or ':' and "
				     "a one-line string value (hook skipped)",
				     where, e->string);
			return -1;
		}
		if (asprintf(&hp->headers[n], "%s: %s", e->string,
			     e->valuestring) < 0)
			return -1;
		n++;
	}
	return 0;
}

int hs_load_http_handler(struct hs_load *ld, struct hs_hook *h,
			 const cJSON *hd, const char *where)
{
	const cJSON *url = cJSON_GetObjectItemCaseSensitive(hd, "url");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(hd,
							    "allowedEnvVars");
	const char *u = h->command;

	if ((strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0) ||
	    strpbrk(u, " \t\r\n")) {
		hs_load_diag(ld, HS_DIAG_ERROR, url, "%s: \"url\" must be an "
			     "http:// or https:// URL without spaces (hook "
			     "skipped)", where);
		return -1;
	}
	h->action = HS_ACTION_HTTP;
	h->http = calloc(1, sizeof(*h->http));
	if (!h->http ||
	    load_headers(ld, h->http, cJSON_GetObjectItemCaseSensitive(hd,
								       "headers"),
			 where) < 0)
		return -1;
	if (env && !(h->http->allowed_env = string_list(ld, env,
							"allowedEnvVars")))
		return -1;
	return 0;
}

/* Appends the strings of array `a` to *v (n of them so far). */
static void merge_list(struct hs_load *ld, const cJSON *a, const char *what,
		       char ***v, size_t *n, bool *set)
{
	char **add, **grown;
	size_t k = 0;

	if (!a)
		return;
	if (!(add = string_list(ld, a, what)))
		return;
	while (add[k])
		k++;
	grown = realloc(*v, (*n + k + 1) * sizeof(**v));
	if (!grown) {
		for (size_t i = 0; i < k; i++)
			free(add[i]);
		free(add);
		return;
	}
	memcpy(grown + *n, add, k * sizeof(*add));
	*n += k;
	grown[*n] = NULL;
	*v = grown;
	*set = true;
	free(add);
}

static void merge_lists(struct hs_load *ld, const cJSON *doc,
			struct hs_http_lists *l)
{
	merge_list(ld, cJSON_GetObjectItemCaseSensitive(doc,
							"allowedHttpHookUrls"),
		   "allowedHttpHookUrls", &l->urls, &l->nurls, &l->urls_set);
	merge_list(ld, cJSON_GetObjectItemCaseSensitive(doc,
							"httpHookAllowedEnvVars"),
		   "httpHookAllowedEnvVars", &l->env, &l->nenv, &l->env_set);
}

void hs_load_http_lists(struct hs_load *ld, const cJSON *doc)
{
	size_t diags = ld->cfg->ndiags;

	merge_lists(ld, doc, &ld->cfg->http);
	/* a managed file's word holds for the managed hooks too; said once */
	if (ld->managed && ld->cfg->ndiags == diags)
		merge_lists(ld, doc, &ld->cfg->http_managed);
}

/* The lists a hook answers to: the managed files' for a managed hook. */
static const struct hs_http_lists *lists(const struct hs_config *cfg,
					 const struct hs_hook *h)
{
	return h->managed ? &cfg->http_managed : &cfg->http;
}

static bool url_allowed(const struct hs_http_lists *l, const char *url)
{
	if (!l->urls_set)
		return true;
	for (size_t i = 0; i < l->nurls; i++)
		if (hs_http_url_matches(l->urls[i], url))
			return true;
	return false;
}

static bool in_list(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* allowedEnvVars ∩ httpHookAllowedEnvVars, and each header's references
 * to variables outside it said once. */
static void narrow_env(struct hs_config *cfg, struct hs_hook *h)
{
	const struct hs_http_lists *l = lists(cfg, h);
	char **v = h->http->allowed_env;
	size_t kept = 0;

	for (size_t i = 0; v && v[i]; i++) {
		if (!l->env_set || in_list(l->env, l->nenv, v[i]))
			v[kept++] = v[i];
		else
			free(v[i]);
	}
	if (v)
		v[kept] = NULL;
	for (char **hd = h->http->headers; hd && *hd; hd++) {
		size_t at = strcspn(*hd, ":"), name, len, end; /* the value */

		while (hs_http_env_ref(*hd, &at, &name, &len, &end))
			if (!hs_http_env_allowed(h, *hd + name, len))
				hs_config_diag_at(cfg, HS_DIAG_WARNING, h->source,
						  h->http->headers_line,
						  h->http->headers_col,
						  "header \"%.*s\" names $%.*s, "
						  "which %s: it is sent empty",
						  (int)strcspn(*hd, ":"), *hd,
						  (int)len, *hd + name,
						  l->env_set
						  ? "allowedEnvVars and "
						    "httpHookAllowedEnvVars do "
						    "not both list"
						  : "its allowedEnvVars does "
						    "not list");
	}
}

void hs_http_finish(struct hs_config *cfg)
{
	size_t kept = 0;

	for (size_t i = 0; i < cfg->nhooks; i++) {
		struct hs_hook *h = &cfg->hooks[i];

		if (h->action == HS_ACTION_HTTP &&
		    !url_allowed(lists(cfg, h), h->command)) {
			hs_config_diag_at(cfg, HS_DIAG_ERROR, h->source,
					  h->cmd_line, h->cmd_col,
					  "http hook %s: no allowedHttpHookUrls "
					  "pattern matches its url (hook not "
					  "loaded)", h->command);
			hs_hook_free(h);
			continue;
		}
		if (h->action == HS_ACTION_HTTP)
			narrow_env(cfg, h);
		cfg->hooks[kept++] = *h;
	}
	cfg->nhooks = kept;
}
