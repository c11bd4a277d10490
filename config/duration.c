/* Go-style durations ("10s", "1m30s", "250ms", "1.5s") and plain seconds. */
#include "dialect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double unit_ms(const char *u, size_t n)
{
	static const struct {
		const char *name;
		double ms;
	} units[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "\xc2\xb5s", 1e-3 },
		{ "ms", 1 },    { "s", 1000 },  { "m", 60000 },
		{ "h", 3600000 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n &&
		    memcmp(units[i].name, u, n) == 0)
			return units[i].ms;
	return -1;
}

long hs_parse_duration_text(const char *s)
{
	double total = 0;
	const char *p = s;

	if (!*p)
		return -1;
	/* A bare number is seconds, as memoh documents. */
	{
		char *end;
		double v = strtod(p, &end);

		if (end != p && *end == '\0')
			return v < 0 ? -1 : (long)llround(v * 1000);
	}
	while (*p) {
		char *end;
		double v = strtod(p, &end);
		const char *u = end;
		double ms;

		if (end == p || v < 0 || (*p != '.' && (*p < '0' || *p > '9')))
			return -1;
		while (*end && !(*end >= '0' && *end <= '9') && *end != '.')
			end++;
		ms = unit_ms(u, (size_t)(end - u));
		if (ms < 0)
			return -1;
		total += v * ms;
		p = end;
	}
	return (long)llround(total);
}

long hs_parse_duration_ms(const cJSON *v)
{
	if (cJSON_IsNumber(v))
		return v->valuedouble < 0 ? -1 : (long)llround(v->valuedouble * 1000);
	if (cJSON_IsString(v))
		return hs_parse_duration_text(v->valuestring);
	return -1;
}
