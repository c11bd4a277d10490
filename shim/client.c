/* The shim's side of the supervisor wire; see client.h and common/wire.h. */
#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "path.h"
#include "real.h"
#include "state.h"

/* -1 with errno when the socket or the connect fails. */
static int connect_supervisor(const char *name)
{
	struct sockaddr_un sa;
	unsigned len;
	int fd;

	if (hs_wire_addr(name, &sa, &len) < 0) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	while (HS_REAL(connect)(fd, (struct sockaddr *)&sa, (socklen_t)len) < 0) {
		if (errno != EINTR) {
			int e = errno;

			HS_REAL(close)(fd);
			errno = e;
			return -1;
		}
	}
	return fd;
}

/* Are we in another network namespace than the supervisor (w= in
 * HOOKSHIM_FLAGS, its /proc/self/ns/net inode)? Its abstract socket is
 * then not there at all: abstract names are per network namespace. False
 * when either side cannot tell (no w=, no /proc). */
static bool other_netns(const struct hs_state *st)
{
	struct stat sb;

	return st->sup_netns && stat("/proc/self/ns/net", &sb) == 0 &&
	       (unsigned long)sb.st_ino != st->sup_netns;
}

/* Does the agent's sandbox hide the supervisor from this process? A new
 * network namespace (bubblewrap's --unshare-net, `unshare -n`), or a
 * seccomp filter or Landlock's LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
 * refusing the socket or the connect (EPERM, EACCES). Unlike a dead
 * supervisor (ECONNREFUSED in its own namespace), the session goes on
 * outside, and under the floor the kernel still reaches it. */
static bool hidden(const struct hs_state *st, int err)
{
	return err == EPERM || err == EACCES || err == EAFNOSUPPORT ||
	       other_netns(st);
}

/* Is the listener on fd the session's supervisor (common/wire.h)? A
 * process that binds the name after the supervisor died has another pid;
 * one that was given the supervisor's pid again started later. */
/* Our own want of descriptors or memory (a process at its
 * RLIMIT_NOFILE, the system's table full): no lost supervisor. */
static bool scarce(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM ||
	       err == ENOBUFS;
}

/* 1: the session's supervisor; 0: not; -1: we could not look for want
 * of a descriptor (errno). */
static int peer_is_supervisor(const struct hs_state *st, int fd)
{
	long peer = hs_wire_peer_pid(fd);
	char path[40];
	int sfd, e;
	bool ok;

	if (peer <= 0 || peer != st->sup_pid)
		return 0;
	hs_proc_stat_path(path, peer);
	sfd = HS_REAL(open)(path, O_RDONLY | O_CLOEXEC);
	e = errno;
	if (sfd < 0 && scarce(e))
		return -1;
	ok = hs_wire_supervisor_matches(peer, sfd, st->sup_pid, st->sup_start);
	if (sfd >= 0)
		HS_REAL(close)(sfd);
	return ok;
}

static void send_request(int fd, const struct hs_msg *req)
{
	struct hs_wire w;
	struct hs_msg m = *req;
	char cwd[PATH_MAX];

	m.pid = (long)hs_getpid();
	/* the shim's cached getcwd syscall, not getcwd(3): for a directory
	 * deeper than PATH_MAX glibc falls back to walking ".." with
	 * opendir, which allocates and, under a floor with Read hooks, is a
	 * read of its own to judge */
	m.cwd = hs_path_dirfd(AT_FDCWD, cwd) == 0 ? cwd : NULL;
	hs_wire_init(&w, fd);
	hs_wire_put_msg(&w, &m);
	if (hs_wire_finish(&w) == 0)
		shutdown(fd, SHUT_WR);
}

