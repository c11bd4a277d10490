/* The command text a hook sees as tool_input.command for one exec.
 *
 * Agents run the model's command as `bash -c STR`, often with their own
 * preamble around it; hook scripts were written against the agent's own
 * hooks, which see the command exactly as the model wrote it. So:
 *   - `sh|bash|dash|zsh|ksh|ash [opts] -c STR ...` -> STR
 *   - STR that is a known agent wrapper (Claude Code's
 *     `source ... && eval 'CMD' < /dev/null && pwd -P >| FILE`) -> CMD
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

/* The model's command inside a known agent wrapper script, or NULL when
 * `script` is not one (or cannot be unquoted exactly). `envp` may be NULL;
 * it is consulted for agents that carry the text in the environment. */
char *hs_command_unwrap(const char *script, char *const envp[]);

/* Shells an agent starts for itself before any model turn, which no agent's
 * own hooks report: Claude Code's `bash -c env` and its `bash -c -l
 * 'SNAPSHOT_FILE=...'` login-shell snapshot. Only the argv shape an agent
 * uses counts, so a model cannot pass its command off as one: a model's
 * command under Claude Code arrives inside its eval wrapper, and agents such
 * as pi run `bash -c CMD` without -l. */
bool hs_command_agent_internal(char *const argv[]);

/* argv shell-quoted so that `sh -c` of the result runs the same argv. */
char *hs_command_quote_argv(char *const argv[]);

/* The text for tool_input.command, as described above; NULL only when out
 * of memory. `envp` may be NULL. */
char *hs_command_text(char *const argv[], char *const envp[]);

#endif
