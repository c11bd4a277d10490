/* The environment every child of a session gets, built on the stack.
 *
 * Whatever envp the caller passes (environ, an explicit one, `env -i`'s
 * empty one), the child sees LD_PRELOAD with the shim first, every
 * HOOKSHIM_* variable from the values cached at load (the caller's own are
 * dropped, so an agent cannot switch hookshim off or fake a role), its role
 * and checked marker, and UV_USE_IO_URING=0 (libuv's io_uring file ops
 * would bypass the write interposers). */
#ifndef HOOKSHIM_SHIM_ENVFIX_H
#define HOOKSHIM_SHIM_ENVFIX_H

#include <stddef.h>

#include "state.h"

/* Environments with more entries than this are passed unrepaired rather
 * than risk the stack of a small thread. */
#define HS_ENV_MAX_SLOTS 16384

/* Pointer slots and string bytes hs_env_build needs for envp. */
size_t hs_env_slots(char *const envp[]);
size_t hs_env_bytes(char *const envp[]);

/* Fills `slots` and `buf` and returns the new envp. `checked` is the
 * marker value ("exec:PID" / "spawn:PID"). Returns envp itself when the
 * buffers are too small (which hs_env_slots/hs_env_bytes prevent). */
char **hs_env_build(char **slots, size_t nslots, char *buf, size_t cap,
		    char *const envp[], enum hs_role role, const char *checked);

/* Adds "NAME=value" `s` (NULL: nothing) to env, a result of hs_env_build
 * for envp with nslots slots, in the slot hs_env_slots keeps spare. */
void hs_env_add(char **env, char *const envp[], size_t nslots, char *s);

/* "exec:" or "spawn:" followed by pid, into buf (>= 32 bytes). */
void hs_marker(char *buf, const char *kind, pid_t pid);

/* Removes every entry starting with `prefix` ("NAME=") from this
 * process's own environ, in place, and returns the first one's value (NULL
 * if none). Never unsetenv: it may be the program's own (bash defines it
 * for its shell variables and is not ready to run it before main), and
 * editing the array in place keeps main's envp argument, which bash
 * reads, in step with environ. */
const char *hs_environ_take(const char *prefix);

/* Declares `name` as the repaired envp of `envp`, on the stack. */
#define HS_ENV_ON_STACK(name, envp, role, checked)                          \
	size_t name##_n_ = hs_env_slots(envp);                              \
	size_t name##_b_ = hs_env_bytes(envp);                              \
	char *name##_s_[name##_n_ <= HS_ENV_MAX_SLOTS ? name##_n_ : 1];     \
	char name##_c_[name##_b_];                                          \
	char **name = hs_env_build(name##_s_,                               \
				   name##_n_ <= HS_ENV_MAX_SLOTS ? name##_n_ : 0, \
				   name##_c_, name##_b_, envp, role, checked)

#endif