/* Reads fields until HS_F_END. 0 if a verdict arrived, -1 otherwise. */
static int read_reply(int fd, struct hs_reply *rep)
{
	bool have_verdict = false, cut = false;
	char num[24];

	for (;;) {
		int tag;
		uint32_t len;
		char *dst = NULL;
		size_t cap = 0;
		char verdict[16];

		if (hs_wire_read_header(fd, &tag, &len) < 0)
			return -1;
		if (tag == HS_F_END && cut) {
			/* a rewritten command cut short is not the one the
			 * hook wrote: not run */
			static const char why[] = "hookshim: a hook rewrote "
				"the command to more than 4095 bytes; not run";

			rep->deny = true;
			rep->updated[0] = '\0';
			memcpy(rep->reason, why, sizeof(why));
		}
		if (tag == HS_F_END)
			return have_verdict ? 0 : -1;
		if (tag == HS_F_UPDATED && len >= sizeof(rep->updated))
			cut = true;
		switch (tag) {
		case HS_F_VERDICT: dst = verdict; cap = sizeof(verdict); break;
		case HS_F_REASON: dst = rep->reason; cap = sizeof(rep->reason); break;
		case HS_F_CONTEXT: dst = rep->context; cap = sizeof(rep->context); break;
		case HS_F_ID: dst = rep->id; cap = sizeof(rep->id); break;
		case HS_F_UPDATED: dst = rep->updated; cap = sizeof(rep->updated); break;
		case HS_F_DENY_EXIT:
		case HS_F_DENY_ERRNO:
		case HS_F_HANDOFF:
		case HS_F_OWN:
		case HS_F_MORE:
		case HS_F_KEEPS:
		case HS_F_TOOL_CALL: dst = num; cap = sizeof(num); break;
		}
		if (hs_wire_read_body(fd, len, dst, cap) < 0)
			return -1;
		if (tag == HS_F_VERDICT) {
			have_verdict = true;
			rep->deny = strcmp(verdict, "allow") != 0;
		/* Only values the config can hold (config/settings.c): cast to
		 * int, a longer number gave a negative exit status or errno 0,
		 * a denied call that looked like success (found by
		 * fuzz/fuzz_reply.c). */
		} else if (tag == HS_F_TOOL_CALL) {
			rep->tool_call = hs_atol(num) == 1;
		} else if (tag == HS_F_HANDOFF) {
			rep->handoff = hs_atol(num) == 1;
		} else if (tag == HS_F_OWN) {
			rep->own = hs_atol(num) == 1;
		} else if (tag == HS_F_MORE) {
			rep->more = hs_atol(num) == 1;
		} else if (tag == HS_F_KEEPS) {
			rep->keeps = hs_atol(num) == 1;
		} else if (tag == HS_F_DENY_EXIT && hs_atol(num) >= 0 &&
			   hs_atol(num) <= 255) {
			rep->deny_exit = (int)hs_atol(num);
		} else if (tag == HS_F_DENY_ERRNO && hs_atol(num) > 0 &&
			   hs_atol(num) <= INT_MAX) {
			rep->deny_errno = (int)hs_atol(num);
		}
	}
}

/* No verdict: the supervisor is gone, or something else answered. With
 * on_supervisor_loss "deny" (CI mode, strict) every such call fails, each
 * with its reason; otherwise it proceeds, and this process says so once,
 * loudly: from here on nothing it does is checked. */
static const char sandboxed[] =
	"the agent's sandbox hides the supervisor's socket from this process";

static void give_up(const struct hs_state *st, struct hs_reply *rep,
		    const char *why)
{
	static int warned;
	bool deny = st->strict || st->deny_on_loss;

	rep->failed = true;
	rep->deny = deny;
	if (rep->hidden)
		why = sandboxed;
	if (deny) {
		hs_write_str(2, "hookshim: supervisor unreachable (");
		hs_write_str(2, why);
		hs_write_str(2, "); denying (on_supervisor_loss: deny)\n");
		memcpy(rep->reason, "hookshim: supervisor unreachable",
		       sizeof("hookshim: supervisor unreachable"));
		return;
	}
	if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		return;
	hs_write_str(2, "hookshim: WARNING: supervisor unreachable (");
	hs_write_str(2, why);
	if (rep->hidden && st->cookie)
		/* the floor took its writes and commands (hs_ask_or_floor):
		 * what is left are reads and post hooks */
		hs_write_str(2, "): the syscall floor still judges its writes "
				"and commands, but its read and post hooks do "
				"not run and its reads are ALLOWED");
	else if (rep->hidden)
		hs_write_str(2, "; no syscall floor here): hooks do not run "
				"for it and its calls are ALLOWED");
	else
		hs_write_str(2, "): hooks no longer run and calls are ALLOWED");
	hs_write_str(2, " unchecked (set \"on_supervisor_loss\": \"deny\" to "
			"fail closed)\n");
}

void hs_ask_lost(struct hs_reply *rep, const char *why)
{
	give_up(hs_state(), rep, why);
}

