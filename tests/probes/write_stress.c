/* 8 threads x 1000 writes (open/write/close, fopen/fclose, rename) while
 * the main thread forks children that write too. Run under hookshim with
 * a hook matching hot/: every hot write must be decided exactly once, no
 * deadlock, no descriptor leak. Prints "fds BEFORE AFTER". */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 8
#define WRITES 1000

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void *worker(void *arg)
{
	long t = (long)arg;
	char path[64], tmp[96];

	for (int i = 0; i < WRITES; i++) {
		/* one write in ten is hot; the kind of call rotates */
		const char *dir = i % 10 == 0 ? "hot" : "cold";

		snprintf(path, sizeof(path), "%s/t%ld-%d", dir, t, i);
		switch (i % 3) {
		case 0: {
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || write(fd, "x\n", 2) != 2 || close(fd) < 0)
				perror(path), exit(1);
			break;
		}
		case 1: {
			FILE *f = fopen(path, "w");

			if (!f || fputs("y\n", f) < 0 || fclose(f) != 0)
				perror(path), exit(1);
			break;
		}
		default: { /* atomic save: temp then rename */
			int fd;

			snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, i);
			fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0 || write(fd, "z\n", 2) != 2 || close(fd) < 0 ||
			    rename(tmp, path) < 0)
				perror(tmp), exit(1);
		}
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t th[THREADS];
	int before = count_fds();
	int forks = 0;

	for (long t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	/* forks in the middle of everything: the child writes one hot file
	 * with stdio and exits through exit() */
	for (int i = 0; i < 20; i++) {
		pid_t p = fork();

		if (p == 0) {
			char path[64];
			FILE *f;

			snprintf(path, sizeof(path), "hot/fork-%d", i);
			f = fopen(path, "w");
			if (!f)
				_exit(1);
			fputs("f\n", f);
			fclose(f);
			exit(0);
		}
		if (p > 0)
			forks++;
		usleep(2000);
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (int i = 0; i < forks; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return 1;
	}
	printf("fds %d %d\n", before, count_fds());
	return 0;
}
