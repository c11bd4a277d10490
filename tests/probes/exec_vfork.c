/* Bun-style spawn: vfork, then in the child (sharing the parent's memory,
 * signals blocked) write to parent memory and call libc execve. The shim
 * decides inside the vfork child, so its work there must be AS-safe and
 * must leave the parent's state (the re-entry guard, errno) intact.
 *
 * usage: exec_vfork N PROG ARG0 ARG...
 * Runs the command N times; prints "shared=K" (how many children wrote to
 * shared memory) and exits with the last child's status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile int shared_writes;
static volatile int child_errno;

/* One spawn; a function of its own so no caller variable lives across
 * vfork in a register. */
static __attribute__((noinline)) pid_t spawn(char **argv)
{
	sigset_t all, old;
	pid_t pid;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = vfork();
	if (pid == 0) {
		shared_writes++; /* parent memory, as Bun does */
		sigprocmask(SIG_SETMASK, &old, NULL);
		execve(argv[0], argv + 1, environ);
		child_errno = errno;
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

int main(int argc, char **argv)
{
	int n, status = 0;

	if (argc < 4)
		return 2;
	n = atoi(argv[1]);
	for (int i = 0; i < n; i++) {
		pid_t pid = spawn(argv + 2);

		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return 99;
	}
	printf("shared=%d errno=%d\n", shared_writes, child_errno);
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
