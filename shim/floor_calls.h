/* The shim's forwarding of calls it has decided, under the syscall floor.
 *
 * With a floor (HOOKSHIM_FLAGS "c=<cookie>", hs_st.cookie != 0) the
 * kernel sends every write-class syscall and exec to the supervisor,
 * unless args[5] holds the session's cookie (supervisor/floor_bpf.c). A
 * call the shim intercepted has been decided already -- by a hook, or by
 * the write filter saying no hook can care -- so the shim makes it
 * itself, as a raw syscall carrying the cookie: decided once, and no
 * round trip to the supervisor for writes no hook matches. Every such
 * syscall takes at most five arguments; args[5] is unused by the kernel.
 *
 * libc functions that open internally get the same treatment here
 * (fopen = cookied open + fdopen; the mkstemp family makes its names
 * itself). What libc still does without the cookie (freopen, posix_spawn's
 * child) is matched in the supervisor against the decision the shim asked
 * for (supervisor/floor_ticket.c). All async-signal-safe except fopen. */
#ifndef HOOKSHIM_SHIM_FLOOR_CALLS_H
#define HOOKSHIM_SHIM_FLOOR_CALLS_H

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "state.h"
#include "symbols.h"

/* A raw syscall with the cookie as its sixth argument; -1 and errno on
 * failure, like libc. No libc on the way (a fork child may run it). */
static inline long hs_ck_call(long nr, long a, long b, long c, long d,
			      long e)
{
	long r;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = (long)hs_st.cookie;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
#else
	r = syscall(nr, a, b, c, d, e, (long)hs_st.cookie);
	if (r == -1)
		r = -errno;
#endif
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* Under a floor, and glibc next in line? Another preloaded library
 * after the shim (fakeroot, a profiler) must still see every call, so
 * such a process forwards through it without the cookie -- and the floor
 * then decides its matched calls a second time (docs/floor.md). */
static inline bool hs_ck_on(void)
{
	return hs_st.cookie != 0 && !hs_next_foreign;
}

FILE *hs_ck_fopen(const char *path, const char *mode);
int hs_ck_mkostemps(char *tmpl, int suffixlen, int flags);
char *hs_ck_mkdtemp(char *tmpl);
int hs_ck_remove(const char *path);

#endif
