/* How hookshim's own helpers (PATH wrappers, `__exec`, `hookshim run`
 * nested in a session) reach a decision: the session's supervisor over
 * its socket, or in-process from the default config. */
#ifndef HOOKSHIM_SUPERVISOR_CONSULT_H
#define HOOKSHIM_SUPERVISOR_CONSULT_H

#include "message.h"

/* Asks the supervisor named by `name` (an abstract socket name, as in
 * HOOKSHIM_SOCK). 0 with `ans` filled, -1 if it could not be asked. */
int hs_client_ask(const char *name, const struct hs_msg *req,
		  struct hs_answer *ans);

/* For hookshim's own helpers (PATH wrappers, __exec): asks this session's
 * supervisor when HOOKSHIM_SOCK answers, else decides in-process from the
 * default config (loaded once). Always fills `ans`. */
void hs_consult(const struct hs_msg *req, struct hs_answer *ans);

/* Interest bits (HS_INTEREST_*) of whoever hs_consult would ask. */
unsigned hs_consult_interest(void);

#endif
