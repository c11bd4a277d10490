/* Staged writes: the files behind them (docs/staged-writes.md).
 *
 * An open for writing that a content-reading pre hook may see
 * (HS_W_STAGE) gets, instead of the target, an unnamed file (O_TMPFILE)
 * in the target's directory; its last close publishes it, once the hook
 * allowed: linked under a hidden name and renamed over the target (one
 * atomic step), or copied into the target where a rename would change
 * what the target is (hard links, another owner, no O_TMPFILE there). A
 * denied write is discarded: nothing of it ever has the target's name. */
#ifndef HOOKSHIM_SHIM_WRITE_STAGE_H
#define HOOKSHIM_SHIM_WRITE_STAGE_H

#include <stdbool.h>
#include <sys/stat.h>

/* The staging file for a write of `abs` opened with `fl` and `mode`;
 * `old` is the target's stat when it exists (its mode and owner are
 * kept, and without O_TRUNC its content copied in). The descriptor, with
 * *flags holding HS_FDT_STAGED and how to publish, or -1 and errno (the
 * open fails as the real one would have). */
int hs_stage_make(const char *abs, int fl, mode_t mode,
		  const struct stat *old, unsigned *flags);

/* Publishes staged descriptor fd at abs. 0, or -1 and errno. */
int hs_stage_publish(int fd, const char *abs, unsigned flags);

#endif
