/* Installing the floor: the probe at session start, the install in the
 * agent's fork child, and the listener's way back to the parent.
 *
 * The probe installs the real program in a throwaway child, because
 * every way it can fail only shows by trying: EBUSY where a listener
 * exists already (some container runtimes, WSL2), EINVAL/ENOSYS on old
 * kernels, EPERM/EACCES under a policy (no_new_privs refused, AppArmor
 * denying the ioctls). The parent then checks the listener answers an
 * ioctl, so "installed" means "served". */
#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "../engine/dispatch.h"
#include "../engine/protect.h"
#include "floor_int.h"

/* The listener's carrier: a process sharing the child's memory and
 * descriptors but not its filter (it exists before the filter does). The
 * filter notifies sendmsg in a session that judges connections, and
 * nobody can answer a notification before the listener is across: the
 * child itself could not send it. */
struct carrier {
	int pipe[2]; /* the child's result, in */
	int sock;
	pid_t child;
};

/* It holds the pipe's write end too (one table of descriptors): a child
 * that dies before writing would leave it waiting, and the parent with
 * it. So it dies with the child. */
static int carry(void *arg)
{
	struct carrier *c = arg;
	int r = -EPIPE;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    getppid() != c->child)
		return 1;
	while (read(c->pipe[0], &r, sizeof(r)) < 0 && errno == EINTR)
		;
	/* not sent: the child must not run under a filter nobody got the
	 * listener of (it returns -EPIPE) */
	return hs_fl_send_result(c->sock, r < 0 ? r : 0, r) ? 0 : 1;
}

int hs_floor_enter(const struct hs_floor_plan *p)
{
	static char stack[16384] __attribute__((aligned(16)));
	struct sock_fprog prog = { .len = p->len, .filter = p->code };
	struct carrier c = { .pipe = { -1, -1 }, .sock = p->sock[1],
			     .child = getpid() };
	pid_t helper = -1;
	int fd, st;

	close(p->sock[0]);
	if (p->fake_enter_err) {
		fd = -p->fake_enter_err;
		goto fail;
	}
	/* first: the filter is installed inside it */
	if (p->userns && (fd = hs_floor_userns_enter(p)) < 0)
		goto fail;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    pipe2(c.pipe, O_CLOEXEC) < 0) {
		fd = -errno;
		goto fail;
	}
	helper = clone(carry, stack + sizeof(stack),
		       CLONE_VM | CLONE_FILES | SIGCHLD, &c);
	if (helper < 0) {
		fd = -errno;
		goto fail;
	}
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, p->flags,
			  &prog);
	if (fd < 0)
		fd = -errno;
	while (write(c.pipe[1], &fd, sizeof(fd)) < 0 && errno == EINTR)
		;
	st = -1;
	while (waitpid(helper, &st, 0) < 0 && errno == EINTR)
		;
	close(c.pipe[0]);
	close(c.pipe[1]);
	if (fd >= 0)
		close(fd);
	close(p->sock[1]);
	/* a filter nobody may be listening to: the caller must not go on
	 * under it */
	if (fd >= 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		return -EPIPE;
	return fd < 0 ? fd : 0;
fail:
	if (c.pipe[0] >= 0) {
		close(c.pipe[0]);
		close(c.pipe[1]);
	}
	hs_fl_send_result(p->sock[1], fd, -1);
	close(p->sock[1]);
	return fd;
}

