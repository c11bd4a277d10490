/* libuv >= 1.51 looks a command up by calling posix_spawn once per PATH
 * entry until the result is not ENOENT. Only the candidate that exists
 * may fire an event.
 *
 * usage: exec_uvpath FILE ARG0 ARG...   (searches $PATH like libuv) */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *path, *dir, buf[4096];
	int r = ENOENT, status, tries = 0;
	pid_t pid;

	if (argc < 3)
		return 2;
	path = strdup(getenv("PATH"));
	for (dir = strtok(path, ":"); dir; dir = strtok(NULL, ":")) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, argv[1]);
		tries++;
		r = posix_spawn(&pid, buf, NULL, NULL, argv + 2, environ);
		if (r != ENOENT)
			break;
	}
	fprintf(stderr, "uvpath: tries=%d r=%d\n", tries, r);
	free(path);
	if (r)
		return 99;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
