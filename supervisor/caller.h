/* Who asks about an exec (caller.c). */
#ifndef HOOKSHIM_SUPERVISOR_CALLER_H
#define HOOKSHIM_SUPERVISOR_CALLER_H

#include "../common/wire.h"
#include "../engine/command.h"

/* The command text a hook sees for exec request req: for a program whose
 * argv[0] names another program than the one that runs (`exec -a nohup
 * rm …`), the program that runs -- but a multi-call binary (busybox) runs
 * the applet its argv[0] names, so that stays. malloc'd; NULL when out of
 * memory. */
char *hs_caller_command_text(const struct hs_msg *req,
			     struct hs_command_why *why);

/* Which of the agents' own shells req's argv is, if that agent started
 * it: the caller, or its parent when the caller is the new image judging
 * itself (a static agent's child, shim/init.c), runs as one of the
 * profile's processes. `hookshim test` (the caller is this process) takes
 * the call as any agent's. NULL for a tool call. */
const char *hs_caller_agent_internal(const struct hs_msg *req);

#endif
