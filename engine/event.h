/* One intercepted happening, before it is shaped into any dialect. */
#ifndef HOOKSHIM_ENGINE_EVENT_H
#define HOOKSHIM_ENGINE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../config/model.h"

/* A staged write (docs/staged-writes.md) asks its pre hooks twice: at the
 * open those that do not read the content, when the content is complete
 * those that do (hs_hook.content_pre). Each hook runs once. */
enum hs_stage {
	HS_STAGE_NONE,    /* every matching hook */
	HS_STAGE_OPEN,    /* not the content readers */
	HS_STAGE_PUBLISH, /* only the content readers */
};

struct hs_event {
	enum hs_kind kind;
	bool failed;   /* HS_KIND_POST: the failure variant */
	unsigned op;   /* one HS_OP_* */
	bool nested;   /* started inside a running command */
	bool beneath;  /* an exec by a shell beneath a hand-off */
	bool line;     /* a command a shell fed on stdin read */

	/* HS_OP_EXEC */
	const char *command;       /* what the model asked for */
	char *const *argv;         /* the full argv as executed */
	const char *exe;           /* resolved executable path */

	/* HS_OP_WRITE */
	const char *path;          /* absolute, normalised */
	const char *new_path;      /* rename/link/symlink target */
	const char *operation;     /* create, overwrite, append, modify, ... */
	const char *content;       /* post events, when asked for */
	size_t content_len;
	const char *content_file;  /* pre: a file holding the content */
	enum hs_stage stage;       /* pre of a staged write: which hooks */

	/* HS_OP_NET (docs/network.md) */
	const char *host;          /* the name the process resolved, else
				    * the address */
	const char *address;       /* numeric: 127.0.0.1, ::1 */
	int port;
	const char *protocol;      /* "tcp" or "udp" */
	bool has_bytes;            /* post: what a TCP connection carried */
	long bytes_sent, bytes_received;

	const char *cwd;
	pid_t pid;
	const char *via; /* who asked (common/wire.h): NULL for the shim */
	const char *session_id;
	const char *root;
	const char *root_alias; /* config/model.h; NULL when none */
	const char *tool_use_id;
	const char *transcript_path; /* the session's JSONL, or NULL */

	/* HS_KIND_POST */
	int exit_code;
	int signo;
	long duration_ms;
	const char *out;
	size_t out_len;
	const char *err;
	size_t err_len;
	const char *error; /* failure text for PostToolUseFailure/ToolError */
};

#endif
