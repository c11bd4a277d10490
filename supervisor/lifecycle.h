/* A session from its first step to its last, written once for both ways
 * one starts: `hookshim run` (cli/run.c, which also starts the agent and
 * its floor between serve and stop) and the supervisor of a bare
 * `LD_PRELOAD=libhookshim.so CMD` (cli/supervise.c on bare.c).
 *
 *   hs_life_begin   join the session we run inside, out of reach, the
 *                   session and its log and transcript, self-protection,
 *                   the socket's name, HOOKSHIM_FLAGS
 *   hs_life_write   HOOKSHIM_WRITE (once the settings are final)
 *   hs_life_serve   the OpenTelemetry export, then the socket
 *   hs_life_fire    SessionStart ... SessionEnd
 *   hs_life_stop    requests still deciding get their grace; nothing the
 *                   session started outlives it
 *   hs_life_end     everything begin made, freed (only after a stop that
 *                   drained, or when serve never ran)
 */
#ifndef HOOKSHIM_SUPERVISOR_LIFECYCLE_H
#define HOOKSHIM_SUPERVISOR_LIFECYCLE_H

#include <stdbool.h>

#include "session.h"

struct hs_outer;
struct hs_protect;
struct hs_supervisor;

struct hs_life {
	struct hs_session s;
	struct hs_config *cfg;
	struct hs_outer *outer; /* the session we run inside, or NULL */
	struct hs_protect *prot;
	struct hs_supervisor *sv;
	char sock[128];  /* the abstract socket's name */
	char flags[256]; /* HOOKSHIM_FLAGS, joined with the outer's */
	char *write;     /* HOOKSHIM_WRITE, joined with the outer's */
	bool begun;
};

/* `log` (or NULL) is the --log file, its transcript kept beside it;
 * `junit` (or NULL) a report file protected with the log. `floor`: a
 * session that may install the floor (run, not the bare preload), whose
 * agent's user namespace is made before we go out of reach
 * (floor/floor_userns.c). 0, or -1 with *why (static text) -- nothing to
 * end then. */
int hs_life_begin(struct hs_life *l, struct hs_config *cfg, const char *log,
		  const char *junit, bool floor, const char **why);
/* The write filter children get; NULL when there is none (or out of
 * memory). Computed on first use: call it once the settings are final. */
const char *hs_life_write(struct hs_life *l);
/* 0, or -1 (nothing listens). */
int hs_life_serve(struct hs_life *l);
/* A SessionStart or SessionEnd; what a hook gives the model as session
 * context is said on stderr (only to a terminal when `tty_only`). */
void hs_life_fire(struct hs_life *l, enum hs_kind kind, bool tty_only);
/* Stops serving: requests still being decided get grace_ms, the export's
 * last records export_ms. True when everything drained and `others_done`
 * (the floor's threads); else the hooks still running are killed and the
 * transcript left to the process's exit -- threads may still hold the
 * config, so do not hs_life_end. */
bool hs_life_stop(struct hs_life *l, int grace_ms, int export_ms,
		  bool others_done);
void hs_life_end(struct hs_life *l);

#endif
