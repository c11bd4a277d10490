/* What one intercepted write means, before the call: its path(s), its
 * operation and the events a hook may care about (write_classify.c, the
 * shim's rules, which floor/floor_event.c follows for the floor);
 * write_event.c asks about it and makes the call. */
#ifndef HOOKSHIM_SHIM_WRITE_CLASSIFY_H
#define HOOKSHIM_SHIM_WRITE_CLASSIFY_H

#include <stdbool.h>

#include "write.h"
#include "write_scope.h"

/* Outside opens, a content hook is one more pre hook (no content to
 * wait for). */
static inline unsigned stage_as_pre(unsigned m)
{
	return m & HS_W_STAGE ? (m & ~HS_W_STAGE) | HS_W_PRE : m;
}

/* Nothing c names can fire, decided without building a path. */
bool hs_wquick_dead(const struct hs_wcall *c);

/* Decides path/op/new_path of c into t; returns the HS_W_* bits wanted
 * (of `want`). */
unsigned hs_wclassify(const struct hs_wcall *c, struct hs_wticket *t,
		      unsigned want);

#endif
