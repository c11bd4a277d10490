/* PostToolUse for writes only the floor saw; see floor_post.h and
 * docs/floor.md ("PostToolUse").
 *
 * One inotify descriptor, read by one thread of its own. Each call whose
 * post a hook may want is a record, made by the receiver (or the deciding
 * thread) before the call continues, so nothing the call does can come
 * before its watch:
 *   - which inotify event ends it, at which name: the file opened for
 *     writing closes (IN_CLOSE_WRITE: the kernel sends it when the open
 *     file's last descriptor goes, in whatever process, fork children and
 *     exit included); the name is created, moved in, deleted, or changed
 *     (truncate);
 *   - the caller's thread and syscall, to tell a call that failed: once
 *     /proc/<tid>/syscall no longer shows it, its event would already be
 *     queued (fsnotify runs before the syscall returns), so a record still
 *     waiting then belongs to a call that failed -- the shim's
 *     post-failure. An open that succeeded said so first (IN_OPEN of its
 *     name); then it waits for its close.
 * A directory is watched while records in it wait; the oldest record a
 * name's event fits takes it, exactly once (a close: the oldest whose
 * process let go of the file, closed_by_opener). Posts run on detached
 * threads, one per process that has posts waiting, in the order its
 * calls ended: a slow post hook holds up only the later posts of the
 * same process, never a notification, the reader or another process.
 * Over 600 lines: the records, the reader and the firing lanes are one
 * state under one lock (struct hs_fpost), each part written against the
 * others' invariants; apart, each would need the others' insides. */
#include "floor_post.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../supervisor/inflight.h"
#include "../supervisor/message.h"
#include "../supervisor/session.h"

/* How often a call not yet seen over is looked at again: from 1 ms,
 * doubling to 256 ms; a thread that never shows its call over (it spins
 * in user space) is given up on after UNKNOWN_MAX looks. */
#define CHECK_FIRST_MS 1
#define CHECK_MAX_MS 256
#define UNKNOWN_MAX 64

struct watch {
	struct watch *next;
	int wd;
	int refs;
};

struct rec {
	struct rec *next;
	uint64_t ticket;
	int wd;
	uint32_t mask; /* the event that ends it; 0: none will (a no-op) */
	char name[NAME_MAX + 1];
	bool open;     /* waits for the close of what it opened */
	enum { RUNNING, /* the call itself may still be running */
	       OVER,    /* it returned; nothing told yet */
	       OPENED,  /* an open that returned its descriptor */
	} state;
	bool ok;       /* post, not post-failure */
	bool opened;   /* an open: IN_OPEN of the name was told */
	unsigned wait_ms, unknown;
	struct timespec next_look;
	pid_t tid, tgid;
	int nr;
	uint64_t args[6];
	char at[PATH_MAX]; /* the name watched, as resolved */
	const char *operation;
	char *path, *new_path, *cwd, *id;
};

struct hs_fpost {
	struct hs_session *s;
	int ifd, wake[2];
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t settled;
	/* settle's request, and the last the reader answered: a round that
	 * began after the request has read all it asks about */
	unsigned long settle_asked, settle_done;
	bool stopping;
	struct rec *head, **tail;
	struct watch *watches;
	uint64_t next_ticket;
	pthread_mutex_t lanes_mu; /* the lanes, apart from mu: a post thread
				     never waits for the reader */
	struct lane *lanes;       /* one per process with posts to run */
	struct hs_inflight posting;
};

/* ---- records and watches (under p->mu) ---- */

static void watch_ref(struct hs_fpost *p, int wd)
{
	struct watch *w;

	for (w = p->watches; w; w = w->next)
		if (w->wd == wd) {
			w->refs++;
			return;
		}
	w = calloc(1, sizeof(*w));
	if (!w)
		return; /* never removed: harmless */
	w->wd = wd;
	w->refs = 1;
	w->next = p->watches;
	p->watches = w;
}

static void watch_unref(struct hs_fpost *p, int wd, bool gone)
{
	for (struct watch **pw = &p->watches; *pw; pw = &(*pw)->next) {
		struct watch *w = *pw;

		if (w->wd != wd)
			continue;
		if (--w->refs > 0 && !gone)
			return;
		if (!gone)
			inotify_rm_watch(p->ifd, wd);
		*pw = w->next;
		free(w);
		return;
	}
}

