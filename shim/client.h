/* One question to the session supervisor, async-signal-safe.
 *
 * Connects to the abstract socket "\0" HOOKSHIM_SOCK, sends one TLV request
 * (common/wire.h), half-closes, reads the answer into fixed buffers and closes.
 * Usable from a vfork child and between fork and exec of a threaded
 * parent: no malloc, no locks, no stdio, errno untouched. */
#ifndef HOOKSHIM_SHIM_CLIENT_H
#define HOOKSHIM_SHIM_CLIENT_H

#include <stdbool.h>

#include "../common/wire.h"

/* What to ask is a struct hs_msg (common/wire.h): NULL/absent fields are
 * not sent; nested -1 is "not said"; the client adds pid and cwd itself. */

struct hs_reply {
	bool deny;
	bool failed;        /* the supervisor could not be asked */
	bool hidden;        /* ... because the agent's sandbox hides it */
	bool said;          /* the floor wrote the reason to our stderr */
	bool tool_call;     /* classify: the exec is a tool call */
	bool handoff;       /* an exec: what its shell runs is judged too */
	bool own;           /* an exec: one of the agent's own shells, no
			     * tool call (no post, no hand-off) */
	bool more;          /* a stdin line: incomplete, send more */
	bool keeps;         /* a stdin line: it leaves code behind */
	int deny_exit;      /* from the reply, else the session's flags */
	int deny_errno;
	char reason[4096];
	char context[1024];
	char id[64];        /* the supervisor may name the tool_use_id */
	char updated[4096]; /* an allowed exec: the shell command a hook
			     * rewrote it to (updatedInput); "" if none */
};

/* Asks and fills `rep`. If the supervisor cannot be reached or answers
 * nonsense: in strict mode a deny, otherwise an allow, with one line on
 * stderr either way — a broken session must not wedge the agent. */
void hs_ask(const struct hs_msg *req, struct hs_reply *rep);

/* The same, for a call the syscall floor can judge instead: when the
 * agent's sandbox hides the supervisor's socket (another network
 * namespace, a seccomp or Landlock refusal of the connect) and the floor
 * runs (a cookie), nothing is said or decided -- rep->failed and
 * rep->hidden, no deny -- and the caller hands the call to the floor:
 * a write made without the cookie, an exec asked with hs_floor_ask_exec
 * (floor_calls.h). A dead supervisor, in its own namespace, is still
 * on_supervisor_loss's. */
void hs_ask_or_floor(const struct hs_msg *req, struct hs_reply *rep);

/* Says req and waits until it is answered, keeping nothing of the
 * answer: for a post whose hooks cannot change the call (a connection's
 * close), with no reply on the caller's stack (close() runs on small
 * ones). Waiting paces a burst of them by the hooks, as a command's end
 * waits for its post hooks. Silent when nobody can be told. */
void hs_tell(const struct hs_msg *req);

/* What on_supervisor_loss says when nobody could be asked: fills rep (a
 * deny in strict mode), with the message hs_ask prints. */
void hs_ask_lost(struct hs_reply *rep, const char *why);

/* A tool_use_id: "hs-<pid>-<nanoseconds hex>", NUL-terminated in buf (>= 48
 * bytes). */
void hs_make_id(char *buf);

#endif
