/* Serving the floor's listener; see floor.h and docs/floor.md.
 *
 * A receiver thread takes notifications off the listener and does the
 * cheap part itself: read the path, resolve it, match the write filter.
 * One does, until that part cannot end -- a caller's memory or a file
 * system that does not answer (a FUSE mount of the session's own, a hard
 * NFS mount gone away): then a watchdog starts another receiver, so the
 * rest of the session goes on (RX_MAX at most).
 * Most notifications end there (no hook can care: CONTINUE), which keeps
 * their round trip to a few microseconds and costs no thread. A call a
 * hook may care about goes to a thread of its own, which runs the hooks
 * through hs_session_decide() -- the receiver never runs a hook, so a
 * slow hook stalls only its own caller (and a vfork parent sharing it).
 *
 * Answers: an allowed call continues in the kernel
 * (SECCOMP_USER_NOTIF_FLAG_CONTINUE); a denied one fails with the
 * configured errno after the reason was written to the caller's stderr.
 *
 * Longer than this project's files usually are: the loop, the watchdog
 * that adds receivers, and the three kinds of work it hands to a thread
 * (a write's or an exec's, a read's, a connection's) answer through the
 * same respond() and say_denied() and share struct hs_floor, which stays
 * private here; what each reads of the caller lives in its own file
 * (floor_event.c, floor_net.c, ...). */
#include "floor.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../engine/nopipe.h"
#include "../common/shellargv.h"
#include "../supervisor/log.h"
#include "../supervisor/message.h"
#include "../supervisor/session.h"
#include "floor_int.h"
#include "floor_post.h"
#include "../supervisor/inflight.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* Receivers at most (each one held keeps its thread), and how long one
 * may take over a call before the watchdog counts it held: a call the
 * receiver answers itself takes microseconds; the one that takes longest
 * by design, an open that waits, is handed to a thread of its own. */
#define RX_MAX 8
#define RX_HELD_MS 250

struct hs_floor {
	struct hs_session *s;
	bool net_agent;  /* the agent's own connections are events too */
	struct hs_floor_ctx x;
	struct hs_fscope *scope;
	int lfd;
	int stopping; /* hs_floor_stop: the receivers end (atomic) */
	size_t notif_size; /* the kernel's struct seccomp_notif may be larger */
	pthread_t rx[RX_MAX];
	int nrx;            /* receivers started (the watchdog adds them) */
	long busy[RX_MAX];  /* when receiver i took its call (hs_now_ms), 0
			     * while it waits for one (atomic) */
	pthread_t dog;      /* the watchdog (floor_watch) */
	bool dog_on;
	pthread_mutex_t dog_mu;
	pthread_cond_t dog_cv; /* hs_floor_stop wakes it */
	struct hs_inflight deciding; /* threads deciding a notification */
	struct hs_inflight waiting;  /* fifo opens waiting (floor_fifo.c) */
	struct hs_fpost *post;       /* PostToolUse at the call's end */
	struct hs_fl_self *self;     /* opens emulated (floor_open.c) */
	bool emulate_unjudged;       /* also the opens no hook can care about */
	int sandboxed;               /* a process entered Landlock (floor_open.c) */
	int agent_started;           /* the agent's first exec was seen */
	struct hs_fl_netmem *names;  /* what DNS queries asked, datagrams
				      * lately allowed (floor_net.c) */
};

/* This receiver keeps its callers' /proc entries between calls (the
 * first one; the watchdog's others open them afresh each call, so that
 * held receivers do not multiply the descriptors kept) */
static __thread bool rx_keeps;

static bool respond(int lfd, uint64_t id, int error, bool cont)
{
	struct seccomp_notif_resp r = { .id = id };

	if (cont)
		r.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		r.error = -error;
	return hs_fl_send(lfd, &r);
}

/* The shim's question (floor_exec.c): the verdict as the syscall's
 * result, the exec never run; an allowed tool call whose text hands on
 * a string its hook did not see says so, as the supervisor's answer
 * would (engine/handoff.h). */
static void answer_question(int lfd, uint64_t id, bool allow, bool handoff)
{
	struct seccomp_notif_resp r = {
		.id = id,
		.val = !allow	 ? HS_FLOOR_ASK_DENIED
		       : handoff ? HS_FLOOR_ASK_HANDOFF
				 : 0,
	};

	(void)hs_fl_send(lfd, &r);
}

/* s with control characters as \xNN (a newline ends the reason's last
 * line and stays): a hook's reason or a path must not drive a terminal. */
static void put_escaped(char *out, size_t cap, size_t *n, const char *s)
{
	for (; *s && *n + 5 < cap; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f)
			*n += (size_t)snprintf(out + *n, cap - *n, "\\x%02x", ch);
		else
			out[(*n)++] = (char)ch;
	}
	out[*n] = '\0';
}

/* The shim's message (shim/write_event.c hs_say_denied), for the same
 * write or read (op "read"). True when it reached the caller's stderr. */
