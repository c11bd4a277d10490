/* The supervisor's wire decoder (supervisor/message.c): hs_msg_read, what
 * every intercepted process sends, and hs_answer_read, what the hookshim
 * binary's own clients read back. The bytes arrive through a pipe, as they
 * would through the session socket. A request that decodes is encoded
 * again (hs_msg_write) and must decode to the same fields.
 *
 * Input: a byte (bit 0: an answer, else a request), then the stream. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/message.h"

/* A pipe holding exactly `data`, then EOF; -1 when it does not fit. */
static int feed(const uint8_t *data, size_t size)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		abort();
	if (size > 65536 &&
	    fcntl(p[1], F_SETPIPE_SZ, (int)size) < (int)size) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (size && hs_write_full(p[1], data, size) < 0)
		abort();
	close(p[1]);
	return p[0];
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Encoding then decoding keeps every field the decoder filled. */
static void roundtrip(const struct hs_msg *m)
{
	const char *base = (const char *)m;
	struct hs_msg back;
	int p[2];

	/* hs_msg_write sends strings with strlen: a STR field holding a
	 * NUL cannot go out whole, so only check messages without. */
	if (pipe2(p, O_CLOEXEC) < 0)
		abort();
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	if (hs_msg_write(p[1], m) < 0) {
		close(p[0]);
		close(p[1]);
		return; /* larger than the pipe: not checked */
	}
	close(p[1]);
	if (hs_msg_read(p[0], &back) < 0) {
		fprintf(stderr, "a written request does not read back\n");
		abort();
	}
	close(p[0]);
	for (unsigned i = 0; i < hs_request_nfields; i++) {
		const struct hs_field_desc *d = &hs_request_fields[i];
		const char *bb = (const char *)&back;
		bool ok = true;

		switch (d->kind) {
		case HS_KIND_STR:
			ok = same_str(*(const char *const *)(base + d->off),
				      *(const char *const *)(bb + d->off));
			break;
		case HS_KIND_BYTES: {
			const char *x = *(const char *const *)(base + d->off);
			const char *y = *(const char *const *)(bb + d->off);
			size_t xl = *(const size_t *)(base + d->aux);
			size_t yl = *(const size_t *)(bb + d->aux);

			ok = (!x && !y) ||
			     (x && y && xl == yl && memcmp(x, y, xl) == 0);
			break;
		}
		case HS_KIND_ARGV: {
			char *const *x = *(char *const *const *)(base + d->off);
			char *const *y = *(char *const *const *)(bb + d->off);
			size_t xn = *(const size_t *)(base + d->aux);

			ok = xn == *(const size_t *)(bb + d->aux);
			for (size_t k = 0; ok && k < xn; k++)
				ok = strcmp(x[k], y[k]) == 0;
			break;
		}
		case HS_KIND_TRI:
			ok = *(const int *)(base + d->off) ==
			     *(const int *)(bb + d->off);
			break;
		case HS_KIND_NUM:
		case HS_KIND_OPTNUM:
			ok = *(const long *)(base + d->off) ==
			     *(const long *)(bb + d->off);
			break;
		}
		if (!ok) {
			fprintf(stderr, "field '%c' changed on the way\n",
				d->tag);
			abort();
		}
	}
	hs_msg_free(&back);
}

/* Does every STR and ARGV field hold exactly its C string (no NUL)? */
static bool strings_whole(const uint8_t *data, size_t size)
{
	/* Walk the TLV stream again: a STR/ARGV body with a NUL in it is
	 * truncated by the decoder's NUL-terminated strings, by design. */
	size_t at = 0;

	while (at + 5 <= size) {
		uint32_t len = (uint32_t)data[at + 1] |
			       (uint32_t)data[at + 2] << 8 |
			       (uint32_t)data[at + 3] << 16 |
			       (uint32_t)data[at + 4] << 24;
		const struct hs_field_desc *d = hs_request_field(data[at]);

		if (data[at] == HS_F_END)
			return true;
		at += 5;
		if (len > size - at)
			return false;
		if (d && d->kind != HS_KIND_BYTES &&
		    memchr(data + at, '\0', len))
			return false;
		at += len;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd;

	if (!size)
		return 0;
	fd = feed(data + 1, size - 1);
	if (fd < 0)
		return 0;
	if (data[0] & 1) {
		struct hs_answer a;

		if (hs_answer_read(fd, &a) == 0) {
			/* What the config allows (config/settings.c). */
			if (a.deny_exit < 0 || a.deny_exit > 255 ||
			    a.deny_errno <= 0)
				abort();
			hs_answer_free(&a);
		}
	} else {
		struct hs_msg m;

		if (hs_msg_read(fd, &m) == 0) {
			if (strings_whole(data + 1, size - 1))
				roundtrip(&m);
			hs_msg_free(&m);
		}
	}
	close(fd);
	return 0;
}
