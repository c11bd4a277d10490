/* Staged writes the session allowed at their open; see staged.h. */
#include "staged.h"

#include <stdlib.h>
#include <string.h>

void hs_staged_init(struct hs_staged *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->mu, NULL);
}

static void clear(struct hs_staged *t, unsigned i)
{
	free(t->slot[i].id);
	free(t->slot[i].path);
	t->slot[i].id = t->slot[i].path = NULL;
}

void hs_staged_destroy(struct hs_staged *t)
{
	for (unsigned i = 0; i < HS_STAGED_SLOTS; i++)
		clear(t, i);
	pthread_mutex_destroy(&t->mu);
}

void hs_staged_allowed(struct hs_staged *t, const char *id, const char *path)
{
	char *i2 = id ? strdup(id) : NULL, *p2 = path ? strdup(path) : NULL;
	unsigned at;

	if (!i2 || !p2) { /* not remembered: judged whole at its publish */
		free(i2);
		free(p2);
		return;
	}
	pthread_mutex_lock(&t->mu);
	for (at = 0; at < HS_STAGED_SLOTS && t->slot[at].id; at++)
		;
	if (at == HS_STAGED_SLOTS) {
		at = t->next++ % HS_STAGED_SLOTS;
		clear(t, at);
	}
	t->slot[at].id = i2;
	t->slot[at].path = p2;
	pthread_mutex_unlock(&t->mu);
}

bool hs_staged_confirm(struct hs_staged *t, const char *id, const char *path)
{
	bool found = false;

	if (!id || !path)
		return false;
	pthread_mutex_lock(&t->mu);
	for (unsigned i = 0; i < HS_STAGED_SLOTS && !found; i++)
		if (t->slot[i].id && strcmp(t->slot[i].id, id) == 0 &&
		    strcmp(t->slot[i].path, path) == 0) {
			clear(t, i);
			found = true;
		}
	pthread_mutex_unlock(&t->mu);
	return found;
}