static bool say_denied(struct hs_floor *f, pid_t tgid, const char *op,
		       const char *path, const char *reason)
{
	char msg[8192];
	size_t n = 0;
	int fd = hs_fl_caller_fd(tgid, 2);
	bool said;

	if (fd < 0)
		return false;
	if (!path) {
		/* a command: its reason alone, as the shim prints it */
		put_escaped(msg, sizeof(msg), &n,
			    reason && reason[0]
				    ? reason
				    : "hookshim: command denied by a hook");
	} else if (hs_fscope_quiet(f->scope) && isatty(fd)) {
		close(fd);
		return false;
	} else {
		put_escaped(msg, sizeof(msg), &n,
			    strcmp(op, "read") == 0	 ? "hookshim: read of "
			    : strcmp(op, "connect") == 0 ? "hookshim: connection to "
			    : strcmp(op, "send") == 0	 ? "hookshim: datagram to "
							 : "hookshim: write to ");
		put_escaped(msg, sizeof(msg), &n, path);
		put_escaped(msg, sizeof(msg), &n, " denied");
		if (reason && reason[0]) {
			put_escaped(msg, sizeof(msg), &n, ": ");
			put_escaped(msg, sizeof(msg), &n, reason);
		}
	}
	while (n > 0 && msg[n - 1] == '\n')
		n--;
	msg[n++] = '\n';
	/* else the caller's stderr is gone, or no one reads it: the errno
	 * still tells (never a wait on its reader, never our SIGPIPE: one
	 * killed the session, a full pipe held a receiver for good) */
	said = hs_nopipe_write(fd, msg, n) == (ssize_t)n;
	close(fd);
	return said;
}

/* A call refused by floor_refuse.c: said on the caller's stderr (also on
 * a terminal: it is no hook's denial the user chose to quiet) and logged
 * as a denial, so that reports and notices show it. */
static void say_refused(struct hs_floor *f, const struct hs_fl_call *c)
{
	const struct hs_fl_refusal *r = &c->refusal;
	char msg[PATH_MAX + 512];
	size_t n = 0;

	if (hs_fl_valid(f->lfd, c->n.id)) {
		if (r->path[0]) {
			put_escaped(msg, sizeof(msg), &n, "hookshim: write to ");
			put_escaped(msg, sizeof(msg), &n, r->path);
		} else {
			put_escaped(msg, sizeof(msg), &n, "hookshim: ");
			put_escaped(msg, sizeof(msg), &n, r->call);
		}
		put_escaped(msg, sizeof(msg), &n, " denied: ");
		put_escaped(msg, sizeof(msg), &n, r->reason);
		msg[n++] = '\n';
		/* (the caller's stderr gone or full: EPERM still tells) */
		(void)hs_fl_caller_say(c->tgid, 2, msg, n);
	}
	hs_log_refused(f->s, c->tgid, c->cwd[0] ? c->cwd : NULL, r->call,
		       r->path[0] ? r->path : NULL, r->reason);
}

static void say_pending(pid_t tgid, int to, const char *text)
{
	/* (the tool's stderr gone or full: nobody to tell) */
	(void)hs_fl_caller_say(tgid, to, text, strlen(text));
}

/* The shim's request for event e, answered by the same engine. */
static bool decide_one(struct hs_floor *f, struct hs_fl_call *c,
		       const struct hs_fl_event *e, struct hs_answer *ans)
{
	struct hs_msg req;
	bool ticketed;

	memset(&req, 0, sizeof(req));
	req.op = (char *)e->op;
	req.phase = "pre";
	req.via = "floor";
	req.nested = -1;
	req.beneath = -1;
	req.pid = c->tgid;
	req.cwd = c->cwd[0] ? c->cwd : NULL;
	if (strcmp(e->op, "exec") == 0) {
		req.nested = c->nested;
		req.beneath = c->beneath ? 1 : -1;
		req.exe = c->exe;
		req.argv = c->argv;
		for (req.argv_count = 0; c->argv[req.argv_count];
		     req.argv_count++)
			;
	} else {
		req.path = (char *)e->path;
		req.new_path = e->has_new ? (char *)e->new_path : NULL;
		req.operation = (char *)e->operation;
		if (e->temp_is == HS_FL_TEMP_CREATE)
			req.temp_create = e->temp;
		else if (e->temp_is == HS_FL_TEMP_PUBLISH)
			req.temp_publish = e->temp;
	}
	if (req.exe && c->asked) {
		/* a hidden shim's question (floor_exec.c): its request, carried
		 * by the floor; the exec it then makes takes the ticket */
		hs_session_decide_as(f->s, &req, HS_TICKET_SHIM, c->tgid, ans,
				     &ticketed);
	} else if (req.exe) {
		struct hs_proc_stat st;

		/* posix_spawn: the parent's shim asked, libc's child execs */
		hs_session_decide_exec_as(f->s, &req, c->tgid,
					  hs_proc_stat(c->tgid, &st) == 0
						  ? (pid_t)st.ppid
						  : 0,
					  ans, &ticketed);
	} else {
		hs_session_decide_as(f->s, &req, HS_TICKET_FLOOR, c->tgid,
				     ans, &ticketed);
	}
	/* A hook rewrote the command (updatedInput): only the shim in the
	 * calling process can exec the new one; the floor can only let the
	 * old one through, which is not what the hook allowed. */
	if (ans->verdict == HS_ALLOW && ans->updated) {
		ans->verdict = HS_DENY;
		free(ans->reason);
		ans->reason = strdup("hookshim: a hook rewrote this command "
				     "(updatedInput); only the shim can run a "
				     "rewritten command, and this exec was made "
				     "without it: not run");
	}
	return ans->verdict != HS_DENY;
}

struct job {
	struct hs_floor *f;
	bool spare; /* the receiver's own, reused (serve_one): never freed */
	struct hs_fl_call c;
};

/* Runs the hooks on c's events: 0 when all allow, else the errno to
 * deny with (the reason said). */
