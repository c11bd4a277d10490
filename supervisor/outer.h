/* A session started inside another one joins it (docs/nested.md): the
 * outer session keeps deciding everything, the inner one may only add
 * hooks. `hookshim run` (and `__supervise`) find the outer session in
 * their own environment -- which the outer shim repairs on every exec, so
 * the agent cannot unset it through libc -- and then:
 *   - hand their shim the union of both sessions' flags and write filters
 *     (so every call the outer wants still reaches a supervisor);
 *   - decide every request by asking the outer supervisor first, as a
 *     client on the same wire as the shim (consult.c): an outer deny is
 *     the answer, with its reason; only an outer allow goes on to the
 *     inner hooks. Deny wins.
 *   - keep the outer floor's cookie rather than install a floor of their
 *     own (the kernel allows one listener per filter tree). */
#ifndef HOOKSHIM_SUPERVISOR_OUTER_H
#define HOOKSHIM_SUPERVISOR_OUTER_H

#include <stdbool.h>

#include "../config/model.h"
#include "message.h"

struct hs_outer;

/* The session this process runs inside, from HOOKSHIM_SOCK and friends
 * in its environment; NULL when there is none. `*refuse` is set (with a
 * message printed) when there is one that does not answer and its flags
 * say to fail closed (strict, on_supervisor_loss "deny"): then the inner
 * session must not start. A dead outer that fails open: a warning, NULL. */
struct hs_outer *hs_outer_find(bool *refuse);
void hs_outer_free(struct hs_outer *o);

/* The outer floor's cookie (HOOKSHIM_FLAGS c=), 0 when it has none. */
unsigned long hs_outer_cookie(const struct hs_outer *o);

/* The outer session's interest bits (HS_INTEREST_*), 0 without one: a
 * floor this session installs itself must watch for both. */
unsigned hs_outer_interest(const struct hs_outer *o);

/* HOOKSHIM_FLAGS for the inner session: its own (hs_session_flags) joined
 * with the outer's -- interest bits, strict, on_supervisor_loss, nested
 * and every-exec or'ed, the outer's cookie kept. The inner may tighten,
 * never loosen. */
void hs_outer_flags(const struct hs_outer *o, const struct hs_config *cfg,
		    char *buf, size_t len);

/* HOOKSHIM_WRITE for the inner session: a filter that lets through every
 * write either session's filter would (a superset when their scopes
 * differ; requests are then matched against each filter exactly, below).
 * Takes the inner filter `own` (may be NULL); malloc'd, NULL on failure.
 * Also remembers `own` for hs_outer_own_wants. */
char *hs_outer_write_filter(struct hs_outer *o, const char *own,
			    const char *own_root);

/* Would the outer session have been sent this request by its own shim?
 * Then it is asked: 0 with *ans filled (an unreachable outer answers by
 * its on_supervisor_loss: deny, or allow after one warning line). -1 when
 * the outer does not want it. */
int hs_outer_ask(struct hs_outer *o, const struct hs_msg *req,
		 struct hs_answer *ans);

/* Would this (inner) session's own shim have sent it? */
bool hs_outer_own_wants(const struct hs_outer *o, const struct hs_config *cfg,
			const struct hs_msg *req);

#endif
