/* Runs one "http" hook (Claude Code's type: "http"): the payload POSTed
 * to the hook's url with libcurl, the response made into the result a
 * command hook would give, so decide.c reads both alike:
 *
 *   2xx, empty body          exited 0, no output (no decision)
 *   2xx, a JSON object       exited 0, the body as its stdout
 *   2xx with any other body, HS_RUN_HTTP_FAILED, err says why: Claude
 *   another status, no         Code's "non-blocking error", and where the
 *   connection                 session fails closed, a deny (decide.h)
 *   past the hook's timeout  HS_RUN_TIMEOUT
 *
 * A status alone never blocks, as in Claude Code: only a JSON decision
 * does. Idle connections are kept for the next request (a small pool of
 * libcurl handles), so a decision costs a request, not a connection or a
 * process. Safe to call from many threads; a request in flight ends when
 * hs_run_kill_all() ends the session's hooks (runner.h). */
#ifndef HOOKSHIM_ENGINE_HTTP_HOOK_H
#define HOOKSHIM_ENGINE_HTTP_HOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "../config/model.h"
#include "runner.h"

/* env: the hook's environment, where header templates find $VAR (only
 * the variables the hook may read: config/http_handler.h). */
int hs_http_run(const struct hs_hook *h, char *const *env, const char *body,
		size_t len, bool at_session_end, struct hs_run_result *res);

#endif
