/* Claude Code's settings "env" (struct hs_session_var, model.h): what the
 * environments built for hooks and for the agent ask of it. */
#ifndef HOOKSHIM_CONFIG_SESSION_ENV_H
#define HOOKSHIM_CONFIG_SESSION_ENV_H

#include <stdbool.h>

#include "model.h"

/* Does the config's "env" set the variable of `entry` ("NAME=value" or
 * "NAME")? An environment built from environ leaves such entries out and
 * adds the config's value: settings win over the shell, as in Claude Code. */
bool hs_session_env_sets(const struct hs_config *cfg, const char *entry);

/* Does a variable of this name look like it holds a secret (KEY, TOKEN,
 * SECRET, PASSWORD, ... as a word of it)? `check` masks its value. */
bool hs_session_env_secret(const char *name);

#endif
