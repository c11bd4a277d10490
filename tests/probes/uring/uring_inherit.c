/* A ring made outside a session, used inside it: the way past a floor
 * that refuses io_uring_setup (session 38's attack run). Built by
 * tests/integration/floor_uring.sh (static), not by the Makefile.
 *
 *   uring_inherit launch CMD...       a ring on descriptor 9, its
 *                                     parameters in RINGP; exec CMD
 *   uring_inherit use PATH:CONTENT    in CMD: open and write PATH through
 *                                     that ring
 *
 * `use` prints one line: "ring: closed" (no ring on descriptor 9),
 * "ring: ok", "ring: open ERRNO" or "ring: write ERRNO". (The other ways
 * in are the kernel's to refuse: a ring is never passed by SCM_RIGHTS --
 * EINVAL -- and a polled ring's kernel thread ends with the exec of the
 * process that made it: EOWNERDEAD.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errname.h"

static void put_params(const struct io_uring_params *p)
{
	char hex[2 * sizeof(*p) + 1];

	for (size_t i = 0; i < sizeof(*p); i++)
		sprintf(hex + 2 * i, "%02x", ((const unsigned char *)p)[i]);
	setenv("RINGP", hex, 1);
}

/* One request: submitted, its answer waited for. */
static int run(struct io_uring *ring)
{
	struct io_uring_cqe *cqe = NULL;
	int r;

	if ((r = io_uring_submit(ring)) < 0)
		return r;
	if ((r = io_uring_wait_cqe(ring, &cqe)) < 0)
		return r;
	r = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return r;
}

static int use(const char *arg)
{
	struct io_uring_params p;
	struct io_uring ring;
	const char *h = getenv("RINGP"), *colon = strrchr(arg, ':');
	char path[4096];
	struct io_uring_sqe *s;
	int fd = 9, r;

	if (!h || !colon || strlen(h) != 2 * sizeof(p))
		return 2;
	for (size_t i = 0; i < sizeof(p); i++)
		sscanf(h + 2 * i, "%2hhx", &((unsigned char *)&p)[i]);
	snprintf(path, sizeof(path), "%.*s", (int)(colon - arg), arg);
	if (fcntl(fd, F_GETFD) < 0 || io_uring_queue_mmap(fd, &p, &ring))
		return printf("ring: closed\n"), 1;
	s = io_uring_get_sqe(&ring);
	io_uring_prep_openat(s, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC,
			     0644);
	if ((r = run(&ring)) < 0)
		return printf("ring: open %s\n", errname(-r)), 1;
	fd = r;
	s = io_uring_get_sqe(&ring);
	io_uring_prep_write(s, fd, colon + 1, (unsigned)strlen(colon + 1), 0);
	if ((r = run(&ring)) < 0)
		return printf("ring: write %s\n", errname(-r)), 1;
	printf("ring: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct io_uring_params p;
	struct io_uring ring;

	if (argc >= 3 && strcmp(argv[1], "use") == 0)
		return use(argv[2]);
	if (argc < 3 || strcmp(argv[1], "launch") != 0)
		return 2;
	memset(&p, 0, sizeof(p));
	if (io_uring_queue_init_params(8, &ring, &p))
		return printf("ring: setup failed\n"), 2;
	put_params(&p);
	dup2(ring.ring_fd, 9);
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