static int decide_events(struct hs_floor *f, struct hs_fl_call *c)
{
	int err = 0;

	if (c->refused) {
		say_refused(f, c);
		return EPERM;
	}
	/* an agent's denied writes, for this tool call (floor_pending.c) */
	if (c->notice && hs_fl_valid(f->lfd, c->n.id))
		say_pending(c->tgid, c->notice_fd, c->notice);
	for (int i = 0; i < c->nev && !err; i++) {
		struct hs_answer ans;
		bool ok = decide_one(f, c, &c->ev[i], &ans);

		if (i == 0 && ans.id) /* the post is the same tool call */
			snprintf(c->post.id, sizeof(c->post.id), "%s", ans.id);
		if (i == 0)
			c->handoff = ok && ans.handoff;
		/* a tool call allowed: the image it execs is a command's,
		 * for the roles its processes claim (floor_lineage.c) --
		 * a hand-off's as the shim makes it one (shim/exec_decide.c),
		 * kept here, where no rewrite of its environment reaches */
		if (i == 0 && ok && c->argv && !c->nested && f->x.enforce)
			(void)hs_fl_lineage_granted(
				c->tgid, c->exe, c->argv,
				(ans.handoff && !ans.own) ||
					(c->in_handoff &&
					 hs_hands_off_again(c->exe)),
				f->lfd, c->n.id);
		if (!ok) {
			err = ans.deny_errno > 0 ? ans.deny_errno : EACCES;
			/* only a caller still waiting reads a message */
			if (hs_fl_valid(f->lfd, c->n.id)) {
				c->said = say_denied(f, c->tgid, c->ev[i].op,
						     c->argv ? NULL
							     : c->ev[i].path,
						     ans.reason);
				if (!c->argv)
					hs_fl_pending_denied(&f->x, c,
							     c->ev[i].op,
							     c->ev[i].path,
							     ans.reason);
			}
		}
		hs_answer_free(&ans);
	}
	return err;
}

static void refused(struct hs_floor *f, pid_t tid, const char *call,
		    const char *why);

/* An allowed call: an open is done for the caller (floor_open.c), in
 * enforce mode every path call too (floor_pathop.c), the rest continue.
 * A call with a post to fire is watched first (floor_post.h), so that
 * nothing it does comes before the watch. False: judge it again, the path
 * changed meanwhile. */
static bool allow(struct hs_floor *f, struct hs_fl_call *c, bool judged,
		  bool in_thread)
{
	enum hs_fl_open_result r;
	uint64_t t;

	/* Enforce mode notifies the shim's calls too (they still carry the
	 * cookie, which lets nothing past there); their posts are the
	 * shim's own, as in guard mode. A post reports, it decides nothing:
	 * a process that presents the cookie only loses its own PostToolUse
	 * (docs/floor.md, "Enforce mode"). */
	if (f->x.enforce && c->post.want &&
	    c->n.data.args[5] == f->x.cookie)
		c->post.want = false;
	t = hs_fpost_expect(f->post, c);

	/* (in enforce mode an open to be answered, not done, is answered
	 * whatever "floor_opens" says: floor_decode.c) */
	r = judged || f->emulate_unjudged ||
			    (f->x.emulate_paths && c->open.on &&
			     c->open.read_err)
		    ? hs_fl_open(&f->x, c, !in_thread && rx_keeps)
		    : HS_FL_OPEN_CONTINUE;
	if (r == HS_FL_OPEN_CONTINUE)
		r = hs_fl_pathop(&f->x, c, !in_thread && rx_keeps);
	if (r == HS_FL_OPEN_ANSWERED || r == HS_FL_OPEN_LATER)
		return true;
	if (r == HS_FL_OPEN_REFUSED) { /* into what it may not reach */
		hs_fpost_cancel(f->post, t);
		refused(f, (pid_t)c->n.pid, "open", c->reach_why);
		respond(f->lfd, c->n.id, EPERM, false);
		return true;
	}
	if (r == HS_FL_OPEN_AGAIN) {
		hs_fpost_cancel(f->post, t);
		return false;
	}
	if (!respond(f->lfd, c->n.id, 0, true))
		hs_fpost_cancel(f->post, t);
	return true;
}

static void hand_off(struct hs_floor *f, struct job *j);
static void end_spawned(struct hs_floor *f, const struct hs_fl_call *c);

/* Answers j, classified as v, and frees it. The receiver (!in_thread)
 * hands a call the hooks must decide to a thread of its own. */
