/* The agent profiles the engine applies: data since issue 25 (the built-in
 * ones are config/agents.json; users add theirs), in config/agent_profile.h.
 * The code that applies them is agent-neutral: engine/unwrap.c (wrapper
 * shapes), engine/command.c (the agent's own shells, argument hand-offs
 * a profile names). Adding an agent or a version: docs/agents.md. */
#ifndef HOOKSHIM_ENGINE_AGENTS_H
#define HOOKSHIM_ENGINE_AGENTS_H

#include "../config/agent_profile.h"

#endif
