/* An orphan that keeps moving (tests/security/hook_wedge.sh):
 * orphan_mover_static SECONDS USLEEP LOCKFILE forks its successor and ends,
 * every USLEEP microseconds, for SECONDS; each generation is a new pid,
 * and an orphan of whoever takes them. All hold a shared flock of
 * LOCKFILE, by which a test sees whether one is left (its pid moves too
 * fast to be found by a look through /proc). A kill that lists the session's processes and
 * then kills each by its pid finds this one gone from its pid, and its
 * successor never listed. Static: its fork is quick. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t;
	time_t end;
	int us, fd;

	if (argc != 4)
		return 2;
	if ((fd = open(argv[3], O_RDONLY)) < 0 || flock(fd, LOCK_SH) < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t);
	end = t.tv_sec + atoi(argv[1]);
	us = atoi(argv[2]);
	for (;;) {
		pid_t p;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec >= end)
			_exit(0);
		usleep((useconds_t)us);
		if ((p = fork()) > 0)
			_exit(0);
		if (p < 0)
			usleep(1000);
	}
}
