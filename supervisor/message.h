/* One request from an intercepted process and the supervisor's answer,
 * and their encoding on the wire (common/wire.h). The shim encodes its
 * requests itself, allocation-free (shim/client.c); everything in the
 * hookshim binary that asks or answers goes through these. */
#ifndef HOOKSHIM_SUPERVISOR_MESSAGE_H
#define HOOKSHIM_SUPERVISOR_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
