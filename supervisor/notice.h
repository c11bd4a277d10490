/* Terminal notices: one dim line on the controlling terminal when a hook
 * denies, fails, times out or adds context, so the user sees what the
 * hooks did even when the agent does not show it (mnemoai: "When a hook
 * does something, you see it").
 *
 * Never on the agent's stdout or stderr (the model would read it as the
 * tool's output) and never into a full-screen UI: while the terminal is
 * in raw mode — every TUI turns canonical input off before it draws its
 * alternate screen — a notice waits for the session-end summary instead
 * of being drawn over the UI. */
#ifndef HOOKSHIM_SUPERVISOR_NOTICE_H
#define HOOKSHIM_SUPERVISOR_NOTICE_H

#include <pthread.h>
#include <stdbool.h>

struct cJSON;

struct hs_notices {
	pthread_mutex_t mu;
	bool enabled;
	struct cJSON *queued; /* records held back from a raw-mode terminal */
	unsigned shown;
};

/* `enabled` false: nothing is ever written or queued. */
void hs_notices_init(struct hs_notices *n, bool enabled);
void hs_notices_free(struct hs_notices *n);

/* Shows or queues a notice for a log record, when it deserves one. */
void hs_notice(struct hs_notices *n, const struct cJSON *rec);

/* At session end: the notices that were held back, on the terminal (or
 * stderr if it went away). Returns how many. */
unsigned hs_notices_flush(struct hs_notices *n);

#endif
