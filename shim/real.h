/* The libc functions the shim wraps, resolved with dlsym(RTLD_NEXT).
 *
 * Resolution happens in the constructor, while the process is still
 * single-threaded, so the exec paths never call into the dynamic loader
 * (whose lock a fork child of a threaded parent may find held). A wrapper
 * that runs before the constructor (another library's constructor calling
 * execve) resolves on first use instead; that is the only lazy case. */
#ifndef HOOKSHIM_SHIM_REAL_H
#define HOOKSHIM_SHIM_REAL_H

#include <spawn.h>
#include <stdio.h>
#include <sys/types.h>

typedef int (*hs_execve_fn)(const char *, char *const[], char *const[]);
typedef int (*hs_execveat_fn)(int, const char *, char *const[], char *const[],
			      int);
typedef int (*hs_fexecve_fn)(int, char *const[], char *const[]);
typedef int (*hs_spawn_fn)(pid_t *, const char *,
			   const posix_spawn_file_actions_t *,
			   const posix_spawnattr_t *, char *const[],
			   char *const[]);
typedef int (*hs_system_fn)(const char *);
typedef FILE *(*hs_popen_fn)(const char *, const char *);
typedef int (*hs_pclose_fn)(FILE *);

/* One slot per wrapped symbol; the write interposers add theirs here. */
enum hs_real_id {
	HS_R_EXECVE,
	HS_R_EXECVEAT,
	HS_R_FEXECVE,
	HS_R_POSIX_SPAWN,
	HS_R_POSIX_SPAWNP,
	HS_R_SYSTEM,
	HS_R_POPEN,
	HS_R_PCLOSE,
	HS_R_COUNT
};

/* The next definition of symbol `id`, or NULL if libc has none (execveat on
 * an old glibc). Lock-free after hs_real_init(). */
void *hs_real(enum hs_real_id id);

/* Resolves every slot; called from the constructor. */
void hs_real_init(void);

#define HS_REAL(id, type) ((type)hs_real(id))

#endif
