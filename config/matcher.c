/* Tool-name matchers: PCRE2 for regexes (JIT when available), glob and
 * exact-list matching by hand. */
#include "matcher.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hs_match_kind hs_matcher_claude_kind(const char *pattern)
{
	if (!pattern || !*pattern || strcmp(pattern, "*") == 0)
		return HS_MATCH_ALL;
	for (const char *p = pattern; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '|' ||
		      c == ',' || c == ' ' || c == '-'))
			return HS_MATCH_REGEX;
	}
	return HS_MATCH_EXACT_LIST;
}

static int compile_regex(struct hs_matcher *m, bool full, char *err,
			 size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	pcre2_code *re;

	if (full)
		opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	re = pcre2_compile((PCRE2_SPTR)m->pattern, PCRE2_ZERO_TERMINATED, opts,
			   &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errlen, "bad regex /%s/ at offset %zu: %s",
			 m->pattern, (size_t)off, (char *)msg);
		return -1;
	}
	/* JIT is an optimisation; a kernel that forbids executable memory
	 * still matches through the interpreter. */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	m->compiled = re;
	return 0;
}

int hs_matcher_init(struct hs_matcher *m, enum hs_match_kind kind,
		    const char *pattern, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->pattern = strdup(pattern ? pattern : "");
	if (!m->pattern) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (kind == HS_MATCH_GLOB && strlen(m->pattern) > HS_GLOB_MAX) {
		snprintf(err, errlen, "glob longer than %d bytes",
			 HS_GLOB_MAX);
		return -1;
	}
	if (kind == HS_MATCH_REGEX || kind == HS_MATCH_REGEX_FULL)
		return compile_regex(m, kind == HS_MATCH_REGEX_FULL, err,
				     errlen);
	return 0;
}

static bool in_exact_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len;

		while (*p == '|' || *p == ',' || *p == ' ')
			p++;
		len = strcspn(p, "|, ");
		if (len == n && len && memcmp(p, name, n) == 0)
			return true;
		p += len;
	}
	return false;
}

static bool regex_match(const struct hs_matcher *m, const char *subject)
{
	pcre2_code *re = m->compiled;
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	int rc;

	if (!md)
		return false;
	rc = pcre2_match(re, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md,
			 NULL);
	pcre2_match_data_free(md);
	return rc >= 0;
}

bool hs_matcher_match(const struct hs_matcher *m, const char *subject)
{
	if (!subject)
		subject = "";
	switch (m->kind) {
	case HS_MATCH_ALL:
		return true;
	case HS_MATCH_EXACT_LIST:
		return in_exact_list(m->pattern, subject);
	case HS_MATCH_GLOB:
		return hs_glob_match(m->pattern, subject, false);
	case HS_MATCH_REGEX:
	case HS_MATCH_REGEX_FULL:
		return m->compiled && regex_match(m, subject);
	}
	return false;
}

void hs_matcher_free(struct hs_matcher *m)
{
	if (m->compiled)
		pcre2_code_free(m->compiled);
	free(m->pattern);
	m->compiled = NULL;
	m->pattern = NULL;
}
