/* Reading hook files of every dialect into one hs_config. */
#ifndef HOOKSHIM_CONFIG_LOAD_H
#define HOOKSHIM_CONFIG_LOAD_H

#include "model.h"

/* Load one file. `dialect` < 0 detects it from location and shape.
 * Problems become diagnostics in cfg; returns -1 when the file could not
 * be used at all (missing files return 0 when `optional`). */
int hs_config_load_file(struct hs_config *cfg, const char *path, int dialect,
			bool optional);

/* The administrator's layer, before any other file: /etc/hookshim/
 * managed.json, then managed.d/ *.json in lexical order (where
 * /etc/hookshim does not exist, $HOOKSHIM_SYSCONFDIR/hookshim instead);
 * hookshim's own format; root's files only. Its diagnostics are counted
 * in cfg->managed.errors. */
int hs_config_load_managed(struct hs_config *cfg);

/* The managed layer's directory (malloc'd): /etc/hookshim whenever it
 * exists, else $HOOKSHIM_SYSCONFDIR/hookshim when that is set. */
char *hs_config_managed_dir(void);

/* A dialect's documented locations, in its documented order. */
int hs_config_import(struct hs_config *cfg, enum hs_dialect dialect);

/* hookshim's own locations: ~/.config/hookshim/hooks.json then
 * <root>/.hookshim/hooks.json. */
int hs_config_load_default(struct hs_config *cfg);

/* Orders hooks for dispatch (priority, then file order) once loading is
 * done. Call once; the config is immutable afterwards. */
void hs_config_finish(struct hs_config *cfg);

#endif
