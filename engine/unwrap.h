/* The model's command out of an agent's wrapper script, by structure:
 * the script is parsed (engine/shparse.h) and matched against the
 * wrapper shapes of the agent profiles (engine/agents.h). The rule is
 * written down in docs/agents.md; in short, a script is a wrapper only
 * when everything around the one command that carries the model's text
 * is the agent's own inert setup, and the agent's own mark is there. */
#ifndef HOOKSHIM_ENGINE_UNWRAP_H
#define HOOKSHIM_ENGINE_UNWRAP_H

#include "agents.h"

struct hs_unwrap_how {
	const struct hs_agent *agent; /* whose wrapper it was */
	unsigned shape;               /* HS_SHAPE_* */
};

/* The model's command (malloc'd) when script is an agent's wrapper,
 * else NULL. envp (may be NULL) is consulted for a carried command.
 * how (may be NULL) says which wrapper matched. */
char *hs_unwrap(const char *script, char *const envp[],
		struct hs_unwrap_how *how);

/* Is script exactly `set -e; . SNAPSHOT` with a's snapshot: a check of a
 * new snapshot, which runs no command of the model's? */
bool hs_unwrap_snapshot_check(const struct hs_agent *a, const char *script);

/* Is script exactly the one pipeline `pattern` describes (agents.h,
 * struct hs_agent_internal)? */
bool hs_unwrap_script_is(const char *pattern, const char *script);

/* Is c inert setup (docs/agents.md, rule 2): it runs no program and
 * leaves nothing to run later? No agent's snapshot counts here. */
struct hs_sh_cmd;
bool hs_unwrap_inert(const struct hs_sh_cmd *c);

#endif
