/* Printing a config's diagnostics; see diagnostics.h. */
#include "diagnostics.h"

void hs_config_print_diags(FILE *f, const struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->ndiags; i++)
		fprintf(f, "hookshim: %s: %s\n",
			cfg->diags[i].error ? "error" : "warning",
			cfg->diags[i].text);
	fflush(f);
}

void hs_config_diag_summary(const struct hs_config *cfg, char *buf,
			    size_t len)
{
	size_t errors, warnings;

	hs_config_diag_counts(cfg, &errors, &warnings);
	snprintf(buf, len, "%zu error%s, %zu warning%s", errors,
		 errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
}
