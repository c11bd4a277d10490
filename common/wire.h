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
 * the supervisor checks the peer's uid with SO_PEERCRED, and every client
 * checks that the listener is the session's supervisor: the pid and start
 * time it wrote into HOOKSHIM_FLAGS (p=, t=) at session start must match
 * the SO_PEERCRED pid of the connected socket and that pid's
 * /proc/PID/stat (docs/architecture.md, "Who answers").
 */
#ifndef HOOKSHIM_COMMON_WIRE_H
#define HOOKSHIM_COMMON_WIRE_H

#include <stdbool.h>
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
 * strict>,n=<0|1 nested execs by default>,a=<0|1 every exec a tool call>,
 * l=<0|1 deny when the supervisor is unreachable>,p=<supervisor pid>,
 * t=<its start time, field 22 of /proc/PID/stat>" — unknown keys are
 * ignored.
 * Interest bits: which intercepted operations could fire any hook
 * (engine/dispatch.c computes them from the config); the shim asks the
 * supervisor only for these. */
#define HS_INTEREST_EXEC_PRE    1u
#define HS_INTEREST_EXEC_POST   2u
#define HS_INTEREST_WRITE_PRE   4u
#define HS_INTEREST_WRITE_POST  8u
#define HS_INTEREST_EXEC_NESTED 16u /* some exec hook wants nested commands */
/* Some pre hook names the dialect's read tool (Claude's Read): the agent's
 * own opens for reading become events (write filter lines "(GLOB"). */
#define HS_INTEREST_READ_PRE    32u
/* Some pre hook may fire for a connection (the dialect's WebFetch tool:
 * docs/network.md): the commands' connects become events. */
#define HS_INTEREST_NET_PRE     64u
/* ... and the agent process's own connections too (network_agent): by
 * default only the commands' are events. */
#define HS_INTEREST_NET_AGENT   128u
/* Some post hook names the fetch tool: a connection's close is its
 * PostToolUse, with the bytes it carried (shim/net.c). */
#define HS_INTEREST_NET_POST    256u

/* The operation of a write whose name neither the shim nor the floor
 * could build (longer than PATH_MAX once joined to its directory, even
 * folded; a directory deeper than PATH_MAX): its path is the caller's
 * own text, and the supervisor denies it before any hook (no hook can
 * judge a name nobody knows; engine/dispatch.c). */
#define HS_OPERATION_UNNAMED "name-too-long"

/* Every field of a request, the one list both ends work from: the tags,
 * struct hs_msg, the encoder below (allocation-free, used by the shim and
 * by the hookshim binary alike) and the supervisor's decoder
 * (supervisor/message.c) are all generated from it. A new field is one
 * line here.
 *
 *   X(NAME, tag, kind, member)   kinds:
 *     STR    const char *member            NULL: not sent
 *     BYTES  const char *member, size_t member_len   (may hold NULs)
 *     ARGV   char *const *member, size_t member_count  one field each
 *     TRI    int member                    -1: not sent; "0" or "1"
 *     NUM    long member                   0: not sent; decimal
 *     OPTNUM long member, bool has_member  sent when has_member
 */
#define HS_REQUEST_FIELDS(X)                                                  \
	X(OP, 'o', STR, op)               /* "exec", "write", "read",        \
					     "connect" */                 \
	X(PHASE, 'p', STR, phase)         /* "pre", "post", "post-failure", \
					     "classify" (exec: only asks   \
					     whether it is a tool call) */\
	X(NESTED, 'n', TRI, nested)       /* started inside a command */     \
	X(BENEATH, 'B', TRI, beneath)     /* exec: by a shell beneath a      \
					     hand-off (role "handoff",    \
					     docs/agents.md) */           \
	X(LINE, 'l', NUM, line)           /* exec: a command a shell fed on  \
					     stdin read (shim/stdin_line.h),\
					     as argv [SHELL, -c, TEXT]; 1: \
					     it may stop inside a command  \
					     (then answer MORE), 2: judge  \
					     it as it is, 3: only say      \
					     whether it stops inside one */\
	X(PID, 'i', NUM, pid)                                                 \
	X(ID, 'u', STR, id)               /* tool_use_id of a pre and post */\
	X(CWD, 'c', STR, cwd)                                                 \
	X(EXE, 'e', STR, exe)             /* exec: resolved executable */    \
	X(ARG, 'a', ARGV, argv)           /* exec: argv, in order */         \
	X(PATH, 'f', STR, path)           /* write: absolute path */         \
	X(NEW_PATH, 'g', STR, new_path)   /* write: rename/link target */    \
	X(OPERATION, 'w', STR, operation) /* write: create, overwrite, ... */\
	X(EXIT, 'x', OPTNUM, exit_code)   /* post: exit status */            \
	X(SIGNAL, 's', NUM, signo)        /* post: terminating signal */     \
	X(DURATION, 'd', NUM, duration_ms) /* post: milliseconds */          \
	X(STDOUT, '1', BYTES, out)        /* post: captured stdout (capped) */\
	X(STDERR, '2', BYTES, err)        /* post: captured stderr (capped) */\
	X(CONTENT, 'C', BYTES, content)   /* post write: the file (capped) */\
	X(ERROR, 'E', STR, error)         /* post failure: error text */\
	X(STAGE, 'S', STR, stage)         /* pre write of a staged write:    \
					     "open" (hooks that read the  \
					     content wait) or "publish"   \
					     (only they, with the content) */\
	X(CONTENT_FILE, 'F', STR, content_file) /* pre write: where the \
					     content to be written is     \
					     (/proc/PID/fd/N of a staged  \
					     write, a renamed temp file) */\
	X(TEMP_CREATE, 't', STR, temp_create) /* pre write: fired at the \
					     creation of this temp file,  \
					     for the name its atomic save \
					     publishes (path) */          \
	X(TEMP_PUBLISH, 'q', STR, temp_publish) /* pre write: the rename \
					     of this temp file onto path  \
					     (supervisor/atomic_save.h) */\
	X(VIA, 'b', STR, via)             /* who asks, when not the shim:  \
					     "floor", "wrapper" (a PATH   \
					     wrapper), "run" (hookshim    \
					     run's own command) */        \
	X(HOST, 'h', STR, host)           /* connect: the name resolved, or \
					     the address */               \
	X(ADDRESS, 'A', STR, address)     /* connect: numeric address */    \
	X(PORT, 'P', NUM, port)           /* connect: port */               \
	X(PROTO, 'j', STR, proto)         /* connect: "tcp" or "udp" */    \
	X(SENT, 'y', OPTNUM, sent)        /* post connect: bytes sent (TCP) */\
	X(RECEIVED, 'z', OPTNUM, received) /* post connect: bytes received */

