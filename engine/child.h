/* A child process and the pipes it writes, watched with a pidfd, or polled
 * for its exit when the kernel has none.
 *
 * Shared by the hook runner (engine/runner.c) and `hookshim __exec`
 * (cli/supervised_exec.c). The caller starts the child its own way (fork,
 * posix_spawn) on the child's ends of the pipes, and decides what the bytes
 * are for; this module owns the descriptors, the poll over them and the
 * child's exit. Everything is per struct: safe from many threads at once.
 *
 * Use:
 *	hs_child_pipes(&c, with_stdin);     then start the child on
 *	                                    c.theirs[0..2], and
 *	hs_child_started(&c, pid);          (or hs_child_close on failure)
 *	loop: hs_child_poll, hs_child_read the ready streams,
 *	      hs_child_exited (which does not reap)
 *	hs_child_close(&c); hs_child_reap(&c);
 */
#ifndef HOOKSHIM_ENGINE_CHILD_H
#define HOOKSHIM_ENGINE_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The child's output streams, as indices of hs_child.out. */
enum { HS_CHILD_STDOUT, HS_CHILD_STDERR };

/* hs_child_poll's answer: which descriptors are ready. */
#define HS_CHILD_READY(stream) (1 << (stream)) /* out[stream] readable */
#define HS_CHILD_ROOM (1 << 2)                 /* in takes a write */

struct hs_child {
	pid_t pid;
	int pidfd;      /* -1 without pidfd_open, and once the exit is seen */
	int in;         /* our end of its stdin; -1 if none or closed */
	int out[2];     /* our ends of its stdout, stderr; -1 at end of file */
	int theirs[3];  /* its ends (stdin, stdout, stderr) until started */
	bool exited;    /* its main process exited; not reaped by us yet */
	bool lost;      /* reaped by someone else: its pid is not ours */
};

/* No child, no descriptor; hs_child_pipes starts from this too. */
#define HS_CHILD_INIT                                                  \
	{ .pid = -1, .pidfd = -1, .in = -1, .out = { -1, -1 },          \
	  .theirs = { -1, -1, -1 } }

/* Makes the pipes: the child's stdout and stderr, and its stdin when
 * with_stdin (otherwise in and theirs[0] stay -1). All close-on-exec, all
 * above 2, ours non-blocking. 0, or -1 with errno and nothing left open. */
int hs_child_pipes(struct hs_child *c, bool with_stdin);

/* The child runs as pid: closes its ends of the pipes and opens a pidfd. */
void hs_child_started(struct hs_child *c, pid_t pid);

/* Waits up to timeout_ms (< 0: no limit) for one of our pipe ends to be
 * ready or, until the exit is seen, for the child to exit. Without a pidfd
 * the wait is cut short now and then so the caller can look for the exit.
 * Returns HS_CHILD_READY/HS_CHILD_ROOM bits (0 on timeout, an exit, or
 * when there is nothing left to wait for), or -1 with errno (EINTR too). */
int hs_child_poll(struct hs_child *c, int timeout_ms);

/* One read from out[stream]. Returns the bytes read; 0 if none are there
 * now, or at end of file or a read error, which close out[stream]. */
ssize_t hs_child_read(struct hs_child *c, int stream, char *buf,
		      size_t cap);

/* Whether either of its output pipes is still open. */
bool hs_child_reading(const struct hs_child *c);

/* Whether the child's main process has exited, without reaping it: while
 * it is a zombie its pid, and so its process group id, cannot be reused.
 * Sets exited (and lost, if someone else reaped it). */
bool hs_child_exited(struct hs_child *c);

/* The one blocking waitpid for the child. Its wait status, or -1 with
 * errno when it was reaped behind our back. */
int hs_child_reap(struct hs_child *c);

/* Closes every descriptor the struct still holds. */
void hs_child_close(struct hs_child *c);

/* A process's own children, told from those it is given: a supervisor
 * that takes its session's orphans (floor/floor_orphans.c) reaps those,
 * never a hook it waits for. A spawn made between hs_child_hold() and
 * hs_child_release(), with hs_child_started() in between, is never seen
 * by hs_child_others() as another's, however soon it ends. */
void hs_child_hold(void);
void hs_child_release(void);
/* fn(pid, arg) for each child of this process, as the kernel lists them
 * now, that was not started through hs_child_started (or was reaped by
 * hs_child_reap since); spawns are held off meanwhile. */
void hs_child_others(void (*fn)(pid_t pid, void *arg), void *arg);
/* fn(child, arg) for each child of process pid (0: this one), of any of
 * its threads, as /proc/PID/task/TID/children lists them now, each list
 * read whole. */
void hs_proc_children(long pid, void (*fn)(long child, void *arg), void *arg);

/* Closes *fd if open and sets it to -1. */
void hs_close_fd(int *fd);

#endif
