/* 16 threads x 200 fork+execve each, every exec a tool call that asks the
 * supervisor. Checks: it finishes (no deadlock between fork and the shim),
 * every child exits 0, no zombie is left, and no fd leaked into us.
 *
 * usage: exec_stress THREADS PER_THREAD PROG ARG0 ARG...
 * Prints "ok=N bad=N zombies=N fds_before=N fds_after=N". */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char **cmd;
static int per_thread;
static int ok, bad;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < per_thread; i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			execve(cmd[0], cmd + 1, environ);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&ok, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads, zombies = 0, before, after;
	pthread_t *t;

	if (argc < 5)
		return 2;
	nthreads = atoi(argv[1]);
	per_thread = atoi(argv[2]);
	cmd = argv + 3;
	t = calloc((size_t)nthreads, sizeof(*t));
	before = count_fds();
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		zombies++;
	after = count_fds();
	printf("ok=%d bad=%d zombies=%d fds_before=%d fds_after=%d\n", ok, bad,
	       zombies, before, after);
	free(t);
	return bad || zombies || before != after;
}
