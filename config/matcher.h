/* Tool-name matchers, one kind per dialect's documented rule. */
#ifndef HOOKSHIM_CONFIG_MATCHER_H
#define HOOKSHIM_CONFIG_MATCHER_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/glob.h"

enum hs_match_kind {
	HS_MATCH_ALL,        /* empty, absent or "*" */
	HS_MATCH_EXACT_LIST, /* Claude: "Edit|Write" = exact names */
	HS_MATCH_REGEX,      /* unanchored PCRE2 search */
	HS_MATCH_REGEX_FULL, /* memcode: PCRE2 full match */
	HS_MATCH_GLOB,       /* mnemoai: fnmatch-style glob */
};

struct hs_matcher {
	enum hs_match_kind kind;
	char *pattern;  /* as written */
	void *compiled; /* pcre2_code * for regex kinds */
};

/* Compile `pattern` by `kind`. On a bad pattern returns -1 and writes a
 * message (with the offset PCRE2 reports) into err. */
int hs_matcher_init(struct hs_matcher *m, enum hs_match_kind kind,
		    const char *pattern, char *err, size_t errlen);
bool hs_matcher_match(const struct hs_matcher *m, const char *subject);
void hs_matcher_free(struct hs_matcher *m);

/* Claude Code's rule: "*", "" or absent = all; only [A-Za-z0-9_|, -] = an
 * exact name list; anything else = an unanchored regex. */
enum hs_match_kind hs_matcher_claude_kind(const char *pattern);

#endif
