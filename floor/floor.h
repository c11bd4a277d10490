/* The syscall floor: a seccomp user-notification filter installed at the
 * root of the session, so that programs the shim cannot enter (static
 * binaries, raw syscalls) are decided by the same hooks. See docs/floor.md.
 *
 * Life cycle, all in `hookshim run`:
 *   hs_floor_plan()   before the agent starts: build the BPF program for
 *                     this config and probe that the kernel lets us install
 *                     it (a throwaway child tries), or say why not;
 *   hs_floor_enter()  in the agent's fork child, before its exec: install
 *                     the filter and hand the listener to the parent
 *                     (async-signal-safe: the parent has threads);
 *   hs_floor_start()  in the parent: take the listener, serve it;
 *   hs_floor_stop()   at session end. */
#ifndef HOOKSHIM_SUPERVISOR_FLOOR_H
#define HOOKSHIM_SUPERVISOR_FLOOR_H

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../config/model.h"

#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif

/* Kernel interfaces newer than some systems' headers (5.19, 6.6) */
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* settings.floor */
enum { HS_FLOOR_AUTO = 0, HS_FLOOR_REQUIRE = 1, HS_FLOOR_OFF = 2 };

/* The test suite's switch: `hookshim run` behaves as if the kernel had
 * no user notification (read where the plan is made: run, check,
 * doctor -- never by the session's processes); "install": the probe
 * passes, and the install in the agent's child fails as a race would. */
#define HS_ENV_TEST_NO_FLOOR "HOOKSHIM_TEST_NO_FLOOR"

/* Which allowed opens the floor does itself, the descriptor injected
 * ("floor_opens", floor_open.c), rather than letting the kernel read the
 * path again: those a hook judged (the default), all it is notified of,
 * or none. */
#define HS_FLOOR_OPENS_JUDGED 0
#define HS_FLOOR_OPENS_ALL    1
#define HS_FLOOR_OPENS_KERNEL 2

/* Whether the agent runs in a user namespace of its own, mapping only
 * the user's uid and gid to themselves, so that a supervisor that is not
 * root may read every session process's memory (floor_userns.c):
 * "auto" in enforce mode, "on" in both, "off" never; never as root. */
#define HS_FLOOR_USERNS_AUTO 0
#define HS_FLOOR_USERNS_ON   1
#define HS_FLOOR_USERNS_OFF  2

/* Which syscall classes the program sends to the supervisor. */
#define HS_FLOOR_WRITES 1u
#define HS_FLOOR_EXECS  2u
/* Mode, owner and extended attribute changes: judged for protected files
 * only (engine/protect.h), so notified only when the session has some. */
#define HS_FLOOR_ATTRS  4u
/* Opens for reading (no write-class flags, not O_PATH or O_DIRECTORY):
 * the agent's reads by raw syscalls as Read events, only when some pre
 * hook names the read tool (floor_read.c). */
#define HS_FLOOR_READS  8u
/* connect(2): a hook names the fetch tool (docs/network.md) */
#define HS_FLOOR_NET    16u

/* The open flags that make an open a write. O_TMPFILE includes
 * O_DIRECTORY, which reads use too: only its own bit counts (020000000,
 * the kernel's; glibc's __O_TMPFILE has O_DIRECTORY in it, so that every
 * opendir() was notified). */
#define HS_FLOOR_WRITE_FLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | \
			      O_APPEND | 020000000)

struct hs_floor_plan {
	bool on;               /* the probe passed: install it */
	unsigned what;         /* HS_FLOOR_WRITES | _EXECS | _ATTRS | _READS */
	unsigned long flags;   /* seccomp filter flags the kernel took */
	bool sync_wakeup;      /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP works */
	bool require;          /* "floor": "require": never run without it */
	bool enforce;          /* enforce mode: no call passes on a cookie */
	bool no_io_uring;      /* io_uring refused: rings inherited from
				* hookshim run's caller are closed before
				* the agent starts (hs_floor_spawn) */
	bool no_core;          /* "kernel_files" not allowed: the agent
				* starts with RLIMIT_CORE 0, raising it is
				* refused, and our hooks start with a soft
				* limit of 0 (floor_refuse.c) */
	char *const *agent_env; /* the environment the agent was started
				 * with (floor_lineage.c: what a tool call
				 * may carry that the user's did not) */
	pid_t agent;           /* the agent's pid, set before hs_floor_start:
				* its first exec is hookshim run's own */
	uint64_t cookie;       /* args[5] of the shim's own decided calls */
	struct sock_filter *code;
	unsigned short len;
	int sock[2];           /* the child sends the listener on sock[1] */
	char why[200];         /* why not, when !on */
	/* floor_userns.c: the agent in a user namespace of its own */
	bool userns;           /* wanted, made, and the probe entered it */
	int userns_fd;         /* that namespace (hs_floor_userns_hold's) */
	char userns_why[200];  /* wanted but not to be had: why */
	char userns_link[40];  /* its name in /proc ("user:[N]"), or "" */
	int fake_enter_err;    /* HS_ENV_TEST_NO_FLOOR=install: the agent's
				* install fails with this errno */
};