static void rec_free(struct rec *r)
{
	free(r->path);
	free(r->new_path);
	free(r->cwd);
	free(r->id);
	free(r);
}

/* Takes r out of the list (it must be in it). */
static void unlink_rec(struct hs_fpost *p, struct rec *r)
{
	for (struct rec **pr = &p->head; *pr; pr = &(*pr)->next)
		if (*pr == r) {
			*pr = r->next;
			if (p->tail == &r->next)
				p->tail = pr;
			r->next = NULL;
			return;
		}
}

/* ---- firing ---- */

/* One process's posts, in the order its calls ended, on one thread: the
 * shim's post blocks its process, so one process's posts never overlap
 * there either. Other processes' posts run beside them. */
struct lane {
	struct lane *next;
	struct hs_fpost *p;
	pid_t tgid;
	struct rec *q, **qt;
};

static void post_one(struct hs_fpost *p, struct rec *r)
{
	struct hs_answer ans;
	struct hs_msg req;

	memset(&req, 0, sizeof(req));
	req.op = "write";
	req.phase = r->ok ? "post" : "post-failure";
	req.via = "floor";
	req.nested = -1;
	req.pid = r->tgid;
	req.cwd = r->cwd;
	req.id = r->id;
	req.path = r->path;
	req.new_path = r->new_path;
	req.operation = (char *)r->operation;
	hs_session_decide(p->s, &req, &ans);
	if (ans.context && ans.context[0]) {
		/* the shim's: the model reads the tool's stderr (gone or
		 * full: nobody to tell) */
		size_t n = strlen(ans.context);
		char *line = malloc(n + 2);

		if (line) {
			memcpy(line, ans.context, n);
			if (line[n - 1] != '\n')
				line[n++] = '\n';
			(void)hs_fl_caller_say(r->tgid, 2, line, n);
			free(line);
		}
	}
	hs_answer_free(&ans);
	rec_free(r);
}

static void *run_lane(void *arg)
{
	struct lane *l = arg;
	struct hs_fpost *p = l->p;

	for (;;) {
		struct rec *r;

		pthread_mutex_lock(&p->lanes_mu);
		r = l->q;
		if (!r) {
			struct lane **pl = &p->lanes;

			while (*pl && *pl != l)
				pl = &(*pl)->next;
			if (*pl)
				*pl = l->next;
			pthread_mutex_unlock(&p->lanes_mu);
			free(l);
			break;
		}
		l->q = r->next;
		if (!l->q)
			l->qt = &l->q;
		pthread_mutex_unlock(&p->lanes_mu);
		r->next = NULL;
		post_one(p, r);
	}
	hs_inflight_leave(&p->posting);
	return NULL;
}

/* r is out of the list: its post, behind its process's earlier ones. */
static void fire(struct hs_fpost *p, struct rec *r, bool ok)
{
	pthread_attr_t attr;
	struct lane *l;
	pthread_t t;

	r->ok = ok;
	r->next = NULL;
	pthread_mutex_lock(&p->lanes_mu);
	for (l = p->lanes; l && l->tgid != r->tgid; l = l->next)
		;
	if (l) { /* its thread takes it next */
		*l->qt = r;
		l->qt = &r->next;
		pthread_mutex_unlock(&p->lanes_mu);
		return;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		pthread_mutex_unlock(&p->lanes_mu);
		rec_free(r);
		return;
	}
	l->p = p;
	l->tgid = r->tgid;
	l->q = r;
	l->qt = &r->next;
	l->next = p->lanes;
	p->lanes = l;
	pthread_mutex_unlock(&p->lanes_mu);
	hs_inflight_enter(&p->posting, 0);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 1u << 20);
	if (pthread_create(&t, &attr, run_lane, l) != 0)
		run_lane(l); /* late rather than never */
	pthread_attr_destroy(&attr);
}

/* ---- expecting ---- */

