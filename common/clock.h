/* Milliseconds on the monotonic clock, for deadlines and durations.
 *
 * A header, not a .c file, so that both binaries use the one definition
 * without the shim linking anything new: it inlines where it is called.
 * clock_gettime is async-signal-safe and touches no string code, so the
 * shim may call it anywhere (common/plainstr.h says why that matters). */
#ifndef HOOKSHIM_COMMON_CLOCK_H
#define HOOKSHIM_COMMON_CLOCK_H

#include <time.h>

static inline long hs_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
