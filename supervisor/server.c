/* The abstract-socket server; see server.h. */
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../common/wire.h"
#include "inflight.h"

/* Requests served at once; the acceptor waits for a free slot beyond. */
#define MAX_ACTIVE 256
/* How long a connected client may take to send its request. */
#define REQUEST_TIMEOUT_S 60

struct hs_supervisor {
	struct hs_session *s;
	int lfd;
	int wake[2]; /* written once to stop the acceptor */
	pthread_t acceptor;
	struct hs_inflight serving; /* connections being answered */
};

struct conn {
	struct hs_supervisor *sv;
	int fd;
};

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = REQUEST_TIMEOUT_S };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void *serve(void *arg)
{
	struct conn *c = arg;
	struct hs_supervisor *sv = c->sv;
	struct hs_msg req;
	struct hs_answer ans;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	bool ticketed, exec_post;

	set_timeouts(c->fd);
	if (hs_msg_read(c->fd, &req) == 0) {
		/* Who asks, as the kernel recorded it at connect(), never the
		 * request's pid: the tickets of enforce mode are kept under
		 * it, and an exec's post comes from `hookshim __exec`, the
		 * process that made the exec, whose own shell it was is
		 * asked of it (session.c). Guard mode's other requests need
		 * no syscall for it. */
		exec_post = req.op && strcmp(req.op, "exec") == 0 &&
			    req.phase && strncmp(req.phase, "post", 4) == 0;
		if ((!sv->s->tickets && !exec_post) ||
		    getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
			cred.pid = 0;
		req.peer = cred.pid;
		/* a connection's grant (net_cache.h) is for the process the
		 * kernel names, not the one the request says */
		if (cred.pid > 0 && req.op && strcmp(req.op, "connect") == 0)
			req.pid = cred.pid;
		/* The request is in; the hooks may take as long as their
		 * timeouts allow, so only the reply keeps a send timeout. */
		hs_session_decide_as(sv->s, &req, HS_TICKET_SHIM, cred.pid,
				     &ans, &ticketed);
		hs_answer_write(c->fd, &ans);
		hs_answer_free(&ans);
		hs_msg_free(&req);
	}
	close(c->fd);
	free(c);
	hs_inflight_leave(&sv->serving);
	return NULL;
}

/* Only our own user's processes may ask: anyone can connect to an
 * abstract socket whose name they guess. */
static void spawn_conn(struct hs_supervisor *sv, int fd)
{
	struct conn *c = malloc(sizeof(*c));
	pthread_attr_t attr;
	pthread_t t;

	if (!c) {
		close(fd);
		return;
	}
	c->sv = sv;
	c->fd = fd;
	hs_inflight_enter(&sv->serving, MAX_ACTIVE);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 2u << 20);
	if (pthread_create(&t, &attr, serve, c) != 0) {
		/* Serve inline rather than drop: a dropped request would
		 * make the shim fall back to its unreachable policy. */
		serve(c);
	}
	pthread_attr_destroy(&attr);
}

static void *accept_loop(void *arg)
{
	struct hs_supervisor *sv = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = sv->lfd, .events = POLLIN },
				       { .fd = sv->wake[0], .events = POLLIN } };
		int fd;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		fd = accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue; /* EMFILE, ECONNABORTED...: try again */
		if (!hs_wire_peer_is_ours(fd)) {
			close(fd);
			continue;
		}
		spawn_conn(sv, fd);
	}
	return NULL;
}

struct hs_supervisor *hs_supervisor_start(struct hs_session *s,
					  const char *name)
{
	struct hs_supervisor *sv = calloc(1, sizeof(*sv));
	struct sockaddr_un sa;
	socklen_t len;

	if (!sv)
		return NULL;
	sv->s = s;
	sv->lfd = -1;
	sv->wake[0] = sv->wake[1] = -1;
	if (hs_wire_addr(name, &sa, &len) < 0) {
		fprintf(stderr, "hookshim: bad socket name '%s'\n", name);
		goto fail;
	}
	sv->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sv->lfd < 0 || bind(sv->lfd, (struct sockaddr *)&sa, len) < 0 ||
	    listen(sv->lfd, 512) < 0) {
		fprintf(stderr, "hookshim: supervisor socket @%s: %s\n", name,
			strerror(errno));
		goto fail;
	}
	if (pipe2(sv->wake, O_CLOEXEC) < 0)
		goto fail;
	hs_inflight_init(&sv->serving);
	if (pthread_create(&sv->acceptor, NULL, accept_loop, sv) != 0) {
		hs_inflight_destroy(&sv->serving);
		goto fail;
	}
	return sv;
fail:
	if (sv->lfd >= 0)
		close(sv->lfd);
	if (sv->wake[0] >= 0) {
		close(sv->wake[0]);
		close(sv->wake[1]);
	}
	free(sv);
	return NULL;
}

bool hs_supervisor_stop(struct hs_supervisor *sv, int grace_ms)
{
	bool drained;

	if (!sv)
		return true;
	if (write(sv->wake[1], "x", 1) < 0) {
		/* the pipe is ours and empty: cannot fail in practice */
	}
	pthread_join(sv->acceptor, NULL);
	close(sv->lfd);
	drained = hs_inflight_drain(&sv->serving, grace_ms);
	close(sv->wake[0]);
	close(sv->wake[1]);
	if (!drained)
		return false; /* threads still use sv: leave it to exit() */
	hs_inflight_destroy(&sv->serving);
	free(sv);
	return true;
}
