/* Shaping one event into the JSON a hook reads: what every dialect's
 * payload is made of. */
#ifndef HOOKSHIM_ENGINE_PAYLOAD_H
#define HOOKSHIM_ENGINE_PAYLOAD_H

#include <cjson/cJSON.h>

#include "dispatch.h"

#include "../config/dialect.h"

/* The parts of a payload each dialect (dialects/NAME.c, its
 * hs_payload_fn) shapes its own way. */

/* The tool's input: an exec's {command, argv, executable, pid}, a write's
 * or a read's path under `path_key` (Claude Code's "file_path", the
 * others' "path") with its operation and content, a connection's {url,
 * host, port, ...}. */
cJSON *hs_payload_tool_input(const struct hs_hook *h, const struct hs_event *ev,
			     const char *path_key);
/* A post event's output as one text, stdout then stderr, at most `cap`
 * bytes (a connection's close: the bytes it carried). malloc'd. */
char *hs_payload_output(const struct hs_event *ev, size_t cap);
/* Why the call failed, for a post-failure event. `ev`'s or buf's. */
const char *hs_payload_failure_text(const struct hs_event *ev, char *buf,
				    size_t len);

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
