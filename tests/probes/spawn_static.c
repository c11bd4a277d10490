/* A static "agent" that starts its commands as Rust's and Go's standard
 * libraries do: fork, the child's stdout and stderr on one pipe, and a
 * close-on-exec pipe on which a child whose exec failed sends its errno
 * -- so a spawn either fails (nothing of what the child wrote is read) or
 * succeeds and its output is read to the end. For each argument:
 *   CMD          runs `sh -c CMD` ($SPAWN_SHELL, /bin/sh by default) in
 *                a fork child: "spawn: failed: ERRNO" or "out: OUTPUT" and
 *                "status: exit N" / "status: signal N"
 *   thread:CMD   the same from a child that starts a thread first (a
 *                process of two threads makes the exec)
 *   env:CMD      the child runs `env SHELL -c CMD` ($SPAWN_ENV,
 *                /usr/bin/env by default): another program makes the
 *                shell's exec, in place
 *   exec:CMD     exec `sh -c CMD` in place: "exec: failed: ERRNO" when it
 *                returns
 * Output is on stdout, one line each, with newlines of OUTPUT as "|". */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *shell(void)
{
	const char *s = getenv("SPAWN_SHELL");

	return s && *s ? s : "/bin/sh";
}

static void *idle(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static void spawn(const char *cmd, int threaded, int via_env)
{
	int out[2], err[2], e = 0, status;
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(out) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		perror("pipe");
		exit(1);
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		if (threaded)
			pthread_create(&t, NULL, idle, NULL);
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		close(err[0]);
		if (via_env) {
			const char *env = getenv("SPAWN_ENV");

			execl(env && *env ? env : "/usr/bin/env", "env", shell(),
			      "-c", cmd, (char *)NULL);
		} else {
			execl(shell(), "sh", "-c", cmd, (char *)NULL);
		}
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	n = read(err[0], &e, sizeof(e));
	close(err[0]);
	if (n == (ssize_t)sizeof(e)) {
		/* the spawn failed: what the child wrote is dropped */
		close(out[0]);
		waitpid(pid, &status, 0);
		printf("spawn: failed: %s\n", strerror(e));
		return;
	}
	while (len < sizeof(buf) - 1 &&
	       (n = read(out[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(out[0]);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n')
			buf[i] = '|';
	waitpid(pid, &status, 0);
	printf("out: %s\n", buf);
	if (WIFSIGNALED(status))
		printf("status: signal %d\n", WTERMSIG(status));
	else
		printf("status: exit %d\n", WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "exec:", 5) == 0) {
			fflush(stdout);
			execl(shell(), "sh", "-c", argv[i] + 5, (char *)NULL);
			printf("exec: failed: %s\n", strerror(errno));
		} else if (strncmp(argv[i], "thread:", 7) == 0) {
			spawn(argv[i] + 7, 1, 0);
		} else if (strncmp(argv[i], "env:", 4) == 0) {
			spawn(argv[i] + 4, 0, 1);
		} else {
			spawn(argv[i], 0, 0);
		}
	}
	fflush(stdout);
	return 0;
}
