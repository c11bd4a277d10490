/* A parent that bypasses libc: fork, then syscall(SYS_execve) in the
 * child, so no shim sees the exec. The dynamic child must decide for
 * itself in its constructor. Built twice: dynamic, and static as
 * exec_static_rawexec (a Go-like parent no shim can load in).
 *
 * usage: exec_rawsyscall [-i] PROG ARG0 ARG...  (-i: no fork) */
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int status, inplace = argc > 1 && strcmp(argv[1], "-i") == 0;
	pid_t pid;

	argv += inplace;
	argc -= inplace;
	if (argc < 3)
		return 2;
	if (inplace) {
		syscall(SYS_execve, argv[1], argv + 2, environ);
		return 99;
	}
	pid = (pid_t)syscall(SYS_fork);
	if (pid == 0) {
		syscall(SYS_execve, argv[1], argv + 2, environ);
		syscall(SYS_exit, 127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 99;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
