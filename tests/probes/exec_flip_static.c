/* An exec of a name that is not there when the floor looks, and is when
 * the kernel walks it (tests/security/exec_flip.sh):
 *
 *   exec_flip_static name DIR TARGET N ARGV...
 *	a thread makes DIR/sh a symlink to TARGET and removes it again, over
 *	and over, while N fork children each make one raw execve of DIR/sh
 *	with ARGV;
 *   exec_flip_static fd DIR TARGET N ARGV...
 *	DIR/sh is a symlink to TARGET throughout; each of N fork children
 *	makes raw execveats of "sh" from descriptor 10, until one runs or
 *	is refused other than as a miss (a denial), while a thread of its
 *	own opens DIR at 10 and closes it, over and over.
 *
 * A supervisor that let the kernel walk such a name again after its own
 * look found nothing there runs ARGV unjudged whenever the name is there
 * by then. Prints "exec-flip: K ran" (children that did not end 127, the
 * failed exec's status). Static: no shim in it, the floor sees each
 * exec. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOT 10

static char name[4096], *dir, *target;
static volatile int stop;

static void *flip_name(void *unused)
{
	(void)unused;
	while (!stop) {
		if (symlink(target, name) != 0)
			break;
		unlink(name);
	}
	return NULL;
}

static void *flip_fd(void *unused)
{
	(void)unused;
	for (;;) {
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			return NULL;
		dup2(fd, SLOT);
		close(fd);
		close(SLOT);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	pthread_t t;
	int n, ran = 0, fd_mode;

	if (argc < 6)
		return 2;
	fd_mode = strcmp(argv[1], "fd") == 0;
	dir = argv[2];
	target = argv[3];
	n = atoi(argv[4]);
	snprintf(name, sizeof(name), "%s/sh", dir);
	if (fd_mode) {
		if (symlink(target, name) != 0)
			return 2;
	} else if (pthread_create(&t, NULL, flip_name, NULL) != 0) {
		return 2;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		int st;

		if (p == 0) {
			if (!fd_mode) {
				syscall(SYS_execve, name, argv + 5, env);
				_exit(127);
			}
			if (pthread_create(&t, NULL, flip_fd, NULL) != 0)
				_exit(126);
			/* until it runs, or an answer that is not a miss
			 * (a denial: judged) */
			for (int k = 0; k < 20000; k++)
				if (syscall(SYS_execveat, SLOT, "sh", argv + 5,
					    env, 0) < 0 &&
				    errno != EBADF && errno != ENOENT &&
				    errno != ENOTDIR)
					break;
			_exit(127);
		}
		if (p < 0 || waitpid(p, &st, 0) != p)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 127)
			ran++;
	}
	if (!fd_mode) {
		stop = 1;
		pthread_join(t, NULL);
	}
	printf("exec-flip: %d ran\n", ran);
	return 0;
}
