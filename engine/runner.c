/* Runs one hook: SHELL -c COMMAND in its own process group, the payload on
 * its stdin, its stdout and stderr captured, the whole group killed at the
 * timeout.
 *
 * The caller may be one of many threads, so everything here is per call:
 * posix_spawn instead of fork, the SIGPIPE mask of the calling thread only
 * (never the process-wide disposition), and waitpid/waitid on the one pid we
 * spawned (never -1, which would steal other threads' children).
 * The pipes, the poll over them and the non-reaping exit check are
 * engine/child.c's; what is the runner's own is the stdin feed, the
 * timeout, the group kill and the grace for orphans.
 *
 * Return value: 0 whenever the hook's fate is known (exited, signaled, timed
 * out, or the spawn itself failed). -1 only when we ran out of a resource
 * (descriptors, memory) or were called wrongly; res then says
 * HS_RUN_SPAWN_FAILED with spawn_errno set, and is still safe to free.
 *
 * Over 600 lines: one hook's spawn, feed (a sealed memfd), wait, kill and
 * failure kinds belong together; engine/child.c has the pipes already.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"
#include "nopipe.h"
#include "child.h"

extern char **environ;

#define DEFAULT_MAX_OUTPUT 65536
/* After the hook's main process exits, how long a background child may keep
 * our pipes open before we stop waiting for it. */
#define ORPHAN_GRACE_MS 200
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
	struct hs_child child; /* the hook's main process and its pipes */
	size_t in_off;
	struct sink out;
	struct sink err;
	bool killed;        /* we sent the timeout SIGKILL */
	long deadline;      /* CLOCK_MONOTONIC ms; -1 = none */
	long grace_end;     /* set when the main process exits */
	int error;          /* errno of a resource failure, 0 if none */
	struct run *prev, *next; /* the running hooks (hs_run_kill_all) */
};

/* Every hook running in this process, from its spawn to just before its
 * reap: while it is listed its pid is a zombie at worst, so its process
 * group id cannot have been reused when hs_run_kill_all signals it. */
static pthread_mutex_t running_mu = PTHREAD_MUTEX_INITIALIZER;
static struct run *running;
static bool ending; /* hs_run_kill_all(true): kill every new one too */
/* hs_run_kill_all was called: the session is ending, so a hook started
 * from now on for a call (one whose decision began before the end, and
 * spawned just after the kill) dies at once too; SessionEnd's run. */
static bool calls_ending;

static void list_add(struct run *r)
{
	pthread_mutex_lock(&running_mu);
	r->prev = NULL;
	r->next = running;
	if (running)
		running->prev = r;
	running = r;
	if (ending || (calls_ending && !r->spec->at_session_end)) {
		kill(-r->child.pid, SIGKILL);
		kill(r->child.pid, SIGKILL);
	}
	pthread_mutex_unlock(&running_mu);
}

static void list_remove(struct run *r)
{
	pthread_mutex_lock(&running_mu);
	if (r->prev)
		r->prev->next = r->next;
	else if (running == r)
		running = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->prev = r->next = NULL;
	pthread_mutex_unlock(&running_mu);
}

void hs_run_kill_all(bool and_later)
{
	pthread_mutex_lock(&running_mu);
	ending |= and_later;
	calls_ending = true;
	for (struct run *r = running; r; r = r->next) {
		if (r->child.lost)
			continue;
		kill(-r->child.pid, SIGKILL);
		kill(r->child.pid, SIGKILL);
	}
	pthread_mutex_unlock(&running_mu);
}

bool hs_run_ended(bool at_session_end)
{
	bool ended;

	pthread_mutex_lock(&running_mu);
	ended = ending || (calls_ending && !at_session_end);
	pthread_mutex_unlock(&running_mu);
	return ended;
}

bool hs_run_is_hook(pid_t pid, pid_t pgid)
{
	bool found = false;

	pthread_mutex_lock(&running_mu);
	for (struct run *r = running; r && !found; r = r->next)
		found = !r->child.lost && r->child.pid > 0 &&
			(r->child.pid == pid || r->child.pid == pgid);
	pthread_mutex_unlock(&running_mu);
	return found;
}