static void answer(struct hs_floor *f, struct job *j, enum hs_fl_verdict v,
		   bool in_thread)
{
	struct hs_fl_call *c = &j->c;
	int err;

	for (;;) {
		/* "gone", yet still waiting: a step of ours took its own want
		 * of descriptors or memory (the caller's /proc/<tid> not
		 * opened, floor_task.c) for the caller's end. Never left
		 * unanswered -- the caller would wait for good, and its
		 * session with it: enforce mode fails it (ENFILE), guard mode
		 * leaves it to the kernel, as every step of ours that fails
		 * so (hs_fl_ours) */
		if (v == HS_FL_GONE && hs_fl_valid(f->lfd, c->n.id)) {
			respond(f->lfd, c->n.id, f->x.enforce ? ENFILE : 0,
				!f->x.enforce);
			break;
		}
		if (v == HS_FL_DECIDE && !in_thread) {
			hand_off(f, j);
			return;
		}
		if (v == HS_FL_ENOSYS) {
			respond(f->lfd, c->n.id, ENOSYS, false);
		} else if (v == HS_FL_ANSWER) {
			respond(f->lfd, c->n.id, c->fail, false);
		} else if (v == HS_FL_FAIL) {
			char why[256];

			snprintf(why, sizeof(why), "an exec whose path or "
				 "arguments the supervisor cannot read or name "
				 "failed (%s): the kernel reading them again "
				 "could find other bytes", strerror(c->fail));
			refused(f, (pid_t)c->n.pid, "exec", why);
			respond(f->lfd, c->n.id, c->fail, false);
		} else if (v == HS_FL_REFUSED) {
			refused(f, (pid_t)c->n.pid, "open", c->reach_why);
			respond(f->lfd, c->n.id, EPERM, false);
		} else if (c->asked && v != HS_FL_GONE) {
			/* a shim that cannot reach us asks (hs_floor_ask_exec):
			 * the verdict is the answer, nothing runs */
			bool ok = v != HS_FL_DECIDE || !decide_events(f, c);

			answer_question(f->lfd, c->n.id, ok,
					v == HS_FL_DECIDE && c->handoff);
		} else if (v == HS_FL_DECIDE && (err = decide_events(f, c))) {
			end_spawned(f, c);
			respond(f->lfd, c->n.id, err, false);
		} else if (v != HS_FL_GONE &&
			   !allow(f, c, v == HS_FL_DECIDE, in_thread)) {
			hs_fl_call_free(c);
			v = hs_fl_classify(&f->x, c);
			continue;
		}
		break;
	}
	hs_fl_call_free(c);
	if (!j->spare)
		free(j);
}

static void *decide(void *arg)
{
	struct job *j = arg;
	struct hs_floor *f = j->f;

	answer(f, j, HS_FL_DECIDE, true);
	hs_inflight_leave(&f->deciding);
	return NULL;
}

/* fn(arg) on a detached thread of its own (stack bytes), counted among
 * the deciding ones until it leaves them; where no thread can start, on
 * this one: late rather than never. */
static void detached(struct hs_floor *f, void *(*fn)(void *), void *arg,
		     size_t stack, bool entered)
{
	pthread_attr_t attr;
	pthread_t t;

	if (!entered)
		hs_inflight_enter(&f->deciding, 0);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, stack);
	if (pthread_create(&t, &attr, fn, arg) != 0)
		fn(arg);
	pthread_attr_destroy(&attr);
}

static void hand_off(struct hs_floor *f, struct job *j)
{
	hs_inflight_enter(&f->deciding, 0);
	/* the receiver's spare goes on receiving: the thread gets a copy,
	 * and what the call owns with it */
	if (j->spare) {
		struct job *copy = malloc(sizeof(*copy));

		if (!copy) {
			decide(j); /* no memory: late rather than never */
			return;
		}
		memcpy(copy, j, sizeof(*copy));
		copy->spare = false;
		j->c.argv = NULL;
		j->c.notice = NULL;
		j->c.pop.sock = -1;
		j = copy;
	}
	detached(f, decide, j, 1u << 20, true);
}

/* A denied tool call the agent started a child to run (floor_exec.c,
 * hs_fl_spawned_tool_call): the child ends by SIGKILL in its exec, the
 * reason already on its stderr (only then: killed without it, the
 * command would say less than the errno does). To the agent the command
 * started, printed its reason and was killed -- a failed command whose
 * output is the reason, as the shim's deny shows it -- where a failed
 * exec would have made the spawn fail and its output be dropped.
 * Nothing of the command runs: the kill is pending before the answer,
 * and a process with SIGKILL pending never returns to user space. */
static void end_spawned(struct hs_floor *f, const struct hs_fl_call *c)
{
	int pfd;

	if (!c->said || !hs_fl_spawned_tool_call(&f->x, c) ||
	    (pfd = (int)syscall(SYS_pidfd_open, c->tgid, 0)) < 0)
		return;
	/* the pidfd is the caller's only while the caller still waits */
	if (hs_fl_valid(f->lfd, c->n.id))
		(void)syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0);
	close(pfd);
}

/* Refused: the reason to the caller's stderr and the log. */
static void refused(struct hs_floor *f, pid_t tid, const char *call,
		    const char *why)
{
	pid_t tgid = hs_fl_tgid(tid);
	char msg[512];
	size_t n = 0;

	hs_log_refused(f->s, tgid > 0 ? tgid : tid, NULL, call, NULL, why);
	if (tgid <= 0)
		return;
	put_escaped(msg, sizeof(msg), &n, "hookshim: ");
	put_escaped(msg, sizeof(msg), &n, why);
	msg[n++] = '\n';
	/* (the caller's stderr gone or full: the errno still tells) */
	(void)hs_fl_caller_say(tgid, 2, msg, n);
}

struct getfd_job {
	struct hs_floor *f;
	struct seccomp_notif n;
};

/* pidfd_getfd, made by the supervisor (floor_getfd.c) on a thread of its
 * own: the take can wait (a target's exec lock), the receiver must not */
static void *getfd(void *arg)
{
	struct getfd_job *g = arg;
	struct hs_floor *f = g->f;
	char why[320];
	long r = hs_fl_getfd(&f->x, &g->n, why, sizeof(why));

	if (r >= 0)
		hs_fl_inject(f->lfd, g->n.id, (int)r, true);
	else if (r != HS_FL_REACH)
		respond(f->lfd, g->n.id, (int)-r, false);
	else if (hs_fl_valid(f->lfd, g->n.id)) {
		refused(f, (pid_t)g->n.pid, "pidfd_getfd", why);
		respond(f->lfd, g->n.id, EPERM, false);
	}
	free(g);
	hs_inflight_leave(&f->deciding);
	return NULL;
}