/* hs_floor_enter's and hs_floor_take_listener's result when the agent's
 * user namespace could not be entered: -(HS_FLOOR_USERNS_ERR + errno).
 * The spawn child then ends (126) without starting the agent. */
#define HS_FLOOR_USERNS_ERR 4096

/* The agent's user namespace (floor_userns.c), made now when the
 * settings (the mode resolved) want one: call it before the process
 * makes itself non-dumpable. Once per process; hs_floor_plan uses it. */
void hs_floor_userns_hold(const struct hs_settings *s);

/* The filter for cfg, and a probe of the kernel. Returns 0 with p->on
 * set, or 0 with p->on false and p->why said (nothing to notify, or the
 * kernel refused); -1 only on allocation failure. */
int hs_floor_plan(struct hs_floor_plan *p, const struct hs_config *cfg);
/* The same for these interest bits (a nested session's: its own and the
 * outer session's, supervisor/outer.h). */
int hs_floor_plan_for(struct hs_floor_plan *p, const struct hs_config *cfg,
		      unsigned interest);
void hs_floor_plan_free(struct hs_floor_plan *p);

/* Child side, async-signal-safe: no_new_privs, the filter, the listener
 * sent to the parent and closed. 0, or -errno (the parent is told);
 * -EPIPE when the filter is on but its listener may not have reached the
 * parent: nothing may run under it then. A failure the probe did not
 * foresee ends the agent's child in enforce mode and under "require"
 * (floor_spawn.c): the session never runs without the floor it said. */
int hs_floor_enter(const struct hs_floor_plan *p);

/* fn(arg) in a child that shares our memory until it execs or ends
 * (posix_spawn's way: no copy of our page tables, a fork's price once per
 * session for the probe and again for the agent), or with own_memory in
 * a fork (a user namespace to enter, a wait on us before its exec).
 * Every signal is blocked in it, as it starts: it must not run a handler
 * of ours on our memory, and unblocks (the agent: after making each
 * caught signal SIG_DFL) only before its exec. fn is async-signal-safe
 * and ends with _exit or exec. Its pid, or -1 with errno. */
pid_t hs_floor_child(int (*fn)(void *), void *arg, bool own_memory);

/* The BPF program (floor_bpf.c): malloc'd into p->code/p->len. */
int hs_floor_bpf(struct hs_floor_plan *p, bool io_uring_allow,
		 unsigned floor_allow);

/* Parent: the child's listener after hs_floor_enter, or -errno. */
int hs_floor_take_listener(struct hs_floor_plan *p);

/* Our hooks, and whatever else we start, with no core file either (a
 * soft RLIMIT_CORE of 0: what is theirs to raise is theirs) where the
 * plan refuses them to the agent: a hook runs in the project's directory,
 * or the caller's (engine/dispatch.c), with the caller's payload in its
 * memory. Before the session serves anything. */
void hs_floor_hooks_no_core(const struct hs_floor_plan *p);

/* posix_spawnp's job, with hs_floor_enter between fork and exec, and the
 * exec carrying the cookie; the child gets the signals in sigdef reset
 * and `mask` (what posix_spawnattr would have set). 0 with *pid, or an
 * errno (ENOENT: cmd[0] not found on PATH). */
#include <signal.h>
#include <sys/types.h>
int hs_floor_spawn(const struct hs_floor_plan *p, pid_t *pid,
		   char *const cmd[], char *const envp[],
		   const sigset_t *sigdef, const sigset_t *mask);

/* Enforce mode: the session's orphans are ours (floor_orphans.c), taken
 * before the agent starts; hs_floor_orphans_agent names the agent, our
 * own child and no orphan. hs_floor_orphans lists those alive now (up
 * to cap): a session ended at a SIGTERM kills them (supervisor/agent.c). */
bool hs_floor_take_orphans(void);
void hs_floor_orphans_agent(pid_t pid);
size_t hs_floor_orphans(pid_t *out, size_t cap);

struct hs_session;
struct hs_floor;

/* Parent side, after the fork: waits for the child's listener (or its
 * error) and serves it. NULL when the child could not install it (a
 * message printed). */
struct hs_floor *hs_floor_start(struct hs_floor_plan *p,
				struct hs_session *s, const char *write_filter);
/* The agent ended: the posts of its last writes (closed at its exit) are
 * fired and waited for, up to grace_ms, so they come before SessionEnd. */
void hs_floor_settle(struct hs_floor *f, int grace_ms);
/* Stops serving (after the agent ended); calls still in flight from
 * processes left behind are answered first, for up to grace_ms. */
bool hs_floor_stop(struct hs_floor *f, int grace_ms);

/* The cookie as HOOKSHIM_FLAGS carries it ("c=<decimal>"). */
#define HS_FLOOR_COOKIE_BITS 62

#endif
