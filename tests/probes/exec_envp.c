/* exec with an explicit environment that lacks LD_PRELOAD and every
 * HOOKSHIM_* variable (or carries forged ones): the shim must put its own
 * back. usage: exec_envp PROG ARG0 ARG... ; the child gets only FOO=1
 * plus any "NAME=value" listed in $EXEC_ENVP_EXTRA (space-separated). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *env[32] = { "FOO=1" };
	char *extra = getenv("EXEC_ENVP_EXTRA");
	int n = 1, status;
	pid_t pid;

	if (argc < 3)
		return 2;
	if (extra)
		for (char *t = strtok(strdup(extra), " "); t && n < 31;
		     t = strtok(NULL, " "))
			env[n++] = t;
	env[n] = NULL;
	pid = fork();
	if (pid == 0) {
		execve(argv[1], argv + 2, env);
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 99;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
