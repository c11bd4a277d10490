/* The session of a bare `LD_PRELOAD=libhookshim.so CMD`; see bare.c. */
#ifndef HOOKSHIM_SUPERVISOR_BARE_H
#define HOOKSHIM_SUPERVISOR_BARE_H

#include <sys/types.h>

#include "sources.h"

/* Loads what `src` names and serves it for the process `pid` until it is
 * gone, its environment (or "-", or "!why") written on `fd`, which is
 * closed; `lib` the library to name, NULL for <bindir>/../lib's. Returns
 * the exit status for `__supervise`. */
int hs_bare_session(const struct hs_sources *src, int fd, pid_t pid,
		    const char *lib);

#endif
