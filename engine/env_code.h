/* Which environment entries carry code into the programs that read them
 * (engine/env_code.c): the floor asks of a confirmed tool call's
 * environment (floor/floor_handoff.c), the text rules of an assignment
 * whose value the hook did not see (engine/opaque.c). Pure. */
#ifndef HOOKSHIM_ENGINE_ENV_CODE_H
#define HOOKSHIM_ENGINE_ENV_CODE_H

#include <stdbool.h>
#include <stddef.h>

/* Does entry e (NAME=VALUE, len bytes) carry code into a shell, the
 * dynamic loader, an interpreter, or a program others run by the
 * variable's name (a pager, an editor, git's, less's)? */
bool hs_env_code(const char *e, size_t len);
/* Could variable NAME (n bytes) carry code with some value: one of
 * those above, or one of git's settings by the environment
 * (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>)? */
bool hs_env_code_name(const char *name, size_t n);
/* Do git's settings by environment buf (len bytes: NUL-separated
 * entries), GIT_CONFIG_KEY_<n> = GIT_CONFIG_VALUE_<n> below
 * GIT_CONFIG_COUNT, carry code? */
bool hs_env_git_carries(const char *buf, size_t len);

#endif