/* Nobody to ask. Under the floor, a process the sandbox hides gives
 * the call to the floor when its caller can (floor_may_judge), silently:
 * the kernel still reaches the supervisor. */
static void unreachable(const struct hs_state *st, struct hs_reply *rep,
			int err, bool floor_may_judge, const char *why)
{
	rep->hidden = hidden(st, err);
	if (rep->hidden && floor_may_judge && st->cookie) {
		rep->failed = true;
		return;
	}
	give_up(st, rep, why);
}

/* No descriptor to ask with: the supervisor is there, we cannot reach
 * it. Taken for a lost one, a write its hook denies landed, in guard
 * mode, from a process one descriptor short of its limit (session 38's
 * attack run). Under the floor the call goes to it, as a hidden
 * process's does (the kernel still reaches the supervisor); without
 * one it fails with that errno, as a call that needs a descriptor
 * would. */
static void no_descriptor(const struct hs_state *st, struct hs_reply *rep,
			  int err, bool floor_may_judge)
{
	static const char why[] = "hookshim: no descriptor left to ask the "
				  "supervisor with";

	rep->failed = true;
	if (floor_may_judge && st->cookie) {
		rep->hidden = true;
		return;
	}
	rep->deny = true;
	rep->deny_errno = err;
	memcpy(rep->reason, why, sizeof(why));
}

static void ask(const struct hs_msg *req, struct hs_reply *rep,
		bool floor_may_judge)
{
	const struct hs_state *st = hs_state();
	int saved = errno;
	int fd, peer;

	memset(rep, 0, offsetof(struct hs_reply, reason));
	rep->reason[0] = rep->context[0] = rep->id[0] = '\0';
	rep->updated[0] = '\0';
	rep->deny_exit = st->deny_exit;
	rep->deny_errno = st->deny_errno;
	hs_guard_enter();
	fd = connect_supervisor(st->sock);
	if (fd < 0 && scarce(errno)) {
		no_descriptor(st, rep, errno, floor_may_judge);
	} else if (fd < 0) {
		unreachable(st, rep, errno, floor_may_judge, "connect");
	} else if ((peer = peer_is_supervisor(st, fd)) < 0) {
		no_descriptor(st, rep, errno, floor_may_judge);
	} else if (!peer) {
		/* Whoever it is, it is not ours: as if nobody answered. In
		 * another network namespace than the supervisor's it cannot
		 * be ours either: the sandbox's own listener. */
		unreachable(st, rep, 0, floor_may_judge,
			    "not the session's supervisor");
	} else {
		send_request(fd, req);
		if (read_reply(fd, rep) < 0) {
			/* nothing of a broken reply is used: a field cut
			 * off mid-body has no NUL, a rewrite is not whole */
			rep->deny = false;
			rep->reason[0] = rep->context[0] = rep->id[0] = '\0';
			rep->updated[0] = '\0';
			give_up(st, rep, "no verdict");
		}
	}
	if (fd >= 0)
		HS_REAL(close)(fd);
	hs_guard_leave();
	errno = saved;
}

void hs_tell(const struct hs_msg *req)
{
	const struct hs_state *st = hs_state();
	int saved = errno;
	int fd;

	hs_guard_enter();
	fd = connect_supervisor(st->sock);
	if (fd >= 0 && peer_is_supervisor(st, fd)) {
		char sink[256];

		send_request(fd, req);
		while (read(fd, sink, sizeof(sink)) > 0 || errno == EINTR)
			;
	}
	if (fd >= 0)
		HS_REAL(close)(fd);
	hs_guard_leave();
	errno = saved;
}

void hs_ask(const struct hs_msg *req, struct hs_reply *rep)
{
	ask(req, rep, false);
}

void hs_ask_or_floor(const struct hs_msg *req, struct hs_reply *rep)
{
	ask(req, rep, true);
}

void hs_make_id(char *buf)
{
	static const char hex[] = "0123456789abcdef";
	struct timespec ts;
	unsigned long long ns;
	char *p;

	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (unsigned long long)ts.tv_sec * 1000000000ull +
	     (unsigned long long)ts.tv_nsec;
	memcpy(buf, "hs-", 3);
	hs_utoa((unsigned long)hs_getpid(), buf + 3);
	p = buf + strlen(buf);
	*p++ = '-';
	for (int i = 60; i >= 0; i -= 4)
		*p++ = hex[(ns >> i) & 15];
	*p = '\0';
}
