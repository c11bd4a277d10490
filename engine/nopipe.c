/* Writes without SIGPIPE and without waiting on a reader; see nopipe.h. */
#include "nopipe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

void hs_nopipe_begin(struct hs_nopipe *s)
{
	sigset_t set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &s->old);
	s->was_pending = sigpending(&pending) == 0 &&
			 sigismember(&pending, SIGPIPE) == 1;
}

void hs_nopipe_end(const struct hs_nopipe *s, bool got_epipe)
{
	if (got_epipe && !s->was_pending) {
		static const struct timespec zero = { 0, 0 };
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &s->old, NULL);
}

ssize_t hs_nopipe_write(int fd, const void *buf, size_t n)
{
	struct iovec iov = { (void *)buf, n };
	struct hs_nopipe s;
	struct stat sb;
	ssize_t r;
	int e;

	hs_nopipe_begin(&s);
	/* a pipe's or a socket's: at once or not at all (the kernel gives
	 * pipes and sockets RWF_NOWAIT; others say EOPNOTSUPP) */
	do
		r = pwritev2(fd, &iov, 1, -1, RWF_NOWAIT);
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EOPNOTSUPP || errno == EINVAL) &&
	    fstat(fd, &sb) == 0 && S_ISCHR(sb.st_mode)) {
		/* a terminal's: one whose reader stopped reading (a pty
		 * the agent fills) held a receiver for good, so ours is a
		 * description of its own, non-blocking (session 38's
		 * review) */
		char self[40];
		int t;

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		t = open(self, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		r = t < 0 ? -1 : write(t, buf, n);
		if (t >= 0) {
			e = errno;
			close(t);
			errno = e;
		}
	} else if (r < 0 && (errno == EOPNOTSUPP || errno == EINVAL) &&
		   fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		do
			r = write(fd, buf, n);
		while (r < 0 && errno == EINTR);
	}
	e = errno;
	hs_nopipe_end(&s, r < 0 && e == EPIPE);
	errno = e;
	return r;
}
