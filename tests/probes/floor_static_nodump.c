/* A static program that makes itself non-dumpable (prctl
 * PR_SET_DUMPABLE 0, as ssh-agent and gpg-agent do), then removes FILE
 * with a raw unlink: when hookshim does not run as root the supervisor
 * may not read such a process's memory, and its call is left to the
 * kernel (docs/limits.md, "The floor"; tests/security/nodump_limit.sh).
 * Prints "unlink=0" or "unlink=ERRNO".
 *   floor_static_nodump FILE */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
		perror("prctl");
		return 1;
	}
	r = syscall(SYS_unlink, argv[1]);
	printf("unlink=%d\n", r == 0 ? 0 : errno);
	return 0;
}