bool hs_run_any(void)
{
	return __atomic_load_n(&running, __ATOMIC_RELAXED) != NULL;
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

/* The payload as a sealed memfd for the hook's stdin, above 2, or -1
 * (then a pipe is fed as before). A pipe can be read away by anyone who
 * may open /proc/<hook>/fd/0 -- any process of the user: the hook is
 * dumpable -- leaving the hook an empty payload; a file opened again
 * there has an offset of its own, and sealed, no writer. */
static int payload_fd(const struct hs_run_spec *spec)
{
	size_t off = 0;
	int fd = memfd_create("hookshim-payload",
			      MFD_CLOEXEC | MFD_ALLOW_SEALING), hi;

	if (fd < 0)
		return -1;
	while (off < spec->input_len) {
		ssize_t n = write(fd, spec->input + off, spec->input_len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW |
				   F_SEAL_WRITE) < 0)
		goto fail;
	if (fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
fail:
	close(fd);
	return -1;
}

/* Returns 0 with the hook started, or the posix_spawn error; -1 with errno
 * for a resource failure before the spawn. */
static int spawn_hook(struct run *r)
{
	const struct hs_run_spec *spec = r->spec;
	const char *shell = spec->shell ? spec->shell : "/bin/sh";
	char *argv[] = { (char *)shell, "-c", (char *)spec->command, NULL };
	char *const *env = spec->env ? spec->env : environ;
	const int *theirs = r->child.theirs;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int in = payload_fd(spec);
	pid_t pid;
	int e;

	if (hs_child_pipes(&r->child, in < 0) < 0) {
		e = errno;
		if (in >= 0)
			close(in);
		errno = e;
		return -1;
	}
	e = init_attr(&attr);
	if (e)
		goto fail;
	e = init_actions(&fa, spec->cwd, in >= 0 ? in : theirs[0], theirs[1],
			 theirs[2]);
	if (e) {
		posix_spawnattr_destroy(&attr);
		goto fail;
	}
	hs_child_hold(); /* ours from the fork on (child.h) */
	e = posix_spawn(&pid, shell, &fa, &attr, argv, env);
	if (!e)
		hs_child_started(&r->child, pid);
	hs_child_release();
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (in >= 0)
		close(in);
	if (e) {
		hs_child_close(&r->child);
		return e;
	}
	list_add(r);
	return 0;
fail:
	if (in >= 0)
		close(in);
	hs_child_close(&r->child);
	errno = e;
	return -1;
}

static void feed_input(struct run *r)
{
	const struct hs_run_spec *spec = r->spec;
	struct hs_nopipe np;
	bool got_epipe = false;

	hs_nopipe_begin(&np);
	while (r->in_off < spec->input_len) {
		ssize_t n = write(r->child.in, spec->input + r->in_off,
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
		hs_close_fd(&r->child.in);
	hs_nopipe_end(&np, got_epipe);
}

/* One read of a stream. Returns 1 if bytes came, 0 if none (or end of
 * file, which closes it), -1 when memory runs out. Read errors count as
 * end of file. */
static int drain_once(struct hs_child *c, int stream, struct sink *s)
{
	char buf[READ_CHUNK];
	ssize_t n = hs_child_read(c, stream, buf, sizeof(buf));

	if (n > 0)
		return sink_add(s, buf, (size_t)n) < 0 ? -1 : 1;
	return 0;
}

/* Picks up what was written just before we stopped, without waiting for an
 * end of file that a writer outside the killed group may never send. */
static void drain_rest(struct hs_child *c, int stream, struct sink *s)
{
	for (int i = 0; i < FINAL_DRAIN_READS && c->out[stream] >= 0; i++) {
		int n = drain_once(c, stream, s);

		/* Too late to fail the run over memory: say it is cut. */
		if (n < 0)
			s->truncated = true;
		if (n <= 0)
			break;
	}
	hs_close_fd(&c->out[stream]);
}

/* Notices the main process's exit without reaping it (hs_child_exited says
 * why), which keeps a later kill(-pid) from hitting a stranger's group, and
 * starts the grace for the children it left behind. */
static void check_exited(struct run *r)
{
	if (!r->child.exited && hs_child_exited(&r->child))
		r->grace_end = hs_now_ms() + ORPHAN_GRACE_MS;
}

static void kill_hook(struct run *r)
{
	if (r->child.lost)
		return;
	kill(-r->child.pid, SIGKILL);
	/* In case the hook moved itself out of its group. */
	kill(r->child.pid, SIGKILL);
}

static int poll_timeout(const struct run *r, long now)
{
	long t = -1;

	/* timeout_ms is an int, so neither difference exceeds INT_MAX. */
	if (r->child.exited)
		t = r->grace_end > now ? r->grace_end - now : 0;
	else if (r->deadline >= 0)
		t = r->deadline > now ? r->deadline - now : 0;
	return (int)t;
}

/* One wait, then one read per ready stream, which keeps stdout and stderr
 * served in turn. */
static int wait_io(struct run *r, long now)
{
	int ready = hs_child_poll(&r->child, poll_timeout(r, now));

	if (ready < 0)
		return errno == EINTR ? 0 : -1;
	if (ready & HS_CHILD_ROOM)
		feed_input(r);
	if ((ready & HS_CHILD_READY(HS_CHILD_STDOUT)) &&
	    drain_once(&r->child, HS_CHILD_STDOUT, &r->out) < 0)
		return errno = ENOMEM, -1;
	if ((ready & HS_CHILD_READY(HS_CHILD_STDERR)) &&
	    drain_once(&r->child, HS_CHILD_STDERR, &r->err) < 0)
		return errno = ENOMEM, -1;
	return 0;
}

/* Runs until the hook is done with its pipes, its timeout passes, or its
 * main process exited and the grace for leftover children ran out. Leaves
 * the main process unreaped. */
static void supervise(struct run *r)
{
	if (r->spec->input_len == 0 || !r->spec->input)
		hs_close_fd(&r->child.in);
	for (;;) {
		long now;

		check_exited(r);
		if (r->child.exited) {
			/* Nobody we wait for reads stdin any more. */
			hs_close_fd(&r->child.in);
			if (!hs_child_reading(&r->child))
				return;
		}
		now = hs_now_ms();
		if (!r->child.exited && r->deadline >= 0 &&
		    now >= r->deadline) {
			kill_hook(r);
			r->killed = true;
			return;
		}
		if (r->child.exited && now >= r->grace_end) {
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
	struct run r = { .spec = spec, .child = HS_CHILD_INIT,
			 .deadline = -1 };
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
	hs_close_fd(&r.child.in);
	drain_rest(&r.child, HS_CHILD_STDOUT, &r.out);
	drain_rest(&r.child, HS_CHILD_STDERR, &r.err);
	hs_child_close(&r.child);
	list_remove(&r);
	st = hs_child_reap(&r.child);
	if (st < 0 && !r.error)
		r.error = errno;
	if (r.error)
		return give_up(res, &r, r.error, t0);
	fill_status(&r, st, res);
	hand_over(&r, res);
	res->duration_ms = hs_now_ms() - t0;
	return 0;
}

const char *hs_run_status_name(enum hs_run_status st)
{
	switch (st) {
	case HS_RUN_EXITED: return "exited";
	case HS_RUN_SIGNALED: return "signaled";
	case HS_RUN_TIMEOUT: return "timeout";
	case HS_RUN_SPAWN_FAILED: return "spawn_failed";
	case HS_RUN_HTTP_FAILED: return "http_failed";
	}
	return "?";
}

const char *hs_run_failure(const struct hs_run_result *r, char *buf,
			   size_t cap)
{
	const char *abbrev;

	switch (r->status) {
	case HS_RUN_HTTP_FAILED:
		snprintf(buf, cap, "%.*s", (int)strcspn(r->err ? r->err : "",
							 "\n"),
			 r->err ? r->err : "");
		return buf;
	case HS_RUN_TIMEOUT:
		snprintf(buf, cap, "timed out after %ld ms", r->duration_ms);
		return buf;
	case HS_RUN_SIGNALED:
		abbrev = r->signo > 0 ? sigabbrev_np(r->signo) : NULL;
		snprintf(buf, cap, "killed by signal %d%s%s%s", r->signo,
			 abbrev ? " (SIG" : "", abbrev ? abbrev : "",
			 abbrev ? ")" : "");
		return buf;
	case HS_RUN_SPAWN_FAILED:
		snprintf(buf, cap, "could not start: %s (errno %d)",
			 strerror(r->spawn_errno), r->spawn_errno);
		return buf;
	case HS_RUN_EXITED:
		/* `sh -c script` waits for a script killed by a signal and
		 * says so as 128 + its number */
		if (r->exit_code > 128 && r->exit_code <= 128 + 64) {
			abbrev = sigabbrev_np(r->exit_code - 128);
			snprintf(buf, cap, "killed by signal %d%s%s%s (its "
				 "shell exited %d)", r->exit_code - 128,
				 abbrev ? " (SIG" : "", abbrev ? abbrev : "",
				 abbrev ? ")" : "", r->exit_code);
			return buf;
		}
		/* a JSON answer cut at the cap: its decision cannot be read
		 * (a deny whose reason quoted the agent's long command was
		 * taken for plain output, and allowed: session 38) */
		if (r->exit_code == 0 && r->out_truncated && r->out &&
		    r->out[strspn(r->out, " \t\r\n")] == '{') {
			snprintf(buf, cap, "its JSON answer was cut at %zu "
				 "bytes: no decision can be read", r->out_len);
			return buf;
		}
		/* the shell's own: the command is not there, or cannot run */
		if (r->exit_code != 126 && r->exit_code != 127)
			return NULL;
		snprintf(buf, cap, "exited %d: %s", r->exit_code,
			 r->exit_code == 127 ? "command not found"
					     : "command not executable");
		return buf;
	}
	return NULL;
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
