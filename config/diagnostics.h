/* How a config's diagnostics are shown. `check` and `run` (and `test`)
 * all print them through here, so a CI step running `check` sees exactly
 * what a session would have said. */
#ifndef HOOKSHIM_CONFIG_DIAGNOSTICS_H
#define HOOKSHIM_CONFIG_DIAGNOSTICS_H

#include <stdio.h>

#include "model.h"

/* One line per diagnostic, in load order:
 *   "hookshim: error: FILE:LINE:COL: message"
 *   "hookshim: warning: FILE:LINE:COL: message" */
void hs_config_print_diags(FILE *f, const struct hs_config *cfg);

/* "2 errors, 1 warning" (also "0 errors, 0 warnings") into buf. */
void hs_config_diag_summary(const struct hs_config *cfg, char *buf,
			    size_t len);

#endif
