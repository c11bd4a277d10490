/* Trace and span ids for a session's calls (traceparent.h). */
#include "traceparent.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static bool hex_id(const char *s, size_t n)
{
	bool nonzero = false;

	for (size_t i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
		nonzero |= s[i] != '0';
	}
	return nonzero && s[n] == '\0';
}

bool hs_trace_ids(const char *session, const char *tool_use_id,
		  char trace[33], char span[17])
{
	/* FNV-1a, 64 bits, over the call's id (or the session's): stable,
	 * so every record and hook of one call names the same span */
	const char *key = tool_use_id && *tool_use_id ? tool_use_id : session;
	uint64_t h = 0xcbf29ce484222325ull;

	if (!session || !hex_id(session, 32))
		return false;
	memcpy(trace, session, 33);
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	snprintf(span, 17, "%016llx", (unsigned long long)(h ? h : 1));
	return true;
}

bool hs_traceparent(const char *session, const char *tool_use_id,
		    char buf[56])
{
	char trace[33], span[17];

	if (!hs_trace_ids(session, tool_use_id, trace, span))
		return false;
	snprintf(buf, 56, "00-%s-%s-01", trace, span);
	return true;
}
