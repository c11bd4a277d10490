/* Asking the human at the terminal when a hook says "ask". */
#ifndef HOOKSHIM_SUPERVISOR_PROMPT_H
#define HOOKSHIM_SUPERVISOR_PROMPT_H

#include <stdbool.h>

#include "session.h"

/* Can a human be asked? The supervisor must have a controlling terminal
 * and sit on a tty; otherwise (CI, pipes) nobody would ever answer. */
bool hs_prompt_possible(void);

/* The verdict an "ask" becomes: the user's answer on /dev/tty, one prompt
 * at a time, or the config's ask_default when nobody can be asked or the
 * user does not answer in time. *asked tells which. */
enum hs_verdict hs_prompt_resolve(struct hs_session *s,
				  const struct hs_event *ev,
				  const char *reason, bool *asked);

#endif
