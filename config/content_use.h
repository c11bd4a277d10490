/* Which pre hooks on writes read the content being written. */
#ifndef HOOKSHIM_CONFIG_CONTENT_USE_H
#define HOOKSHIM_CONFIG_CONTENT_USE_H

#include <stdbool.h>

#include "model.h"

/* Sets content_pre on every pre hook that can see a write: its own
 * "content" when the handler says, else whether its command, or a script
 * file the command names, mentions the word `content` (see the .c).
 * Nothing when writes.stage_content is off. Sets read_named on every pre
 * hook whose command or script names the dialect's read tool as a quoted
 * word ('Read', "read_file"). */
void hs_content_use_mark(struct hs_config *cfg);

/* Does `text` hold `content` as a word of its own (tool_input.content,
 * ["content"], .get('content')), not contents or content_type? */
bool hs_mentions_content(const char *text, size_t len);

#endif