static uint32_t mask_of(enum hs_fl_seen seen)
{
	switch (seen) {
	case HS_FL_SEEN_CLOSE: return IN_CLOSE_WRITE;
	case HS_FL_SEEN_CREATE: return IN_CREATE;
	case HS_FL_SEEN_MOVE: return IN_MOVED_TO;
	case HS_FL_SEEN_DELETE: return IN_DELETE;
	case HS_FL_SEEN_MODIFY: return IN_MODIFY;
	}
	return 0;
}

/* The name whose event ends the call: the target of a rename; for an
 * open, the file itself where it exists (the open follows a final
 * symlink; the close is told in the directory the file is in). */
static int watched_name(const struct hs_fl_post *pe, char *at)
{
	const char *name = pe->seen == HS_FL_SEEN_MOVE && pe->ev.has_new
				   ? pe->ev.new_path
				   : pe->ev.path;
	char real[PATH_MAX];

	if (pe->seen == HS_FL_SEEN_CLOSE && realpath(name, real)) {
		snprintf(at, PATH_MAX, "%s", real);
		return 0;
	}
	snprintf(at, PATH_MAX, "%s", name);
	return at[0] == '/' ? 0 : -1;
}

/* rename(a, b) of two names of one file does nothing and sends nothing. */
static bool no_op_rename(const struct hs_fl_post *pe)
{
	struct stat sa, sb;

	return pe->seen == HS_FL_SEEN_MOVE && pe->ev.has_new &&
	       lstat(pe->ev.path, &sa) == 0 &&
	       lstat(pe->ev.new_path, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void now_plus(struct timespec *t, unsigned ms)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

static char *dup_or_null(const char *s)
{
	return s && s[0] ? strdup(s) : NULL;
}

uint64_t hs_fpost_expect(struct hs_fpost *p, const struct hs_fl_call *c)
{
	const struct hs_fl_post *pe = &c->post;
	struct rec *r;
	char dir[PATH_MAX], *slash;
	uint64_t ticket;
	int wd;

	if (!p || !pe->want)
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return 0;
	if (watched_name(pe, r->at) < 0) {
		free(r);
		return 0;
	}
	slash = strrchr(r->at, '/');
	snprintf(r->name, sizeof(r->name), "%s", slash + 1);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - r->at), r->at);
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	r->mask = no_op_rename(pe) ? 0 : mask_of(pe->seen);
	r->open = pe->seen == HS_FL_SEEN_CLOSE;
	r->state = RUNNING;
	r->wait_ms = CHECK_FIRST_MS;
	now_plus(&r->next_look, r->wait_ms);
	r->tid = (pid_t)c->n.pid;
	r->tgid = c->tgid;
	r->nr = c->n.data.nr;
	memcpy(r->args, c->n.data.args, sizeof(r->args));
	r->operation = pe->ev.operation;
	r->path = strdup(pe->ev.path);
	r->new_path = pe->ev.has_new ? strdup(pe->ev.new_path) : NULL;
	r->cwd = dup_or_null(c->cwd);
	r->id = dup_or_null(pe->id);
	if (!r->path) {
		rec_free(r);
		return 0;
	}
	pthread_mutex_lock(&p->mu);
	wd = -1;
	if (r->mask) {
		wd = inotify_add_watch(p->ifd, dir,
				       IN_MASK_ADD | IN_ONLYDIR | r->mask |
					       (r->open ? IN_OPEN : 0));
		if (wd < 0) {
			/* the directory is not there: the call will fail */
			pthread_mutex_unlock(&p->mu);
			rec_free(r);
			return 0;
		}
		watch_ref(p, wd);
	}
	r->wd = wd;
	r->ticket = ticket = ++p->next_ticket;
	*p->tail = r;
	p->tail = &r->next;
	pthread_mutex_unlock(&p->mu);
	/* the reader sleeps without a timeout while nothing is running */
	if (write(p->wake[1], "e", 1) < 0) {
		/* full: it is awake already */
	}
	return ticket;
}

void hs_fpost_cancel(struct hs_fpost *p, uint64_t ticket)
{
	struct rec *r;

	if (!p || !ticket)
		return;
	pthread_mutex_lock(&p->mu);
	for (r = p->head; r && r->ticket != ticket; r = r->next)
		;
	if (r) {
		unlink_rec(p, r);
		if (r->mask)
			watch_unref(p, r->wd, false);
	}
	pthread_mutex_unlock(&p->mu);
	if (r)
		rec_free(r);
}

