/* An exec whose arguments the kernel refuses, and so must the floor,
 * which reads them first -- with the kernel's errno, said, not silent
 * (tests/integration/floor_exec.sh). Static: no shim can load in it.
 * Prints "execve=ERRNO".
 *   exec_static_badargv PROG          argv holds a pointer no one can
 *                                     read: EFAULT
 *   exec_static_badargv PROG long N   one argument of N bytes (and its
 *                                     NUL): E2BIG past 131,071 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *args[] = { argv[1], (char *)8, NULL };

	if (argc == 4 && strcmp(argv[2], "long") == 0) {
		size_t n = strtoul(argv[3], NULL, 10);

		if (!(args[1] = malloc(n + 1)))
			return 1;
		memset(args[1], 'a', n);
		args[1][n] = '\0';
	} else if (argc != 2) {
		fprintf(stderr, "usage: %s PROG [long N]\n", argv[0]);
		return 2;
	}
	syscall(SYS_execve, argv[1], args, environ);
	printf("execve=%d\n", errno);
	return 0;
}
