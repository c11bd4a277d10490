/* Starting the agent under the floor: posix_spawnp cannot run code
 * between its fork and its exec, and the filter has to be installed
 * there. So: the PATH search first (in the parent: it may allocate), then
 * a child sharing our memory until its exec (hs_floor_child; a fork
 * where it enters a user namespace, in enforce mode and on a terminal),
 * the signal state posix_spawnattr would have set, hs_floor_enter(), and
 * the exec itself carrying the cookie, so that the agent's own start is
 * not a notification. hookshim run has threads by now: the child runs
 * async-signal-safe code only, and writes no memory of ours but its
 * stacks' (its own, the listener's carrier's) and errno. */
#include "floor.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../supervisor/agent.h"

/* What posix_spawnp's caller says of a command that cannot start
 * (supervisor/agent.c), from the fork child: write(2) only. */
static void exec_failed(const char *cmd, int err)
{
	const char *why = err == ENOENT	   ? "No such file or directory"
			  : err == EACCES  ? "Permission denied"
			  : err == ENOEXEC ? "Exec format error"
			  : err == ENOTDIR ? "Not a directory"
					   : "cannot be executed";
	const char *parts[] = { "hookshim: ", cmd, ": ", why, "\n" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (write(2, parts[i], strlen(parts[i])) < 0)
			return;
}

struct spawn {
	const struct hs_floor_plan *p;
	const char *exe;
	char *const *cmd, *const *envp;
	const sigset_t *sigdef, *mask;
};

/* The agent's child (hs_floor_child: every signal blocked, our memory
 * but where it forks) */
static int agent_child(void *arg)
{
	const struct spawn *a = arg;
	struct sigaction dfl, cur;
	int err;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	/* what posix_spawnattr asked, and every handler of ours: none may
	 * run here, on our memory, once the mask below lets a signal in */
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(a->sigdef, sig) == 1 ||
		    (sigaction(sig, NULL, &cur) == 0 &&
		     cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN))
			sigaction(sig, &dfl, NULL);
	/* On failure the parent says why, and runs on without the floor
	 * in guard mode (the probe passed a moment ago: only a race gets
	 * here). Not where it is required or enforce mode was chosen
	 * (enforce is the floor deciding every call: the shim alone would
	 * be guard mode under enforce's name), nor when the agent could
	 * not enter its user namespace (the probe did a moment ago): it
	 * would run outside it, unread. */
	/* no core file of the kernel's making (floor_refuse.c): the hard
	 * limit too, which only CAP_SYS_RESOURCE raises again */
	if (a->p->no_core) {
		static const struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);
	}
	/* enforce mode tells a process's images apart by where each exec
	 * placed them, at random (floor_lineage.c): a session started under
	 * `setarch -R` has its address space randomised again */
	if (a->p->enforce) {
		int pers = personality(0xffffffff);

		if (pers != -1 && (pers & ADDR_NO_RANDOMIZE))
			personality((unsigned long)pers & ~ADDR_NO_RANDOMIZE);
	}
	err = hs_floor_enter(a->p);
	if (err < 0 && (a->p->require || a->p->enforce || err == -EPIPE ||
			err <= -HS_FLOOR_USERNS_ERR))
		_exit(126);
	sigprocmask(SIG_SETMASK, a->mask, NULL);
	syscall(SYS_execve, a->exe, a->cmd, a->envp, 0, 0, (long)a->p->cookie);
	err = errno;
	exec_failed(a->cmd[0], err);
	_exit(err == ENOENT ? 127 : 126);
}

/* io_uring rings among our descriptors, made by whoever started
 * `hookshim run` and inherited: closed, so that the agent does not
 * inherit them. The filter refuses io_uring_enter, but a ring made with
 * SQPOLL takes its submissions from memory the agent maps, with no call
 * at all, and its operations run in the kernel, unseen. Said, once per
 * descriptor. */
static void drop_rings(void)
{
	char link[64], to[64];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n;
	int fd;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if ((fd = atoi(e->d_name)) <= STDERR_FILENO || fd == dirfd(d))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, to, sizeof(to) - 1)) <= 0)
			continue;
		to[n] = '\0';
		if (strcmp(to, "anon_inode:[io_uring]") != 0)
			continue;
		close(fd);
		fprintf(stderr, "hookshim: descriptor %d, an io_uring ring "
				"made before the session, closed: the agent "
				"does not inherit it (its operations would be "
				"unseen; \"io_uring\": \"allow\" keeps it)\n",
			fd);
	}
	closedir(d);
}

int hs_floor_spawn(const struct hs_floor_plan *p, pid_t *pid,
		   char *const cmd[], char *const envp[],
		   const sigset_t *sigdef, const sigset_t *mask)
{
	char exe[PATH_MAX];
	struct spawn a = { .p = p, .exe = exe, .cmd = cmd, .envp = envp,
			   .sigdef = sigdef, .mask = mask };
	int err = hs_agent_find_exe(cmd[0], exe, NULL);

	if (err)
		return err;
	if (p->no_io_uring)
		drop_rings();
	/* (enforce mode's orphans were taken before SessionStart: cli/run.c) */
	/* A child of its own memory where it enters a user namespace; in
	 * enforce mode, where its exec is a notification (no cookie lets it
	 * past) that only our receivers, started once we go on, answer; and
	 * on a terminal, whose Ctrl-Z in the child's moments before its exec
	 * would stop it there, pending as the mask lets it in -- and us with
	 * it, waiting in clone for an exec, never mirroring the stop to the
	 * user's shell (posix_spawn's child has that moment too) */
	*pid = hs_floor_child(agent_child, &a,
			      p->userns || p->enforce || isatty(STDIN_FILENO) ||
				      isatty(STDOUT_FILENO) ||
				      isatty(STDERR_FILENO));
	if (*pid < 0)
		return errno;
	hs_floor_orphans_agent(*pid);
	return 0;
}
