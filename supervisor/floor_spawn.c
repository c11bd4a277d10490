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

#include "agent.h"

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
	 * unless it is required (the probe passed a moment ago: only a
	 * race gets here). */
	if (hs_floor_enter(p) < 0 && p->require)
		_exit(126);
	syscall(SYS_execve, exe, cmd, envp, 0, 0, (long)p->cookie);
	_exit(errno == ENOENT ? 127 : 126);
}
