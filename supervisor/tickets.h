/* One decision, two askers: the tickets of enforce mode.
 *
 * In enforce mode (config/model.h, HS_MODE_ENFORCE) the floor is given
 * every call, the shim's too: no value a process can present lets a call
 * past the kernel. A call the shim has just asked about must not run the
 * hooks twice, so when the supervisor allows a shim's request it keeps a
 * ticket -- who asked (the kernel's SO_PEERCRED of the connection, never
 * a field of the request), what (the operation and the names judged) --
 * and the notification of that very call takes it: allowed without a
 * second hook run, one tool_use_id. The other way too: an exec the floor
 * judged (a static caller's) answers the constructor of the shim in the
 * new image, which asks about the exec that started it.
 *
 * A ticket is evidence only the supervisor holds, and only of what a hook
 * allowed: a process that forges a request still has its call judged --
 * by the request it sent, with the names it sent, which are then the
 * names the kernel is given (the notification is matched on the names
 * the floor reads out of the call, not on the request's). Each ticket is
 * taken once and lives HS_TICKET_TTL_MS; a call no ticket covers is
 * judged by the floor, never allowed for lack of one.
 *
 * Not async-signal-safe: supervisor threads only. */
#ifndef HOOKSHIM_SUPERVISOR_TICKETS_H
#define HOOKSHIM_SUPERVISOR_TICKETS_H

#include <stdbool.h>
#include <sys/types.h>

/* Who decided: the other side takes the ticket. */
enum hs_ticket_side { HS_TICKET_SHIM = 1, HS_TICKET_FLOOR = 2 };

/* Long enough for the call that follows its answer (a scheduler's worst
 * case on a loaded machine), short enough that a ticket nobody took --
 * a call that failed in libc before its syscall -- is soon gone. */
#define HS_TICKET_TTL_MS 5000

struct hs_tickets;

struct hs_tickets *hs_tickets_new(void);
void hs_tickets_free(struct hs_tickets *t);

/* `side` allowed thread group `tgid` the operation `op` (what the hooks
 * judged: "exec:call", "exec:nested", "write:create", ... -- session.c's
 * ticket_key) on `path` (for a rename or link also `path2`, the new name;
 * for an exec a digest of its argv; NULL otherwise); a request that names
 * no path gets no ticket (no call is covered by a wildcard). `id` is the
 * decision's tool_use_id (copied; may be NULL). `stage`: the call was
 * a staged write's publish (docs/staged-writes.md): the ticket covers
 * the shim's link to `<dir>/.hs-stage-<tgid>-N`, or that name's rename
 * over `path`, and nothing else -- not an open of `path`, which would
 * write bytes the content hooks never saw. */
void hs_tickets_give(struct hs_tickets *t, enum hs_ticket_side side,
		     pid_t tgid, const char *op, const char *path,
		     const char *path2, const char *id, bool stage);

/* A ticket of the other side for exactly this call: taken (true, *id
 * malloc'd or NULL), or false. `via`: the temp file a rename publishes
 * over `path` (the request's temp_publish), or NULL. */
bool hs_tickets_take(struct hs_tickets *t, enum hs_ticket_side taker,
		     pid_t tgid, const char *op, const char *path,
		     const char *path2, const char *via, char **id);

#endif
