/* One request from an intercepted process and the supervisor's answer,
 * and their encoding on the wire (common/wire.h). The shim encodes its
 * requests itself, allocation-free (shim/client.c); everything in the
 * hookshim binary that asks or answers goes through these. */
#ifndef HOOKSHIM_SUPERVISOR_MESSAGE_H
#define HOOKSHIM_SUPERVISOR_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/wire.h"
#include "../engine/dispatch.h"

/* struct hs_msg, one request, is generated from the field list in
 * common/wire.h. Filled by hs_msg_read it owns its strings (hs_msg_free);
 * filled by a caller that sends it, it borrows them. */

struct hs_answer {
	enum hs_verdict verdict; /* HS_ALLOW or HS_DENY: ask is resolved */
	char *reason;            /* deny reason (or a post hook's block) */
	char *context;           /* additional context for the model */
	char *id;                /* tool_use_id of a pre event */
	int deny_exit;
	int deny_errno;
	bool tool_call;          /* classify: a tool call, not the agent's own shell */
	bool own;                /* an exec: one of the agent's own shells */
	char *updated;           /* an allowed exec: its shell command, rewritten */
	bool handoff;            /* an allowed exec: what its shell runs is
				  * judged too (engine/handoff.h) */
	bool more;               /* a stdin line that stops inside a command */
	bool keeps;              /* an allowed stdin line leaves code behind */
	bool failed;             /* a connection's: a hook reached no verdict,
				  * so the outcome is not kept (net_cache.h) */
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

#endif
