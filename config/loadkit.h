/* What the per-dialect loaders share: the state of one file being loaded
 * and the parsing helpers. Internal to config/. Nothing here looks up the
 * operations table: a loader is handed its own row in struct hs_load. */
#ifndef HOOKSHIM_CONFIG_LOADKIT_H
#define HOOKSHIM_CONFIG_LOADKIT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "dialect.h"
#include "jsonpos.h"
#include "model.h"

struct hs_load {
	struct hs_config *cfg;
	const char *src; /* file path, for messages */
	const struct hs_jsonpos *pos; /* where each value is; may be empty */
	enum hs_dialect dialect;
	const struct hs_dialect_ops *ops; /* the row of `dialect` */
	bool managed; /* an HS_FILE_MANAGED file: an administrator's */
};

/* A diagnostic about the value `at` (a member: at its key), as
 * "src:line:col: message". Errors are what makes a hook not fire as
 * written or a setting not apply; see enum hs_diag_level. */
void hs_load_diag(struct hs_load *ld, enum hs_diag_level level,
		  const cJSON *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A boolean field: true with *out set when `v` is one; an error naming
 * `where`.`key` (just the key when where is NULL) when it is there but
 * not a boolean. */
bool hs_load_bool(struct hs_load *ld, const cJSON *v, const char *where,
		  bool *out);

/* A new hook for `event` (already validated), with dialect defaults. */
struct hs_hook *hs_load_new_hook(struct hs_load *ld, const char *event);

/* Compiles the matcher; reports a bad pattern naming the hook and drops
 * the hook (returns -1). */
int hs_load_matcher(struct hs_load *ld, struct hs_hook *h,
		    enum hs_match_kind kind, const char *pattern,
		    const cJSON *at, const char *where);

/* Removes the last hook added (after a bad entry). */
void hs_load_drop_last(struct hs_load *ld);

/* Keys starting with "//" are comments (mnemoai documents it; harmless
 * elsewhere). */
bool hs_json_comment_key(const char *key);

/* Names every key of obj not in `allowed` (NULL-terminated), so a typo
 * such as "timout" is reported instead of silently ignored: an error, as
 * the field was meant to change something. */
void hs_load_unknown_keys(struct hs_load *ld, const cJSON *obj,
			  const char *const *allowed, const char *where);

/* An event of the dialect `ops` (its events list), or one that only
 * the agent can see (kind HS_KIND_NONE, any dialect's); -1 otherwise. */
int hs_dialect_event(const struct hs_dialect_ops *ops, const char *name,
		     enum hs_kind *kind, unsigned *post_mask,
		     unsigned *event_ops);

/* Events a dialect documents that no outside observer can produce. */
bool hs_event_catalog_only(const char *name);

/* Timeout in seconds (number) or a Go duration ("10s", "1m30s", "500ms").
 * Returns -1 when malformed. */
long hs_parse_duration_ms(const cJSON *v);
long hs_parse_duration_text(const char *s);

/* "if": "Tool(pattern)" in Claude Code's permission-rule syntax. */
int hs_rule_parse(const char *text, struct hs_rule *rule);

/* hookshim's own settings: the top-level "hookshim" object. */
int hs_load_settings(struct hs_load *ld, const cJSON *obj);

/* A Claude Code settings file's "env" object into cfg->env (a name set
 * again replaces the earlier value). */
void hs_load_session_env(struct hs_load *ld, const cJSON *env);

/* The Claude Code shape, {"hooks":{EVENT:[{matcher, hooks:[handler]}]}},
 * for the dialects that share it; events are ld->ops->events. */
struct hs_nested_rules {
	bool glob_matcher;   /* mnemoai: glob; Claude: its own rule */
	bool if_field;       /* Claude's per-handler "if" */
	bool inside_notice;  /* say so when an event only the agent sees */
	int max_timeout_s;   /* 0 = none */
	bool http;           /* Claude's "type": "http" handlers */
};

int hs_load_nested(struct hs_load *ld, const cJSON *doc,
		   const struct hs_nested_rules *r);

#endif
