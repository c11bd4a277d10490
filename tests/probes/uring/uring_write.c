/* Writes files through io_uring with liburing, the way real programs do:
 * a ring, IORING_OP_OPENAT then IORING_OP_WRITE, and plain open(2) +
 * write(2) when the ring cannot be set up (ENOSYS, EPERM: kernels and
 * sandboxes without io_uring). Built by tests/integration/floor_uring.sh
 * (dynamic and static), not by the Makefile: it needs liburing-dev.
 *
 *   uring_write PATH:CONTENT...
 *
 * One line per file on stdout: "PATH: ring ok", "PATH: ring ERRNO",
 * "PATH: syscalls ok" or "PATH: syscalls ERRNO" (which path wrote it). */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errname.h"

/* One request on the ring, waited for: its result (-errno on failure). */
static int ring_run(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int r = io_uring_submit(ring);

	if (r < 0)
		return r;
	r = io_uring_wait_cqe(ring, &cqe);
	if (r < 0)
		return r;
	r = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return r;
}

static int ring_write(struct io_uring *ring, const char *path, const char *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	int fd, r;

	io_uring_prep_openat(sqe, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC,
			     0644);
	fd = ring_run(ring);
	if (fd < 0)
		return -fd;
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_write(sqe, fd, s, strlen(s), 0);
	r = ring_run(ring);
	close(fd);
	if (r < 0)
		return -r;
	return (size_t)r == strlen(s) ? 0 : EIO;
}

static int plain_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	if (close(fd) < 0 || n != (ssize_t)strlen(s))
		return n < 0 ? errno : EIO;
	return 0;
}

int main(int argc, char **argv)
{
	struct io_uring ring;
	int have_ring = io_uring_queue_init(4, &ring, 0) == 0;

	for (int i = 1; i < argc; i++) {
		char path[4096];
		const char *colon = strchr(argv[i], ':');
		const char *s = colon ? colon + 1 : "";
		size_t n = colon ? (size_t)(colon - argv[i]) : strlen(argv[i]);

		if (n >= sizeof path)
			return 2;
		memcpy(path, argv[i], n);
		path[n] = 0;
		if (have_ring)
			printf("%s: ring %s\n", path,
			       errname(ring_write(&ring, path, s)));
		else
			printf("%s: syscalls %s\n", path,
			       errname(plain_write(path, s)));
	}
	if (have_ring)
		io_uring_queue_exit(&ring);
	return 0;
}
