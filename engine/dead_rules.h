/* Rules that can never fire live (issue 24, item 2): a matcher that names
 * no tool call hookshim sees (WebFetch, Task, MCP tools: decided inside
 * the agent), a name in an exact list that is such a tool, an "if" rule
 * naming a tool its matcher never lets through. One warning each at the
 * matcher's or the rule's file:line:col, added to the config's
 * diagnostics after loading, so `check`, `run` and `test` say the same.
 * (Events hookshim cannot see are said by the loader, config/events.c.) */
#ifndef HOOKSHIM_ENGINE_DEAD_RULES_H
#define HOOKSHIM_ENGINE_DEAD_RULES_H

#include "../config/model.h"

void hs_dead_rules(struct hs_config *cfg);

#endif
