/* The helpers every dialect loader shares (loadkit.h). */
#include "loadkit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool hs_json_comment_key(const char *key)
{
	return key && key[0] == '/' && key[1] == '/';
}

void hs_load_diag(struct hs_load *ld, enum hs_diag_level level,
		  const cJSON *at, const char *fmt, ...)
{
	int line = 0, col = 0;
	va_list ap;

	/* no index (out of memory): the JSON path in the message says */
	if (!hs_jsonpos_find(ld->pos, at, &line, &col))
		line = 0;
	va_start(ap, fmt);
	hs_config_vdiag_at(ld->cfg, level, ld->src, line, col, fmt, ap);
	va_end(ap);
}

bool hs_load_bool(struct hs_load *ld, const cJSON *v, const char *where,
		  bool *out)
{
	if (!v)
		return false;
	if (!cJSON_IsBool(v)) {
		hs_load_diag(ld, HS_DIAG_ERROR, v, "%s%s%s must be true or false "
			     "(ignored)", where ? where : "", where ? "." : "",
			     v->string ? v->string : "?");
		return false;
	}
	*out = cJSON_IsTrue(v);
	return true;
}

void hs_load_unknown_keys(struct hs_load *ld, const cJSON *obj,
			  const char *const *allowed, const char *where)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, obj)
	{
		const char *const *a = allowed;

		if (!v->string || hs_json_comment_key(v->string))
			continue;
		while (*a && strcmp(*a, v->string) != 0)
			a++;
		if (!*a)
			hs_load_diag(ld, HS_DIAG_ERROR, v, "%s: unknown field "
				     "\"%s\" (ignored)", where, v->string);
	}
}

struct hs_hook *hs_load_new_hook(struct hs_load *ld, const char *event)
{
	struct hs_hook *h = hs_config_add_hook(ld->cfg);

	if (!h)
		return NULL;
	h->dialect = ld->dialect;
	h->event_name = strdup(event);
	h->source = strdup(ld->src);
	if (hs_dialect_event(ld->ops, event, &h->kind, &h->post_mask, &h->ops) < 0)
		h->kind = HS_KIND_NONE;
	h->timeout_ms = ld->ops->timeout_ms;
	if (ld->ops->shell)
		h->shell = ld->ops->shell;
	h->on_error = ld->ops->on_error;
	h->content_given = -1;
	h->managed = ld->managed;
	return h;
}

void hs_load_drop_last(struct hs_load *ld)
{
	if (ld->cfg->nhooks)
		hs_hook_free(&ld->cfg->hooks[--ld->cfg->nhooks]);
}

int hs_load_matcher(struct hs_load *ld, struct hs_hook *h,
		    enum hs_match_kind kind, const char *pattern,
		    const cJSON *at, const char *where)
{
	char err[512];

	if (hs_matcher_init(&h->matcher, kind, pattern, err, sizeof(err)) == 0)
		return 0;
	hs_load_diag(ld, HS_DIAG_ERROR, at, "%s: %s (hook skipped)", where, err);
	return -1;
}