/* A call that reaches into another process (floor_reach.c), answered
 * here: EPERM when it targets the supervisor or a hook, else it goes on
 * (pidfd_getfd: made by us, above). False for any other call. */
static bool reach(struct hs_floor *f, const struct seccomp_notif *n)
{
	const char *call = hs_fl_reach_call(n);
	struct getfd_job *g;
	char why[320];
	int err;

	if (!call)
		return false;
	if (n->data.nr == SYS_pidfd_getfd) {
		if (!(g = malloc(sizeof(*g)))) {
			respond(f->lfd, n->id, ENOMEM, false);
			return true;
		}
		g->f = f;
		g->n = *n;
		detached(f, getfd, g, 256 * 1024, false);
		return true;
	}
	err = hs_fl_reach(n, why, sizeof(why));
	/* what was read is only good while the caller is the one we read */
	if (err && hs_fl_valid(f->lfd, n->id)) {
		refused(f, (pid_t)n->pid, call, why);
		respond(f->lfd, n->id, err, false);
	} else {
		respond(f->lfd, n->id, 0, true);
	}
	return true;
}

/* A process's own RLIMIT_CORE (floor_refuse.c): true when answered. */
static bool core_limit(struct hs_floor *f, const struct seccomp_notif *n)
{
	char why[320];
	long r = hs_fl_core_limit(&f->x, n, why, sizeof(why));

	if (r == HS_FL_KERNEL)
		return false;
	if (r > 0 && hs_fl_valid(f->lfd, n->id))
		refused(f, (pid_t)n->pid, n->data.nr == SYS_setrlimit
						  ? "setrlimit"
						  : "prlimit64",
			why);
	respond(f->lfd, n->id, r > 0 ? (int)r : (int)-r, false);
	return true;
}

/* A connection (floor_net.c), decided on a thread of its own: what is
 * left to read of the caller, then the session's cache or the hooks. */
struct net_job {
	struct hs_floor *f;
	uint64_t id;
	struct hs_fl_net d;
};

/* The shim's message for a denied connection (shim/net.c): by the name
 * the process looked up when it is known, else by address. */
static void net_denied(struct hs_floor *f, const struct hs_fl_net *d, int i,
		       const char *host, const char *reason)
{
	char dest[300];
	const char *h = host[0] ? host : d->dest[i].address;
	bool v6 = strchr(h, ':') != NULL;

	snprintf(dest, sizeof(dest), "%s%s%s:%d", v6 ? "[" : "", h,
		 v6 ? "]" : "", d->raw ? 0 : d->dest[i].port);
	say_denied(f, d->tgid, d->send && d->udp ? "send" : "connect", dest,
		   reason);
}

/* One destination of d: the session's answer into ans, the name its
 * process looked up for it into host (256 bytes, "" none). */
static void net_ask(struct hs_floor *f, const struct hs_fl_net *d, int i,
		    char *host, struct hs_answer *ans)
{
	struct hs_msg req = { .op = "connect", .phase = "pre", .nested = -1,
			      .via = "floor" };

	req.pid = d->tgid;
	req.address = d->dest[i].address;
	/* a raw socket's packet carries its own port: judged by address */
	req.port = d->raw ? 0 : d->dest[i].port;
	req.proto = d->udp ? "udp" : "tcp";
	req.operation = d->send && d->udp ? "send" : NULL;
	if (hs_fl_names_host(f->names, d->tgid, req.address, host))
		req.host = host;
	hs_session_decide(f->s, &req, ans);
}

static void *net_decide(void *arg)
{
	struct net_job *nj = arg;
	struct hs_floor *f = nj->f;
	struct hs_fl_net *d = &nj->d;
	struct hs_answer ans = { .verdict = HS_ALLOW };
	char host[256];

	hs_fl_net_finish(d, f->x.agent, f->net_agent);
	/* the agent's own connection: its own (docs/network.md); a stream
	 * socket's send names no destination but as TCP Fast Open */
	if (!d->agent && (!d->send || !d->stream || d->fastopen))
		for (int i = 0; i < d->ndest && ans.verdict != HS_DENY &&
				hs_fl_valid(f->lfd, nj->id);
		     i++) {
			hs_answer_free(&ans);
			ans = (struct hs_answer){ .verdict = HS_ALLOW };
			net_ask(f, d, i, host, &ans);
			if (ans.verdict == HS_DENY)
				net_denied(f, d, i, host, ans.reason);
		}
	if (ans.verdict == HS_DENY && hs_fl_valid(f->lfd, nj->id)) {
		respond(f->lfd, nj->id,
			ans.deny_errno > 0 ? ans.deny_errno : ECONNREFUSED,
			false);
	} else {
		/* (an allow because a hook failed is not a decision) */
		if (!ans.failed)
			hs_fl_sent_keep(f->names, d, f->s->cfg->settings.net_keep);
		/* a DNS query's name, once it may go to a DNS server */
		if (d->send && d->ndest > 0 && d->dest[0].port == 53)
			hs_fl_names_add(f->names, d->tgid, d->qname);
		respond(f->lfd, nj->id, 0, true);
	}
	hs_answer_free(&ans);
	free(nj);
	hs_inflight_leave(&f->deciding);
	return NULL;
}

