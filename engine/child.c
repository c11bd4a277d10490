/* A child process and the pipes it writes (engine/child.h). */
#include "child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Without a pidfd, how often we look for the main process's exit. */
#define EXIT_POLL_MS 20

void hs_close_fd(int *fd)
{
	/* No retry on EINTR: on Linux the descriptor is gone either way, and
	 * a retry could close one another thread just opened. */
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A caller with stdio closed gets pipe ends numbered 0..2, which the
 * child's dup2 onto 0..2 would then clobber (or, for the same number,
 * leave close-on-exec); keep them all above. */
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

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

/* O_CLOEXEC so a child spawned concurrently by another thread cannot
 * inherit our ends and hold our pipes open. p[ours] is our end. */
static int make_pipe(int p[2], int ours)
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if (lift_fd(&p[0]) < 0 || lift_fd(&p[1]) < 0 ||
	    set_nonblock(p[ours]) < 0)
		return -1;
	return 0;
}

int hs_child_pipes(struct hs_child *c, bool with_stdin)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int ok;

	*c = (struct hs_child)HS_CHILD_INIT;
	ok = (!with_stdin || make_pipe(in, 1) == 0) &&
	     make_pipe(out, 0) == 0 && make_pipe(err, 0) == 0;
	c->in = in[1];
	c->theirs[0] = in[0];
	c->out[HS_CHILD_STDOUT] = out[0];
	c->theirs[1] = out[1];
	c->out[HS_CHILD_STDERR] = err[0];
	c->theirs[2] = err[1];
	if (!ok) {
		int e = errno;

		hs_child_close(c);
		errno = e;
		return -1;
	}
	return 0;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* ---- our own children, apart from those we are given ---- */

static pthread_rwlock_t spawning = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t own_mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t *own;
static size_t nown, own_cap;

void hs_child_hold(void)
{
	pthread_rwlock_rdlock(&spawning);
}

void hs_child_release(void)
{
	pthread_rwlock_unlock(&spawning);
}

static void own_add(pid_t pid)
{
	pthread_mutex_lock(&own_mu);
	if (nown == own_cap) {
		size_t cap = own_cap ? own_cap * 2 : 16;
		pid_t *v = realloc(own, cap * sizeof(*v));

		if (v)
			own = v, own_cap = cap;
	}
	/* (no room: it may be taken for another's once it has ended, and
	 * then hs_child_exited says it was lost) */
	if (nown < own_cap)
		own[nown++] = pid;
	pthread_mutex_unlock(&own_mu);
}

static void own_drop(pid_t pid)
{
	pthread_mutex_lock(&own_mu);
	for (size_t i = 0; i < nown; i++)
		if (own[i] == pid) {
			own[i] = own[--nown];
			break;
		}
	pthread_mutex_unlock(&own_mu);
}

static bool own_has(pid_t pid)
{
	bool r = false;

	pthread_mutex_lock(&own_mu);
	for (size_t i = 0; i < nown && !r; i++)
		r = own[i] == pid;
	pthread_mutex_unlock(&own_mu);
	return r;
}

/* One list, read in as few reads as it takes: the kernel goes on from
 * where a read stopped by position, and skips a child when one before it
 * has ended in between (64 KiB: some 9,000 children at once). */
static void children_in(int fd, void (*fn)(long, void *), void *arg)
{
	static const size_t cap = 64 * 1024;
	char *buf = malloc(cap);
	long pid = 0;
	ssize_t n;

	if (!buf)
		return;
	while ((n = read(fd, buf, cap)) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
				continue;
			}
			if (pid > 0)
				fn(pid, arg);
			pid = 0;
		}
	free(buf);
	if (pid > 0)
		fn(pid, arg);
}