/* ---- the reader ---- */

/* Has the thread exited (a zombie, or dead)? */
static bool dead(pid_t tid)
{
	struct hs_proc_stat st;

	return hs_proc_stat(tid, &st) < 0 || st.state == 'Z' || st.state == 'X';
}

/* Is the call over? 1 over, 0 still in it, -1 cannot tell (the thread
 * runs: it may be in the call or past it). */
static int call_over(const struct rec *r)
{
	char path[48], buf[256], *s, *end;
	uint64_t v[7];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)r->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? 1 : -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n == 0 || errno == ESRCH ? 1 : -1;
	buf[n] = '\0';
	if (strncmp(buf, "running", 7) == 0)
		return -1;
	s = buf;
	for (int i = 0; i < 7; i++) {
		v[i] = strtoull(s, &end, 0);
		if (end == s)
			return -1;
		s = end;
	}
	if ((int64_t)v[0] == -1) /* outside a syscall: a fault, a stop, */
		return dead(r->tid) ? 1 : -1; /* or its end */
	if ((int)v[0] != r->nr)
		return 1;
	return memcmp(&v[1], r->args, sizeof(r->args)) == 0 ? 0 : 1;
}

/* How many descriptors open for writing process tgid holds on the file
 * at path; -1 when that cannot be told (the file is gone). */
static int writers_held(pid_t tgid, const char *path)
{
	char dirp[48], info[64], buf[256];
	struct stat want, sb;
	struct dirent *d;
	int held = 0;
	DIR *dp;

	if (stat(path, &want) < 0)
		return -1;
	snprintf(dirp, sizeof(dirp), "/proc/%d/fd", (int)tgid);
	if (!(dp = opendir(dirp)))
		return 0; /* gone: it holds nothing */
	while ((d = readdir(dp))) {
		unsigned long flags = O_RDWR;
		ssize_t n;
		char *f;
		int fd;

		if (d->d_name[0] == '.' ||
		    fstatat(dirfd(dp), d->d_name, &sb, 0) < 0 ||
		    sb.st_dev != want.st_dev || sb.st_ino != want.st_ino)
			continue;
		snprintf(info, sizeof(info), "/proc/%d/fdinfo/%.20s",
			 (int)tgid, d->d_name);
		if ((fd = open(info, O_RDONLY | O_CLOEXEC)) >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			buf[n > 0 ? n : 0] = '\0';
			if ((f = strstr(buf, "flags:")))
				flags = strtoul(f + 6, NULL, 8);
		}
		held += (flags & O_ACCMODE) != O_RDONLY;
	}
	closedir(dp);
	return held;
}

/* IN_CLOSE_WRITE of *rp's name, under p->mu: is it the release of what
 * a waiting open of that process made? Not while the process still holds
 * as many descriptors for writing there as it has opens waiting: then
 * the close was another writer's (one of the shim's processes, a
 * descriptor opened before). Looks at /proc without the lock; *rp is
 * looked up again after (NULL when it went meanwhile). */
static bool closed_by_opener(struct hs_fpost *p, struct rec **rp)
{
	struct rec *r = *rp;
	uint64_t ticket = r->ticket;
	char at[PATH_MAX];
	pid_t tgid = r->tgid;
	int waiting = 0, held;

	for (struct rec *o = p->head; o; o = o->next)
		waiting += o->open && o->tgid == tgid && o->wd == r->wd &&
			   strcmp(o->name, r->name) == 0;
	memcpy(at, r->at, sizeof(at));
	pthread_mutex_unlock(&p->mu);
	held = writers_held(tgid, at);
	pthread_mutex_lock(&p->mu);
	for (r = p->head; r && r->ticket != ticket; r = r->next)
		;
	*rp = r;
	return r && (held < 0 || held < waiting);
}