/* A connect, or a send that may name a destination, to judge: false for
 * any other call. On the receiver only its destinations are read; one
 * that cannot be read is refused (nothing could judge it). A send with
 * none goes on at once, the name its DNS query asks for kept. */
static bool net(struct hs_floor *f, const struct seccomp_notif *n)
{
	struct net_job *nj;
	int r;

	if (n->data.nr != SYS_connect && n->data.nr != SYS_sendto &&
	    n->data.nr != SYS_sendmsg && n->data.nr != SYS_sendmmsg)
		return false;
	nj = calloc(1, sizeof(*nj));
	r = nj ? hs_fl_net_read(n, &nj->d) : -1;
	/* a datagram to where its thread was lately allowed to send: at once */
	if (r > 0 && hs_fl_sent_allowed(f->names, &nj->d,
					f->s->cfg->settings.net_keep))
		r = 0;
	if (r <= 0) {
		/* a DNS query's name: sent to a DNS server (lately allowed
		 * there), or on a socket connected to one -- told while the
		 * caller is stopped: let go, a resolver has its answer and
		 * its socket closed within microseconds */
		pid_t tgid = 0;

		if (r == 0 && nj->d.qname[0] &&
		    (nj->d.ndest > 0 ? nj->d.dest[0].port == 53
				     : hs_fl_net_dns_peer(nj->d.tid, nj->d.fd)))
			tgid = hs_fl_tgid(nj->d.tid);
		respond(f->lfd, n->id, r < 0 ? ECONNREFUSED : 0, r == 0);
		if (tgid > 0)
			hs_fl_names_add(f->names, tgid, nj->d.qname);
		free(nj);
		return true;
	}
	nj->f = f;
	nj->id = n->id;
	detached(f, net_decide, nj, 1u << 20, false);
	return true;
}

/* Most notifications are answered here, on the receiver, with its one
 * reused job; only a call for the hooks gets a job of its own. */
static void serve_one(struct hs_floor *f, struct job *j, const void *buf)
{
	uint64_t id;

	memcpy(&id, buf, sizeof(id)); /* struct seccomp_notif starts with id */
	{
		const struct seccomp_notif *n = buf;

		hs_fl_task_seen((pid_t)n->pid, n->data.nr);
	}
	if (core_limit(f, buf) || reach(f, buf) || net(f, buf))
		return;
	if (hs_fl_exec_idle(&f->x, buf)) {
		respond(f->lfd, id, 0, true);
		return;
	}
	hs_fl_call_reset(&j->c);
	memcpy(&j->c.n, buf, sizeof(j->c.n));
	answer(f, j, hs_fl_classify(&f->x, &j->c), false);
}

/* The receiver sleeps in SECCOMP_IOCTL_NOTIF_RECV itself, not in a poll
 * before it: one syscall less per notification, and the kernel's
 * synchronous wake-up (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) hands the
 * caller's CPU straight to it. hs_floor_stop ends it with
 * HS_FL_STOP_SIGNAL, whose handler has no SA_RESTART, so the ioctl fails
 * with EINTR (glibc's own signals are below SIGRTMIN). */
static void stop_nudged(int sig)
{
	(void)sig; /* only to interrupt the receiver's ioctl */
}

/* RECV failed with ENOENT: a caller that gave up (killed) meanwhile, or
 * no process left under the filter (then it never blocks again).
 * POLLERR is no answer: the kernel says it when its lock was
 * interrupted. */
static bool nobody_left(int lfd)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP);
}

struct rx_arg {
	struct hs_floor *f;
	int i; /* its slot in f->rx and f->busy */
};

