/* The agent's own opens for reading as pre events; see read_event.c. */
#ifndef HOOKSHIM_SHIM_READ_EVENT_H
#define HOOKSHIM_SHIM_READ_EVENT_H

#include <fcntl.h>
#include <stdbool.h>

/* Before an open for reading of `path` (relative to dirfd) with `flags`:
 * 0, go ahead; -1, denied (errno set). Async-signal-safe. */
int hs_rbegin(int dirfd, const char *path, int flags);

#endif
