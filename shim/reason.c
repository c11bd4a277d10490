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
#include <sys/mman.h>
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
 * model as part of the tool result. Handed on once, by whichever process
 * of the agent's forks gets there first: the text lives in a MAP_SHARED
 * page that fork children share with the agent, and the shell that
 * writes it takes it for all of them. A program the agent starts that is
 * not a tool call (Claude Code 2.0 runs `git` between tool calls) leaves
 * it for the next shell; forgetting it at every fork lost it there. */

struct pending {
	int len; /* 0: nothing to hand on */
	char text[1024];
};

static struct pending *P; /* shared with fork children; NULL until needed */
static struct pending fallback; /* no mmap: per process, forgotten at fork */
static bool atfork_set;

static void forget_pending(void)
{
	__atomic_store_n(&fallback.len, 0, __ATOMIC_RELEASE);
}

/* mmap rather than malloc: this runs wherever a denial happens. Of two
 * racing threads the loser unmaps its copy. */
static struct pending *pending_make(void)
{
	struct pending *p = __atomic_load_n(&P, __ATOMIC_ACQUIRE), *mine;

	if (p)
		return p;
	mine = mmap(NULL, sizeof(*mine), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mine == MAP_FAILED) {
		if (!__atomic_exchange_n(&atfork_set, true, __ATOMIC_ACQ_REL))
			pthread_atfork(NULL, forget_pending, NULL);
		return &fallback;
	}
	if (!__atomic_compare_exchange_n(&P, &p, mine, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(mine, sizeof(*mine));
		return p;
	}
	return mine;
}

void hs_pending_set(const char *what, const char *path, const char *reason)
{
	struct pending *p;
	size_t n = 0;

	if (hs_st.role != HS_ROLE_AGENT)
		return; /* a tool's denial is on its own stderr already */
	p = pending_make();
	__atomic_store_n(&p->len, 0, __ATOMIC_RELEASE);
	put(p->text, &n, sizeof(p->text) - 1, "hookshim: the agent's ");
	put(p->text, &n, sizeof(p->text) - 1, what);
	put(p->text, &n, sizeof(p->text) - 1, " ");
	put(p->text, &n, sizeof(p->text) - 1, path);
	put(p->text, &n, sizeof(p->text) - 1, " was denied by a hook: ");
	put(p->text, &n, sizeof(p->text) - 1,
	    reason[0] ? reason : "no reason given");
	while (n && p->text[n - 1] == ' ')
		n--;
	p->text[n++] = '\n';
	__atomic_store_n(&p->len, (int)n, __ATOMIC_RELEASE);
}

HS_CHILD_PATH
void hs_pending_flush(int fd)
{
	struct pending *p = __atomic_load_n(&P, __ATOMIC_ACQUIRE);
	int n;

	if (__builtin_expect(!p, 1))
		p = &fallback;
	/* a load first: a store would be a copy-on-write fault in every
	 * fork child the agent execs from */
	if (__builtin_expect(!__atomic_load_n(&p->len, __ATOMIC_ACQUIRE), 1))
		return;
	n = __atomic_exchange_n(&p->len, 0, __ATOMIC_ACQ_REL);
	if (n > 0)
		(void)hs_write_full(fd, p->text, (size_t)n);
}
