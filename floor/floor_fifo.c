/* A fifo's open that waits for its other end -- O_RDONLY without
 * O_NONBLOCK until a writer comes, O_WRONLY until a reader does -- made
 * by the supervisor as the caller's own would be, on a thread of its
 * own. Continuing such a call instead would let the kernel walk the name
 * again whenever the other end comes, which makes a fifo nobody opens
 * the perfect decoy: all the time in the world to swap a symlink to a
 * protected file in under its name (docs/limits.md, "Under the floor").
 *
 * The thread opens the fifo that was judged (our O_PATH descriptor of
 * it) through /proc/self/fd/N, blocking, with the caller's flags, once:
 * a waiting opener counts as the fifo's reader or writer to the other
 * end (the kernel's fifo_open counts it before it waits), so the partner
 * sees what it would have seen with the caller waiting. One watcher
 * thread, running while any open waits, looks at each every 50 ms and
 * interrupts it (HS_FL_STOP_SIGNAL, whose handler has no SA_RESTART)
 * when
 *   - its caller no longer waits (killed: its notification is gone) or
 *     the session ends: nothing is answered;
 *   - a signal the caller handles, or one that stops it, is pending for
 *     it: answered ERESTARTSYS, which the kernel turns into what its own
 *     interrupted wait would have given -- the handler runs, then the
 *     open starts again (a new notification) or fails EINTR, as the
 *     handler's SA_RESTART says; a stopped caller opens again once it
 *     is continued. (The caller waits killably once we hold its
 *     notification: without this, only a fatal signal would end its
 *     wait.) The signals looked at are those the kernel is sure to have
 *     told the caller of (interrupted()): an ERESTARTSYS with no signal
 *     to deliver would reach it as errno 512. A process-wide signal to a
 *     process of several threads whose waiting thread is not its main
 *     one is not among them: it waits on (docs/limits.md).
 * Then the descriptor is installed in the caller and its number answered,
 * or the open's errno. At most MAX_WAITS at once: beyond that the call
 * fails with ENFILE rather than go to the kernel. */
#include "floor_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <time.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../supervisor/inflight.h"

#define MAX_WAITS 256
#define LOOK_MS 50
#define ERESTARTSYS 512 /* the kernel's own, not in user space's errno.h */

enum { WAITING, CANCEL, RESTART };

struct wait {
	const struct hs_floor_ctx *x;
	uint64_t id;
	pid_t caller; /* the thread whose open this is */
	int opath;
	uint64_t fl;
	struct hs_fl_as as; /* the caller's credentials, where not ours */
	pthread_t thread;
	int state; /* under mu */
	struct wait *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct wait *waits; /* under mu */
static bool watching;      /* under mu: the watcher runs */

/* A mask of a /proc/<tid>/status text (name "\nSigPnd:\t"): false
 * unless it is there whole (16 hex digits and the line's end). */
static bool mask_of(const char *st, const char *name, uint64_t *v)
{
	const char *p = strstr(st, name);
	char *end;

	if (!p)
		return false;
	p += strlen(name);
	*v = strtoull(p, &end, 16);
	return end - p == 16 && *end == '\n';
}

#define BIT(sig) (1ull << ((sig) - 1))

/* Is a stop of the whole thread group under way (a thread of it stopped:
 * the kernel has told every one of them to stop)? */
static bool group_stopping(pid_t tgid)
{
	struct hs_proc_stat st;
	char p[64];
	struct dirent *d;
	bool stopping = false;
	DIR *dir;

	snprintf(p, sizeof(p), "/proc/%d/task", (int)tgid);
	if (!(dir = opendir(p)))
		return false;
	/* (a thread's /proc/<tid> is there, though /proc does not list it) */
	while (!stopping && (d = readdir(dir)))
		stopping = d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
			   hs_proc_stat(atol(d->d_name), &st) == 0 &&
			   st.state == 'T';
	closedir(dir);
	return stopping;
}

/* Is a signal pending for tid that would end its wait in the kernel: one
 * it handles or one that stops it (any, when it is traced), that the
 * kernel is sure to have told tid of -- its own, and its process's where
 * tid is the only thread or the main one (the kernel offers a process's
 * signal to its main thread first, unless that blocks it) -- or a stop
 * of its whole group? Only then may ERESTARTSYS be answered: with no
 * signal to deliver it would reach the caller as errno 512. */
static bool interrupted(pid_t tid)
{
	char p[48], st[16384];
	uint64_t pnd, shd, blk, cgt, ign, stops, want;
	pid_t tgid = hs_fl_tgid(tid);
	bool one;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)tid);
	if (tgid <= 0 || hs_fl_read_small(p, st, sizeof(st)) <= 0 ||
	    !mask_of(st, "\nSigPnd:\t", &pnd) ||
	    !mask_of(st, "\nShdPnd:\t", &shd) ||
	    !mask_of(st, "\nSigBlk:\t", &blk) ||
	    !mask_of(st, "\nSigIgn:\t", &ign) ||
	    !mask_of(st, "\nSigCgt:\t", &cgt))
		return false;
	one = strstr(st, "\nThreads:\t1\n") != NULL;
	stops = BIT(SIGSTOP) |
		((BIT(SIGTSTP) | BIT(SIGTTIN) | BIT(SIGTTOU)) & ~cgt & ~ign);
	want = strstr(st, "\nTracerPid:\t0\n") ? cgt | stops : ~0ull;
	if ((pnd | (one || tid == tgid ? shd : 0)) & ~blk & want)
		return true;
	return !one && group_stopping(tgid);
}

