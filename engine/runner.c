/* Runs one hook: SHELL -c COMMAND in its own process group, the payload on
 * its stdin, its stdout and stderr captured, the whole group killed at the
 * timeout.
 *
 * The caller may be one of many threads, so everything here is per call:
 * posix_spawn instead of fork, the SIGPIPE mask of the calling thread only
 * (never the process-wide disposition), and waitpid/waitid on the one pid we
 * spawned (never -1, which would steal other threads' children).
 *
 * Return value: 0 whenever the hook's fate is known (exited, signaled, timed
 * out, or the spawn itself failed). -1 only when we ran out of a resource
 * (descriptors, memory) or were called wrongly; res then says
 * HS_RUN_SPAWN_FAILED with spawn_errno set, and is still safe to free.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"

extern char **environ;

#define DEFAULT_MAX_OUTPUT 65536
/* After the hook's main process exits, how long a background child may keep
 * our pipes open before we stop waiting for it. */
#define ORPHAN_GRACE_MS 200
/* Without a pidfd, how often we look for the main process's exit. */
#define EXIT_POLL_MS 20
#define READ_CHUNK 16384
/* Bounds the last non-blocking read of a pipe whose writer escaped the
 * kill: a writer outside our group could otherwise keep us reading. */
#define FINAL_DRAIN_READS 16

struct sink {
	char *buf; /* always allocated, cap + 1 bytes for the NUL */
	size_t len;
	size_t cap;
	size_t limit;
	bool truncated;
};

struct run {
	const struct hs_run_spec *spec;
	pid_t pid;
	int pidfd;          /* -1 if the kernel has no pidfd_open */
	int in_fd;          /* our end of the hook's stdin; -1 once closed */
	int out_fd;
	int err_fd;
	size_t in_off;
	struct sink out;
	struct sink err;
	bool exited;        /* main process is a zombie, not yet reaped */
	bool killed;        /* we sent the timeout SIGKILL */
	bool lost;          /* reaped by someone else: its pid is not ours */
	long deadline;      /* CLOCK_MONOTONIC ms; -1 = none */
	long grace_end;     /* set when the main process exits */
	int error;          /* errno of a resource failure, 0 if none */
};

