/* Session state, read once from the environment when the shim loads.
 *
 * Everything the interposers need afterwards is here, in static storage
 * that is only written before main (constructor) and read afterwards: the
 * hot path asks no getenv and takes no lock. The prebuilt "NAME=value"
 * strings are what envfix writes into every child's environment. */
#ifndef HOOKSHIM_SHIM_STATE_H
#define HOOKSHIM_SHIM_STATE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define HS_VIS __attribute__((visibility("default")))

/* The shim's small mutable statics live together in one section. Every
 * process the shim loads into writes them before main, and a fork child
 * (which maps pages lazily) reads them before its exec: scattered between
 * large buffers, each would cost a page fault of its own, in every one of
 * those processes. Large buffers stay in .bss and are touched only as far
 * as they are used. */
#define HS_HOT __attribute__((section(".data.hs_hot")))
/* Start-up storage (state.c): zero-filled, placed by shim/layout.ld right
 * after the HS_HOT statics so that its first bytes share their page. */
#define HS_ARENA __attribute__((section(".bss.hs_arena")))

/* HANDOFF: a shell beneath a hand-off (shim/exec_decide.c), whose every
 * program is judged as a tool call. */
enum hs_role { HS_ROLE_AGENT = 0, HS_ROLE_TOOL = 1, HS_ROLE_HANDOFF = 2 };

/* HOOKSHIM_ROLE's value for a role. */
static inline const char *hs_role_name(enum hs_role r)
{
	return r == HS_ROLE_TOOL ? "tool" : r == HS_ROLE_HANDOFF ? "handoff"
								 : "agent";
}

/* Variables envfix always writes into a child, in this order. */
enum hs_envvar {
	HS_EV_SOCK,
	HS_EV_SESSION,
	HS_EV_ROOT,
	HS_EV_BIN,
	HS_EV_LIB,
	HS_EV_FLAGS,
	HS_EV_WRITE,
	HS_EV_URING, /* UV_USE_IO_URING=0 */
	HS_EV_COUNT
};

struct hs_state {
	bool loaded;   /* hs_state_init ran */
	bool active;   /* in a session: HOOKSHIM_SOCK set, not inert */
	bool inert;    /* HOOKSHIM_INERT=1 or we are the hookshim binary */
	unsigned interest; /* HS_INTEREST_* */
	int deny_exit;
	int deny_errno;
	bool strict;
	bool deny_on_loss; /* on_supervisor_loss "deny": no verdict is a deny */
	bool all_execs; /* every exec by the agent is a tool call (a=1) */
	bool enforce;   /* enforce mode (m=1): the floor takes a process's
			 * role from its initial environment */
	bool nested;   /* nested execs fire by default (n=1) */
	bool net_conns; /* connections wait for their post (net.c): close()
			 * and exit look (a bool in the padding here) */
	bool net_nokeep; /* k=1: network_cache is not the session's, so the
			  * process keeps no allowed destination itself */
	unsigned long cookie; /* the syscall floor's (c=), 0 without one */
	long sup_pid;   /* the supervisor's pid (p=), 0 if not given */
	long sup_start; /* and its start time (t=): who may answer */
	unsigned long sup_netns; /* its network namespace's inode (w=), or 0 */
	enum hs_role role;
	/* The agent's own opens for reading are events: some pre hook names
	 * the read tool (HS_INTEREST_READ_PRE) and this is an agent process.
	 * A tool call's shell and its children never fire reads: Claude
	 * Code's Read hook is about its Read tool, and `cat .env` in a
	 * command is that command's Bash event. Read-only opens test this
	 * one flag (write.c). */
	bool reads;
	/* Read-only opens take write.c's slow path: to fire read events
	 * (reads), or to be forwarded with the cookie, since a floor notifies
	 * read-only opens in a session with a Read hook
	 * (floor/floor_read.c): a tool call's reads, uncookied, would
	 * each cost a round trip to the supervisor. */
	bool reads_slow;
	pid_t pid;     /* getpid() at load: differs in a fork/vfork child */

