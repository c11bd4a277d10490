/* Shaping one event into the JSON a hook of a given dialect expects. */
#ifndef HOOKSHIM_ENGINE_PAYLOAD_H
#define HOOKSHIM_ENGINE_PAYLOAD_H

#include <cjson/cJSON.h>

#include "dispatch.h"

/* The payload for `hook`; the caller owns the result. */
cJSON *hs_payload(const struct hs_hook *hook, const struct hs_event *ev,
		  const struct hs_settings *settings);

/* The operation an event names, for tools hookshim maps ("exec", "write"),
 * from a tool name in any dialect; HS_OP_OTHER for anything else. */
unsigned hs_tool_op(const char *tool);

/* The command, path and content an event carries, whichever of event
 * fields or a `hookshim test` input supplies them. */
const char *hs_event_command(const struct hs_event *ev);
const char *hs_event_path(const struct hs_event *ev);

#endif
