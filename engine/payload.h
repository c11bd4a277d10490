/* Shaping one event into the JSON a hook of a given dialect expects. */
#ifndef HOOKSHIM_ENGINE_PAYLOAD_H
#define HOOKSHIM_ENGINE_PAYLOAD_H

#include <cjson/cJSON.h>

#include "dispatch.h"

#include "../config/dialect.h"

/* The payload each dialect's hooks read on stdin (hs_payload_fn,
 * config/dialect.h), named by the dialects' rows. */
hs_payload_fn hs_payload_claude;
hs_payload_fn hs_payload_memcode;
hs_payload_fn hs_payload_mnemoai;
hs_payload_fn hs_payload_memoh;

/* Every string field of a payload object (at any depth) that is not valid
 * UTF-8 (a path or command with arbitrary bytes) keeps its name with each
 * invalid byte replaced by U+FFFD, and gains a sibling "<name>_b64" with
 * the exact bytes in base64: hooks decode it to get them back. An array
 * holding such a string (argv) gains "<name>_b64", the array of every
 * element's bytes in base64. */
void hs_payload_lossless(cJSON *o);

/* The tool name a dialect with these names uses for `ev` (Bash, bash,
 * execute_bash, exec, Write, Edit, edit_file, fs_write, ...): its
 * operation decides, and for a write whether it changes an existing
 * file. Static storage. */
const char *hs_tool_name(const struct hs_tool_names *names,
			 const struct hs_event *ev);

#endif