pid_t hs_floor_child(int (*fn)(void *), void *arg, bool own_memory)
{
	/* on our frame, which waits (CLONE_VFORK) until the child execs or
	 * ends: hs_floor_enter's frames, and exec's arguments */
	char stack[64 * 1024] __attribute__((aligned(16)));
	sigset_t all, old;
	pid_t pid;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (own_memory) {
		if ((pid = fork()) == 0)
			_exit(fn(arg)); /* (fn ends itself) */
	} else {
		pid = clone(fn, stack + sizeof(stack),
			    CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
	}
	err = errno;
#if defined(__SANITIZE_ADDRESS__)
	/* the child's frames, ended by _exit or an exec and not by their
	 * returns, left their red zones poisoned in ASan's shadow of this
	 * array, which later frames of ours reuse (the build under ASan:
	 * a false stack-buffer-overflow in the next hook's run) */
	__asan_unpoison_memory_region(stack, sizeof(stack));
#endif
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return pid;
}

static int probe_child(void *q)
{
	_exit(hs_floor_enter(q) < 0 ? 1 : 0);
}

/* Tries the program with `flags` in a throwaway child. Returns the
 * listener (checked to answer an ioctl) or -errno. */
static int probe(struct hs_floor_plan *p, unsigned long flags)
{
	struct hs_floor_plan q = *p;
	int sv[2], fd, r, st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	q.flags = flags;
	q.fake_enter_err = 0;
	q.sock[0] = sv[0];
	q.sock[1] = sv[1];
	/* entering a user namespace wants a process of its own memory */
	pid = hs_floor_child(probe_child, &q, q.userns);
	close(sv[1]);
	r = pid < 0 ? -errno : hs_fl_recv_result(sv[0], &fd);
	close(sv[0]);
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (r < 0 || fd < 0) {
		if (fd >= 0)
			close(fd);
		return r < 0 ? r : -EPROTO;
	}
	/* No notification has id 0: ENOENT means the ioctls are ours. */
	{
		__u64 id = 0;

		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0 &&
		    errno != ENOENT) {
			r = -errno;
			close(fd);
			return r;
		}
	}
	return fd;
}

static void say_why(struct hs_floor_plan *p, const char *what, int err)
{
	snprintf(p->why, sizeof(p->why), "%s: %s", what, strerror(err));
}

/* A 62-bit cookie (HOOKSHIM_FLAGS carries it as a non-negative decimal),
 * never 0. */
static uint64_t new_cookie(void)
{
	uint64_t c = 0;

	while (c == 0) {
		if (getrandom(&c, sizeof(c), 0) != (ssize_t)sizeof(c))
			c = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^
			    (uint64_t)(uintptr_t)&c;
		c &= (1ull << HS_FLOOR_COOKIE_BITS) - 1;
	}
	return c;
}

int hs_floor_plan(struct hs_floor_plan *p, const struct hs_config *cfg)
{
	return hs_floor_plan_for(p, cfg, hs_config_interest(cfg));
}