static void close_fd(int *fd)
{
	/* No retry on EINTR: on Linux the descriptor is gone either way, and
	 * a retry could close one another thread just opened. */
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int sink_init(struct sink *s, size_t limit)
{
	/* Room for the NUL must not overflow. */
	s->limit = limit < SIZE_MAX ? limit : SIZE_MAX - 1;
	s->cap = limit < 256 ? limit : 256;
	s->len = 0;
	s->truncated = false;
	s->buf = malloc(s->cap + 1);
	if (!s->buf)
		return -1;
	s->buf[0] = '\0';
	return 0;
}

/* Keeps what fits under the limit. The rest is dropped, not refused: the
 * hook must never block on a full pipe because we stopped reading. */
static int sink_add(struct sink *s, const char *p, size_t n)
{
	size_t room = s->limit - s->len;

	if (n > room) {
		s->truncated = true;
		n = room;
	}
	if (n == 0)
		return 0;
	if (s->len + n > s->cap) {
		size_t cap = s->cap * 2;
		char *nb;

		if (cap < s->len + n)
			cap = s->len + n;
		if (cap > s->limit)
			cap = s->limit;
		nb = realloc(s->buf, cap + 1);
		if (!nb)
			return -1;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return 0;
}

/* A caller with stdio closed gets pipe ends numbered 0..2, which the dup2
 * file actions would then clobber; keep ours above them. */
static int lift_fd(int *fd)
{
	int nfd;

	if (*fd > 2)
		return 0;
	nfd = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
	if (nfd < 0)
		return -1;
	close(*fd);
	*fd = nfd;
	return 0;
}

/* O_CLOEXEC so a hook spawned concurrently by another thread cannot inherit
 * our ends and hold our pipes open. */
static int make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (lift_fd(&p[0]) < 0 || lift_fd(&p[1]) < 0) {
		int e = errno;

		close_fd(&p[0]);
		close_fd(&p[1]);
		errno = e;
		return -1;
	}
	return 0;
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

static int init_attr(posix_spawnattr_t *attr)
{
	sigset_t none, all;
	int e;

	sigemptyset(&none);
	/* The caller may block or ignore anything; the hook starts clean.
	 * sigfillset leaves out libc's internal signals. */
	sigfillset(&all);
	sigdelset(&all, SIGKILL);
	sigdelset(&all, SIGSTOP);

	e = posix_spawnattr_init(attr);
	if (e)
		return e;
	e = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP |
					   POSIX_SPAWN_SETSIGMASK |
					   POSIX_SPAWN_SETSIGDEF);
	if (!e)
		e = posix_spawnattr_setpgroup(attr, 0);
	if (!e)
		e = posix_spawnattr_setsigmask(attr, &none);
	if (!e)
		e = posix_spawnattr_setsigdefault(attr, &all);
	if (e)
		posix_spawnattr_destroy(attr);
	return e;
}

static int init_actions(posix_spawn_file_actions_t *fa, const char *cwd,
			int in, int out, int err)
{
	int e;

	e = posix_spawn_file_actions_init(fa);
	if (e)
		return e;
	e = posix_spawn_file_actions_adddup2(fa, in, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(fa, out, 1);
	if (!e)
		e = posix_spawn_file_actions_adddup2(fa, err, 2);
	/* Our pipes are close-on-exec already; this is for the caller's
	 * descriptors that are not. */
	if (!e)
		e = posix_spawn_file_actions_addclosefrom_np(fa, 3);
	if (!e && cwd)
		e = posix_spawn_file_actions_addchdir_np(fa, cwd);
	if (e)
		posix_spawn_file_actions_destroy(fa);
	return e;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Returns 0 with r->pid set, or the posix_spawn error; -1 with errno for a
 * resource failure before the spawn. */
static int spawn_hook(struct run *r)
{
	const struct hs_run_spec *spec = r->spec;
	const char *shell = spec->shell ? spec->shell : "/bin/sh";
	char *argv[] = { (char *)shell, "-c", (char *)spec->command, NULL };
	char *const *env = spec->env ? spec->env : environ;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int e;

	if (make_pipe(in) < 0 || make_pipe(out) < 0 || make_pipe(err) < 0)
		goto fail;
	if (set_nonblock(in[1]) < 0 || set_nonblock(out[0]) < 0 ||
	    set_nonblock(err[0]) < 0)
		goto fail;
	e = init_attr(&attr);
	if (e) {
		errno = e;
		goto fail;
	}
	e = init_actions(&fa, spec->cwd, in[0], out[1], err[1]);
	if (e) {
		posix_spawnattr_destroy(&attr);
		errno = e;
		goto fail;
	}
	e = posix_spawn(&r->pid, shell, &fa, &attr, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	if (e) {
		close_fd(&in[1]);
		close_fd(&out[0]);
		close_fd(&err[0]);
		return e;
	}
	r->in_fd = in[1];
	r->out_fd = out[0];
	r->err_fd = err[0];
	r->pidfd = open_pidfd(r->pid);
	return 0;
fail:
	e = errno;
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&err[0]);
	close_fd(&err[1]);
	errno = e;
	return -1;
}

/* SIGPIPE from a write is directed at this thread. Blocking it here and
 * swallowing it after an EPIPE keeps it from killing the process without
 * touching the process-wide disposition other threads rely on. */
static void block_sigpipe(sigset_t *old, bool *was_pending)
{
	sigset_t set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, old);
	/* Someone else's SIGPIPE, pending because the caller blocks it, is
	 * not ours to consume. */
	*was_pending = sigpending(&pending) == 0 &&
		       sigismember(&pending, SIGPIPE) == 1;
}

static void unblock_sigpipe(const sigset_t *old, bool was_pending,
			    bool got_epipe)
{
	if (got_epipe && !was_pending) {
		static const struct timespec zero = { 0, 0 };
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void feed_input(struct run *r)
{
	const struct hs_run_spec *spec = r->spec;
	bool was_pending, got_epipe = false;
	sigset_t old;

	block_sigpipe(&old, &was_pending);
	while (r->in_off < spec->input_len) {
		ssize_t n = write(r->in_fd, spec->input + r->in_off,
				  spec->input_len - r->in_off);

		if (n >= 0) {
			r->in_off += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		/* EPIPE: the hook closed its stdin; it has what it wanted. */
		got_epipe = errno == EPIPE;
		r->in_off = spec->input_len;
	}
	if (r->in_off >= spec->input_len)
		close_fd(&r->in_fd);
	unblock_sigpipe(&old, was_pending, got_epipe);
}

/* One read per wake-up keeps stdout and stderr served in turn. Returns
 * 1 if bytes came, 0 if none (or end of file, which closes *fd), -1 when
 * memory runs out. Read errors count as end of file. */
static int drain_once(int *fd, struct sink *s)
{
	char buf[READ_CHUNK];
	ssize_t n;

	do
		n = read(*fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n > 0)
		return sink_add(s, buf, (size_t)n) < 0 ? -1 : 1;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	close_fd(fd);
	return 0;
}

/* Picks up what was written just before we stopped, without waiting for an
 * end of file that a writer outside the killed group may never send. */
static void drain_rest(int *fd, struct sink *s)
{
	for (int i = 0; i < FINAL_DRAIN_READS && *fd >= 0; i++) {
		int n = drain_once(fd, s);

		/* Too late to fail the run over memory: say it is cut. */
		if (n < 0)
			s->truncated = true;
		if (n <= 0)
			break;
	}
	close_fd(fd);
}

/* Notices the main process's exit without reaping it: while it is a zombie
 * its pid, and so its process group id, cannot be reused, which keeps a
 * later kill(-pid) from hitting a stranger's group. */
static void check_exited(struct run *r)
{
	siginfo_t si;

	if (r->exited)
		return;
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)r->pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) == 0)
			break;
		if (errno == EINTR)
			continue;
		/* ECHILD: SIGCHLD is ignored, or someone reaped our child.
		 * Its pid may be reused already, so never signal it again;
		 * reap() reports the loss. */
		r->lost = true;
		si.si_pid = r->pid;
		break;
	}
	if (si.si_pid == r->pid) {
		r->exited = true;
		r->grace_end = hs_now_ms() + ORPHAN_GRACE_MS;
		close_fd(&r->pidfd);
	}
}

static void kill_hook(struct run *r)
{
	if (r->lost)
		return;
	kill(-r->pid, SIGKILL);
	/* In case the hook moved itself out of its group. */
	kill(r->pid, SIGKILL);
}

static int poll_timeout(const struct run *r, long now)
{
	long t = -1;

	/* timeout_ms is an int, so neither difference exceeds INT_MAX. */
	if (r->exited)
		t = r->grace_end > now ? r->grace_end - now : 0;
	else if (r->deadline >= 0)
		t = r->deadline > now ? r->deadline - now : 0;
	if (!r->exited && r->pidfd < 0 && (t < 0 || t > EXIT_POLL_MS))
		t = EXIT_POLL_MS;
	return (int)t;
}

static int wait_io(struct run *r, long now)
{
	struct pollfd pfd[4];
	int n = 0, in = -1, out = -1, err = -1;

	if (r->in_fd >= 0) {
		pfd[n] = (struct pollfd){ .fd = r->in_fd, .events = POLLOUT };
		in = n++;
	}
	if (r->out_fd >= 0) {
		pfd[n] = (struct pollfd){ .fd = r->out_fd, .events = POLLIN };
		out = n++;
	}
	if (r->err_fd >= 0) {
		pfd[n] = (struct pollfd){ .fd = r->err_fd, .events = POLLIN };
		err = n++;
	}
	if (!r->exited && r->pidfd >= 0)
		pfd[n++] = (struct pollfd){ .fd = r->pidfd, .events = POLLIN };

	if (poll(pfd, (nfds_t)n, poll_timeout(r, now)) < 0)
		return errno == EINTR ? 0 : -1;
	if (in >= 0 && pfd[in].revents)
		feed_input(r);
	if (out >= 0 && pfd[out].revents && drain_once(&r->out_fd, &r->out) < 0)
		return errno = ENOMEM, -1;
	if (err >= 0 && pfd[err].revents && drain_once(&r->err_fd, &r->err) < 0)
		return errno = ENOMEM, -1;
	return 0;
}

/* Runs until the hook is done with its pipes, its timeout passes, or its
 * main process exited and the grace for leftover children ran out. Leaves
 * the main process unreaped. */
static void supervise(struct run *r)
{
	if (r->spec->input_len == 0 || !r->spec->input)
		close_fd(&r->in_fd);
	for (;;) {
		long now;

		check_exited(r);
		if (r->exited) {
			/* Nobody we wait for reads stdin any more. */
			close_fd(&r->in_fd);
			if (r->out_fd < 0 && r->err_fd < 0)
				return;
		}
		now = hs_now_ms();
		if (!r->exited && r->deadline >= 0 && now >= r->deadline) {
			kill_hook(r);
			r->killed = true;
			return;
		}
		if (r->exited && now >= r->grace_end) {
			kill_hook(r);
			return;
		}
		if (wait_io(r, now) < 0) {
			r->error = errno;
			kill_hook(r);
			return;
		}
	}
}

/* The one waitpid for the pid we spawned. Returns its status, or -1 with
 * errno when it was reaped behind our back. */
static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

static void fill_status(const struct run *r, int st, struct hs_run_result *res)
{
	if (WIFEXITED(st)) {
		/* It beat our SIGKILL to the exit: not a timeout. */
		res->status = HS_RUN_EXITED;
		res->exit_code = WEXITSTATUS(st);
	} else if (r->killed) {
		res->status = HS_RUN_TIMEOUT;
	} else {
		res->status = HS_RUN_SIGNALED;
		res->signo = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	}
}

static void hand_over(struct run *r, struct hs_run_result *res)
{
	res->out = r->out.buf;
	res->out_len = r->out.len;
	res->out_truncated = r->out.truncated;
	res->err = r->err.buf;
	res->err_len = r->err.len;
	res->err_truncated = r->err.truncated;
	r->out.buf = NULL;
	r->err.buf = NULL;
}

static int give_up(struct hs_run_result *res, struct run *r, int e, long t0)
{
	free(r->out.buf);
	free(r->err.buf);
	r->out.buf = r->err.buf = NULL;
	res->status = HS_RUN_SPAWN_FAILED;
	res->spawn_errno = e;
	res->duration_ms = hs_now_ms() - t0;
	errno = e;
	return -1;
}

int hs_run(const struct hs_run_spec *spec, struct hs_run_result *res)
{
	struct run r = { .spec = spec, .pid = -1, .pidfd = -1, .in_fd = -1,
			 .out_fd = -1, .err_fd = -1, .deadline = -1 };
	size_t limit;
	long t0 = hs_now_ms();
	int e, st;

	if (!res) {
		errno = EINVAL;
		return -1;
	}
	memset(res, 0, sizeof(*res));
	if (!spec || !spec->command)
		return give_up(res, &r, EINVAL, t0);

	limit = spec->max_output ? spec->max_output : DEFAULT_MAX_OUTPUT;
	if (sink_init(&r.out, limit) < 0 || sink_init(&r.err, limit) < 0)
		return give_up(res, &r, ENOMEM, t0);

	e = spawn_hook(&r);
	if (e < 0)
		return give_up(res, &r, errno, t0);
	if (e > 0) {
		hand_over(&r, res);
		res->status = HS_RUN_SPAWN_FAILED;
		res->spawn_errno = e;
		res->duration_ms = hs_now_ms() - t0;
		return 0;
	}

	if (spec->timeout_ms > 0)
		r.deadline = t0 + spec->timeout_ms;
	supervise(&r);
	close_fd(&r.in_fd);
	drain_rest(&r.out_fd, &r.out);
	drain_rest(&r.err_fd, &r.err);
	close_fd(&r.pidfd);
	st = reap(r.pid);
	if (st < 0 && !r.error)
		r.error = errno;
	if (r.error)
		return give_up(res, &r, r.error, t0);
	fill_status(&r, st, res);
	hand_over(&r, res);
	res->duration_ms = hs_now_ms() - t0;
	return 0;
}

void hs_run_result_free(struct hs_run_result *res)
{
	if (!res)
		return;
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
	res->out_len = res->err_len = 0;
}
