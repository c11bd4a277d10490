/* Work in flight on detached threads (the socket server's connections,
 * the floor's deciding threads): counted, capped, and waited for, with a
 * grace, when the session ends. */
#ifndef HOOKSHIM_SUPERVISOR_INFLIGHT_H
#define HOOKSHIM_SUPERVISOR_INFLIGHT_H

#include <pthread.h>
#include <time.h>
#include <stdbool.h>

struct hs_inflight {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int active;
};

void hs_inflight_init(struct hs_inflight *t);
void hs_inflight_destroy(struct hs_inflight *t);

/* One more in flight; with max > 0, first waits while max already are. */
void hs_inflight_enter(struct hs_inflight *t, int max);
/* One more in flight unless max already are: false then. */
bool hs_inflight_try_enter(struct hs_inflight *t, int max);
void hs_inflight_leave(struct hs_inflight *t);

/* Waits up to grace_ms for nothing to be in flight. True when nothing
 * is; false means threads still run (the caller must keep what they
 * use alive, and leave it to exit). */
bool hs_inflight_drain(struct hs_inflight *t, int grace_ms);

/* ms from now on CLOCK_REALTIME, the clock of pthread's timed waits. */
void hs_realtime_after(struct timespec *ts, int ms);

#endif
