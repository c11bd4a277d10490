/* Does a hook fire for an event: event kind, operation, matcher target and
 * Claude Code's "if" rule. */
#ifndef HOOKSHIM_ENGINE_MATCH_H
#define HOOKSHIM_ENGINE_MATCH_H

#include "dispatch.h"

/* Does `hook` fire for `ev`: event, operation, matcher, "if" rule. */
bool hs_hook_matches(const struct hs_hook *hook, const struct hs_event *ev);

/* The matcher alone, on the target it has for this event (the "if" rule
 * and arguments ignored): used to precompute which operations can fire. */
bool hs_matcher_could_match(const struct hs_hook *h, const struct hs_event *ev);

/* Does a pre hook ask for read events: its matcher or "if" rule names
 * the dialect's read tool (Claude's Read)? A catch-all alone does not. */
bool hs_hook_names_read(const struct hs_hook *h);

/* A Claude permission-rule pattern against an event's argument. */
bool hs_rule_matches(const struct hs_rule *rule, const char *tool,
		     const struct hs_event *ev);

#endif
