/* Where a session's config comes from, and loading it: the files named
 * (`-c`, in order, each in its dialect or told by its shape), the
 * dialects imported (`--import`), the root; with none named, hookshim's
 * default files. Every verb that reads a config (cli/options.c fills
 * this from the command line), a bare LD_PRELOAD session and a PATH
 * wrapper outside a session (HOOKSHIM_CONFIG) load it the same way. */
#ifndef HOOKSHIM_SUPERVISOR_SOURCES_H
#define HOOKSHIM_SUPERVISOR_SOURCES_H

#include <stdbool.h>

#include "../config/model.h"

struct hs_sources {
	const char **files;
	int *file_dialects; /* an enum hs_dialect, or -1: by its shape */
	int nfiles;
	int imports[HS_NDIALECT];
	int nimports;
	const char *root; /* NULL: the working directory */
	bool trust_project; /* --trust-project (config/trust.h) */
};

/* Appends a file (borrowed). 0, or -1 out of memory. */
int hs_sources_add_file(struct hs_sources *src, const char *path, int dialect);
/* HOOKSHIM_CONFIG=FILE:FILE... as files (else the defaults stay). *copy
 * holds the strings the files point into; free it after loading. */
int hs_sources_from_env(struct hs_sources *src, char **copy);
/* Loads what `src` names (or hookshim's defaults) and finishes it: the
 * managed policy first, the hooks' programs checked, the rules that can
 * never fire said. 0, or -1 when the root cannot be had (said). */
int hs_sources_load(const struct hs_sources *src, struct hs_config *cfg);
void hs_sources_free(struct hs_sources *src);

#endif
