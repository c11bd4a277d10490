/* Go-style durations ("10s", "1m30s", "250ms", "1.5s") and plain seconds. */
#include "loadkit.h"

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

/* Whole milliseconds; negative or NaN is invalid, absurd lengths clamp.
 * (Not llround: libm would be loaded by every hookshim process, PATH
 * wrappers included, for this alone.) */
static long round_ms(double ms)
{
	if (!(ms >= 0))
		return -1;
	if (ms > 1e15) /* some 30,000 years */
		return 1000000000000000L;
	return (long)(ms + 0.5);
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
			return round_ms(v * 1000);
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
	return round_ms(total);
}

long hs_parse_duration_ms(const cJSON *v)
{
	if (cJSON_IsNumber(v))
		return round_ms(v->valuedouble * 1000);
	if (cJSON_IsString(v))
		return hs_parse_duration_text(v->valuestring);
	return -1;
}
