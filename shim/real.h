/* The libc functions the shim forwards to: one slot per FWD row of
 * interposed.h, resolved as dlsym(RTLD_NEXT) (dlvsym, given a version)
 * would.
 *
 * Resolution happens in the constructor, while the process is still
 * single-threaded, so the exec paths never call into the dynamic loader
 * (whose lock a fork child of a threaded parent may find held). A call
 * that comes before the constructor (another library's constructor
 * calling execve or open) resolves on first use instead; that is the only
 * lazy case.
 *
 * The interposers forward through HS_REAL(name), and so does the shim's
 * own I/O on descriptors it opens itself: calling close() or open() by
 * name would bind to the shim's own interposers and run the write
 * tracking on descriptors the program never saw. Where the shim acts in
 * the program's place it calls its interposer by name, on purpose: the
 * _exit of a denied exec (a shell's redirect still reports its write),
 * pclose's fclose of the program's stream, posix_spawnp handing a path
 * to posix_spawn. */
#ifndef HOOKSHIM_SHIM_REAL_H
#define HOOKSHIM_SHIM_REAL_H

#include "interposed.h"

#define HS_REAL_ID_FWD(name) HS_R_##name,
#define HS_REAL_ID_OWN(name)
#define HS_REAL_ID(name, version, family, real) HS_REAL_ID_##real(name)

enum hs_real_id { HS_INTERPOSED(HS_REAL_ID) HS_R_COUNT };

/* The next definition of symbol `id`, or NULL if libc has none (execveat
 * on an old glibc). Lock-free after hs_real_init(). */
void *hs_real(enum hs_real_id id);

/* Resolves every slot; called from the first constructor (init.c). */
void hs_real_init(void);

/* The next definition of `name`, typed as libc declares it (the caller
 * includes libc's header): HS_REAL(close)(fd). */
#define HS_REAL(name) ((__typeof__(&name))hs_real(HS_R_##name))

#endif
