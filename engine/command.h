/* The command text a hook sees as tool_input.command for one exec.
 *
 * Agents run the model's command as `bash -c STR`, often with their own
 * preamble around it; hook scripts were written against the agent's own
 * hooks, which see the command exactly as the model wrote it. So:
 *   - `sh|bash|dash|zsh|ksh|ash [opts] -c STR ...` -> STR
 *   - STR that is an agent's wrapper (engine/unwrap.h, docs/agents.md:
 *     Claude Code's `... && eval 'CMD' < /dev/null && pwd -P >| FILE`,
 *     Codex's `... exec SHELL -c 'CMD'`, Gemini CLI's subshell) -> CMD
 *   - STR that hands one of the shell's arguments to eval or an inner
 *     shell, around inert setup (engine/handoff.h) -> that argument
 *   - anything else -> the argv, shell-quoted and joined by spaces.
 * Pure functions: no I/O, no globals; results are malloc'd.
 */
#ifndef HOOKSHIM_ENGINE_COMMAND_H
#define HOOKSHIM_ENGINE_COMMAND_H

#include <stdbool.h>

/* Is `path`'s basename (a leading '-' of a login shell ignored) a shell
 * whose -c we understand? */
bool hs_command_is_shell(const char *path);

/* Index in argv of the command string of `SHELL [opts] -c STR`, or -1 when
 * argv is not a shell running a command string. */
int hs_command_shell_index(char *const argv[]);

/* The model's command inside an agent's wrapper script, or NULL when
 * `script` is not one (or cannot be unquoted exactly). `envp` may be NULL;
 * it is consulted for agents that carry the text in the environment. */
char *hs_command_unwrap(const char *script, char *const envp[]);

/* Shells an agent starts for itself, which no agent's own hooks report
 * (config/agents.json: Claude Code's `bash -c env`, its snapshot login
 * shell and IDE probe, Codex's snapshot creation and check, Qwen Code's
 * `command -v` and parent walk). Only an exact argv or script shape
 * counts, and each is one that runs nothing a hook would guard, so a
 * model cannot pass real work off as one. Returns what it is, for the
 * log and `hookshim explain`; NULL for a tool call. */
const char *hs_command_agent_internal(char *const argv[]);

/* The same, only for the profiles one of whose processes is among
 * `caller` (the basenames of the calling process's executable and its
 * command line's first two words): an agent's own shells are its own
 * only when that agent starts them, so a model's command under another
 * agent cannot pass for one. caller NULL: any profile. */
const char *hs_command_agent_internal_of(char *const argv[],
					 char *const caller[]);

/* Is an agent's exec of argv a tool call of the model's: a shell running
 * a command string (with `every_exec`, any program) that is not one of
 * the agent's own shells (hs_command_agent_internal). The rule that
 * decides who is handed the reasons of an agent's denied writes, asked
 * by the shim (the "classify" phase) and the floor alike. */
bool hs_command_tool_call(char *const argv[], bool every_exec);

/* argv shell-quoted so that `sh -c` of the result runs the same argv. */
char *hs_command_quote_argv(char *const argv[]);

/* The text for tool_input.command, as described above; NULL only when out
 * of memory. `envp` may be NULL. */
char *hs_command_text(char *const argv[], char *const envp[]);

/* Which wrapper the text came out of: both NULL when none. */
struct hs_command_why {
	const char *agent; /* profile name, "claude-code"; "any" for an
			    * argument hand-off (engine/handoff.h) */
	const char *shape; /* "eval-chain", "exec-shell", ...,
			    * "argument-handoff" */
	/* the text runs a string the hook did not see (a hand-off that
	 * could not be unwrapped): what the shell runs is judged too */
	bool beneath;
};

/* hs_command_text, also saying why (why may be NULL). */
char *hs_command_explain(char *const argv[], char *const envp[],
			 struct hs_command_why *why);

/* The same for an exec of program `exe` (the one that runs, whatever
 * argv[0] says). */
char *hs_command_explain_as(char *const argv[], const char *exe,
			    char *const envp[], struct hs_command_why *why);


#endif