/* Every field of an answer, besides ID (the tool_use_id, tagged as in
 * the request). Answers are small and each end keeps them its own way
 * (fixed buffers in the shim, shim/client.c; allocated in the hookshim
 * binary, supervisor/message.c), so only the tags are generated. */
#define HS_ANSWER_FIELDS(X)                                                   \
	X(VERDICT, 'v', STR, verdict)     /* "allow" or "deny" (ask resolved) */\
	X(REASON, 'r', STR, reason)       /* the hook's stderr or JSON reason */\
	X(CONTEXT, 'k', STR, context)     /* additional context for the model */\
	X(DENY_EXIT, 'X', NUM, deny_exit) /* exit status a denied command reports */\
	X(DENY_ERRNO, 'N', NUM, deny_errno) /* errno a denied call returns */\
	X(TOOL_CALL, 'T', NUM, tool_call) /* classify: 1 for a tool call, not \
					     one of the agent's own shells */\
	X(UPDATED, 'U', STR, updated)     /* an allowed exec: the command a   \
					     hook rewrote the call's shell \
					     command to (updatedInput) */ \
	X(OWN, 'O', NUM, own)             /* an allowed exec: 1 when it is   \
					     one of the agent's own shells \
					     (docs/agents.md): no tool    \
					     call, so no post and no      \
					     hand-off */                  \
	X(HANDOFF, 'H', NUM, handoff)     /* an allowed exec: 1 when its text \
					     runs a string its hook did   \
					     not see, so what its shell   \
					     runs is judged too (role     \
					     "handoff", docs/agents.md) */\
	X(MORE, 'M', NUM, more)           /* a LINE request that stops inside\
					     a command: with LINE 1 send it\
					     again with the next line,    \
					     nothing judged; with LINE 2  \
					     it was judged unfinished */  \
	X(KEEPS, 'K', NUM, keeps)         /* an allowed LINE: it leaves code \
					     behind (a function, an alias, \
					     a trap): what every later    \
					     command of the shell runs is \
					     judged too */

enum hs_field {
	HS_F_END = 0,
#define HS_TAG_(name, tag, kind, member) HS_F_##name = tag,
	HS_REQUEST_FIELDS(HS_TAG_)
	HS_ANSWER_FIELDS(HS_TAG_)
#undef HS_TAG_
};

#define HS_MEMBER_STR(m) const char *m;
#define HS_MEMBER_BYTES(m) const char *m; size_t m##_len;
#define HS_MEMBER_ARGV(m) char *const *m; size_t m##_count;
#define HS_MEMBER_TRI(m) int m;
#define HS_MEMBER_NUM(m) long m;
#define HS_MEMBER_OPTNUM(m) long m; bool has_##m;
#define HS_MEMBER_(name, tag, kind, member) HS_MEMBER_##kind(member)

/* One request. The shim fills one on its stack with borrowed strings; the
 * supervisor's decoder fills one with strings it owns (hs_msg_free). */
struct hs_msg {
	HS_REQUEST_FIELDS(HS_MEMBER_)
	/* not on the wire: the asker as the kernel names it (SO_PEERCRED),
	 * where the supervisor's server looked; 0 unknown */
	long peer;
};

