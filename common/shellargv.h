/* Recognising a shell given a command string: how agents run tool calls.
 * Shared by the shim, which decides what is a tool call, and the
 * supervisor, which shows the hook the command string, so the two never
 * disagree. Pure and async-signal-safe: no allocation, no locale. */
#ifndef HOOKSHIM_ENGINE_SHELLARGV_H
#define HOOKSHIM_ENGINE_SHELLARGV_H

#include <stdbool.h>
#include <stddef.h>

/* Is `path`'s basename (a login shell's leading '-' ignored) sh, bash,
 * dash, zsh, ksh or ash? */
bool hs_shell_name(const char *path);

/* For a shell's argv, the index of the command string of `[opts] -c
 * [opts] STR`: the c may sit in an option cluster ("-lc", "-ec"), options
 * may come before or after it (Claude Code runs `bash -c -l STR`), and the
 * string is the first operand after the options. -1 when there is no -c
 * or no operand. argv[0] is not examined. */
int hs_shell_operand(char *const argv[]);

/* Is argv a shell that reads its commands from standard input: a shell
 * with neither -c nor a script operand (`bash`, `sh -i`, `bash -l`), with
 * -s (`bash -s ARGS`), or whose script is a stream (`bash /dev/stdin`,
 * /dev/fd/N, /proc/self/fd/N)? A persistent shell an agent feeds one
 * command a line, or `… | sh`: what it runs never appears in an argv.
 * Only the options are read: whether the program is a shell is for the
 * caller to say by the program that runs, not argv[0]. */
bool hs_shell_reads_stdin(char *const argv[]);

/* Is `path`'s basename an interpreter, a program that runs code given in
 * its words or its input: python, perl, ruby, node, php, lua, tcl, awk,
 * sed (its `e`), make (its recipes), ..., by name or with a version
 * (python3.12)? *stdin_program (may be NULL) says whether it reads its
 * program from stdin when its words name none. */
bool hs_interp_name(const char *path, bool *stdin_program);
/* Does path, judged beneath a hand-off, hand off
 * again, every program it starts judged? Any program but git (whose
 * own rule judges what it starts that is not its own): whatever it
 * runs may come from what the hand-off's unseen code gave it -- a file,
 * its stdin, its environment. The shim's rule (shim/exec_decide.c) and
 * the floor's (floor/floor.c) both. */
bool hs_hands_off_again(const char *path);

/* Is path the system's git (/usr/bin/git, its /usr/bin/git-*) or one of
 * its commands (directly in /usr/lib/git-core or /usr/libexec/git-core)?
 * A git process runs what its settings and hooks name: each program it
 * starts that is not git's own is a tool call of its own
 * (docs/agents.md, "git is judged by what it starts"). */
bool hs_git_path(const char *path);
/* Does the program at path run what its settings name as programs it
 * starts: git (hs_git_path), and the system's ssh (ProxyCommand,
 * LocalCommand, KnownHostsCommand, Match exec, from ~/.ssh/config or
 * -F)? What it starts that is not git's own is a tool call of its own. */
bool hs_settings_runner(const char *path);
/* Is path git's own: one of those, but not a command of git's that runs
 * what its settings name from a shell of its own (git-web--browse's
 * browser.*.cmd, git-mergetool's and git-difftool--helper's tools,
 * git-instaweb's httpd, git-add--interactive's diffFilter), which hands
 * off: every program it starts judged. By name: git's other scripts
 * (submodule, bisect, the merge strategies, filter-branch) run no
 * setting's command, and are git's own, their programs nested. */
bool hs_git_own(const char *path);

/* The i-th of the system's directories (/usr/local/bin/, /usr/bin/,
 * /bin/, /usr/sbin/, /sbin/, each with its '/'), NULL past the last. */
const char *hs_system_dir(size_t i);

/* Is path a file of one of those (directly), where a program is what its
 * name says? */
bool hs_system_path(const char *path);

/* Is `path`'s basename a program that runs its operands as a command,
 * changing nothing a hook would judge about it: env, nohup, nice, setsid,
 * timeout, stdbuf, ionice, chrt, taskset, xargs, time. Beneath a
 * hand-off (docs/agents.md) what they run is judged, not they. */
bool hs_chain_name(const char *path);

#endif
