/* An exec whose argument vector holds a pointer no one can read: the
 * kernel fails it with EFAULT, and so must the floor, which cannot read
 * it either -- said, not silent (tests/integration/floor_exec.sh).
 * Static: no shim can load in it. Prints "execve=ERRNO".
 *   exec_static_badargv PROG */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *args[] = { argv[1], (char *)8, NULL };

	if (argc != 2) {
		fprintf(stderr, "usage: %s PROG\n", argv[0]);
		return 2;
	}
	syscall(SYS_execve, argv[1], args, environ);
	printf("execve=%d\n", errno);
	return 0;
}
