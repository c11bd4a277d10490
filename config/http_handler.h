/* Claude Code's "http" hook handler as written in its settings files: the
 * handler's own fields ("url", "headers", "allowedEnvVars") and the two
 * lists that constrain every http hook ("allowedHttpHookUrls",
 * "httpHookAllowedEnvVars"), merged over all files and applied when the
 * config is finished. The request itself is engine/http_hook.c's. */
#ifndef HOOKSHIM_CONFIG_HTTP_HANDLER_H
#define HOOKSHIM_CONFIG_HTTP_HANDLER_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct hs_load;
struct cJSON;

/* The http fields of handler `hd` into h (whose command is its url,
 * already checked to be a non-empty string); -1 after an error naming
 * `where` when the hook cannot run as written. */
int hs_load_http_handler(struct hs_load *ld, struct hs_hook *h,
			 const struct cJSON *hd, const char *where);

/* A settings file's allowedHttpHookUrls and httpHookAllowedEnvVars,
 * added to what earlier files said. */
void hs_load_http_lists(struct hs_load *ld, const struct cJSON *doc);

/* Once every file is loaded: http hooks whose url no allowedHttpHookUrls
 * pattern matches are dropped (an error each), each hook's allowedEnvVars
 * narrowed to httpHookAllowedEnvVars, and a header that names a variable
 * its hook cannot read said (it is sent empty). */
void hs_http_finish(struct hs_config *cfg);

/* The next "$NAME" or "${NAME}" in s from *at: true with the name's
 * start and length and the whole reference's end; *at moves past it. A
 * '$' that starts no name is text. */
bool hs_http_env_ref(const char *s, size_t *at, size_t *name, size_t *len,
		     size_t *end);

/* May hook h put variable NAME (len bytes) into a header? */
bool hs_http_env_allowed(const struct hs_hook *h, const char *name,
			 size_t len);

/* Does url match an allowedHttpHookUrls pattern ('*' matches any run of
 * characters)? */
bool hs_http_url_matches(const char *pattern, const char *url);

#endif
