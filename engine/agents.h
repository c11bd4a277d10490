/* What hookshim knows about particular agents, in one table (agents.c):
 * how to recognise each one's process, how it wraps the model's command
 * (which of the structural shapes of engine/unwrap.c it uses, with the
 * agent's own file names that make a script its wrapper), and the shells
 * it starts for itself that are not tool calls.
 *
 * Supporting a new agent or version is one entry here plus a captured
 * wrapper in tests/fixtures/wrappers/ (docs/agents.md). */
#ifndef HOOKSHIM_ENGINE_AGENTS_H
#define HOOKSHIM_ENGINE_AGENTS_H

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

/* A shell the agent runs for itself. `script` is a pattern over the
 * parsed script: words separated by single spaces, `|` between the
 * commands of one pipeline, each word an fnmatch(3) glob matched
 * against a word's literal value. The script must be exactly that one
 * pipeline, every word literal, no redirection or assignment, so a
 * model cannot pass more off as it. `match` is a predicate for shapes a
 * pattern cannot say; either may be NULL. */
struct hs_agent_internal {
	const char *what;   /* said by explain and the log */
	/* The shell's argv[0] exactly, when the agent runs this one through
	 * a shell its tool calls never use (node's exec/execSync: /bin/sh),
	 * so the same text from the model (bash -c) stays a tool call;
	 * NULL for any shell. */
	const char *shell;
	const char *script;
	bool (*match)(char *const argv[], int script_index);
};

struct hs_agent {
	const char *name;             /* "claude-code" */
	const char *label;            /* "Claude Code" */
	const char *const *processes; /* basenames of its executables */
	unsigned shapes;              /* HS_SHAPE_* of its wrappers */
	/* fnmatch globs (FNM_PATHNAME off) for the agent's own files: */
	const char *snapshot;   /* the shell snapshot it sources */
	const char *cwd_file;   /* EVAL_CHAIN: where `pwd -P >|` writes */
	const char *bg_file;    /* SUBSHELL_TRAP: the BGFILE value */
	const char *bg_var;     /* SUBSHELL_TRAP: the variable's name */
	const char *bg_trap;    /* SUBSHELL_TRAP: the trap's action */
	const char *guard;      /* SUBSHELL_TRAP: an exact `shopt …;` prefix */
	const char *carry_var;  /* EVAL_CHAIN: command text carried in env */
	const struct hs_agent_internal *internal; /* NULL-terminated by what */
};

/* Every profile, ending with a zeroed entry. */
extern const struct hs_agent hs_agents[];

/* The profile whose process is `exe` (a path or argv[0]), or NULL. */
const struct hs_agent *hs_agent_by_process(const char *exe);

#endif
