/* Starting the agent under the floor: posix_spawnp cannot run code
 * between its fork and its exec, and the filter has to be installed
 * there. So: fork, the signal state posix_spawnattr would have set,
 * hs_floor_enter(), and the exec itself carrying the cookie (so the
 * agent's own start is not a notification). hookshim run has threads by
 * now: the child runs async-signal-safe code only. */
#include "floor.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void put(const char *s)
{
	if (write(2, s, strlen(s)) < 0) {
		/* nowhere else to say it */
	}
}

pid_t hs_floor_spawn(const struct hs_floor_plan *p, const char *path,
		     char *const argv[], char *const envp[],
		     const sigset_t *sigdef, const sigset_t *mask)
{
	pid_t pid = fork();
	struct sigaction dfl;
	int e;

	if (pid != 0)
		return pid; /* the parent, or -1 */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(sigdef, sig) == 1)
			sigaction(sig, &dfl, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	/* On failure the parent says why, and runs on without the floor
	 * (the probe passed a moment ago: only a race gets here). */
	if (hs_floor_enter(p) < 0 && p->require)
		_exit(126);
	syscall(SYS_execve, path, argv, envp, 0, 0, (long)p->cookie);
	e = errno;
	put("hookshim: ");
	put(argv[0]);
	put(e == ENOENT ? ": No such file or directory\n"
	    : e == EACCES ? ": Permission denied\n"
			  : ": cannot execute\n");
	_exit(e == ENOENT ? 127 : 126);
}
