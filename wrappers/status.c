/* Exiting the way a supervised child did. */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "cli.h"

int hs_exit_as(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct rlimit no_core = { 0, 0 };
		sigset_t set;

		/* Report the child's death the way a shell would have seen
		 * it; the core, if any, was the child's to dump, not ours. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		return 128 + sig;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
