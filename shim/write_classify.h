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

/* Nothing c names can fire, decided without building a path; `follow`:
 * its names are walked as follow_symlinks walks them (a symlink below a
 * dead directory may lead anywhere). */
bool hs_wquick_dead(const struct hs_wcall *c, bool follow);

/* Decides path/op/new_path of c into t; returns the HS_W_* bits wanted
 * (of `want`). `follow`: the names walked as follow_symlinks walks them,
 * and the call pinned to what they resolved to (write_pin.h); otherwise
 * named as written. */
unsigned hs_wclassify(const struct hs_wcall *c, struct hs_wticket *t,
		      unsigned want, bool follow);

#endif
