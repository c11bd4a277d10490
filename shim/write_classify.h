/* What one intercepted write means, before the call: its path(s) named
 * as this process sees them, then its operation and the events a hook
 * may care about by the one rule the floor follows too
 * (common/write_rule.h); write_event.c asks about it and makes the
 * call. */
#ifndef HOOKSHIM_SHIM_WRITE_CLASSIFY_H
#define HOOKSHIM_SHIM_WRITE_CLASSIFY_H

#include <stdbool.h>

#include "write.h"
#include "write_scope.h"

/* Nothing c names can fire, decided without building a path. */
bool hs_wquick_dead(const struct hs_wcall *c);

/* Decides path/op/new_path of c into t; returns the HS_W_* bits wanted
 * (of `want`). */
unsigned hs_wclassify(const struct hs_wcall *c, struct hs_wticket *t,
		      unsigned want);

#endif