void hs_proc_children(long pid, void (*fn)(long child, void *arg), void *arg)
{
	char p[300];
	struct dirent *e;
	DIR *d;
	int fd;

	if (pid > 0)
		snprintf(p, sizeof(p), "/proc/%ld/task", pid);
	else
		snprintf(p, sizeof(p), "/proc/self/task");
	if (!(d = opendir(p)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (pid > 0)
			snprintf(p, sizeof(p), "/proc/%ld/task/%s/children",
				 pid, e->d_name);
		else
			snprintf(p, sizeof(p), "/proc/self/task/%s/children",
				 e->d_name);
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		children_in(fd, fn, arg);
		close(fd);
	}
	closedir(d);
}

struct others {
	void (*fn)(pid_t, void *);
	void *arg;
};

static void other(long pid, void *arg)
{
	struct others *o = arg;

	if (!own_has((pid_t)pid))
		o->fn((pid_t)pid, o->arg);
}

void hs_child_others(void (*fn)(pid_t pid, void *arg), void *arg)
{
	struct others o = { fn, arg };

	pthread_rwlock_wrlock(&spawning);
	/* an orphan is given to one of our threads, any that lives */
	hs_proc_children(0, other, &o);
	pthread_rwlock_unlock(&spawning);
}

void hs_child_started(struct hs_child *c, pid_t pid)
{
	for (int i = 0; i < 3; i++)
		hs_close_fd(&c->theirs[i]);
	c->pid = pid;
	c->pidfd = open_pidfd(pid);
	own_add(pid);
}

int hs_child_poll(struct hs_child *c, int timeout_ms)
{
	struct pollfd pfd[4];
	int n = 0, at[3] = { -1, -1, -1 }, ready = 0;

	for (int i = 0; i < 2; i++)
		if (c->out[i] >= 0) {
			pfd[n] = (struct pollfd){ .fd = c->out[i],
						  .events = POLLIN };
			at[i] = n++;
		}
	if (c->in >= 0) {
		pfd[n] = (struct pollfd){ .fd = c->in, .events = POLLOUT };
		at[2] = n++;
	}
	if (!c->exited && c->pidfd >= 0)
		pfd[n++] = (struct pollfd){ .fd = c->pidfd, .events = POLLIN };
	if (!c->exited && c->pidfd < 0 &&
	    (timeout_ms < 0 || timeout_ms > EXIT_POLL_MS))
		timeout_ms = EXIT_POLL_MS;
	/* Nothing that could wake us, and no limit: do not sleep forever. */
	if (n == 0 && timeout_ms < 0)
		return 0;

	if (poll(pfd, (nfds_t)n, timeout_ms) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (at[i] >= 0 && pfd[at[i]].revents)
			ready |= HS_CHILD_READY(i);
	if (at[2] >= 0 && pfd[at[2]].revents)
		ready |= HS_CHILD_ROOM;
	return ready;
}

ssize_t hs_child_read(struct hs_child *c, int stream, char *buf,
		      size_t cap)
{
	int *fd = &c->out[stream];
	ssize_t n;

	if (*fd < 0)
		return 0;
	do
		n = read(*fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		return n;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	hs_close_fd(fd);
	return 0;
}

bool hs_child_reading(const struct hs_child *c)
{
	return c->out[HS_CHILD_STDOUT] >= 0 || c->out[HS_CHILD_STDERR] >= 0;
}

bool hs_child_exited(struct hs_child *c)
{
	siginfo_t si;

	if (c->exited)
		return true;
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)c->pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) == 0)
			break;
		if (errno == EINTR)
			continue;
		/* ECHILD: SIGCHLD is ignored, or someone reaped our child.
		 * Its pid may be reused already, so it must never be
		 * signaled again; hs_child_reap reports the loss. */
		c->lost = true;
		si.si_pid = c->pid;
		break;
	}
	if (si.si_pid == c->pid) {
		c->exited = true;
		hs_close_fd(&c->pidfd);
	}
	return c->exited;
}

int hs_child_reap(struct hs_child *c)
{
	int st;

	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR) {
			own_drop(c->pid);
			return -1;
		}
	own_drop(c->pid);
	return st;
}

void hs_child_close(struct hs_child *c)
{
	hs_close_fd(&c->in);
	hs_close_fd(&c->out[HS_CHILD_STDOUT]);
	hs_close_fd(&c->out[HS_CHILD_STDERR]);
	hs_close_fd(&c->pidfd);
	for (int i = 0; i < 3; i++)
		hs_close_fd(&c->theirs[i]);
}