/* Every event queued so far, each to the oldest record it fits. */
static void drain(struct hs_fpost *p)
{
	char buf[16384]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while ((n = read(p->ifd, buf, sizeof(buf))) > 0) {
		for (char *q = buf; q < buf + n;) {
			const struct inotify_event *ev = (const void *)q;
			struct rec *r, *next;

			q += sizeof(*ev) + ev->len;
			pthread_mutex_lock(&p->mu);
			if (ev->mask & IN_IGNORED) {
				/* the directory went: what waited there saw
				 * its name go with it */
				for (r = p->head; r; r = next) {
					next = r->next;
					if (r->mask && r->wd == ev->wd) {
						unlink_rec(p, r);
						rec_free(r);
					}
				}
				watch_unref(p, ev->wd, true);
				pthread_mutex_unlock(&p->mu);
				continue;
			}
			if ((ev->mask & IN_OPEN) && ev->len) {
				/* an open of the name went through: the
				 * oldest open there not yet told is it */
				for (r = p->head; r; r = r->next)
					if (r->open && !r->opened &&
					    r->state == RUNNING &&
					    r->wd == ev->wd &&
					    strcmp(ev->name, r->name) == 0) {
						r->opened = true;
						break;
					}
			}
			/* the oldest record it fits; for a close, the oldest
			 * whose process let go of the file */
			for (uint64_t after = 0;;) {
				for (r = p->head; r; r = r->next)
					if (r->ticket > after && r->mask &&
					    r->wd == ev->wd &&
					    (ev->mask & r->mask) && ev->len &&
					    strcmp(ev->name, r->name) == 0)
						break;
				if (!r || !r->open)
					break;
				after = r->ticket;
				if (closed_by_opener(p, &r))
					break;
			}
			if (r) {
				unlink_rec(p, r);
				watch_unref(p, r->wd, false);
			}
			pthread_mutex_unlock(&p->mu);
			if (r)
				fire(p, r, true);
		}
	}
}

static bool due(const struct timespec *t, const struct timespec *now)
{
	return t->tv_sec < now->tv_sec ||
	       (t->tv_sec == now->tv_sec && t->tv_nsec <= now->tv_nsec);
}

/* Records whose call may still run: is it over? Returns the poll timeout
 * until the next look (-1: none to look at). */
static int look_at_calls(struct hs_fpost *p)
{
	struct timespec now;
	struct rec *r, *next, *over = NULL, **over_tail = &over;
	int timeout = -1;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&p->mu);
	for (r = p->head; r; r = r->next) {
		int o;

		if (r->state != RUNNING || !due(&r->next_look, &now))
			continue;
		o = call_over(r);
		if (o == 1 || (o < 0 && ++r->unknown > UNKNOWN_MAX)) {
			/* given up on (never seen over): an open waits for
			 * its close all the same, any other call is dropped
			 * below without a post */
			r->state = o == 1 ? OVER : r->open ? OPENED : OVER;
			r->ok = o != 1;
			continue;
		}
		if (r->wait_ms < CHECK_MAX_MS)
			r->wait_ms *= 2;
		now_plus(&r->next_look, r->wait_ms);
	}
	pthread_mutex_unlock(&p->mu);
	/* what those calls did was told before they returned */
	drain(p);
	pthread_mutex_lock(&p->mu);
	for (r = p->head; r; r = next) {
		next = r->next;
		if (r->state != OVER)
			continue;
		if (r->open && (r->ok || r->opened)) {
			r->state = OPENED; /* now for its close */
			continue;
		}
		unlink_rec(p, r);
		if (r->mask)
			watch_unref(p, r->wd, false);
		if (r->ok) { /* given up on (not an open): no post */
			rec_free(r);
			continue;
		}
		/* over with nothing told: it failed -- or it was a no-op
		 * rename, which succeeds without an event */
		r->ok = !r->mask;
		*over_tail = r;
		over_tail = &r->next;
	}
	for (r = p->head; r; r = r->next) {
		long ms;

		if (r->state != RUNNING)
			continue;
		ms = (r->next_look.tv_sec - now.tv_sec) * 1000 +
		     (r->next_look.tv_nsec - now.tv_nsec) / 1000000;
		if (ms < 1)
			ms = 1;
		if (timeout < 0 || ms < timeout)
			timeout = (int)ms;
	}
	pthread_mutex_unlock(&p->mu);
	for (r = over; r; r = next) {
		next = r->next;
		r->next = NULL;
		fire(p, r, r->ok);
	}
	return timeout;
}

