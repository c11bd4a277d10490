/* Descriptors opened for writing whose close a post hook waits for.
 *
 * A fixed table, lock-free: each entry holds up to four descriptor numbers
 * (the one open() returned and dup2/dup3 copies, as bash makes for
 * `echo x > f`) packed into one 64-bit word changed only by CAS, so a
 * close in one thread, a dup2 in another and a fork in a third can neither
 * deadlock nor fire a post twice: whoever removes the last number owns the
 * entry and fires. Async-signal-safe. Entries remember the pid that made
 * them: a vfork child (which shares our memory) leaves them alone, a fork
 * child starts with an empty table (pthread_atfork). */
#ifndef HOOKSHIM_SHIM_FDTRACK_H
#define HOOKSHIM_SHIM_FDTRACK_H

#include <limits.h>
#include <stdbool.h>

/* hs_fdt_info.flags */
#define HS_FDT_POST   1u /* a post hook waits for the close */
#define HS_FDT_STAGED 2u /* the descriptor is a staged write's file: the
			  * last close publishes it (write_stage.h) */
#define HS_FDT_EXCL   4u /* staged: only if the target still is not there */
#define HS_FDT_COPY   8u /* staged: publish by copying into the target */
#define HS_FDT_DENIED 16u /* staged: its pre denied it at the close (no post) */

struct hs_fdt_info {
	char id[64];
	char op[16];
	unsigned flags;
	char path[PATH_MAX];
};

/* Any entry at all? The close() fast path: one relaxed load. */
bool hs_fdt_active(void);

/* Track `fd` (flags: HS_FDT_*). If the number was still tracked (closed
 * behind our back by a raw syscall), that entry is returned in `stale`
 * and the result has HS_FDT_ADD_STALE; the caller fires its post. A full
 * table drops the new entry (no post, never a hang): no HS_FDT_ADDED. */
#define HS_FDT_ADDED 1
#define HS_FDT_ADD_STALE 2
int hs_fdt_add(int fd, const char *path, const char *op, const char *id,
	       unsigned flags, struct hs_fdt_info *stale);

/* `fd` is about to be closed (or overwritten by dup2). True when it was
 * the last number of its entry: `out` holds what the post needs. Call it
 * before the real close, so the number cannot be reused meanwhile. */
bool hs_fdt_release(int fd, struct hs_fdt_info *out);

/* `newfd` now refers to what `oldfd` does. */
void hs_fdt_dup(int oldfd, int newfd);

/* Takes any entry of this process (at exit); *fd is one of its
 * descriptor numbers. */
bool hs_fdt_take_any(struct hs_fdt_info *out, int *fd);

#define HS_FDT_LANES 4

/* Reads, without taking, the entries of this process from *pos on (start
 * at 0): true with the next one's descriptor numbers in fds (n of them)
 * and what its post needs in out. For an exec handing them over. */
bool hs_fdt_next(int *pos, int fds[HS_FDT_LANES], int *n,
		 struct hs_fdt_info *out);

/* Registers the fork handler; called from the constructor. */
void hs_fdt_init(void);

#endif
