/* The shim's forwarding of calls it has decided, under the syscall floor.
 *
 * With a floor (HOOKSHIM_FLAGS "c=<cookie>", hs_st.cookie != 0) the
 * kernel sends every write-class syscall and exec to the supervisor,
 * unless args[5] holds the session's cookie (floor/floor_bpf.c). A
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
 * for (supervisor/tickets.c). All async-signal-safe except fopen.
 *
 * A process the agent's sandbox hides from the supervisor's socket
 * (shim/client.h, hs_ask_or_floor) decides nothing itself: its matched
 * writes go without the cookie, so that the floor judges them, and its
 * execs are asked of the floor first (hs_floor_ask_exec). */
#ifndef HOOKSHIM_SHIM_FLOOR_CALLS_H
#define HOOKSHIM_SHIM_FLOOR_CALLS_H

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "state.h"
#include "symbols.h"

/* A raw syscall with f as its sixth argument: -1 and errno on failure,
 * like libc; a non-negative result as is. No libc on the way (a fork
 * child may run it). */
static inline long hs_raw_call6(long nr, long a, long b, long c, long d,
				long e, long f)
{
	long r;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
#else
	r = syscall(nr, a, b, c, d, e, f);
	if (r == -1)
		r = -errno;
#endif
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* A raw syscall with the cookie as its sixth argument. */
static inline long hs_ck_call(long nr, long a, long b, long c, long d,
			      long e)
{
	return hs_raw_call6(nr, a, b, c, d, e, (long)hs_st.cookie);
}

/* Under a floor, and glibc next in line? Another preloaded library
 * after the shim (fakeroot, a profiler) must still see every call, so
 * such a process forwards through it without the cookie -- and the floor
 * then decides its matched calls a second time (docs/floor.md). */
static inline bool hs_ck_on(void)
{
	return hs_st.cookie != 0 && !hs_next_foreign;
}

/* The floor's verdict on an exec this process cannot ask the supervisor
 * about (hs_ask_or_floor: the agent's sandbox hides its socket): an
 * execveat of exe with argv and HS_FLOOR_ASK_FLAGS, the floor's question
 * marker in args[5] (common/wire.h), which the floor judges as it judges
 * a caller without the shim and answers itself -- the image is never
 * replaced. `role`: ours (HOOKSHIM_ROLE in the envp it is told; the
 * floor reads nothing else from there). 0: allowed;
 * HS_FLOOR_ASK_HANDOFF: allowed, and what it runs is judged too;
 * HS_FLOOR_ASK_DENIED: denied (the floor wrote the reason to our
 * stderr); -1: nobody judged it (ENOSYS: the supervisor is gone;
 * EINVAL: no floor saw it). Async-signal-safe. */
int hs_floor_ask_exec(const char *exe, char *const argv[], enum hs_role role);

/* Asks the floor for this agent's denials it decided itself (Bun's raw
 * openat: the shim never saw them), before exec'ing exe with argv, a
 * shell with a command string: when the floor keeps some for this
 * process or its parent and the exec is a tool call, it writes them to
 * our descriptor fd, once (common/wire.h, HS_FLOOR_TAKE_FLAGS). Nothing
 * runs; the result tells nothing. Async-signal-safe. */
void hs_floor_take(int fd, const char *exe, char *const argv[]);

FILE *hs_ck_fopen(const char *path, const char *mode);
int hs_ck_mkostemps(char *tmpl, int suffixlen, int flags);
char *hs_ck_mkdtemp(char *tmpl);
int hs_ck_remove(const char *path);

#endif
