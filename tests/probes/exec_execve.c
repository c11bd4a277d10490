/* Probe for one interposed exec-family symbol; this file is the execve
 * probe and the shared driver the other exec_*.c probes include after
 * defining PROBE_EXEC / PROBE_SPAWN / PROBE_SYSTEM / PROBE_POPEN.
 *
 * usage: PROBE [-i] PROG ARG0 ARG...   (system/popen: PROBE CMDSTRING)
 *   default: fork; the child makes the call; the parent waits and exits
 *   with the child's status (like a shell running a command).
 *   -i: make the call in this very process (the agent's own exec).
 * If the call fails, prints "probe: errno=N" on stderr and exits 99. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#if !defined(PROBE_EXEC) && !defined(PROBE_SPAWN) && \
	!defined(PROBE_SYSTEM) && !defined(PROBE_POPEN)
#define PROBE_EXEC(prog, argv) execve(prog, argv, environ)
#endif

/* the l-variants need literal argument lists */
#define PROBE_L(fn, prog, argv, ...)                                          \
	(argv[1] == NULL ? fn(prog, argv[0], (char *)NULL, ##__VA_ARGS__) :  \
	 argv[2] == NULL ? fn(prog, argv[0], argv[1], (char *)NULL,          \
			      ##__VA_ARGS__) :                               \
	 argv[3] == NULL ? fn(prog, argv[0], argv[1], argv[2], (char *)NULL, \
			      ##__VA_ARGS__) :                               \
			   fn(prog, argv[0], argv[1], argv[2], argv[3],      \
			      (char *)NULL, ##__VA_ARGS__))

static int exit_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int fail(void)
{
	fprintf(stderr, "probe: errno=%d\n", errno);
	return 99;
}

int main(int argc, char **argv)
{
	int inplace = 0, status;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "-i") == 0) {
		inplace = 1;
		argv++, argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s [-i] PROG ARG0 ARG...\n", argv[0]);
		return 2;
	}
	(void)inplace;
	(void)pid;
	(void)status;
#if defined(PROBE_EXEC)
	if (inplace) {
		PROBE_EXEC(argv[1], (argv + 2));
		return fail();
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		PROBE_EXEC(argv[1], (argv + 2));
		_exit(fail());
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return fail();
	return exit_of(status);
#elif defined(PROBE_SPAWN)
	errno = PROBE_SPAWN(&pid, argv[1], NULL, NULL, argv + 2, environ);
	if (errno)
		return fail();
	if (waitpid(pid, &status, 0) < 0)
		return fail();
	return exit_of(status);
#elif defined(PROBE_SYSTEM)
	status = system(argv[1]);
	if (status == -1)
		return fail();
	return exit_of(status);
#elif defined(PROBE_POPEN)
	{
		char buf[4096];
		size_t n;
		FILE *f = popen(argv[1], "r");

		if (!f)
			return fail();
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
		fflush(stdout);
		status = pclose(f);
		if (status == -1)
			return fail();
		return exit_of(status);
	}
#endif
}
