/* notify_bare CMD [ARG...]: CMD under the floor's own BPF program as
 * enforce mode builds it for a policy with a hook on commands and one on
 * writes (floor/floor_bpf.c: every write-class syscall and exec
 * notified, no cookie), answered by a listener that continues each call
 * at once, reading nothing. No hookshim: the price of seccomp user
 * notification itself on the same work -- the kernel's part of enforce
 * mode, which no supervisor, however fast, gets below.
 * bench/modes_bench.sh runs it as the "bare" column.
 *
 * The filter is installed in this process (with no_new_privs) before CMD
 * is started: the receiver thread makes no notified call, and CMD's exec
 * is the first notification. Exits as CMD does. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../floor/floor.h"

static int lfd = -1;

/* RECV, then CONTINUE: the floor's receive loop with nothing between. */
static void *answer_all(void *arg)
{
	struct seccomp_notif_sizes sizes = { 0 };
	struct seccomp_notif *n;
	struct seccomp_notif_resp r;
	size_t size = sizeof(*n);

	(void)arg;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0 &&
	    sizes.seccomp_notif > size)
		size = sizes.seccomp_notif;
	if (!(n = malloc(size))) {
		close(lfd); /* notified calls fail (ENOSYS), none waits */
		return NULL;
	}
	for (;;) {
		memset(n, 0, size);
		if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_RECV, n) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			break;
		}
		memset(&r, 0, sizeof(r));
		r.id = n->id;
		r.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, &r);
	}
	close(lfd); /* as above: the rest fail, none waits for good */
	free(n);
	return NULL;
}

int main(int argc, char **argv)
{
	struct hs_floor_plan p;
	struct sock_fprog prog;
	pthread_t rx;
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: notify_bare CMD [ARG...]\n");
		return 2;
	}
	memset(&p, 0, sizeof(p));
	p.what = HS_FLOOR_WRITES | HS_FLOOR_EXECS;
	p.enforce = true;
	if (hs_floor_bpf(&p, false, 0) < 0) {
		fprintf(stderr, "notify_bare: no BPF program\n");
		return 1;
	}
	prog.len = p.len;
	prog.filter = p.code;
	/* the floor's flags, without killable waits where the kernel
	 * predates them (5.19), as the floor falls back too */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    ((lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				 SECCOMP_FILTER_FLAG_NEW_LISTENER |
					 SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
				 &prog)) < 0 &&
	     (errno != EINVAL ||
	      (lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog)) <
		      0))) {
		perror("notify_bare: seccomp");
		return 1;
	}
	(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
	if (pthread_create(&rx, NULL, answer_all, NULL) != 0) {
		fprintf(stderr, "notify_bare: no receiver thread\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(lfd); /* its exec is answered by our receiver alone */
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0) {
		perror("notify_bare: fork");
		return 1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
