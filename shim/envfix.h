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

#include <stdbool.h>
#include <stddef.h>

#include "state.h"

/* Environments with more entries (or string bytes) than this are repaired
 * in an anonymous mapping instead of on the stack, which a small thread
 * might not have: any size is repaired, none passes without the shim. */
#define HS_ENV_MAX_SLOTS 16384
#define HS_ENV_MAX_BYTES 65536

/* A mapping for a large repaired environment (mmap: async-signal-safe,
 * fine in a vfork child, which unmaps it again if its exec fails). */
struct hs_env_map {
	char **slots; /* NULL: not mapped (not needed, or mmap failed) */
	char *bytes;
	size_t len;
};
struct hs_env_map hs_env_map(bool big, size_t nslots, size_t nbytes);
void hs_env_unmap(struct hs_env_map *m);

/* Pointer slots and string bytes hs_env_build needs for envp. */
size_t hs_env_slots(char *const envp[]);
size_t hs_env_bytes(char *const envp[]);

/* Fills `slots` and `buf` and returns the new envp. `checked` is the
 * marker value ("exec:PID" / "spawn:PID"). NULL when the buffers are too
 * small (only when a large environment's mapping failed): the caller
 * fails the exec with E2BIG rather than run it without the shim. */
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

/* Declares `name` as the repaired envp of `envp`, on the stack, or in a
 * mapping unmapped when the scope ends; NULL if it could not be repaired. */
#define HS_ENV_ON_STACK(name, envp, role, checked)                          \
	size_t name##_n_ = hs_env_slots(envp);                              \
	size_t name##_b_ = hs_env_bytes(envp);                              \
	bool name##_big_ = name##_n_ > HS_ENV_MAX_SLOTS ||                  \
			   name##_b_ > HS_ENV_MAX_BYTES;                    \
	char *name##_s_[name##_big_ ? 1 : name##_n_];                       \
	char name##_c_[name##_big_ ? 1 : name##_b_];                        \
	struct hs_env_map name##_m_ __attribute__((cleanup(hs_env_unmap))) = \
		hs_env_map(name##_big_, name##_n_, name##_b_);              \
	char **name = hs_env_build(                                         \
		name##_big_ ? name##_m_.slots : name##_s_,                  \
		!name##_big_ ? name##_n_ : name##_m_.slots ? name##_n_ : 0, \
		name##_big_ ? name##_m_.bytes : name##_c_, name##_b_, envp, \
		role, checked)

#endif
