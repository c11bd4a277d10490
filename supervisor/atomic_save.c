/* Atomic saves judged at their temp file: see atomic_save.h. */
#include "atomic_save.h"

#include <stdlib.h>
#include <string.h>

static time_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static void clear(struct hs_atomic_save *e)
{
	free(e->temp);
	free(e->final);
	free(e->id);
	memset(e, 0, sizeof(*e));
}

/* A live caller's pre of a write (the shim and the floor name its pid). */
static bool is_pre_write(const struct hs_msg *req)
{
	return req->op && strcmp(req->op, "write") == 0 && req->phase &&
	       strcmp(req->phase, "pre") == 0 && req->path && req->pid > 0;
}

void hs_atomic_init(struct hs_atomic_saves *a)
{
	memset(a, 0, sizeof(*a));
	pthread_mutex_init(&a->mu, NULL);
}

void hs_atomic_destroy(struct hs_atomic_saves *a)
{
	for (unsigned i = 0; i < HS_ATOMIC_SLOTS; i++)
		clear(&a->slot[i]);
	pthread_mutex_destroy(&a->mu);
}

void hs_atomic_decided(struct hs_atomic_saves *a, const struct hs_msg *req,
		       const struct hs_answer *ans)
{
	struct hs_atomic_save *e = NULL;
	time_t t = now();

	if (!req->temp_create || !is_pre_write(req) || ans->verdict == HS_DENY)
		return;
	pthread_mutex_lock(&a->mu);
	/* a free or stale slot, else the oldest in turn: a save that never
	 * renamed its temp file must not keep a later one from the memory */
	for (unsigned i = 0; i < HS_ATOMIC_SLOTS && !e; i++)
		if (!a->slot[i].temp || t - a->slot[i].at > HS_ATOMIC_TTL)
			e = &a->slot[i];
	if (!e)
		e = &a->slot[a->next++ % HS_ATOMIC_SLOTS];
	clear(e);
	e->temp = strdup(req->temp_create);
	e->final = strdup(req->path);
	e->id = ans->id ? strdup(ans->id) : NULL;
	if (e->temp && e->final && (!ans->id || e->id))
		e->at = t;
	else
		clear(e); /* out of memory: judged at the rename */
	pthread_mutex_unlock(&a->mu);
}

bool hs_atomic_published(struct hs_atomic_saves *a, const struct hs_msg *req,
			 char **id)
{
	time_t t = now();
	bool hit = false;

	*id = NULL;
	if (!req->temp_publish || !is_pre_write(req))
		return false;
	pthread_mutex_lock(&a->mu);
	for (unsigned i = 0; i < HS_ATOMIC_SLOTS && !hit; i++) {
		struct hs_atomic_save *e = &a->slot[i];

		if (!e->temp || t - e->at > HS_ATOMIC_TTL ||
		    strcmp(e->temp, req->temp_publish) != 0 ||
		    strcmp(e->final, req->path) != 0)
			continue;
		*id = e->id;
		e->id = NULL;
		clear(e);
		hit = true;
	}
	pthread_mutex_unlock(&a->mu);
	return hit;
}
