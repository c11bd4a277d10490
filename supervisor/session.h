/* The session supervisor: owns the config snapshot, turns requests from
 * intercepted processes into hook runs, answers verdicts.
 *
 * Three layers, so the PATH wrappers and `__exec` can reuse the decision
 * logic without a socket:
 *   - hs_msg / hs_answer: one request and its answer, and their TLV
 *     encoding (common/wire.h);
 *   - hs_session: decide one request (event, dispatch, ask, log);
 *   - hs_supervisor: the abstract-socket server, a thread per connection.
 */
#ifndef HOOKSHIM_WRAPPERS_SUPERVISOR_H
#define HOOKSHIM_WRAPPERS_SUPERVISOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"
#include "../engine/dispatch.h"

/* One request. Filled by hs_msg_read (then owned, freed by hs_msg_free) or
 * by a caller that sends it (then borrowed; never passed to hs_msg_free). */
struct hs_msg {
	char *op;    /* "exec", "write", ... */
	char *phase; /* "pre", "post", "post-failure" */
	int nested;  /* -1 = not said */
	long pid;    /* 0 = not said */
	char *id;    /* tool_use_id */
	char *cwd;
	char *exe;
	char **argv; /* NULL-terminated; NULL when none */
	size_t argc;
	char *path, *new_path, *operation;
	bool has_exit;
	int exit_code;
	int signo; /* 0 = none */
	long duration_ms;
	char *out;
	size_t out_len;
	char *err;
	size_t err_len;
	char *content;
	size_t content_len;
	char *error;
};

struct hs_answer {
	enum hs_verdict verdict; /* HS_ALLOW or HS_DENY: ask is resolved */
	char *reason;            /* deny reason (or a post hook's block) */
	char *context;           /* additional context for the model */
	char *id;                /* tool_use_id of a pre event */
	int deny_exit;
	int deny_errno;
};

void hs_msg_free(struct hs_msg *m);
void hs_answer_free(struct hs_answer *a);

/* Reads a request until HS_F_END. 0, or -1 on EOF/error/oversize. */
int hs_msg_read(int fd, struct hs_msg *m);
/* Writes a request and HS_F_END. 0 or -1. */
int hs_msg_write(int fd, const struct hs_msg *m);
/* Writes/reads an answer. 0 or -1. */
int hs_answer_write(int fd, const struct hs_answer *a);
int hs_answer_read(int fd, struct hs_answer *a);

struct hs_session {
	const struct hs_config *cfg; /* borrowed, immutable */
	char id[72];
	const char *root;
	int log_fd;          /* -1 when not logging */
	bool can_prompt;     /* a controlling terminal and a tty stdin */
	pthread_mutex_t log_mu;
	pthread_mutex_t ask_mu; /* one prompt on the terminal at a time */
	unsigned long next_id;
};

/* `log_path` may be NULL. Returns -1 (with a message) if the log cannot be
 * opened. Decides can_prompt now, from the calling process's state. */
int hs_session_init(struct hs_session *s, const struct hs_config *cfg,
		    const char *session_id, const char *log_path);
void hs_session_close(struct hs_session *s);

/* Decides one request: always fills `ans` (allow when nothing applies).
 * Safe from many threads at once. */
void hs_session_decide(struct hs_session *s, const struct hs_msg *req,
		       struct hs_answer *ans);

/* Fires SessionStart or SessionEnd hooks and logs them; `out` is filled
 * and owned by the caller (hs_outcome_free). */
void hs_session_lifecycle(struct hs_session *s, enum hs_kind kind,
			  struct hs_outcome *out);

/* Hex of n random bytes into buf (2n+1 bytes). */
void hs_random_hex(char *buf, size_t n);

struct hs_supervisor;

/* Listens on the abstract socket "\0<name>" and serves `s` until stopped.
 * NULL (with a message) if the socket cannot be had. */
struct hs_supervisor *hs_supervisor_start(struct hs_session *s,
					  const char *name);
/* Stops accepting, waits up to grace_ms for requests in flight, frees.
 * Returns false if some were still running (the session and config must
 * then stay alive: the caller should just exit). */
bool hs_supervisor_stop(struct hs_supervisor *sv, int grace_ms);

/* Asks the supervisor named by `name` (an abstract socket name, as in
 * HOOKSHIM_SOCK). 0 with `ans` filled, -1 if it could not be asked. */
int hs_client_ask(const char *name, const struct hs_msg *req,
		  struct hs_answer *ans);

/* For hookshim's own helpers (PATH wrappers, __exec): asks this session's
 * supervisor when HOOKSHIM_SOCK answers, else decides in-process from the
 * default config (loaded once). Always fills `ans`. */
void hs_consult(const struct hs_msg *req, struct hs_answer *ans);

/* Interest bits (HS_INTEREST_*) of whoever hs_consult would ask. */
unsigned hs_consult_interest(void);

/* ---- helpers the run, __exec and wrapper commands share ---- */

/* Runs `exe argv` as `hookshim __exec` does: output copied live, then a
 * post / post-failure request with exit status and captured output, any
 * context written to stderr. Returns the exit status to report; a signal
 * death is re-raised. `id` (the pre event's tool_use_id) may be NULL. */
int hs_exec_supervised(const char *exe, char *const argv[], const char *id,
		       int nested);

/* Creates DIR (and parents) holding TOOL -> the hookshim binary symlinks.
 * 0, or -1 with a message. */
int hs_wrap_create(const char *dir, char *const tools[], size_t ntools);

/* HOOKSHIM_FLAGS for a session with this config (common/wire.h). */
void hs_session_flags(const struct hs_config *cfg, char *buf, size_t len);

#endif