	/* Never NULL ("" when unset). They point into one packed buffer:
	 * every exec'd process runs the constructor, and each fresh page of
	 * static storage it writes is a page fault of its own. */
	const char *sock;
	const char *session;
	const char *root;
	const char *bin;
	const char *lib;

	const char *write;   /* the write filter (write_scope.h) */
	const char *checked; /* HOOKSHIM_CHECKED at load (in environ), or NULL */
	const char *exe;     /* NULL until hs_exe() reads it */

	/* "HOOKSHIM_SOCK=..." etc., NULL for unset optional ones. */
	const char *env[HS_EV_COUNT];
};

extern struct hs_state hs_st;

/* Loads hs_st from the environment; idempotent, runs from the constructor
 * or from the first wrapper called before it. */
void hs_state_init(void);
/* Reads the environment again (the constructor, after it joined a session
 * it started itself). Single-threaded callers only. The arena is refilled:
 * what hs_arena_take gave out before is gone. */
void hs_state_reload(void);

/* n bytes of start-up storage aligned to `align` (a power of two),
 * lock-free; NULL when full. Never freed. */
void *hs_arena_take(size_t n, size_t align);

static inline const struct hs_state *hs_state(void)
{
	if (!__atomic_load_n(&hs_st.loaded, __ATOMIC_ACQUIRE))
		hs_state_init();
	return &hs_st;
}

/* /proc/self/exe ("" if unreadable), read on first use, not at load: in
 * a fresh process that readlink brings /proc/<pid> into being, dearer
 * than all the rest of the constructor together. Not for a fork child. */
const char *hs_exe(void);
/* Is this process image a shell (by hs_exe's base name)? */
bool hs_exe_is_shell(void);
/* /proc/self/cmdline as an argv (free *bufp and the result); NULL on
 * failure. Allocates: ordinary context only (the constructor, a shell's
 * read). */
char **hs_read_cmdline(char **bufp);

/* Does an exec by this process need anything from the shim at all? */
static inline bool hs_exec_watched(const struct hs_state *st)
{
	return st->active && st->interest != 0;
}

/* Wants events about execs (pre or post)? */
bool hs_exec_interest(const struct hs_state *st);
/* Fire events for execs started inside a tool call? */
bool hs_nested_enabled(const struct hs_state *st);

/* Re-entry guard: our own syscalls (open of /proc, connect...) must not be
 * judged by the write interposers. Thread-local, initial-exec so reading it
 * never allocates. A vfork child shares it with its parent's thread, so an
 * exec path always leaves the guard before the real exec. */
extern __thread int hs_depth __attribute__((tls_model("initial-exec")));

static inline bool hs_guarded(void) { return hs_depth > 0; }
static inline void hs_guard_enter(void) { hs_depth++; }
static inline void hs_guard_leave(void) { hs_depth--; }

/* errno is saved on entry to every interposer and restored before we return
 * or call the real function, so our own syscalls never leak an errno. */
#define HS_ERRNO_SAVE() int hs_saved_errno_ = errno
#define HS_ERRNO_RESTORE() (errno = hs_saved_errno_)

/* getpid() without entering libc. Between fork and exec every page of code
 * touched is a page fault of its own (the child maps file pages lazily),
 * and the exec path needs the pid for its marker. */
static inline pid_t hs_getpid(void)
{
#if defined(__x86_64__)
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_getpid)
			 : "rcx", "r11", "memory");
	return (pid_t)r;
#else
	return getpid();
#endif
}

/* AS-safe helpers shared by the interposers. */
/* Decimal of v into buf (>= 24 bytes); returns buf. */
char *hs_utoa(unsigned long v, char *buf);
/* Parses a non-negative decimal; -1 if s is not one. */
long hs_atol(const char *s);
/* Writes a NUL-terminated string to fd, ignoring errors. */
void hs_write_str(int fd, const char *s);
/* The same with control characters (and backslashes) escaped as \n,
 * \xNN, \\: for names that come from the program, such as paths, so a
 * file name cannot start a line of its own in what the agent reads. */
void hs_write_escaped(int fd, const char *s);

#endif
