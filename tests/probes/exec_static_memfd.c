/* An exec of a file that has no name: FILE copied into a memfd, which
 * is run with execveat(fd, "", ARGV, environ, AT_EMPTY_PATH) -- what
 * fexecve does, and what a program that unpacks a binary in memory does.
 * Static: no shim can load in it (tests/integration/floor_exec.sh).
 *   exec_static_memfd FILE ARGV0 [ARG...]
 *   exec_static_memfd --via PREFIX FILE ARGV0 [ARG...]
 *       the memfd moved to descriptor 900 (one the supervisor has not)
 *       and run by execve(PREFIX "900"): "/proc/self/fd/" and the like */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	const char *via = NULL;
	char buf[65536];
	ssize_t n;
	int in, fd;

	if (argc > 2 && strcmp(argv[1], "--via") == 0) {
		via = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s FILE ARGV0 [ARG...]\n", argv[0]);
		return 2;
	}
	in = open(argv[1], O_RDONLY | O_CLOEXEC);
	fd = memfd_create("payload", MFD_CLOEXEC);
	if (in < 0 || fd < 0) {
		perror("open/memfd_create");
		return 1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			perror("write");
			return 1;
		}
	if (via) {
		if (dup2(fd, 900) < 0) {
			perror("dup2");
			return 1;
		}
		snprintf(buf, sizeof(buf), "%s900", via);
		syscall(SYS_execve, buf, argv + 2, environ);
	} else {
		syscall(SYS_execveat, fd, "", argv + 2, environ, AT_EMPTY_PATH);
	}
	perror("execveat");
	return 126;
}