int hs_floor_plan_for(struct hs_floor_plan *p, const struct hs_config *cfg,
		      unsigned interest)
{
	const char *fake = getenv(HS_ENV_TEST_NO_FLOOR);
	int fd;

	memset(p, 0, sizeof(*p));
	p->sock[0] = p->sock[1] = p->userns_fd = -1;
	p->require = cfg->settings.floor == HS_FLOOR_REQUIRE;
	p->enforce = cfg->settings.enforce;
	if (cfg->settings.floor == HS_FLOOR_OFF) {
		snprintf(p->why, sizeof(p->why), "off in the config");
		return 0;
	}
#if !defined(__x86_64__)
	snprintf(p->why, sizeof(p->why), "only built for x86-64");
	return 0;
#endif
	/* Post hooks on writes need the floor too: a static program's
	 * write fires its post at its end (floor_post.c). A session without
	 * any hook on writes or pre hook on execs notifies nothing but still
	 * refuses io_uring (its calls would never be seen). */
	if (interest & (HS_INTEREST_WRITE_PRE | HS_INTEREST_WRITE_POST))
		p->what |= HS_FLOOR_WRITES;
	if (interest & HS_INTEREST_EXEC_PRE)
		p->what |= HS_FLOOR_EXECS;
	/* Mode and owner changes of the policy's files matter where a hook
	 * that cannot run allows (guard mode); in enforce mode it denies, so
	 * a chmod -x of a hook script gains nothing, and tar's fchmodat and
	 * fchownat of every file it makes are no round trips (a third of a
	 * static tar's notifications) */
	if (cfg->protect && cfg->protect->n && !cfg->settings.enforce)
		p->what |= HS_FLOOR_ATTRS;
	/* the shim's condition for read events (shim/state.c): a Read hook */
	if (interest & HS_INTEREST_READ_PRE)
		p->what |= HS_FLOOR_READS;
	/* connections: a static program's, a raw syscall's (floor_net.c) */
	if (interest & HS_INTEREST_NET_PRE)
		p->what |= HS_FLOOR_NET;
	if (!p->what && !p->require)
		return 0; /* nothing to watch: no floor, nothing to say */
	p->cookie = new_cookie();
	/* a crash's core file: the kernel's write by a name of its own (in
	 * the caller's directory where core_pattern is a file; a '|' handler
	 * may write one there too, and core_pattern can change), below
	 * every path check (floor_refuse.c) */
	p->no_core = !(cfg->settings.floor_allow & HS_FA(KERNEL_FILES));
	p->no_io_uring = !cfg->settings.io_uring_allow;
	if (hs_floor_bpf(p, cfg->settings.io_uring_allow,
			 cfg->settings.floor_allow) < 0)
		return -1;
	if (fake && strcmp(fake, "install") == 0)
		p->fake_enter_err = ENOSYS;
	else if (fake && fake[0] && strcmp(fake, "0") != 0) {
		snprintf(p->why, sizeof(p->why), "seccomp user notification: "
			 "unavailable (%s=%s)", HS_ENV_TEST_NO_FLOOR, fake);
		return 0;
	}
	/* Go's preemption signals would otherwise restart a notified call
	 * forever (a new id each time): wait killable where the kernel can
	 * (5.19). */
	p->flags = SECCOMP_FILTER_FLAG_NEW_LISTENER |
		   SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
	/* the agent in a user namespace of its own, where wanted: entered
	 * by the probe too, and left out (said) where that fails */
	hs_floor_userns_plan(p, &cfg->settings);
	fd = probe(p, p->flags);
	if (fd <= -HS_FLOOR_USERNS_ERR) {
		hs_floor_userns_failed(p, fd);
		fd = probe(p, p->flags);
	}
	if (fd == -EINVAL) {
		p->flags = SECCOMP_FILTER_FLAG_NEW_LISTENER;
		fd = probe(p, p->flags);
	}
	if (fd < 0) {
		say_why(p, fd == -EBUSY ? "seccomp user notification (another "
					  "listener exists already)"
					: "seccomp user notification",
			-fd);
		return 0;
	}
	/* (6.6) the flags go by value, not through a pointer */
	p->sync_wakeup = ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			       SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0;
	close(fd);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p->sock) < 0) {
		say_why(p, "socketpair", errno);
		return 0;
	}
	p->on = true;
	return 0;
}

void hs_floor_plan_free(struct hs_floor_plan *p)
{
	for (int i = 0; i < 2; i++)
		if (p->sock[i] >= 0)
			close(p->sock[i]);
	p->sock[0] = p->sock[1] = -1;
	free(p->code);
	p->code = NULL;
}

/* Parent: the child's listener, or -errno (floor.c says it). */
int hs_floor_take_listener(struct hs_floor_plan *p)
{
	int fd, r;

	close(p->sock[1]);
	p->sock[1] = -1;
	r = hs_fl_recv_result(p->sock[0], &fd);
	close(p->sock[0]);
	p->sock[0] = -1;
	if (r < 0) { /* (at or below -HS_FLOOR_USERNS_ERR: see floor.h) */
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (fd < 0)
		return -EPROTO;
	/* the waiting caller and our receiver run on the same CPU in turn:
	 * no cross-CPU wake-up per notification */
	if (p->sync_wakeup)
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		      SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
	return fd;
}
