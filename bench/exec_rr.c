/* exec_rr: what loading into a new process costs, variant against variant,
 * interleaved exec by exec.
 *
 * Usage: exec_rr N VARIANT...
 * Each VARIANT is "-" or NAME=VALUE assignments separated by the ASCII
 * unit separator (\037; values may hold spaces and newlines, as the
 * shim's write filter does), added to this program's environment. The driver forks and execs /bin/true N
 * times per variant, taking the variants in turn, and prints per variant
 * the mean and median time from fork to reaped exit, and the mean's ratio
 * to the first variant's.
 *
 * A loop of execs per variant, run one after another, is at the mercy of
 * the machine's drift (5-10% between runs on a shared VM); here each exec
 * of one variant has one of every other next to it, so drift cancels and
 * differences of half a percent show. Only the new image's side is
 * measured: the driver itself runs without the shim. A variant that sets
 * HOOKSHIM_CHECKED gets the marker a parent under the shim would give
 * its child ("exec:<pid>", shim/init.c), so that the child's constructor
 * takes the path it takes in a session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/wire.h"

extern char **environ;

enum { MAX_VARIANTS = 8, MAX_ADDED = 32 };

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* environ plus the variant's assignments, NULL-terminated. */
static char **variant_env(char *spec)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + MAX_ADDED + 1, sizeof(*env));
	if (!env)
		return NULL;
	memcpy(env, environ, n * sizeof(*env));
	if (strcmp(spec, "-") == 0)
		return env;
	for (char *t = strtok(spec, "\037"); t && k < MAX_ADDED;
	     t = strtok(NULL, "\037"), k++)
		env[n + k] = t;
	return env;
}

/* In the child: the marker of a parent that checked this exec. */
static void mark_checked(char **env)
{
	static char marker[64];

	for (char **e = env; *e; e++) {
		if (strncmp(*e, HS_ENV_CHECKED "=",
			    sizeof(HS_ENV_CHECKED)) == 0) {
			snprintf(marker, sizeof(marker),
				 HS_ENV_CHECKED "=exec:%ld", (long)getpid());
			*e = marker;
		}
	}
}

static double one_exec(char **env)
{
	char *argv[] = { "/bin/true", NULL };
	double t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("exec_rr: fork");
		exit(1);
	}
	if (pid == 0) {
		mark_checked(env);
		execve(argv[0], argv, env);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "exec_rr: /bin/true failed\n");
		exit(1);
	}
	return now_us() - t0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, nv = argc - 2;
	char **envs[MAX_VARIANTS];
	double *t, base = 0;

	if (n <= 0 || nv < 1 || nv > MAX_VARIANTS) {
		fprintf(stderr, "usage: exec_rr N VARIANT... (1 to %d)\n",
			MAX_VARIANTS);
		return 2;
	}
	t = calloc((size_t)nv * (size_t)n, sizeof(*t));
	for (int v = 0; v < nv; v++)
		if (!(envs[v] = variant_env(argv[v + 2])) || !t)
			return 1;
	for (int i = 0; i < n; i++)
		for (int v = 0; v < nv; v++)
			t[(size_t)v * n + i] = one_exec(envs[v]);
	for (int v = 0; v < nv; v++) {
		double *tv = t + (size_t)v * n, sum = 0;

		for (int i = 0; i < n; i++)
			sum += tv[i];
		qsort(tv, (size_t)n, sizeof(*tv), by_value);
		if (v == 0)
			base = sum / n;
		printf("%d %.1f %.1f %.4f\n", v, sum / n, tv[n / 2],
		       sum / n / base);
	}
	return 0;
}
