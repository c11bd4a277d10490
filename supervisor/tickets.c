/* The tickets of enforce mode; see tickets.h. A small table under one
 * mutex: a ticket lives from the answer to the shim until its call's
 * notification, microseconds on an idle machine, so few are ever live;
 * the oldest gives way when the table is full (its call is then judged
 * again: a second hook run, never an unjudged call). */
#include "tickets.h"

#include "../common/clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TICKETS 512

struct ticket {
	bool live;
	bool stage;            /* also <dir of path>/.hs-stage-<tgid>-N */
	unsigned char side;    /* enum hs_ticket_side */
	pid_t tgid;
	char op[40];     /* what was judged: "exec:call", "write:create" */
	char *path, *path2, *id;
	long expires;          /* hs_now_ms() */
	unsigned long long seq; /* age, for the full table */
};

struct hs_tickets {
	pthread_mutex_t mu;
	unsigned long long seq;
	struct ticket t[MAX_TICKETS];
};

static void drop(struct ticket *k)
{
	free(k->path);
	free(k->path2);
	free(k->id);
	memset(k, 0, sizeof(*k));
}

struct hs_tickets *hs_tickets_new(void)
{
	struct hs_tickets *t = calloc(1, sizeof(*t));

	if (t)
		pthread_mutex_init(&t->mu, NULL);
	return t;
}

void hs_tickets_free(struct hs_tickets *t)
{
	if (!t)
		return;
	for (int i = 0; i < MAX_TICKETS; i++)
		drop(&t->t[i]);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void hs_tickets_give(struct hs_tickets *t, enum hs_ticket_side side,
		     pid_t tgid, const char *op, const char *path,
		     const char *path2, const char *id, bool stage)
{
	struct ticket *k = NULL;
	long now = hs_now_ms();

	if (!t || !op || !path || strlen(op) >= sizeof(k->op))
		return;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < MAX_TICKETS; i++) {
		struct ticket *e = &t->t[i];

		if (e->live && e->expires < now)
			drop(e);
		if (!e->live) {
			if (!k || k->live)
				k = e;
		} else if (!k || (k->live && e->seq < k->seq)) {
			k = e; /* the oldest, should none be free */
		}
	}
	drop(k);
	*k = (struct ticket){ .live = true, .stage = stage,
			      .side = (unsigned char)side, .tgid = tgid,
			      .path = dup_or_null(path),
			      .path2 = dup_or_null(path2), .id = dup_or_null(id),
			      .expires = now + HS_TICKET_TTL_MS,
			      .seq = ++t->seq };
	snprintf(k->op, sizeof(k->op), "%s", op);
	if (!k->path || (path2 && !k->path2)) {
		drop(k); /* no memory: the call is judged again */
	}
	pthread_mutex_unlock(&t->mu);
}

/* The shim's staging name for a write to `target` by tgid: in target's
 * directory, ".hs-stage-<tgid>-" and a counter (shim/write_stage.c). */
static bool stage_name_of(const char *name, const char *target, pid_t tgid)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	char pre[40];
	int n;

	if (!name || strncmp(name, target, dir) != 0)
		return false;
	n = snprintf(pre, sizeof(pre), ".hs-stage-%d-", (int)tgid);
	return strncmp(name + dir, pre, (size_t)n) == 0 &&
	       !strchr(name + dir, '/');
}

static bool same(const char *a, const char *b)
{
	return a ? b && strcmp(a, b) == 0 : !b;
}

static bool covers(const struct ticket *k, const char *path,
		   const char *path2, const char *via)
{
	/* a staged write's publish: linked as its staging name, then that
	 * name renamed over the target */
	if (k->stage)
		return !path2 &&
		       (stage_name_of(path, k->path, k->tgid) ||
			(same(path, k->path) &&
			 stage_name_of(via, k->path, k->tgid)));
	return same(k->path, path) && same(k->path2, path2);
}

bool hs_tickets_take(struct hs_tickets *t, enum hs_ticket_side taker,
		     pid_t tgid, const char *op, const char *path,
		     const char *path2, const char *via, char **id)
{
	long now = hs_now_ms();
	struct ticket *best = NULL;

	*id = NULL;
	if (!t || !op)
		return false;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < MAX_TICKETS; i++) {
		struct ticket *k = &t->t[i];

		if (!k->live)
			continue;
		if (k->expires < now) {
			drop(k);
			continue;
		}
		if (k->side == (unsigned char)taker || k->tgid != tgid ||
		    strcmp(k->op, op) != 0 || !covers(k, path, path2, via))
			continue;
		if (!best || k->seq < best->seq)
			best = k; /* the oldest first: calls come in order */
	}
	if (best) {
		*id = best->id;
		best->id = NULL;
		drop(best);
	}
	pthread_mutex_unlock(&t->mu);
	return best != NULL;
}
