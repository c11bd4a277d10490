/* bench_spawnloop [N [PATH [ARG...]]]: fork+execve PATH ARG... (default
 * /bin/true) N times (default 2000), waiting for each; for
 * bench/exec_bench.sh. Exits non-zero if any child failed, so a benchmark
 * never times a broken loop. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	char *deflt[] = { "/bin/true", NULL };
	char **cargv = argc > 2 ? argv + 2 : deflt;
	char *path = cargv[0];

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execve(path, cargv, environ);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "bench_spawnloop: child %ld failed\n", i);
			return 1;
		}
	}
	return 0;
}
