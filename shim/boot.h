/* Bare LD_PRELOAD without `hookshim run`: the first process starts its own
 * session; see boot.c. */
#ifndef HOOKSHIM_SHIM_BOOT_H
#define HOOKSHIM_SHIM_BOOT_H

#include <stdbool.h>

/* From the constructor only, after the state and the real functions are
 * loaded. True when this process just joined a session it started (its
 * environ now holds the session; the caller reloads the state). */
bool hs_boot(void);

#endif
