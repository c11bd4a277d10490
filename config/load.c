/* Finding hook files, telling their dialect, and the helpers every dialect
 * loader shares. */
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialect.h"
#include "jsonfile.h"

bool hs_json_comment_key(const char *key)
{
	return key && key[0] == '/' && key[1] == '/';
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
			hs_config_diag(ld->cfg, false, "%s: %s: unknown field "
				       "\"%s\" (ignored)", ld->src, where,
				       v->string);
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
	if (hs_event_parse(event, &h->kind, &h->post_mask, &h->ops) < 0)
		h->kind = HS_KIND_NONE;
	switch (ld->dialect) {
	case HS_CLAUDE:
		h->timeout_ms = 600 * 1000;
		break;
	case HS_MEMCODE:
		h->timeout_ms = 60 * 1000;
		break;
	case HS_MNEMOAI:
		h->timeout_ms = 30 * 1000;
		h->shell = "/bin/bash";
		break;
	case HS_MEMOH:
		h->timeout_ms = 10 * 1000;
		h->on_error = HS_ONERR_FAIL;
		break;
	default:
		break;
	}
	return h;
}

void hs_load_drop_last(struct hs_load *ld)
{
	if (ld->cfg->nhooks)
		hs_hook_free(&ld->cfg->hooks[--ld->cfg->nhooks]);
}

int hs_load_matcher(struct hs_load *ld, struct hs_hook *h,
		    enum hs_match_kind kind, const char *pattern,
		    const char *where)
{
	char err[512];

	if (hs_matcher_init(&h->matcher, kind, pattern, err, sizeof(err)) == 0)
		return 0;
	hs_config_diag(ld->cfg, false, "%s: %s: %s (hook skipped)", ld->src,
		       where, err);
	return -1;
}

static const char *path_dialect_hint(const char *path, int *dialect)
{
	static const struct {
		const char *dir;
		enum hs_dialect d;
	} hints[] = {
		{ "/.memcode/", HS_MEMCODE },
		{ "/.mnemoai/", HS_MNEMOAI },
		{ "/.memoh/", HS_MEMOH },
		{ "/.claude/", HS_CLAUDE },
		{ "/.hookshim/", HS_CLAUDE },
		{ "/hookshim/", HS_CLAUDE },
	};

	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		if (strstr(path, hints[i].dir)) {
			*dialect = (int)hints[i].d;
			return hints[i].dir;
		}
	}
	return NULL;
}

/* Shape: memoh has a hooks array; memcode keys its events in snake_case
 * with flat entries; Claude-shaped files nest hooks under matchers. */
static int shape_dialect(const cJSON *doc)
{
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(doc, "hooks");
	const cJSON *ev;

	if (cJSON_IsArray(hooks) ||
	    cJSON_GetObjectItemCaseSensitive(doc, "version"))
		return HS_MEMOH;
	if (!cJSON_IsObject(hooks))
		return HS_CLAUDE;
	cJSON_ArrayForEach(ev, hooks)
	{
		if (ev->string && strchr(ev->string, '_') &&
		    !hs_json_comment_key(ev->string))
			return HS_MEMCODE;
	}
	return HS_CLAUDE;
}

int hs_config_load_file(struct hs_config *cfg, const char *path, int dialect,
			bool optional)
{
	char err[1024];
	int missing = 0;
	cJSON *doc = hs_json_read_file(path, err, sizeof(err), &missing);
	struct hs_load ld = { .cfg = cfg, .src = path };
	char **srcs;
	int rc;

	if (!doc) {
		if (missing && optional)
			return 0;
		hs_config_diag(cfg, true, "%s", err);
		return -1;
	}
	srcs = realloc(cfg->sources, (cfg->nsources + 1) * sizeof(*srcs));
	if (srcs) {
		cfg->sources = srcs;
		cfg->sources[cfg->nsources++] = strdup(path);
	}
	if (dialect < 0 && !path_dialect_hint(path, &dialect))
		dialect = shape_dialect(doc);
	if (!cJSON_IsObject(doc)) {
		hs_config_diag(cfg, true, "%s: top level must be a JSON object",
			       path);
		cJSON_Delete(doc);
		return -1;
	}
	ld.dialect = (enum hs_dialect)dialect;
	switch (ld.dialect) {
	case HS_MEMCODE:
		rc = hs_load_memcode(&ld, doc);
		break;
	case HS_MNEMOAI:
		rc = hs_load_mnemoai(&ld, doc);
		break;
	case HS_MEMOH:
		rc = hs_load_memoh(&ld, doc);
		break;
	default:
		rc = hs_load_claude(&ld, doc);
		break;
	}
	cJSON_Delete(doc);
	return rc;
}

static char *home_path(const char *rel)
{
	const char *home = getenv("HOME");
	char *p = NULL;

	if (!home || !*home)
		home = "/";
	if (asprintf(&p, "%s/%s", home, rel) < 0)
		return NULL;
	return p;
}

static int load_optional(struct hs_config *cfg, char *path, int dialect)
{
	int rc;

	if (!path)
		return -1;
	rc = hs_config_load_file(cfg, path, dialect, true);
	free(path);
	return rc;
}

static char *root_path(const struct hs_config *cfg, const char *rel)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", cfg->root, rel) < 0)
		return NULL;
	return p;
}

int hs_config_import(struct hs_config *cfg, enum hs_dialect dialect)
{
	int rc = 0;

	switch (dialect) {
	case HS_MEMCODE: /* user first, then project */
		rc |= load_optional(cfg, home_path(".memcode/hooks.json"),
				    HS_MEMCODE);
		rc |= load_optional(cfg, root_path(cfg, ".memcode/hooks.json"),
				    HS_MEMCODE);
		break;
	case HS_MNEMOAI: /* app home only, by design */
		rc |= load_optional(cfg, home_path(".mnemoai/hooks/hooks.json"),
				    HS_MNEMOAI);
		break;
	case HS_MEMOH:
		rc |= load_optional(cfg, strdup("/data/.memoh/hooks.json"),
				    HS_MEMOH);
		break;
	case HS_CLAUDE:
		rc |= load_optional(cfg, home_path(".claude/settings.json"),
				    HS_CLAUDE);
		rc |= load_optional(cfg, root_path(cfg, ".claude/settings.json"),
				    HS_CLAUDE);
		rc |= load_optional(cfg,
				    root_path(cfg, ".claude/settings.local.json"),
				    HS_CLAUDE);
		break;
	default:
		return -1;
	}
	return rc ? -1 : 0;
}

int hs_config_load_default(struct hs_config *cfg)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	char *user = NULL;
	int rc = 0;

	if (xdg && *xdg) {
		if (asprintf(&user, "%s/hookshim/hooks.json", xdg) < 0)
			user = NULL;
	} else {
		user = home_path(".config/hookshim/hooks.json");
	}
	rc |= load_optional(cfg, user, HS_CLAUDE);
	rc |= load_optional(cfg, root_path(cfg, ".hookshim/hooks.json"),
			    HS_CLAUDE);
	return rc ? -1 : 0;
}

static int by_priority(const void *a, const void *b)
{
	const struct hs_hook *x = a, *y = b;

	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->order - y->order;
}

void hs_config_finish(struct hs_config *cfg)
{
	if (cfg->nhooks > 1)
		qsort(cfg->hooks, cfg->nhooks, sizeof(cfg->hooks[0]),
		      by_priority);
}
