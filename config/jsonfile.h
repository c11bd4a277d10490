/* Reading a JSON file with errors located at line:column. */
#ifndef HOOKSHIM_CONFIG_JSONFILE_H
#define HOOKSHIM_CONFIG_JSONFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Parses `path`. On failure returns NULL and writes "path:line:col: why"
 * (or "path: strerror") into err. *missing is set when the file does not
 * exist. */
cJSON *hs_json_read_file(const char *path, char *err, size_t errlen,
			 int *missing);

/* Parses text in memory, same error form with `name` as the file. */
cJSON *hs_json_parse_text(const char *name, const char *text, size_t len,
			  char *err, size_t errlen);

#endif