/* What the watcher looks at, copied out of a listed wait: the looks are
 * made with mu released (the receiver takes it to list a wait). */
struct look {
	uint64_t id;
	pid_t caller;
	int listener;
	int state;
};

static void *watcher(void *arg)
{
	static struct look looks[MAX_WAITS];

	(void)arg;
	for (;;) {
		struct timespec ts = { 0, LOOK_MS * 1000000L };
		size_t n = 0;

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
		if (!waits) {
			watching = false;
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		for (struct wait *w = waits; w; w = w->next) {
			/* (its floor is there while it is listed) */
			if (w->state == WAITING &&
			    __atomic_load_n(w->x->stopping, __ATOMIC_ACQUIRE))
				w->state = CANCEL;
			if (w->state == WAITING && n < MAX_WAITS)
				looks[n++] = (struct look){ w->id, w->caller,
							    w->x->listener,
							    WAITING };
		}
		pthread_mutex_unlock(&mu);
		for (size_t i = 0; i < n; i++)
			looks[i].state =
				!hs_fl_valid(looks[i].listener, looks[i].id)
					? CANCEL
				: interrupted(looks[i].caller) ? RESTART
							       : WAITING;
		pthread_mutex_lock(&mu);
		for (struct wait *w = waits; w; w = w->next) {
			for (size_t i = 0; i < n && w->state == WAITING; i++)
				if (looks[i].id == w->id)
					w->state = looks[i].state;
			/* again at each look: a signal that came before the
			 * thread was in its open is lost */
			if (w->state != WAITING)
				pthread_kill(w->thread, HS_FL_STOP_SIGNAL);
		}
		pthread_mutex_unlock(&mu);
	}
}

/* The open, as long as nobody interrupts it. The descriptor, or -errno;
 * *state what ended it otherwise. */
static int open_waiting(struct wait *w, int *state)
{
	char self[40];
	sigset_t nudge;
	int fd, e;

	sigemptyset(&nudge);
	sigaddset(&nudge, HS_FL_STOP_SIGNAL);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", w->opath);
	pthread_sigmask(SIG_UNBLOCK, &nudge, NULL);
	/* O_EXCL is a block device's claim, unless with O_CREAT */
	for (;;) {
		fd = open(self, (int)(w->fl & ~(uint64_t)(O_CREAT | O_NOFOLLOW |
							  (w->fl & O_CREAT
								   ? O_EXCL
								   : 0))) |
					O_CLOEXEC | O_NOCTTY);
		e = fd < 0 ? errno : 0;
		pthread_mutex_lock(&mu);
		*state = w->state;
		pthread_mutex_unlock(&mu);
		if (fd >= 0 || e != EINTR || *state != WAITING)
			break;
	}
	pthread_sigmask(SIG_BLOCK, &nudge, NULL);
	return fd >= 0 ? fd : -e;
}

static void *waiter(void *arg)
{
	struct wait *w = arg, **pp;
	int state = WAITING, fd;

	/* opened as the caller would be (floor_identity.c): this thread's
	 * credentials are its own and end with it */
	fd = hs_fl_become(&w->as) ? open_waiting(w, &state) : -EACCES;

	pthread_mutex_lock(&mu);
	for (pp = &waits; *pp && *pp != w; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = w->next;
	pthread_mutex_unlock(&mu);
	close(w->opath);
	if (fd >= 0)
		hs_fl_inject(w->x->listener, w->id, fd, w->fl & O_CLOEXEC);
	else if (state == RESTART)
		hs_fl_answer(w->x->listener, w->id, ERESTARTSYS);
	else if (state == WAITING)
		hs_fl_answer(w->x->listener, w->id, -fd);
	hs_inflight_leave(w->x->waiting);
	free(w);
	return NULL;
}

/* A fifo or a pipe, our O_PATH descriptor opath of it, for the caller's
 * flags fl: opened at once where its open does not wait (a pipe's never
 * does; O_RDWR, O_NONBLOCK, or O_WRONLY with a reader: ours, O_NONBLOCK,
 * fails ENXIO without one); else HS_FL_WAITS, with c->open.fifo our descriptor
 * of it, for an open that waits as the caller's would (floor_fifo.c).
 * fd, -errno or HS_FL_WAITS. */
long hs_fl_fifo_open(struct hs_fl_call *c, int opath, uint64_t fl)
{
	char self[40];
	struct statfs fs;
	bool pipe = fstatfs(opath, &fs) == 0 && fs.f_type == PIPEFS_MAGIC;
	long r;

	if (fl & O_DIRECTORY)
		return -ENOTDIR;
	if (pipe || (fl & O_ACCMODE) != O_RDONLY || (fl & O_NONBLOCK)) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", opath);
		r = hs_fl_openat2(AT_FDCWD, self,
				  hs_fl_our_flags(fl & ~(uint64_t)(O_NOFOLLOW |
								   O_CREAT | O_EXCL)),
				  0, 0);
		if (pipe || r != -ENXIO || (fl & O_NONBLOCK) ||
		    (fl & O_ACCMODE) != O_WRONLY)
			return r;
	}
	return hs_fl_wait_for(c, opath);
}

long hs_fl_wait_for(struct hs_fl_call *c, int opath)
{
	c->open.fifo = fcntl(opath, F_DUPFD_CLOEXEC, 0);
	return c->open.fifo >= 0 ? HS_FL_WAITS : -errno;
}

/* A detached thread running fn(arg), every signal blocked from its
 * start. */
static bool start(void *(*fn)(void *), void *arg, pthread_t *t)
{
	pthread_attr_t attr;
	sigset_t all, old;
	bool ok;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64u << 10);
	ok = pthread_create(t, &attr, fn, arg) == 0;
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

bool hs_fl_fifo_wait(const struct hs_floor_ctx *x, uint64_t id, pid_t caller,
		     int opath, uint64_t fl, const struct hs_fl_as *as)
{
	struct wait *w = NULL;
	pthread_t t;

	if (!x->waiting || !x->stopping ||
	    !hs_inflight_try_enter(x->waiting, MAX_WAITS))
		goto refuse;
	if (!(w = malloc(sizeof(*w))))
		goto leave;
	*w = (struct wait){ .x = x, .id = id, .caller = caller,
			    .opath = opath, .fl = fl, .as = *as,
			    .state = WAITING };
	pthread_mutex_lock(&mu);
	if (!watching && !start(watcher, NULL, &t)) {
		pthread_mutex_unlock(&mu);
		goto leave;
	}
	watching = true;
	/* listed before it starts, so that the watcher never signals a
	 * thread that is not there: it unlists itself before it ends */
	if (!start(waiter, w, &w->thread)) {
		pthread_mutex_unlock(&mu);
		goto leave;
	}
	w->next = waits;
	waits = w;
	pthread_mutex_unlock(&mu);
	return true;
leave:
	free(w);
	hs_inflight_leave(x->waiting);
refuse:
	close(opath);
	hs_fl_answer(x->listener, id, ENFILE);
	return false;
}
