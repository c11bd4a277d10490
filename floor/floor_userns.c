/* The agent in a user namespace of its own (settings.floor_userns).
 *
 * The floor reads a stopped caller's memory (its path, its argv) with
 * process_vm_readv, which the kernel allows a supervisor that is not root
 * only for processes it may ptrace: not one that made itself non-dumpable
 * (prctl(PR_SET_DUMPABLE, 0): one line of any program), and under Yama's
 * ptrace_scope 1 not one reparented away from it (a daemon that
 * double-forked). Such a process's notified calls could only be left to
 * the kernel unjudged, or failed (which breaks ssh-agent and its like).
 *
 * The kernel's own answer: a process is readable by whoever holds
 * CAP_SYS_PTRACE in the user namespace it belongs to, and the owner of a
 * user namespace (the same uid, one level up) holds every capability in
 * it. So the agent runs in a user namespace that maps only the user's uid
 * and gid, each to itself: inside, the agent and everything it starts are
 * the same user with the same access to files (the kernel checks the real
 * ids) and no capability after their exec (they are not uid 0 there);
 * the supervisor, outside, reads any of them. What changes for them is
 * docs/limits.md's ("Under the floor").
 *
 * The namespace is made once, early: hs_floor_userns_hold() forks a
 * child that unshares, writes its maps and hands a descriptor of the
 * namespace back, before `hookshim run` makes itself non-dumpable
 * (supervisor/lifecycle.c). A non-dumpable task's /proc files are root's,
 * so no later copy of the supervisor could write its own maps without
 * being made dumpable -- readable and writable by any process of the user
 * until its exec, filter or no filter. The agent's fork child then only
 * enters the namespace (setns), still non-dumpable. */
#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "floor_int.h"

static int held = -1;          /* the namespace, or -1 */
static bool tried;             /* hs_floor_userns_hold ran */
static char held_link[40];     /* "user:[N]" */
static char held_why[200];     /* why there is none */

/* The kernel's overflow id: what an owner the namespace does not map
 * shows as. A user who is that id would see every such file as theirs. */
static long overflow_id(const char *which)
{
	char p[64], b[32];

	snprintf(p, sizeof(p), "/proc/sys/kernel/%s", which);
	return hs_fl_read_small(p, b, sizeof(b)) > 0 ? strtol(b, NULL, 10)
						      : 65534;
}

static bool wanted(const struct hs_settings *s)
{
	return geteuid() != 0 && s->floor != HS_FLOOR_OFF &&
	       (s->floor_userns == HS_FLOOR_USERNS_ON ||
		(s->floor_userns == HS_FLOOR_USERNS_AUTO && s->enforce));
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(text);

	if (fd < 0)
		return errno;
	n = write(fd, text, (size_t)len);
	close(fd);
	return n == len ? 0 : n < 0 ? errno : EIO;
}

/* The child: async-signal-safe only (the caller may have threads). Sends
 * 0 and the namespace, or its errno. */
static void make(int sock, const char *uid_map, const char *gid_map)
{
	int e = 0, fd = -1;

	if (unshare(CLONE_NEWUSER) < 0)
		e = errno;
	/* an unprivileged gid_map needs setgroups denied first */
	else if ((e = put("/proc/self/setgroups", "deny")) == 0 &&
		 (e = put("/proc/self/uid_map", uid_map)) == 0 &&
		 (e = put("/proc/self/gid_map", gid_map)) == 0 &&
		 (fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC)) < 0)
		e = errno;
	hs_fl_send_result(sock, e, fd);
	_exit(0);
}

static void say(int e, const char *what)
{
	snprintf(held_why, sizeof(held_why),
		 "no user namespace for the agent (%s%s%s)", what,
		 e ? ": " : "", e ? strerror(e) : "");
}

void hs_floor_userns_hold(const struct hs_settings *s)
{
	char uid_map[32], gid_map[32];
	int sv[2], e = EPROTO, st, fd = -1;
	struct stat sb;
	pid_t pid;

	if (tried || !wanted(s))
		return;
	tried = true;
	if ((long)geteuid() == overflow_id("overflowuid") ||
	    (long)getegid() == overflow_id("overflowgid")) {
		say(0, "the user is the kernel's overflow id, which every "
		       "owner the namespace does not map would show as");
		return;
	}
	snprintf(uid_map, sizeof(uid_map), "%u %u 1\n", (unsigned)geteuid(),
		 (unsigned)geteuid());
	snprintf(gid_map, sizeof(gid_map), "%u %u 1\n", (unsigned)getegid(),
		 (unsigned)getegid());
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		say(errno, "socketpair");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		make(sv[1], uid_map, gid_map);
	}
	close(sv[1]);
	if (pid > 0) {
		int r = hs_fl_recv_result(sv[0], &fd);

		e = r > 0 ? r : r < 0 ? EPROTO : 0;
		if (r < 0 || (!e && fd < 0)) { /* it died, or sent nothing */
			if (fd >= 0)
				close(fd);
			fd = -1;
			e = EPROTO;
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	} else {
		e = errno;
	}
	close(sv[0]);
	if (!e && fd >= 0 && fstat(fd, &sb) == 0) {
		held = fd;
		snprintf(held_link, sizeof(held_link), "user:[%lu]",
			 (unsigned long)sb.st_ino);
		return;
	}
	if (fd >= 0)
		close(fd);
	say(e, "the kernel refused an unprivileged one: "
	       "kernel.unprivileged_userns_clone, user.max_user_namespaces "
	       "or an AppArmor restriction");
}

void hs_floor_userns_plan(struct hs_floor_plan *p, const struct hs_settings *s)
{
	p->userns = false;
	p->userns_fd = -1;
	p->userns_why[0] = p->userns_link[0] = '\0';
	if (!wanted(s))
		return;
	hs_floor_userns_hold(s); /* check, doctor: now (still dumpable) */
	if (held < 0) {
		snprintf(p->userns_why, sizeof(p->userns_why), "%s", held_why);
		return;
	}
	p->userns = true;
	p->userns_fd = held;
	snprintf(p->userns_link, sizeof(p->userns_link), "%s", held_link);
}

int hs_floor_userns_enter(const struct hs_floor_plan *p)
{
	return setns(p->userns_fd, CLONE_NEWUSER) < 0
		       ? -(HS_FLOOR_USERNS_ERR + errno)
		       : 0;
}

void hs_floor_userns_failed(struct hs_floor_plan *p, int r)
{
	int e = -r - HS_FLOOR_USERNS_ERR;

	p->userns = false;
	p->userns_fd = -1;
	p->userns_link[0] = '\0';
	snprintf(p->userns_why, sizeof(p->userns_why),
		 "no user namespace for the agent (entering it: %s)",
		 strerror(e > 0 ? e : EPERM));
}
