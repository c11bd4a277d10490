/* Writes that neither die of SIGPIPE nor wait on their reader: for a
 * process that writes to descriptors others hold the other end of (a
 * hook's stdin, a caller's stderr). SIGPIPE from a write goes to the
 * writing thread: it is blocked around the write and, after an EPIPE,
 * taken from that thread's pending set -- unless it was pending already
 * (someone else's, not ours to consume). The process-wide disposition,
 * which other threads and children rely on, is not touched. */
#ifndef HOOKSHIM_ENGINE_NOPIPE_H
#define HOOKSHIM_ENGINE_NOPIPE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct hs_nopipe {
	sigset_t old;
	bool was_pending;
};

void hs_nopipe_begin(struct hs_nopipe *s);
void hs_nopipe_end(const struct hs_nopipe *s, bool got_epipe);

/* n bytes of buf to fd at once, or nothing: never waiting on the
 * reader (a pipe or socket no one reads, whose buffer is full, gets
 * nothing -- EAGAIN; a terminal's through a description of our own,
 * non-blocking), never raising SIGPIPE. A regular file is written as
 * write(2) would. The bytes written, or -1 with errno. */
ssize_t hs_nopipe_write(int fd, const void *buf, size_t n);

#endif
