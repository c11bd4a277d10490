/* Between handoff.c (the unwrap) and opaque.c (opacity): the helpers
 * both read words with. Not a public interface. */
#ifndef HOOKSHIM_ENGINE_HANDOFF_INT_H
#define HOOKSHIM_ENGINE_HANDOFF_INT_H

#include <stdbool.h>

#define HS_HO_MAX_WORDS 256

/* A shell name's character (first: not a digit). */
bool hs_ho_name_char(char c, bool first);
/* Is s one of names (NULL-terminated)? s may be NULL. */
bool hs_ho_is_any(const char *s, const char *const *names);
/* Past `command`, `builtin`, `exec`, `env -i`, `nohup`, `setsid`,
 * `nice`, `timeout` and their options: the index of the word they run,
 * or -1 when a prefix is not one followed to the letter. */
int hs_ho_skip_prefixes(char *const v[]);

#endif
