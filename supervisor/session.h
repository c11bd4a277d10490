/* A session: the config snapshot, the log, and the one function that turns
 * a request into hook runs and a verdict. The socket server, the seccomp
 * floor, `__exec` and the PATH wrappers all decide through
 * hs_session_decide. */
#ifndef HOOKSHIM_SUPERVISOR_SESSION_H
#define HOOKSHIM_SUPERVISOR_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"
#include "../engine/dispatch.h"
#include "atomic_save.h"
#include "net_cache.h"
#include "staged.h"
#include "message.h"
#include "tickets.h"

struct hs_report;
struct hs_notices;
struct hs_outer;
struct hs_transcript;
struct hs_otlp;

struct hs_session {
	const struct hs_config *cfg; /* borrowed, immutable */
	char id[72];
	const char *root;
	const char *root_alias; /* the root's logical name, or NULL */
	int log_fd;          /* -1 when not logging */
	struct hs_report *report;   /* counts and denials, or NULL (report.h) */
	struct hs_notices *notices; /* terminal notices, or NULL (notice.h) */
	bool can_prompt;     /* a controlling terminal and a tty stdin */
	pthread_mutex_t log_mu;
	pthread_mutex_t ask_mu; /* one prompt on the terminal at a time */
	struct hs_transcript *transcript; /* transcript_path, or NULL */
	struct hs_otlp *otlp; /* OpenTelemetry export, or NULL (otlp.h) */
	unsigned long next_id;
	bool ending;         /* hs_session_ending: answers are denials */
	struct hs_atomic_saves atomic; /* atomic saves judged at their temp
					* file (atomic_save.h) */
	/* enforce mode: one decision for the shim's request and the floor's
	 * notification of the same call (tickets.h); NULL in guard mode */
	struct hs_tickets *tickets;
	struct hs_staged staged; /* staged writes allowed at their open,
				  * awaiting their publish (staged.h) */
	struct hs_net_cache net; /* a decision per destination (net_cache.h) */
	struct hs_outer *outer; /* the session we run inside (outer.h), asked
				 * first; NULL at top level. Borrowed. */
	/* Sees each decision's hook runs before they are freed, and its
	 * verdict before an ask is resolved (`hookshim test` prints them:
	 * the live decision, shown). NULL in a live session. */
	void (*watch)(void *arg, const struct hs_event *ev,
		      const struct hs_outcome *out);
	void *watch_arg;
};

/* `log_path` may be NULL. Returns -1 (with a message) if the log cannot be
 * opened. Decides can_prompt now, from the calling process's state. */
int hs_session_init(struct hs_session *s, const struct hs_config *cfg,
		    const char *session_id, const char *log_path);
void hs_session_close(struct hs_session *s);

/* Keeps a transcript for the session (supervisor/transcript.h), which
 * every payload then names as transcript_path; removed by
 * hs_session_close, its lines appended to `keep_as` first when given.
 * Without it (it could not be made, or a session that never calls this)
 * transcript_path is "". */
void hs_session_keep_transcript(struct hs_session *s, const char *keep_as);
/* What hs_session_close does to the transcript's file, for a session
 * that cannot be closed (requests outlived the grace). */
void hs_session_leave_transcript(struct hs_session *s);

/* Decides one request: always fills `ans` (allow when nothing applies).
 * Inside an outer session, the outer decides first and a deny there is
 * the answer (supervisor/outer.h). Safe from many threads at once. */
void hs_session_decide(struct hs_session *s, const struct hs_msg *req,
		       struct hs_answer *ans);

/* hs_session_decide for a request of `side`, made by thread group tgid
 * -- as the kernel names it: SO_PEERCRED of the shim's connection, the
 * notification's caller -- answered from the other side's ticket for the
 * same call when there is one (enforce mode, tickets.h): *ticketed is then
 * true, no hook ran and nothing is logged. */
void hs_session_decide_as(struct hs_session *s, const struct hs_msg *req,
			  enum hs_ticket_side side, pid_t tgid,
			  struct hs_answer *ans, bool *ticketed);
/* The same for an exec whose caller may be the child of the process that
 * asked (posix_spawn: the parent's shim asks, libc's child execs): the
 * parent's ticket serves too. */
void hs_session_decide_exec_as(struct hs_session *s, const struct hs_msg *req,
			       pid_t tgid, pid_t parent, struct hs_answer *ans,
			       bool *ticketed);

/* The session is being torn down (its agent was terminated, or requests
 * outlived the grace): every decision still being made, and any made
 * from now on, is a denial — its hooks were killed, not asked. */
void hs_session_ending(struct hs_session *s);

/* Fires SessionStart or SessionEnd hooks and logs them; `out` is filled
 * and owned by the caller (hs_outcome_free). */
void hs_session_lifecycle(struct hs_session *s, enum hs_kind kind,
			  struct hs_outcome *out);

/* Hex of n random bytes into buf (2n+1 bytes). */
void hs_random_hex(char *buf, size_t n);

/* HOOKSHIM_FLAGS for a session with this config (common/wire.h). Call it
 * in the process that serves the session's socket: it names that process
 * (hs_session_identity). */
void hs_session_flags(const struct hs_config *cfg, char *buf, size_t len);
/* ",p=PID,t=START" of the calling process: who the shim and the helpers
 * believe on the socket (docs/architecture.md, "Who answers"). */
void hs_session_identity(char *buf, size_t len);

/* Makes the supervisor non-dumpable, early, in `hookshim run` and the
 * bare session's `__supervise`: then only CAP_SYS_PTRACE can ptrace it,
 * write its memory (process_vm_writev, /proc/PID/mem), take its
 * descriptors (pidfd_getfd) or read its /proc entries beyond stat and
 * status; the floor keeps root's calls off it (floor_reach.c). Not
 * inside an outer session, unless root: the outer floor must read this
 * supervisor's calls (process_vm_readv), which it could not. */
void hs_supervisor_out_of_reach(bool nested);

#endif
