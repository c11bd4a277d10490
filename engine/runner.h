/* Runs one hook command: a shell, a payload on stdin, captured output,
 * a timeout that kills the hook's whole process group.
 *
 * Safe to call from many threads at once; leaves no zombie and leaks no
 * descriptor of the caller into the hook.
 */
#ifndef HOOKSHIM_ENGINE_RUNNER_H
#define HOOKSHIM_ENGINE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct hs_run_spec {
	const char *shell;     /* "/bin/sh", "/bin/bash"; run as SHELL -c CMD */
	const char *command;
	const char *cwd;       /* NULL = inherit */
	char *const *env;      /* full environment for the hook */
	const char *input;     /* written to the hook's stdin, then EOF */
	size_t input_len;
	int timeout_ms;        /* <= 0: no timeout */
	size_t max_output;     /* bytes kept per stream; the rest is drained */
	bool at_session_end;   /* a SessionEnd hook: runs after
				* hs_run_kill_all(false), which every other
				* hook started later does not survive */
};

enum hs_run_status {
	HS_RUN_EXITED,
	HS_RUN_SIGNALED,
	HS_RUN_TIMEOUT,      /* killed at its timeout */
	HS_RUN_SPAWN_FAILED, /* spawn_errno says why */
	HS_RUN_HTTP_FAILED,  /* an http hook's request brought no usable
			      * answer; err says why (http_hook.h) */
};

/* "exited", "signaled", "timeout", "spawn_failed", "http_failed": the
 * status's name in logs and in `hookshim test --json`. */
const char *hs_run_status_name(enum hs_run_status st);

struct hs_run_result {
	enum hs_run_status status;
	int exit_code;   /* HS_RUN_EXITED */
	int signo;       /* HS_RUN_SIGNALED */
	int spawn_errno; /* HS_RUN_SPAWN_FAILED */
	char *out;       /* NUL-terminated, at most max_output bytes */
	size_t out_len;
	bool out_truncated;
	char *err;
	size_t err_len;
	bool err_truncated;
	long duration_ms;
	int http_status; /* an http hook's response status; 0 if none */
};

int hs_run(const struct hs_run_spec *spec, struct hs_run_result *res);

/* How a run failed to reach a verdict, in words for a reason or the log
 * ("killed by signal 9 (SIGKILL)", "timed out after 1000 ms", "could not
 * start: Resource temporarily unavailable (errno 11)", "exited 127:
 * command not found"), or NULL when the hook ran to an answer: any exit
 * status but the shell's 126 (not executable), 127 (not found) and
 * 129-192 (128 + the signal that killed the script it waited for). */
const char *hs_run_failure(const struct hs_run_result *r, char *buf,
			   size_t cap);
void hs_run_result_free(struct hs_run_result *res);

/* Is pid (a thread group) a hook this process is running, or in the
 * process group of one (each hook leads its own)? pgid is pid's process
 * group. For the floor's refusal to let the session signal, trace or
 * write into the hooks (floor/floor_reach.c). */
bool hs_run_is_hook(pid_t pid, pid_t pgid);
/* Is any hook running in this process now? */
bool hs_run_any(void);
/* Has hs_run_kill_all ended hooks like this one (a SessionEnd hook's
 * run: at_session_end) -- for a hook that is not a process, which polls
 * (http_hook.c)? */
bool hs_run_ended(bool at_session_end);

/* Kills the process group of every hook running in this process, and of
 * every one started from now on except SessionEnd's (at_session_end), or
 * with `and_later` those too: the session is ending and nothing it
 * started may outlive it. The runs end as signaled. */
void hs_run_kill_all(bool and_later);

#endif
