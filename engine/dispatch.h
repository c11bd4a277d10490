/* Selects the hooks an event matches, runs them as their dialects say and
 * merges what they decided. The one entry point the CLI, the supervisor and
 * the PATH wrappers share. */
#ifndef HOOKSHIM_ENGINE_DISPATCH_H
#define HOOKSHIM_ENGINE_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"
#include "event.h"
#include "runner.h"
#include "../common/wire.h"

enum hs_verdict { HS_ALLOW = 0, HS_ASK = 1, HS_DENY = 2 };

/* What one hook did, for `hookshim test` and the log. */
struct hs_hook_run {
	const struct hs_hook *hook;
	char *tool_name; /* as the hook saw it */
	struct hs_run_result res;
	enum hs_verdict verdict; /* what this hook said (HS_ALLOW if nothing) */
	bool said;               /* it expressed a decision */
	char *note;              /* warning about this run, or NULL */
};

struct hs_outcome {
	enum hs_verdict verdict;
	char *reason;          /* for deny/ask; NULL otherwise */
	char *context;         /* additionalContext / append_context, joined */
	char *system_message;  /* Claude systemMessage */
	bool stop;             /* Claude continue:false */
	char *stop_reason;
	char *session_context; /* session_start stdout to inject (memcode) */
	struct hs_hook_run *runs;
	size_t nruns;
	char **warnings;
	size_t nwarnings;
	int deny_errno;        /* a built-in rule's own errno; 0: the session's */
	/* A pre hook's updatedInput.command (Claude Code's "replaces the
	 * tool input"): an allowed command runs as this instead. */
	char *updated_command;
};

/* Run every matching hook and merge. Always fills `out`. */
void hs_dispatch(const struct hs_config *cfg, const struct hs_event *ev,
		 struct hs_outcome *out);
void hs_outcome_free(struct hs_outcome *out);

/* Which intercepted operations could fire any hook, as a bit set
 * (HS_INTEREST_*, common/wire.h): the shim asks the supervisor only for
 * these. */
unsigned hs_config_interest(const struct hs_config *cfg);

/* Hooks normally run outside any session (no shim, HOOKSHIM_INERT=1). A
 * session nested in another (supervisor/outer.h) calls this once before
 * its first hook: its hooks are then started inside the OUTER session --
 * the outer shim and variables this process inherited, role "tool", the
 * start itself marked decided -- so a hook the agent wrote into an inner
 * config is policed like any other of its commands. */
void hs_dispatch_hooks_in_outer_session(void);

const char *hs_verdict_name(enum hs_verdict v);

#endif
