/* Staged writes the session allowed at their open, so that only those are
 * published on the content hooks' word alone.
 *
 * A staged write (docs/staged-writes.md) is asked twice: its other pre
 * hooks at the open (wire STAGE "open"), its content hooks at the last
 * close (STAGE "publish"), and the shim then publishes the file itself,
 * with syscalls the floor lets through. Its descriptor may cross an exec
 * in HOOKSHIM_FDS (shim/fdcarry.h), which the agent can write: a forged
 * record calls a file of the agent's own a staged write of any path, and
 * its publish would ask the content hooks alone -- never the path guard
 * that would have refused the open. So the supervisor remembers each
 * open it allowed (its tool_use_id and path); a publish that names one
 * spends it and asks the content hooks, as before; any other publish is
 * judged as a whole write, every pre hook asked (the content hooks with
 * the content). A full table forgets its oldest: that write is then
 * judged whole at its publish, never allowed unasked. */
#ifndef HOOKSHIM_SUPERVISOR_STAGED_H
#define HOOKSHIM_SUPERVISOR_STAGED_H

#include <pthread.h>
#include <stdbool.h>

#define HS_STAGED_SLOTS 256

struct hs_staged {
	pthread_mutex_t mu;
	struct { char *id, *path; } slot[HS_STAGED_SLOTS]; /* id NULL: free */
	unsigned next; /* the slot a full table reuses */
};

void hs_staged_init(struct hs_staged *t);
void hs_staged_destroy(struct hs_staged *t);
/* The open of a staged write of path was allowed, under id. */
void hs_staged_allowed(struct hs_staged *t, const char *id, const char *path);
/* Is (id, path) an open allowed and not yet published? Spends it. */
bool hs_staged_confirm(struct hs_staged *t, const char *id, const char *path);

#endif
