/* `hookshim test`'s tool call as the live path asks about it: the
 * requests (struct hs_msg, common/wire.h) the shim, `__exec` or the
 * agent's own read would send for it, built from the test's options the
 * way those build them from the real call, so that the decision, made by
 * hs_session_decide as live, sees exactly the fields a live hook sees.
 * What the user gave that no live request can carry is reported on
 * stderr ("not supplied live: FIELD (why)") and left out. */
#ifndef HOOKSHIM_CLI_TEST_CALL_H
#define HOOKSHIM_CLI_TEST_CALL_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdbool.h>

#include "../common/wire.h"
#include "../config/model.h"

/* What the user asked `hookshim test` about. */
struct hs_test_spec {
	enum hs_kind kind;     /* HS_KIND_PRE or HS_KIND_POST */
	bool failed;           /* the post-failure variant */
	unsigned event_ops;    /* HS_OP_* the event can carry */
	const char *tool;      /* --tool, or NULL */
	const cJSON *input;    /* --input, or NULL */
	const char *command;   /* --command, or NULL */
	const char *file;      /* --file, or NULL */
	const char *content;   /* --content, or NULL */
	int exit_code;         /* --exit */
	const char *output;    /* --output, or NULL */
	bool nested;           /* --nested */
};

/* The requests, in the order the live path sends them: one, or for a
 * staged write its open and then its publish (docs/staged-writes.md). */
struct hs_test_call {
	struct hs_msg req[2];
	int nreq;
	char *none; /* no request live, and why; then nreq is 0 */

	/* what the requests borrow */
	char **argv;
	char *exe;
	char *command;
	char path[PATH_MAX];
	char new_path[PATH_MAX];
	char cwd[PATH_MAX];
	char content_file[64];
	char error[96];
	char host[256];    /* a connection's (build_net) */
	char address[256];
	int content_fd;
};

/* Fills c for spec under cfg (c->none set when live sends nothing). 0,
 * or -1 on a usage error (printed). */
int hs_test_call_build(struct hs_test_call *c, const struct hs_config *cfg,
		       const struct hs_test_spec *spec);
void hs_test_call_free(struct hs_test_call *c);

#endif