static void *receive(void *arg)
{
	struct hs_floor *f = ((struct rx_arg *)arg)->f;
	long *busy = &f->busy[((struct rx_arg *)arg)->i];
	void *buf = malloc(f->notif_size);
	struct job *spare = malloc(sizeof(*spare));
	sigset_t nudge;

	rx_keeps = ((struct rx_arg *)arg)->i == 0;
	free(arg);
	if (!buf || !spare) {
		free(buf);
		free(spare);
		/* it never served: the watchdog counts it held, and starts
		 * another */
		__atomic_store_n(busy, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	sigemptyset(&nudge);
	sigaddset(&nudge, HS_FL_STOP_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &nudge, NULL);
	spare->f = f;
	spare->spare = true;
	while (!__atomic_load_n(&f->stopping, __ATOMIC_ACQUIRE)) {
		memset(buf, 0, f->notif_size);
		if (ioctl(f->lfd, SECCOMP_IOCTL_NOTIF_RECV, buf) < 0) {
			if (errno == EINTR ||
			    (errno == ENOENT && !nobody_left(f->lfd)))
				continue;
			break;
		}
		__atomic_store_n(busy, hs_now_ms(), __ATOMIC_RELAXED);
		serve_one(f, spare, buf);
		__atomic_store_n(busy, 0, __ATOMIC_RELAXED);
	}
	/* (stopped, or no process is left under the filter: then every
	 * receive fails at once, and no other receiver is wanted) */
	hs_fl_open_forget();
	free(buf);
	free(spare);
	return NULL;
}

/* Receiver number f->nrx, started: false where it could not be. */
static bool rx_start(struct hs_floor *f)
{
	struct rx_arg *a = malloc(sizeof(*a));

	if (!a || f->nrx == RX_MAX)
		goto fail;
	a->f = f;
	a->i = f->nrx;
	if (pthread_create(&f->rx[f->nrx], NULL, receive, a) != 0)
		goto fail;
	__atomic_store_n(&f->nrx, f->nrx + 1, __ATOMIC_RELEASE);
	return true;
fail:
	free(a);
	return false;
}

/* Every 100 ms: is every receiver held by one call? Then one more, so
 * that a caller whose memory or file system does not answer holds only
 * itself (and the receivers it held), not the session. */
static void *floor_watch(void *arg)
{
	struct hs_floor *f = arg;
	struct timespec ts;
	bool said = false;

	pthread_mutex_lock(&f->dog_mu);
	while (!__atomic_load_n(&f->stopping, __ATOMIC_ACQUIRE)) {
		long now = hs_now_ms();
		int held = 0;

		for (int i = 0; i < f->nrx; i++) {
			long b = __atomic_load_n(&f->busy[i], __ATOMIC_RELAXED);

			held += b && now - b >= RX_HELD_MS;
		}
		hs_fl_orphans_reap();
		if (held == f->nrx && !rx_start(f) && !said) {
			said = true;
			fprintf(stderr, "hookshim: every receiver of the syscall "
					"floor is held (a caller's memory or file "
					"system does not answer); the session's "
					"notified calls wait\n");
		}
		hs_realtime_after(&ts, 100);
		pthread_cond_timedwait(&f->dog_cv, &f->dog_mu, &ts);
	}
	pthread_mutex_unlock(&f->dog_mu);
	return NULL;
}

/* The agent's child, which said its floor failed, ends itself with 126
 * (floor_spawn.c). Its status is what the session reports, so it is left
 * to do that -- a kill at once raced it, and the session said 137 instead
 * -- and killed only should it not have within 200 ms (the two sides
 * disagreeing). Not reaped: the session waits for it. */
static void ended_itself(pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	siginfo_t si;

	for (int i = 0; i < 200; i++) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) != 0)
			break;
		if (si.si_pid == pid)
			return;
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
}

void hs_floor_hooks_no_core(const struct hs_floor_plan *p)
{
	struct rlimit core;

	if (p->on && p->no_core && getrlimit(RLIMIT_CORE, &core) == 0) {
		core.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &core);
	}
}

struct hs_floor *hs_floor_start(struct hs_floor_plan *p,
				struct hs_session *s, const char *write_filter)
{
	struct seccomp_notif_sizes sizes = { 0 };
	struct hs_floor *f;
	int lfd = hs_floor_take_listener(p);

	if (lfd <= -HS_FLOOR_USERNS_ERR) { /* floor_spawn.c: no agent */
		fprintf(stderr, "hookshim: the agent could not enter its user "
				"namespace (%s); it was not started\n",
			strerror(-lfd - HS_FLOOR_USERNS_ERR));
		return NULL;
	}
	/* The child installed the filter but its listener never reached us
	 * (EPROTO: no descriptor came with the child's word, as at our
	 * descriptor limit): it runs under a filter nobody answers, every
	 * notified call failing. Stopped, in either mode. */
	if (lfd == -EPROTO) {
		if (p->agent > 0)
			kill(p->agent, SIGKILL);
		fprintf(stderr, "hookshim: the syscall floor's listener did "
				"not arrive; the agent was stopped\n");
		return NULL;
	}
	/* The child ended itself before its exec (floor_spawn.c) */
	if (lfd < 0 && (p->require || p->enforce || lfd == -EPIPE)) {
		if (p->agent > 0)
			ended_itself(p->agent);
		fprintf(stderr, "hookshim: the syscall floor could not be "
				"installed (%s); %s: the agent was not "
				"started\n", strerror(-lfd),
			p->require   ? "\"floor\": \"require\""
			: p->enforce ? "enforce mode needs it"
				     : "its listener was lost");
		return NULL;
	}
	if (lfd < 0) {
		fprintf(stderr, "hookshim: the syscall floor could not be "
				"installed (%s); running with the shim alone\n",
			strerror(-lfd));
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(lfd);
		return NULL;
	}
	f->s = s;
	f->net_agent = hs_config_interest(s->cfg) & HS_INTEREST_NET_AGENT;
	f->names = hs_fl_netmem_new();
	f->lfd = lfd;
	f->notif_size = sizeof(struct seccomp_notif);
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0 &&
	    sizes.seccomp_notif > f->notif_size)
		f->notif_size = sizes.seccomp_notif;
	f->scope = hs_fscope_new(write_filter, s->root);
	/* "floor_opens": the judged ones by default. Doing every notified
	 * open closes the swap race for unwatched decoys too, at about 2.5x
	 * the cost of a continued one (docs/floor.md, "Allowed calls"). */
	if (s->cfg->settings.floor_opens != HS_FLOOR_OPENS_KERNEL)
		f->self = hs_fl_self_new(
			p->flags, p->userns_link,
			!(s->cfg->settings.floor_allow &
			  (HS_FA(MOUNT) | HS_FA(CHROOT) | HS_FA(NAMESPACES))));
	f->emulate_unjudged =
		s->cfg->settings.floor_opens == HS_FLOOR_OPENS_ALL;
	/* enforce mode: our own lack of descriptors or memory fails a call
	 * rather than leave it to the kernel (floor_start.c) */
	hs_fl_ours_closed(p->enforce);
	hs_fl_lineage_start(p->enforce, p->agent_env);
	hs_fl_exec_start();
	hs_fl_lineage_nested(s->cfg->settings.nested_exec ||
			     (hs_config_interest(s->cfg) &
			      HS_INTEREST_EXEC_NESTED));
	hs_fl_reach_start(s->cfg->settings.floor_allow);
	hs_fl_scarce_test(getenv(HS_ENV_TEST_FLOOR_SCARCE));
	f->x = (struct hs_floor_ctx){ .scope = f->scope, .cfg = s->cfg,
				      .listener = lfd, .cookie = p->cookie,
				      .exec_hooks = p->what & HS_FLOOR_EXECS,
				      .pending = hs_fl_pending_new(),
				      .self = f->self,
				      .sandboxed = &f->sandboxed,
				      .enforce = p->enforce,
				      /* path calls made by the supervisor:
				       * enforce mode's, with opens */
				      .emulate_paths = p->enforce && f->self,
				      .agent = p->agent,
				      .agent_started = &f->agent_started,
				      .allow = s->cfg->settings.floor_allow,
				      .no_core = p->no_core,
				      .sandbox_mounts =
					      s->cfg->settings.floor_sandbox_mounts };
	hs_inflight_init(&f->deciding);
	hs_inflight_init(&f->waiting);
	f->x.stopping = &f->stopping;
	f->x.waiting = &f->waiting;
	/* no post hook on writes: no inotify, no thread */
	if (f->scope && hs_fscope_any_post(f->scope))
		f->post = hs_fpost_start(s);
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = stop_nudged; /* no SA_RESTART */
		sigemptyset(&sa.sa_mask);
		sigaction(HS_FL_STOP_SIGNAL, &sa, NULL);
	}
	pthread_mutex_init(&f->dog_mu, NULL);
	pthread_cond_init(&f->dog_cv, NULL);
	if (!f->scope || !f->x.pending || !rx_start(f)) {
		/* the listener closes with f: notified calls then fail with
		 * ENOSYS, the kernel's answer when nobody listens */
		fprintf(stderr, "hookshim: the syscall floor could not be "
				"served\n");
		close(lfd);
		hs_fscope_free(f->scope);
		hs_fpost_stop(f->post, 0);
		hs_fl_pending_free(f->x.pending);
		hs_fl_self_free(f->self);
		hs_fl_netmem_free(f->names);
		pthread_mutex_destroy(&f->dog_mu);
		pthread_cond_destroy(&f->dog_cv);
		free(f);
		return NULL;
	}
	/* without it, one held receiver holds the session: said */
	f->dog_on = pthread_create(&f->dog, NULL, floor_watch, f) == 0;
	if (!f->dog_on)
		fprintf(stderr, "hookshim: the syscall floor's watchdog could "
				"not start: one caller it cannot read would hold "
				"every notified call\n");
	return f;
}

