/* Internal interface between the exec-family interposers (exec.c,
 * spawn.c, init.c): what the rules of docs/design-exec.md decide for one
 * command, and the helpers that act on it. All async-signal-safe. */
#ifndef HOOKSHIM_SHIM_EXEC_H
#define HOOKSHIM_SHIM_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "client.h"
#include "state.h"

/* argv.c: if (exe, argv) is a shell given a command string ("bash -c STR",
 * "sh -lc STR", "bash -o pipefail -c STR"), the index of STR in argv;
 * else -1. The shell is recognised by the basename of exe or argv[0]. */
int hs_shell_command(const char *exe, char *const argv[]);

/* The decision about one command. */
struct hs_decision {
	bool event;            /* it is a tool call or an enabled nested exec */
	bool nested;
	bool deny;
	bool post;             /* run it under `hookshim __exec` */
	enum hs_role child_role;
	char id[64];           /* tool_use_id for pre and post */
	struct hs_reply rep;   /* reason, deny exit/errno */
};

/* The scope rules: does an exec of `exe` with `argv` by this process
 * fire an event? Also says whether it would be a nested one and which
 * role the new image takes. Its one side effect: an agent's tool call
 * is handed the agent's waiting denials on fd 2 (hs_pending_offer). */
bool hs_exec_event(const char *exe, char *const argv[], bool *nested,
		   enum hs_role *child_role);

/* Applies the scope rules for an exec of `exe` with `argv` by this process
 * and asks the supervisor when a pre hook may care. */
void hs_exec_decide(const char *exe, char *const argv[],
		    struct hs_decision *d);

/* The argv an allowed exec runs: argv itself, or, when a hook rewrote
 * the command (updatedInput), argv with its shell command replaced by
 * the new one. `out` has room for hs_argc(argv) + 1 pointers.
 * Async-signal-safe. */
char *const *hs_exec_argv(const struct hs_decision *d, const char *exe,
			  char *const argv[], char **out);

/* Writes the deny reason (newline-terminated) to fd 2. */
void hs_print_reason(const struct hs_decision *d);

/* Is `path` (relative to dirfd) something exec would start? access(2)
 * with the effective ids; flags as for faccessat (AT_EMPTY_PATH). */
bool hs_executable(int dirfd, const char *path, int flags);

/* Number of argv elements (NULL argv counts as none). */
size_t hs_argc(char *const argv[]);

/* argv for `hookshim __exec --id ID [--nested] -- EXE ARGV...` in `out`
 * (hs_argc(argv) + 9 slots); returns out. */
char **hs_post_argv(char **out, const struct hs_decision *d, const char *exe,
		    char *const argv[]);

/* argv for `hookshim __deny EXIT REASON` in out (5 slots), using numbuf
 * (>= 24 bytes) for the exit status. */
char **hs_deny_argv(char **out, char *numbuf, const struct hs_decision *d);

/* Next candidate of a PATH search for `file`: copies "dir/file" for the
 * element at *path into buf (PATH_MAX) and advances *path. 0 if there was
 * one, 1 if this element is skipped (name too long), -1 at the end. */
int hs_path_next(const char **path, const char *file, char *buf);
/* PATH of the calling process, or the glibc default. */
const char *hs_path_env(void);

#endif
