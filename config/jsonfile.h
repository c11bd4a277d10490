/* Reading a JSON file with errors located at line:column. */
#ifndef HOOKSHIM_CONFIG_JSONFILE_H
#define HOOKSHIM_CONFIG_JSONFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "jsonpos.h"

/* Parses `path`. On failure returns NULL and writes "path:line:col: why"
 * (or "path: strerror") into err. *missing is set when the file does not
 * exist. `pos` (may be NULL) gets the position of every value, for
 * messages about what the file says. */
cJSON *hs_json_read_file(const char *path, char *err, size_t errlen,
			 int *missing, struct hs_jsonpos *pos);

/* Parses text in memory, same error form with `name` as the file. */
cJSON *hs_json_parse_text(const char *name, const char *text, size_t len,
			  char *err, size_t errlen);

#endif
