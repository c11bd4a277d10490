/* Starting the agent under the floor: posix_spawnp cannot run code
 * between its fork and its exec, and the filter has to be installed
 * there. So: the PATH search first (in the parent: it may allocate), then
 * fork, the signal state posix_spawnattr would have set,
 * hs_floor_enter(), and the exec itself carrying the cookie, so that the
 * agent's own start is not a notification. hookshim run has threads by
 * now: the child runs async-signal-safe code only. */
#include "floor.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int hs_floor_spawn(const struct hs_floor_plan *p, pid_t *pid,
		   char *const cmd[], char *const envp[],
		   const sigset_t *sigdef, const sigset_t *mask)
{
	char exe[PATH_MAX];
	struct sigaction dfl;
	int err = hs_agent_find_exe(cmd[0], exe, NULL);

	if (err)
		return err;
	*pid = fork();
	if (*pid < 0)
		return errno;
	if (*pid > 0)
		return 0;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(sigdef, sig) == 1)
			sigaction(sig, &dfl, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* On failure the parent says why, and runs on without the floor
	 * in guard mode (the probe passed a moment ago: only a race gets
	 * here). Not where it is required or enforce mode was chosen
	 * (enforce is the floor deciding every call: the shim alone would
	 * be guard mode under enforce's name), nor when the agent could
	 * not enter its user namespace (the probe did a moment ago): it
	 * would run outside it, unread. */
	err = hs_floor_enter(p);
	if (err < 0 && (p->require || p->enforce || err == -EPIPE ||
			err <= -HS_FLOOR_USERNS_ERR))
		_exit(126);
	syscall(SYS_execve, exe, cmd, envp, 0, 0, (long)p->cookie);
	err = errno;
	exec_failed(cmd[0], err);
	_exit(err == ENOENT ? 127 : 126);
}
