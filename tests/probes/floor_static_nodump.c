/* A static program that makes itself non-dumpable (prctl
 * PR_SET_DUMPABLE 0, as ssh-agent and gpg-agent do), then removes FILE
 * with a raw unlink: when hookshim does not run as root the supervisor
 * may not read such a process's memory, and its call is left to the
 * kernel (docs/limits.md, "The floor"; tests/security/nodump_limit.sh).
 * Prints "unlink=0" or "unlink=ERRNO".
 *   floor_static_nodump FILE
 * Or, non-dumpable too, creates REL through its own /proc/<pid>/cwd from
 * a second thread (a process may always go through its own /proc,
 * dumpable or not, whichever of its threads asks): prints "create=0" or
 * "create=ERRNO".
 *   floor_static_nodump --create-own REL */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static char own[4200];
static long created;

static void *create(void *arg)
{
	(void)arg;
	created = syscall(SYS_openat, AT_FDCWD, own,
			  O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (created < 0)
		created = -errno;
	return NULL;
}

int main(int argc, char **argv)
{
	long r;
	pthread_t t;

	if (argc != 2 && !(argc == 3 && strcmp(argv[1], "--create-own") == 0)) {
		fprintf(stderr, "usage: %s FILE | --create-own REL\n", argv[0]);
		return 2;
	}
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
		perror("prctl");
		return 1;
	}
	if (argc == 3) {
		snprintf(own, sizeof(own), "/proc/%d/cwd/%s", (int)getpid(),
			 argv[2]);
		if (pthread_create(&t, NULL, create, NULL) != 0)
			return 1;
		pthread_join(t, NULL);
		printf("create=%d\n", created >= 0 ? 0 : (int)-created);
		return 0;
	}
	r = syscall(SYS_unlink, argv[1]);
	printf("unlink=%d\n", r == 0 ? 0 : errno);
	return 0;
}