static void *reader(void *arg)
{
	struct hs_fpost *p = arg;
	int timeout = -1;

	for (;;) {
		struct pollfd f[2] = { { .fd = p->ifd, .events = POLLIN },
				       { .fd = p->wake[0], .events = POLLIN } };
		char b[64];
		unsigned long asked;
		bool stop;

		if (poll(f, 2, timeout) < 0 && errno != EINTR)
			break;
		while (read(p->wake[0], b, sizeof(b)) > 0)
			;
		pthread_mutex_lock(&p->mu);
		asked = p->settle_asked;
		pthread_mutex_unlock(&p->mu);
		drain(p);
		timeout = look_at_calls(p);
		pthread_mutex_lock(&p->mu);
		p->settle_done = asked;
		stop = p->stopping;
		pthread_cond_broadcast(&p->settled);
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
	}
	return NULL;
}

/* ---- life cycle ---- */

struct hs_fpost *hs_fpost_start(struct hs_session *s)
{
	struct hs_fpost *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;

	if (!p)
		return NULL;
	p->s = s;
	p->tail = &p->head;
	p->wake[0] = p->wake[1] = -1;
	p->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (p->ifd < 0 || pipe2(p->wake, O_CLOEXEC | O_NONBLOCK) < 0)
		goto fail;
	pthread_mutex_init(&p->mu, NULL);
	pthread_mutex_init(&p->lanes_mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->settled, &ca);
	pthread_condattr_destroy(&ca);
	hs_inflight_init(&p->posting);
	if (pthread_create(&p->th, NULL, reader, p) != 0) {
		hs_inflight_destroy(&p->posting);
		pthread_cond_destroy(&p->settled);
		pthread_mutex_destroy(&p->mu);
		pthread_mutex_destroy(&p->lanes_mu);
		goto fail;
	}
	return p;
fail:
	fprintf(stderr, "hookshim: no inotify (%s): PostToolUse will not "
			"fire for writes only the syscall floor sees\n",
		strerror(errno));
	if (p->ifd >= 0)
		close(p->ifd);
	if (p->wake[0] >= 0) {
		close(p->wake[0]);
		close(p->wake[1]);
	}
	free(p);
	return NULL;
}

static bool any_running(const struct hs_fpost *p)
{
	for (const struct rec *r = p->head; r; r = r->next)
		if (r->state == RUNNING)
			return true;
	return false;
}

void hs_fpost_settle(struct hs_fpost *p, int grace_ms)
{
	struct timespec until;
	unsigned long mine;

	if (!p)
		return;
	now_plus(&until, (unsigned)grace_ms);
	pthread_mutex_lock(&p->mu);
	mine = ++p->settle_asked;
	if (write(p->wake[1], "s", 1) < 0) {
		/* full: it is awake already */
	}
	/* and until no call is left that may still end (the agent's
	 * processes are gone: theirs are over, as soon as looked at) */
	while ((p->settle_done < mine || any_running(p)) &&
	       pthread_cond_timedwait(&p->settled, &p->mu, &until) == 0)
		;
	pthread_mutex_unlock(&p->mu);
	hs_inflight_drain(&p->posting, grace_ms);
}

bool hs_fpost_stop(struct hs_fpost *p, int grace_ms)
{
	struct rec *r, *next;

	if (!p)
		return true;
	pthread_mutex_lock(&p->mu);
	p->stopping = true;
	pthread_mutex_unlock(&p->mu);
	if (write(p->wake[1], "x", 1) < 0) {
		/* full: it is awake already */
	}
	pthread_join(p->th, NULL);
	if (!hs_inflight_drain(&p->posting, grace_ms))
		return false;
	for (r = p->head; r; r = next) {
		next = r->next;
		rec_free(r);
	}
	while (p->watches) {
		struct watch *w = p->watches;

		p->watches = w->next;
		free(w);
	}
	close(p->ifd);
	close(p->wake[0]);
	close(p->wake[1]);
	hs_inflight_destroy(&p->posting);
	pthread_cond_destroy(&p->settled);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->lanes_mu);
	free(p);
	return true;
}
