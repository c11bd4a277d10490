/* What the per-dialect loaders share. Internal to config/. */
#ifndef HOOKSHIM_CONFIG_DIALECT_H
#define HOOKSHIM_CONFIG_DIALECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "model.h"

struct hs_load {
	struct hs_config *cfg;
	const char *src; /* file path, for messages */
	enum hs_dialect dialect;
};

/* Loads a parsed document of the given dialect into ld->cfg. Returns -1
 * when the file as a whole cannot be used. */
int hs_load_claude(struct hs_load *ld, const cJSON *doc);
int hs_load_memcode(struct hs_load *ld, const cJSON *doc);
int hs_load_mnemoai(struct hs_load *ld, const cJSON *doc);
int hs_load_memoh(struct hs_load *ld, const cJSON *doc);

/* A new hook for `event` (already validated), with dialect defaults. */
struct hs_hook *hs_load_new_hook(struct hs_load *ld, const char *event);

/* Compiles the matcher; reports a bad pattern naming the hook and drops
 * the hook (returns -1). */
int hs_load_matcher(struct hs_load *ld, struct hs_hook *h,
		    enum hs_match_kind kind, const char *pattern,
		    const char *where);

/* Removes the last hook added (after a bad entry). */
void hs_load_drop_last(struct hs_load *ld);

/* Timeout in seconds (number) or a Go duration ("10s", "1m30s", "500ms").
 * Returns -1 when malformed. */
long hs_parse_duration_ms(const cJSON *v);
long hs_parse_duration_text(const char *s);

/* Keys starting with "//" are comments (mnemoai documents it; harmless
 * elsewhere). */
bool hs_json_comment_key(const char *key);

/* Names every key of obj not in `allowed` (NULL-terminated), so a typo
 * such as "timout" is reported instead of silently ignored. */
void hs_load_unknown_keys(struct hs_load *ld, const cJSON *obj,
			  const char *const *allowed, const char *where);

/* "if": "Tool(pattern)" in Claude Code's permission-rule syntax. */
int hs_rule_parse(const char *text, struct hs_rule *rule);

#endif
