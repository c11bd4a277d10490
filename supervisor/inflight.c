/* Work in flight; see inflight.h. */
#include "inflight.h"

#include <time.h>

void hs_inflight_init(struct hs_inflight *t)
{
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	t->active = 0;
}

void hs_inflight_destroy(struct hs_inflight *t)
{
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
}

void hs_inflight_enter(struct hs_inflight *t, int max)
{
	pthread_mutex_lock(&t->mu);
	while (max > 0 && t->active >= max)
		pthread_cond_wait(&t->cv, &t->mu);
	t->active++;
	pthread_mutex_unlock(&t->mu);
}

bool hs_inflight_try_enter(struct hs_inflight *t, int max)
{
	bool in;

	pthread_mutex_lock(&t->mu);
	in = t->active < max;
	if (in)
		t->active++;
	pthread_mutex_unlock(&t->mu);
	return in;
}

void hs_inflight_leave(struct hs_inflight *t)
{
	pthread_mutex_lock(&t->mu);
	t->active--;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

void hs_realtime_after(struct timespec *ts, int ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

bool hs_inflight_drain(struct hs_inflight *t, int grace_ms)
{
	struct timespec deadline;
	bool drained;

	hs_realtime_after(&deadline, grace_ms);
	pthread_mutex_lock(&t->mu);
	while (t->active > 0 &&
	       pthread_cond_timedwait(&t->cv, &t->mu, &deadline) == 0)
		;
	drained = t->active == 0;
	pthread_mutex_unlock(&t->mu);
	return drained;
}
