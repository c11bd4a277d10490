/* The shim's reader of the supervisor's reply (shim/client.c's
 * read_reply, static, so the file is included whole): it fills fixed
 * buffers inside other people's processes, so every length on the wire
 * must be clipped to them. The bytes arrive through a pipe.
 *
 * The reply must leave its strings NUL-terminated within their buffers,
 * and a deny exit or errno only as the wire says. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/client.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hs_reply rep;
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		abort();
	if (size > 65536 && fcntl(p[1], F_SETPIPE_SZ, (int)size) < (int)size) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (size && hs_write_full(p[1], data, size) < 0)
		abort();
	close(p[1]);
	/* What hs_ask sets before it reads (the rest is whatever the
	 * stack held: 'A's here, so a missing NUL shows). */
	memset(&rep, 'A', sizeof(rep));
	memset(&rep, 0, offsetof(struct hs_reply, reason));
	rep.reason[0] = rep.context[0] = rep.id[0] = rep.updated[0] = '\0';
	rep.deny_exit = 126;
	rep.deny_errno = 13;
	if (read_reply(p[0], &rep) < 0) {
		close(p[0]);
		return 0; /* ask() clears every string then */
	}
	close(p[0]);
	if (!memchr(rep.reason, '\0', sizeof(rep.reason)) ||
	    !memchr(rep.context, '\0', sizeof(rep.context)) ||
	    !memchr(rep.id, '\0', sizeof(rep.id)) ||
	    !memchr(rep.updated, '\0', sizeof(rep.updated)) ||
	    rep.deny_exit < 0 || rep.deny_errno <= 0)
		abort();
	return 0;
}
