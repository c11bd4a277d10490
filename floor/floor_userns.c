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
 * CAP_SYS_PTRACE in the user namespace its memory belongs to, and the
 * owner of a user namespace (the same uid, one level up) holds every
 * capability in it. So the agent's fork child makes a user namespace
 * before its exec, mapping only the user's uid and gid, each to itself:
 * inside, the agent and everything it starts are the same user with the
 * same access to every file (the kernel checks the real ids), no
 * capability after their exec (they are not uid 0 there), and the
 * supervisor, outside, reads any of them. What changes for them: owners
 * and groups that are not the user's show as the overflow ids (65534,
 * "nobody") in stat and id; set-uid programs gain nothing, as under
 * no_new_privs already. Root needs none of this (CAP_SYS_PTRACE).
 *
 * The child's part is async-signal-safe (the parent has threads): the
 * map lines are made in the parent first. */
#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

void hs_floor_userns_plan(struct hs_floor_plan *p, const struct hs_settings *s)
{
	p->userns = false;
	p->userns_why[0] = p->userns_link[0] = '\0';
	if (geteuid() == 0 || s->floor_userns == HS_FLOOR_USERNS_OFF ||
	    (s->floor_userns == HS_FLOOR_USERNS_AUTO && !s->enforce))
		return;
	p->userns = true;
	snprintf(p->uid_map, sizeof(p->uid_map), "%u %u 1\n",
		 (unsigned)geteuid(), (unsigned)geteuid());
	snprintf(p->gid_map, sizeof(p->gid_map), "%u %u 1\n",
		 (unsigned)getegid(), (unsigned)getegid());
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(text);

	if (fd < 0)
		return -errno;
	n = write(fd, text, (size_t)len);
	if (n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

int hs_floor_userns_enter(const struct hs_floor_plan *p)
{
	int r, fd;

	if (unshare(CLONE_NEWUSER) < 0)
		return -(HS_FLOOR_USERNS_ERR + errno);
	/* the supervisor made itself non-dumpable (out of the session's
	 * reach), and a non-dumpable task's /proc files are root's: its
	 * maps could not be written. Dumpable for the three writes only (a
	 * copy of the supervisor's memory), then the exec ahead makes the
	 * agent dumpable again. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	/* an unprivileged gid_map needs setgroups denied first */
	if ((r = put("/proc/self/setgroups", "deny")) == 0 &&
	    (r = put("/proc/self/uid_map", p->uid_map)) == 0)
		r = put("/proc/self/gid_map", p->gid_map);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (r < 0)
		return -(HS_FLOOR_USERNS_ERR - r);
	fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -(HS_FLOOR_USERNS_ERR + errno) : fd;
}

void hs_floor_userns_failed(struct hs_floor_plan *p, int r)
{
	int e = -r - HS_FLOOR_USERNS_ERR;

	p->userns = false;
	snprintf(p->userns_why, sizeof(p->userns_why),
		 "no user namespace for the agent (%s: "
		 "kernel.unprivileged_userns_clone, user.max_user_namespaces "
		 "or an AppArmor restriction)",
		 strerror(e > 0 ? e : EPERM));
}
