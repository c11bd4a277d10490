/* The wire between an intercepted process and the session supervisor.
 *
 * The client side runs inside other people's processes, possibly in a vfork
 * child or between fork and exec of a threaded parent, so everything here is
 * async-signal-safe: no malloc, no locks, no stdio, errno preserved by the
 * callers. Messages are TLV fields (1-byte tag, 4-byte little-endian length,
 * bytes) ended by HS_F_END; byte strings pass unchanged, so paths with
 * newlines or invalid UTF-8 lose nothing.
 *
 * One request and one response per connection, on an abstract AF_UNIX
 * stream socket named by HOOKSHIM_SOCK (no file the agent could delete);
 * the supervisor checks the peer's uid with SO_PEERCRED.
 */
#ifndef HOOKSHIM_COMMON_WIRE_H
#define HOOKSHIM_COMMON_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Environment of a session. The shim caches these at load and writes them
 * back into every child's environment, so an agent cannot switch them off. */
#define HS_ENV_SOCK    "HOOKSHIM_SOCK"    /* abstract socket name */
#define HS_ENV_SESSION "HOOKSHIM_SESSION" /* session id */
#define HS_ENV_ROOT    "HOOKSHIM_ROOT"    /* session root, absolute */
#define HS_ENV_BIN     "HOOKSHIM_BIN"     /* the hookshim binary */
#define HS_ENV_LIB     "HOOKSHIM_LIB"     /* libhookshim.so, for LD_PRELOAD */
#define HS_ENV_FLAGS   "HOOKSHIM_FLAGS"   /* see below */
#define HS_ENV_ROLE    "HOOKSHIM_ROLE"    /* "agent" or "tool" */
#define HS_ENV_CHECKED "HOOKSHIM_CHECKED" /* "exec:PID" / "spawn:PPID" */
#define HS_ENV_WRITE   "HOOKSHIM_WRITE"   /* write filter, see write issue */
#define HS_ENV_OFF     "HOOKSHIM_INERT"   /* set in hooks' own environment */
#define HS_ENV_FDS     "HOOKSHIM_FDS"     /* write descriptors an exec hands
					     to the new image (fdcarry.h) */

/* Exported by the hookshim executable. The shim, loaded into it through
 * an inherited LD_PRELOAD, finds the name in the main program's dynamic
 * symbols and stays inert there, whatever path, copy or symlink (a PATH
 * wrapper) started it; no readlink of /proc/self/exe in every process. */
#define HS_EXE_MARK hookshim_executable
#define HS_EXE_MARK_NAME "hookshim_executable"
extern const char HS_EXE_MARK[];

/* HOOKSHIM_FLAGS: "i=<interest bits>,x=<deny exit>,e=<deny errno>,s=<0|1
 * strict>,n=<0|1 nested execs by default>" — unknown keys are ignored.
 * Interest bits: which intercepted operations could fire any hook
 * (engine/dispatch.c computes them from the config); the shim asks the
 * supervisor only for these. */
#define HS_INTEREST_EXEC_PRE    1u
#define HS_INTEREST_EXEC_POST   2u
#define HS_INTEREST_WRITE_PRE   4u
#define HS_INTEREST_WRITE_POST  8u
#define HS_INTEREST_EXEC_NESTED 16u /* some exec hook wants nested commands */

enum hs_field {
	HS_F_END = 0,
	/* request */
	HS_F_OP = 'o',        /* "exec", "write", "session" */
	HS_F_PHASE = 'p',     /* "pre", "post", "post-failure" */
	HS_F_NESTED = 'n',    /* "0" / "1" */
	HS_F_PID = 'i',       /* decimal */
	HS_F_CWD = 'c',
	HS_F_EXE = 'e',       /* resolved executable */
	HS_F_ARG = 'a',       /* one per argv element, in order */
	HS_F_PATH = 'f',      /* write: absolute path */
	HS_F_NEW_PATH = 'g',  /* write: rename/link target */
	HS_F_OPERATION = 'w', /* write: create, overwrite, append, ... */
	HS_F_EXIT = 'x',      /* post: exit status, decimal */
	HS_F_SIGNAL = 's',    /* post: terminating signal, decimal */
	HS_F_DURATION = 'd',  /* post: milliseconds, decimal */
	HS_F_STDOUT = '1',    /* post: captured stdout (capped) */
	HS_F_STDERR = '2',    /* post: captured stderr (capped) */
	HS_F_CONTENT = 'C',   /* post write: file content (capped) */
	HS_F_ERROR = 'E',     /* post failure: error text */
	HS_F_ID = 'u',        /* tool_use_id shared by a pre and its post */
	/* response */
	HS_F_VERDICT = 'v',   /* "allow" or "deny" (ask is resolved) */
	HS_F_REASON = 'r',    /* deny reason: the hook's stderr or JSON */
	HS_F_CONTEXT = 'k',   /* additional context for the model */
	HS_F_DENY_EXIT = 'X', /* exit status a denied command reports */
	HS_F_DENY_ERRNO = 'N',/* errno a denied call returns */
};

#define HS_WIRE_BUF 512

/* A buffered field writer over a socket; lives on the caller's stack. */
struct hs_wire {
	int fd;
	int failed; /* a write failed; later puts are no-ops */
	size_t len;
	unsigned char buf[HS_WIRE_BUF];
};

void hs_wire_init(struct hs_wire *w, int fd);
void hs_wire_put(struct hs_wire *w, int tag, const void *data, size_t len);
void hs_wire_puts(struct hs_wire *w, int tag, const char *s);
void hs_wire_putnum(struct hs_wire *w, int tag, long v);
/* Writes HS_F_END and flushes. 0 on success, -1 if anything failed. */
int hs_wire_finish(struct hs_wire *w);

/* Reads one field header. 0 on success, -1 on EOF or error. */
int hs_wire_read_header(int fd, int *tag, uint32_t *len);
/* Reads exactly n bytes (retrying EINTR). 0 or -1. */
int hs_wire_read_exact(int fd, void *buf, size_t n);
/* Reads a field body of `len` bytes into buf (cap bytes, NUL-terminated,
 * truncated) and discards the rest. 0 or -1. */
int hs_wire_read_body(int fd, uint32_t len, char *buf, size_t cap);

/* write() until all n bytes are out, retrying EINTR. 0, or -1 (errno). */
int hs_write_full(int fd, const void *data, size_t n);

struct sockaddr_un;

/* The abstract address for a session name (a leading '@', the ss(8)
 * spelling, is dropped): sun_path[0] = '\0' then the name, no trailing
 * NUL, *len counting exactly those bytes. 0, or -1 for an empty or too
 * long name. */
int hs_wire_addr(const char *name, struct sockaddr_un *sa, unsigned *len);

/* Is the peer of a connected unix socket our own user? An abstract name
 * can be squatted by anyone who guesses it, so both ends check. */
int hs_wire_peer_is_ours(int fd);

/* Fields larger than this are refused by the supervisor. */
#define HS_WIRE_MAX_FIELD (64u << 20)

#endif
