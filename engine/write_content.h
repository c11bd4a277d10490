/* tool_input.content of a write payload: the one place that decides it,
 * for `hookshim test` and the live path alike. */
#ifndef HOOKSHIM_ENGINE_WRITE_CONTENT_H
#define HOOKSHIM_ENGINE_WRITE_CONTENT_H

#include <cjson/cJSON.h>

#include "event.h"

/* Caps: a post hook gets the file as written up to 64 KiB (it can read
 * the file itself); a pre hook of a staged write up to 4 MiB, since what
 * it cannot see it cannot refuse. Cut content is listed under
 * _truncated. */
#define HS_CONTENT_POST_CAP (64u << 10)
#define HS_CONTENT_PRE_CAP (4u << 20)

/* Adds "content" (and "_truncated") to the write input `in` for hook h:
 * for a pre hook, the staged file it is asked about (CONTENT_FILE); for a
 * post hook that asked, the file as written: the request's bytes
 * (CONTENT) when it carries them, else the file at the event's path,
 * capped alike. Bytes that are not UTF-8, and
 * NULs, arrive as U+FFFD: a hook's JSON parser must not fail on them (a
 * scanner that crashes allows). Nothing when `in` has a content already. */
void hs_write_content_add(cJSON *in, const struct hs_hook *h,
			  const struct hs_event *ev, const char *path);

#endif