/* Where each field of a struct lives, for the table-driven codec. */
enum hs_field_kind { HS_KIND_STR, HS_KIND_BYTES, HS_KIND_ARGV, HS_KIND_TRI,
		     HS_KIND_NUM, HS_KIND_OPTNUM };
struct hs_field_desc {
	unsigned char tag;
	unsigned char kind;    /* enum hs_field_kind */
	unsigned short off;    /* of the member */
	unsigned short aux;    /* of its _len, _count or has_ member */
};

extern const struct hs_field_desc hs_request_fields[];
extern const unsigned hs_request_nfields;
/* The descriptor of request field `tag`, or NULL for a tag this version
 * does not know (newer clients may send more). */
const struct hs_field_desc *hs_request_field(int tag);

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

/* Puts every field of `m` that is set (see HS_REQUEST_FIELDS); the caller
 * then finishes. Async-signal-safe. */
void hs_wire_put_msg(struct hs_wire *w, const struct hs_msg *m);

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

/* The next "k=DECIMAL" entry of a HOOKSHIM_FLAGS value at *s, into *key
 * and *val, moving *s past it; false at the end. Entries of another form
 * (no '=', a value that is not a decimal that fits a long) are skipped:
 * the shim and a nested session read the flags the same way. */
bool hs_flags_next(const char **s, char *key, long *val);

/* A shim that cannot reach the supervisor because the agent's sandbox
 * hides its socket asks the syscall floor about an exec instead
 * (shim/floor_calls.h, hs_floor_ask_exec): an execveat with these flags,
 * which no kernel accepts (EINVAL, should the floor let it continue),
 * and HS_FLOOR_ASK(cookie) in args[5]. Not the cookie, so the BPF
 * notifies it; the floor judges it as a caller without the shim and
 * answers 0 (allowed), 1 (denied) or 2 (allowed, a hand-off: what its
 * shell runs is judged too) without running it
 * (floor/floor_exec.c). Knowing it gives nothing: the cookie is
 * readable by the session's processes anyway, and the question only
 * gets an answer, never an exec. */
#define HS_FLOOR_ASK(cookie) ((cookie) ^ 1)
#define HS_FLOOR_ASK_FLAGS 0x40000000
#define HS_FLOOR_ASK_DENIED 1
/* allowed, and what its shell runs is judged too (a hand-off) */
#define HS_FLOOR_ASK_HANDOFF 2
/* The other question (shim/floor_calls.h, hs_floor_take): an agent with
 * the shim about to exec a shell with a command string asks for the
 * floor's denials of its raw calls, which its shim never saw. The same
 * marker in args[5], these flags (EINVAL too), and in args[0] the
 * descriptor to write them to; the floor writes them there when the exec
 * is a tool call and lets the question go on to the kernel's EINVAL
 * (floor/floor_pending.c). */
#define HS_FLOOR_TAKE_FLAGS 0x20000000

/* Is the peer of a connected unix socket our own user? An abstract name
 * can be squatted by anyone who guesses it, so both ends check. */
int hs_wire_peer_is_ours(int fd);

/* The pid of the process that listens on the other end of a connected
 * unix socket (SO_PEERCRED: the kernel records it at listen(), no peer can
 * choose it), or -1 when that is not our own user. */
long hs_wire_peer_pid(int fd);

/* What /proc/PID/stat says after the command name (which may hold
 * anything, ')' included): the state (field 3: 'R', 'S', 'Z', ...), the
 * parent (4) and the start time (22, clock ticks after boot: pid reuse
 * cannot repeat it), and where its image is: its code (26), its heap's
 * start (47), its arguments and environment (48, 50) -- an exec places
 * them anew, at random, a fork keeps them; 0 where the kernel shows
 * them only to a tracer and we may not trace it, or predates them. The
 * one parser of that file. */
struct hs_proc_stat {
	char state;
	long ppid;
	long start;
	unsigned long start_code, start_brk, arg_start, env_start;
};
/* From an open /proc/PID/stat: 0, or -1 if unreadable. read(2) only:
 * async-signal-safe. */
int hs_proc_stat_fd(int statfd, struct hs_proc_stat *st);
/* Opens /proc/PID/stat itself: 0, or -1 when the process is gone. */
int hs_proc_stat(long pid, struct hs_proc_stat *st);
/* The start time alone; -1 if unreadable. */
long hs_proc_start_time_fd(int statfd);

/* "/proc/PID/stat" into buf (>= 40 bytes). */
void hs_proc_stat_path(char *buf, long pid);

/* Is a peer with pid `peer` (hs_wire_peer_pid) whose /proc/PID/stat is
 * open on `statfd` the supervisor (pid, start) named by HOOKSHIM_FLAGS?
 * Both must be known (> 0): a session without them has no supervisor to
 * trust. */
bool hs_wire_supervisor_matches(long peer, int statfd, long pid, long start);

/* Fields larger than this are refused by the supervisor. */
#define HS_WIRE_MAX_FIELD (64u << 20)

#endif
