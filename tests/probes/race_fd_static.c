/* A decoy through another process's descriptor (tests/security/
 * floor_pathop_race.sh): race_fd_static DECOY PROTECTED N.
 *
 * A child holds descriptor 10 and swaps it, with dup2, between a
 * read-only descriptor of DECOY and one of PROTECTED; the parent opens
 * /proc/<child>/fd/10 for writing N times and writes "x" through each
 * descriptor it gets. The kernel reopens the file the child's descriptor
 * is at the moment of its own walk, so a supervisor that judged the
 * decoy and let the kernel reopen the name lands some of those writes in
 * PROTECTED. Prints "race-fd: K opened". Static: no shim loads in it,
 * the floor sees every call. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOT 10

int main(int argc, char **argv)
{
	int decoy, prot, n, ok = 0;
	char link[64];
	pid_t child;

	if (argc != 4)
		return 2;
	n = atoi(argv[3]);
	decoy = open(argv[1], O_RDONLY | O_CLOEXEC);
	prot = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (decoy < 0 || prot < 0 || dup2(decoy, SLOT) != SLOT)
		return 2;
	child = fork();
	if (child < 0)
		return 2;
	if (child == 0) {
		for (;;) {
			(void)dup2(prot, SLOT);
			(void)dup2(decoy, SLOT);
		}
	}
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)child, SLOT);
	for (int k = 0; k < n; k++) {
		int fd = open(link, O_WRONLY | O_APPEND);

		if (fd >= 0) {
			ok++;
			if (write(fd, "x", 1) != 1)
				return 2;
			close(fd);
		}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("race-fd: %d opened\n", ok);
	return 0;
}
