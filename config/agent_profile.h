/* Agent profiles as data (docs/agents.md, "Profiles"): what hookshim
 * knows about particular agents -- which processes are the agent, how it
 * wraps the model's command (which structural shapes of engine/unwrap.c,
 * with the agent's own file names that mark a script as its wrapper), the
 * shells it starts for itself, and scripts that hand the model's command
 * on as an argument. The built-in profiles are config/agents.json,
 * embedded in the binary; users and administrators add or replace
 * profiles with files in the same format (agent_profiles.c). An agent no
 * profile knows still gets full enforcement: only exactness of the text
 * a hook is shown can differ. */
#ifndef HOOKSHIM_CONFIG_AGENT_PROFILE_H
#define HOOKSHIM_CONFIG_AGENT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The wrapper shapes of engine/unwrap.c (docs/agents.md). */
enum {
	/* SETUP && … && eval ARGS [< /dev/null] && pwd -P >| CWDFILE */
	HS_SHAPE_EVAL_CHAIN = 1u << 0,
	/* SETUP … . SNAPSHOT … SETUP … exec SHELL -c CMD [ARGS] */
	HS_SHAPE_EXEC_SHELL = 1u << 1,
	/* [shopt -u …;] BGFILE=F NL ( NL trap … EXIT NL CMD NL ) NL
	 * __code=$? NL exit $__code */
	HS_SHAPE_SUBSHELL_TRAP = 1u << 2,
	/* set -e; . SNAPSHOT; CMD */
	HS_SHAPE_SOURCE_REST = 1u << 3,
};

/* A HS_SHAPE_* value's name ("eval-chain"), "" for none. */
const char *hs_shape_name(unsigned shape);

/* A shell the agent runs for itself, which fires no hook. Exactly one
 * way of saying which is set, each of them a shape that runs nothing a
 * hook would guard, so a model cannot pass real work off as one:
 *   script: a pattern over the parsed -c script: words separated by
 *     single spaces, `|` between the commands of one pipeline, each word
 *     an fnmatch(3) glob matched against a word's literal value; the
 *     script must be exactly that one pipeline, every word literal, no
 *     redirection or assignment, no arguments after it;
 *   argv: one fnmatch glob per argv element, exactly that many;
 *   text: the whole -c script, exactly (with no arguments after it):
 *     an agent's own long script;
 *   contains: strings that must all be in the -c script (with no
 *     arguments after it): an agent's own long script -- which a model
 *     whose command is the whole script can write too (docs/agents.md);
 *   snapshot_check: `set -e; . SNAP` of this agent's snapshot. */
struct hs_agent_internal {
	char *what;   /* said by explain and the log */
	/* The shell's argv[0] exactly, when the agent runs this one
	 * through a shell its tool calls never use (node's execSync:
	 * /bin/sh), so the same text from the model stays a tool call;
	 * NULL for any shell. */
	char *shell;
	char *script;
	char **argv;     /* NULL-terminated */
	char *text;
	char **contains; /* NULL-terminated */
	bool snapshot_check;
};

/* A script of the agent's that hands the model's command on as one of
 * its arguments, whatever else it does (a watchdog loop, a process-group
 * set-up): `SHELL -c SCRIPT NAME ARGS…` whose script matches `script`
 * (an fnmatch glob over the whole script text) is shown positional
 * parameter `command`, and the script's own programs are the agent's.
 * The user who writes it vouches for the script; hookshim cannot. */
struct hs_agent_handoff {
	char *what;
	char *script;
	int command; /* $N: 1 for "$1" */
};

struct hs_agent {
	char *name;        /* "claude-code" */
	char *label;       /* "Claude Code" */
	char **processes;  /* basenames of its executables, NULL-terminated */
	unsigned shapes;   /* HS_SHAPE_* of its wrappers */
	/* fnmatch globs (FNM_PATHNAME off) for the agent's own files: */
	char *snapshot;    /* the shell snapshot it sources */
	char *cwd_file;    /* EVAL_CHAIN: where `pwd -P >|` writes */
	char *bg_file;     /* SUBSHELL_TRAP: the BGFILE value */
	char *bg_var;      /* SUBSHELL_TRAP: the variable's name */
	char *bg_trap;     /* SUBSHELL_TRAP: the trap's action */
	char *guard;       /* SUBSHELL_TRAP: an exact `shopt …;` prefix */
	char *carry_var;   /* EVAL_CHAIN: command text carried in env */
	struct hs_agent_internal *internal;
	size_t ninternal;
	struct hs_agent_handoff *handoffs;
	size_t nhandoffs;
	char *source;      /* where it was read: "built-in" or FILE:LINE */
};

struct hs_config;

struct hs_agent_set {
	struct hs_agent *v;
	size_t n;
};

/* The profiles in force: the set hs_agents_use last named, else the
 * built-in ones (parsed once, on first use; never NULL). */
const struct hs_agent_set *hs_agents(void);

/* Makes `set` the profiles in force (NULL: the built-in ones again). The
 * set must outlive its use; called before a session's threads start. */
void hs_agents_use(const struct hs_agent_set *set);

void hs_agent_set_free(struct hs_agent_set *set);

/* The agent profiles of every .json in DIR/agents/ (DIR the managed
 * layer's directory, may be NULL) and in the user's directory (below)
 * into cfg->agents, with every built-in one they do not replace, and
 * makes them the profiles in force (load.c's hs_config_finish calls it).
 * Nothing changes when there are none. */
void hs_config_load_agents(struct hs_config *cfg, const char *managed_dir);

/* The directory of the user's own profiles into buf:
 * $XDG_CONFIG_HOME/hookshim/agents, else ~/.config/hookshim/agents.
 * Under a policy it is protected whole for the session (engine/protect.c):
 * a profile can make a shell the agent's own. */
bool hs_agents_user_dir(char *buf, size_t cap);

#endif
