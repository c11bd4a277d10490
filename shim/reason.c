/* See reason.h. The text lives in a thread-local buffer of the default
 * TLS model: the shim is loaded with the program, so its block is in the
 * static TLS every thread gets, and reaching it allocates nothing. */
#include "reason.h"

#include <errno.h>
#include <pthread.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "../common/wire.h"
#include "real.h"
#include "state.h"

/* glibc's XSI strerror_r, which headers name strerror_r under POSIX. */
int __xpg_strerror_r(int, char *, size_t);

/* How long a denial's reason waits for its message: a program reports
 * the error it just got, or not at all. */
#define REASON_TTL_MS 5000

static __thread struct {
	int err;     /* 0: nothing pending */
	long when;   /* hs_now_ms() of the denial */
	char text[768];
} last;

static const char tag[] = " by hookshim: ";

/* Appends s to dst at *n, control characters as spaces, cut at cap. */
static void put(char *dst, size_t *n, size_t cap, const char *s)
{
	for (; *s && *n + 1 < cap; s++)
		dst[(*n)++] = (unsigned char)*s < ' ' ? ' ' : *s;
	dst[*n] = '\0';
}

void hs_reason_set(int err, const char *reason)
{
	size_t n = 0, len = hs_len(reason);

	/* the errno text is added when the message is asked for: strerror
	 * is not async-signal-safe, this may run anywhere */
	while (len && (reason[len - 1] == '\n' || reason[len - 1] == ' '))
		len--;
	last.err = 0;
	for (size_t i = 0; i < len && n + 1 < sizeof(last.text); i++)
		last.text[n++] = (unsigned char)reason[i] < ' ' ? ' ' : reason[i];
	last.text[n] = '\0';
	if (!n)
		put(last.text, &n, sizeof(last.text), "denied by a hook");
	last.when = hs_now_ms();
	last.err = err;
}

/* The pending reason for err, taken (once), or NULL. */
static const char *take(int err)
{
	if (__builtin_expect(last.err == 0, 1) || last.err != err)
		return NULL;
	last.err = 0;
	if (hs_now_ms() - last.when > REASON_TTL_MS)
		return NULL;
	return last.text;
}

/* "<base> by hookshim: <reason>" into buf. */
static char *compose(char *buf, size_t cap, const char *base,
		     const char *reason)
{
	size_t n = 0;

	if (!cap)
		return buf;
	buf[0] = '\0';
	put(buf, &n, cap, base);
	put(buf, &n, cap, tag);
	put(buf, &n, cap, reason);
	return buf;
}

/* Where strerror and friends return their text: the thread's own. A
 * taken reason stays in last.text until the next denial. */
static __thread char message[sizeof(last.text) + 128];

HS_VIS char *strerror(int err)
{
	const char *r = take(err);

	if (__builtin_expect(!r, 1))
		return HS_REAL(strerror)(err);
	return compose(message, sizeof(message), HS_REAL(strerror)(err), r);
}

HS_VIS char *strerror_l(int err, locale_t loc)
{
	const char *r = take(err);

	if (__builtin_expect(!r, 1))
		return HS_REAL(strerror_l)(err, loc);
	return compose(message, sizeof(message), HS_REAL(strerror_l)(err, loc),
		       r);
}

/* GNU: returns a string, buf or a static one. */
HS_VIS char *strerror_r(int err, char *buf, size_t cap)
{
	const char *r = take(err);
	char base[128];

	if (__builtin_expect(!r, 1))
		return HS_REAL(strerror_r)(err, buf, cap);
	put(base, &(size_t){ 0 }, sizeof(base),
	    HS_REAL(strerror_r)(err, base, sizeof(base)));
	return compose(buf, cap, base, r);
}

/* XSI: fills buf; ERANGE when cut. */
HS_VIS int __xpg_strerror_r(int err, char *buf, size_t cap)
{
	const char *r = take(err);
	char base[128];
	int e;

	if (__builtin_expect(!r, 1))
		return HS_REAL(__xpg_strerror_r)(err, buf, cap);
	if ((e = HS_REAL(__xpg_strerror_r)(err, base, sizeof(base))) != 0)
		return e;
	compose(buf, cap, base, r);
	return hs_len(base) + hs_len(tag) + hs_len(r) + 1 > cap ? ERANGE : 0;
}

/* glibc's perror formats with its own internal strerror. */
HS_VIS void perror(const char *s)
{
	int err = errno;
	const char *r = take(err);

	if (__builtin_expect(!r, 1)) {
		HS_REAL(perror)(s);
		return;
	}
	compose(message, sizeof(message), HS_REAL(strerror)(err), r);
	fflush(stderr);
	if (s && *s) {
		hs_write_str(2, s);
		hs_write_str(2, ": ");
	}
	hs_write_str(2, message);
	hs_write_str(2, "\n");
	errno = err;
}

/* --- the next tool call's stderr --------------------------------------
 *
 * Runtimes with their own errno table (node: libuv linked in statically)
 * tell the model only "EACCES: permission denied". So the agent process
 * also keeps its last denial, and the shell of its next tool call writes
 * it to its stderr before it starts: the agent hands that stderr to the
 * model as part of the tool result. Handed on once: the parent forgets
 * it after the fork (pthread_atfork), a vfork or posix_spawn child shares
 * the parent's memory and forgets it for both. */

static char pending[1024];
static int pending_len; /* 0: nothing to hand on */
static bool atfork_set;

static void forget_pending(void)
{
	__atomic_store_n(&pending_len, 0, __ATOMIC_RELEASE);
}

void hs_pending_set(const char *what, const char *path, const char *reason)
{
	size_t n = 0;

	if (hs_st.role != HS_ROLE_AGENT)
		return; /* a tool's denial is on its own stderr already */
	forget_pending();
	put(pending, &n, sizeof(pending) - 1, "hookshim: the agent's ");
	put(pending, &n, sizeof(pending) - 1, what);
	put(pending, &n, sizeof(pending) - 1, " ");
	put(pending, &n, sizeof(pending) - 1, path);
	put(pending, &n, sizeof(pending) - 1, " was denied by a hook: ");
	put(pending, &n, sizeof(pending) - 1,
	    reason[0] ? reason : "no reason given");
	while (n && pending[n - 1] == ' ')
		n--;
	pending[n++] = '\n';
	__atomic_store_n(&pending_len, (int)n, __ATOMIC_RELEASE);
	if (!__atomic_exchange_n(&atfork_set, true, __ATOMIC_ACQ_REL))
		pthread_atfork(NULL, forget_pending, NULL);
}

HS_CHILD_PATH
void hs_pending_flush(int fd)
{
	int n;

	/* a load first: a store would be a copy-on-write fault in every
	 * fork child the agent execs from */
	if (__builtin_expect(!__atomic_load_n(&pending_len, __ATOMIC_ACQUIRE), 1))
		return;
	n = __atomic_exchange_n(&pending_len, 0, __ATOMIC_ACQ_REL);
	if (n > 0)
		(void)hs_write_full(fd, pending, (size_t)n);
}
