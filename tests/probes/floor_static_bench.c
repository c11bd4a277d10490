/* The floor's cost from a static binary: N files created, written and
 * closed in DIR (each open a write-class syscall the floor is told of),
 * timed one by one. With a third argument "read", the N files (made
 * before) are opened for reading, read and closed instead: what Claude
 * Code's Bun does for its own reads, which the floor is told of when a
 * Read hook exists. Prints "total_ms=T median_open_us=M". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 5000;
	int rd = argc > 3 && strcmp(argv[3], "read") == 0;
	double *lat = malloc(sizeof(double) * (size_t)n), t0 = now_us();
	char p[4096];

	if (argc < 2 || !lat)
		return 2;
	for (int i = 0; i < n; i++) {
		double a;
		int fd;

		snprintf(p, sizeof(p), "%s/f%d", argv[1], i);
		a = now_us();
		fd = rd ? open(p, O_RDONLY) : open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		lat[i] = now_us() - a;
		if (fd < 0 || (rd ? read(fd, p, sizeof(p)) : write(fd, "x\n", 2)) != 2)
			return 1;
		close(fd);
	}
	t0 = now_us() - t0;
	qsort(lat, (size_t)n, sizeof(double), cmp);
	printf("total_ms=%.1f median_open_us=%.1f\n", t0 / 1e3, lat[n / 2]);
	return 0;
}
