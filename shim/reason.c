/* See reason.h. The text lives in a thread-local buffer of the default
 * TLS model: the shim is loaded with the program, so its block is in the
 * static TLS every thread gets, and reaching it allocates nothing. */
#include "reason.h"

#include <errno.h>
#include <locale.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "../common/wire.h"
#include "client.h"
#include "floor_calls.h"
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
 * Runtimes with their own errno table (node: libuv linked in statically;
 * Bun) tell the model only "EACCES: permission denied". So the agent
 * process also keeps its own denials, and the shell of its next tool call
 * writes them to its stderr before it starts: the agent hands that stderr
 * to the model as part of the tool result.
 *
 * Only a tool call takes them. Agents run shells of their own between
 * two of the model's commands (Claude Code's snapshot shell and `which`,
 * Qwen Code's `command -v`: config/agents.json), which the shim cannot tell
 * from a tool call; the supervisor can, and is asked -- only while a
 * denial waits, so an agent pays nothing otherwise. And taken once: the
 * text lives in a page shared with the agent's fork children
 * (MAP_SHARED), so the child that hands it on empties it for the parent
 * too, and a child that runs anything else (an agent's own shell, git)
 * leaves it; vfork and posix_spawn children share all memory anyway.
 *
 * What the floor denied the agent (Bun's raw openat: Claude Code 2.1.332's
 * Read and Write tools) never passed through here. The floor keeps those
 * reasons itself (floor/floor_pending.c), and the same shell asks it
 * for them with a question the kernel never runs (hs_floor_take): the
 * floor tells a tool call by the same rule and writes them to the same
 * descriptor, once, after ours. Only where the floor can deny anything
 * (a hook on writes or reads); there each of the agent's shells costs a
 * seccomp round trip, answered at once while the floor keeps nothing. */

struct pending {
	int busy; /* a writer or the taker holds it */
	int len;  /* bytes in text; 0: nothing to hand on */
	char text[4096 - 2 * sizeof(int)];
};
static struct pending *pend; /* mapped at the agent's first denial */

/* Bounded: a holder interrupted by a signal whose handler denies again
 * must not spin forever; then that reason is not handed on. */
static bool grab(struct pending *p)
{
	for (int i = 0; i < 1000; i++) {
		if (!__atomic_exchange_n(&p->busy, 1, __ATOMIC_ACQUIRE))
			return true;
		sched_yield();
	}
	return false;
}

static void release(struct pending *p)
{
	__atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
}

static struct pending *pending_page(void)
{
	struct pending *p = __atomic_load_n(&pend, __ATOMIC_ACQUIRE), *none;

	if (p)
		return p;
	p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	none = NULL;
	if (!__atomic_compare_exchange_n(&pend, &none, p, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		munmap(p, sizeof(*p)); /* another thread's is there */
		return none;
	}
	return p;
}

void hs_pending_set(const char *what, const char *path, const char *reason)
{
	char line[sizeof(pend->text)];
	struct pending *p;
	size_t n = 0;

	if (hs_st.role != HS_ROLE_AGENT)
		return; /* a tool's denial is on its own stderr already */
	put(line, &n, sizeof(line) - 1, "hookshim: the agent's ");
	put(line, &n, sizeof(line) - 1, what);
	put(line, &n, sizeof(line) - 1, " ");
	put(line, &n, sizeof(line) - 1, path);
	put(line, &n, sizeof(line) - 1, " was denied by a hook: ");
	put(line, &n, sizeof(line) - 1, reason[0] ? reason : "no reason given");
	while (n && line[n - 1] == ' ')
		n--;
	line[n++] = '\n';
	if (!(p = pending_page()) || !grab(p))
		return;
	/* The same denial again (node's Claude Code retries a denied open
	 * as a plain write) is said once; when full, the older ones give
	 * way. */
	if (!memmem(p->text, (size_t)p->len, line, n)) {
		if ((size_t)p->len + n > sizeof(p->text))
			p->len = 0;
		memcpy(p->text + p->len, line, n);
		p->len += (int)n;
	}
	release(p);
}

/* Could the floor deny this agent's raw calls (Bun's file I/O)? It keeps
 * their reasons itself then (floor/floor_pending.c): with a hook
 * on writes or on reads, which the floor judges for raw syscalls. */
static bool floor_keeps(void)
{
	return hs_st.cookie && (hs_st.interest & (HS_INTEREST_WRITE_PRE |
						  HS_INTEREST_READ_PRE));
}

HS_CHILD_PATH
void hs_pending_offer(const char *exe, char *const argv[], int fd)
{
	struct pending *p = __atomic_load_n(&pend, __ATOMIC_ACQUIRE);
	struct hs_reply rep;

	/* loads only: a store would be a copy-on-write fault in every fork
	 * child the agent execs from */
	if (__builtin_expect(!p, 1) ||
	    !__atomic_load_n(&p->len, __ATOMIC_ACQUIRE))
		goto floor;
	hs_ask_or_floor(&(struct hs_msg){ .op = "exec", .phase = "classify",
				 .nested = -1, .exe = exe, .argv = argv },
	       &rep);
	/* the agent's own shell: the next one may be the tool call (an
	 * unreachable supervisor cannot say; the reason goes out then) */
	if (!rep.tool_call && !rep.failed)
		return;
	if (grab(p)) {
		if (p->len > 0)
			(void)hs_write_full(fd, p->text, (size_t)p->len);
		p->len = 0;
		release(p);
	}
floor:
	/* the floor's denials of our raw calls: the floor tells a tool
	 * call by the same rule, and keeps them for the next one else */
	if (floor_keeps())
		hs_floor_take(fd, exe, argv);
}