void hs_floor_settle(struct hs_floor *f, int grace_ms)
{
	if (f)
		hs_fpost_settle(f->post, grace_ms);
}

bool hs_floor_stop(struct hs_floor *f, int grace_ms)
{
	if (!f)
		return true;
	__atomic_store_n(&f->stopping, 1, __ATOMIC_RELEASE);
	if (f->dog_on) { /* no receiver is added after this */
		pthread_mutex_lock(&f->dog_mu);
		pthread_cond_signal(&f->dog_cv);
		pthread_mutex_unlock(&f->dog_mu);
		pthread_join(f->dog, NULL);
	}
	/* A receiver may be held inside the kernel, reading a caller's
	 * memory that does not come (a page a userfaultfd never serves,
	 * under "floor_allow": ["userfaultfd"]): the session ends all the
	 * same, and the thread with the process. Every one is nudged again
	 * and again (a nudge that came just before its ioctl is lost) and
	 * joined, all within the one grace. */
	{
		bool joined[RX_MAX] = { false };
		struct timespec five = { 0, 5000000 };
		long end = hs_now_ms() + grace_ms;
		int left = f->nrx;

		for (;;) {
			for (int i = 0; i < f->nrx; i++)
				if (!joined[i])
					pthread_kill(f->rx[i], HS_FL_STOP_SIGNAL);
			for (int i = 0; i < f->nrx; i++)
				if (!joined[i] &&
				    pthread_tryjoin_np(f->rx[i], NULL) == 0) {
					joined[i] = true;
					left--;
				}
			if (!left || hs_now_ms() >= end)
				break;
			nanosleep(&five, NULL);
		}
		if (left) {
			fprintf(stderr, "hookshim: the syscall floor's receiver "
					"is held (reading a caller's memory); "
					"ending without it\n");
			return false; /* threads still use f: leave it to exit() */
		}
	}
	/* (a fifo's open waiting on its thread looks every 50 ms) */
	if (!hs_inflight_drain(&f->deciding, grace_ms) ||
	    !hs_inflight_drain(&f->waiting, grace_ms) ||
	    !hs_fpost_stop(f->post, grace_ms))
		return false; /* threads still use f: leave it to exit() */
	/* Closing the listener answers whatever is left (processes the
	 * agent left behind) with ENOSYS. */
	close(f->lfd);
	hs_fscope_free(f->scope);
	hs_fl_pending_free(f->x.pending);
	hs_fl_self_free(f->self);
	hs_fl_netmem_free(f->names);
	hs_inflight_destroy(&f->deciding);
	hs_inflight_destroy(&f->waiting);
	pthread_mutex_destroy(&f->dog_mu);
	pthread_cond_destroy(&f->dog_cv);
	free(f);
	return true;
}
