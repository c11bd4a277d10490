/* Requests and answers on the wire; see message.h and common/wire.h. */
#include "message.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/wire.h"

/* A request larger than this in total is refused: it can only be a bug or
 * an attack, and each one is held in memory while its hooks run. */
#define MSG_MAX_TOTAL (256u << 20)
#define MSG_MAX_ARGS (1u << 20)

void hs_msg_free(struct hs_msg *m)
{
	char *base = (char *)m;

	for (unsigned i = 0; i < hs_request_nfields; i++) {
		const struct hs_field_desc *d = &hs_request_fields[i];
		void *at = base + d->off;

		if (d->kind == HS_KIND_STR || d->kind == HS_KIND_BYTES) {
			free((void *)*(const char **)at);
		} else if (d->kind == HS_KIND_ARGV) {
			char *const *v = *(char *const **)at;
			size_t n = *(size_t *)(base + d->aux);

			for (size_t k = 0; k < n; k++)
				free(v[k]);
			free((void *)v);
		}
	}
	memset(m, 0, sizeof(*m));
	m->nested = -1;
	m->beneath = -1;
}

void hs_answer_free(struct hs_answer *a)
{
	free(a->reason);
	free(a->context);
	free(a->updated);
	free(a->id);
	memset(a, 0, sizeof(*a));
}

/* Reads a field body of len bytes into a fresh NUL-terminated buffer. */
static char *read_body(int fd, uint32_t len)
{
	char *b = malloc((size_t)len + 1);

	if (!b)
		return NULL;
	if (len && hs_wire_read_exact(fd, b, len) < 0) {
		free(b);
		return NULL;
	}
	b[len] = '\0';
	return b;
}

/* Replaces *slot, so a repeated scalar field does not leak. */
static void take(char **slot, char *v)
{
	free(*slot);
	*slot = v;
}

static long to_long(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return (errno || end == s) ? 0 : v;
}

static int add_arg(char *const **slot, size_t *count, char *v)
{
	char **argv;

	if (*count + 1 >= MSG_MAX_ARGS)
		return -1;
	argv = realloc((void *)*slot, (*count + 2) * sizeof(*argv));
	if (!argv)
		return -1;
	argv[(*count)++] = v;
	argv[*count] = NULL;
	*slot = argv;
	return 0;
}

/* Files one field where the request table says; v is consumed. */
static int put_field(struct hs_msg *m, int tag, char *v, uint32_t len)
{
	const struct hs_field_desc *d = hs_request_field(tag);
	char *base = (char *)m;
	void *at;

	if (!d) { /* newer clients may send more */
		free(v);
		return 0;
	}
	at = base + d->off;
	switch (d->kind) {
	case HS_KIND_STR:
		take((char **)at, v);
		return 0;
	case HS_KIND_BYTES:
		take((char **)at, v);
		*(size_t *)(base + d->aux) = len;
		return 0;
	case HS_KIND_ARGV:
		if (add_arg((char *const **)at, (size_t *)(base + d->aux), v) < 0) {
			free(v);
			return -1;
		}
		return 0;
	case HS_KIND_TRI:
		*(int *)at = strcmp(v, "0") != 0;
		break;
	case HS_KIND_NUM:
		*(long *)at = to_long(v);
		break;
	case HS_KIND_OPTNUM:
		*(long *)at = to_long(v);
		*(bool *)(base + d->aux) = true;
		break;
	}
	free(v);
	return 0;
}

int hs_msg_read(int fd, struct hs_msg *m)
{
	size_t total = 0;

	memset(m, 0, sizeof(*m));
	m->nested = -1;
	m->beneath = -1;
	for (;;) {
		int tag;
		uint32_t len;
		char *v;

		if (hs_wire_read_header(fd, &tag, &len) < 0)
			goto fail;
		if (tag == HS_F_END)
			return 0;
		total += len;
		if (len > HS_WIRE_MAX_FIELD || total > MSG_MAX_TOTAL)
			goto fail;
		v = read_body(fd, len);
		if (!v || put_field(m, tag, v, len) < 0)
			goto fail;
	}
fail:
	hs_msg_free(m);
	return -1;
}

static void put_opt(struct hs_wire *w, int tag, const char *s)
{
	if (s)
		hs_wire_puts(w, tag, s);
}

int hs_msg_write(int fd, const struct hs_msg *m)
{
	struct hs_wire w;

	hs_wire_init(&w, fd);
	hs_wire_put_msg(&w, m);
	return hs_wire_finish(&w);
}

int hs_answer_write(int fd, const struct hs_answer *a)
{
	struct hs_wire w;

	hs_wire_init(&w, fd);
	hs_wire_puts(&w, HS_F_VERDICT, a->verdict == HS_DENY ? "deny" : "allow");
	put_opt(&w, HS_F_REASON, a->reason);
	put_opt(&w, HS_F_CONTEXT, a->context);
	put_opt(&w, HS_F_ID, a->id);
	put_opt(&w, HS_F_UPDATED, a->updated);
	hs_wire_putnum(&w, HS_F_DENY_EXIT, a->deny_exit);
	hs_wire_putnum(&w, HS_F_DENY_ERRNO, a->deny_errno);
	if (a->tool_call)
		hs_wire_putnum(&w, HS_F_TOOL_CALL, 1);
	if (a->own)
		hs_wire_putnum(&w, HS_F_OWN, 1);
	if (a->handoff)
		hs_wire_putnum(&w, HS_F_HANDOFF, 1);
	if (a->more)
		hs_wire_putnum(&w, HS_F_MORE, 1);
	if (a->keeps)
		hs_wire_putnum(&w, HS_F_KEEPS, 1);
	return hs_wire_finish(&w);
}

int hs_answer_read(int fd, struct hs_answer *a)
{
	bool have_verdict = false;

	memset(a, 0, sizeof(*a));
	a->deny_exit = 126;
	a->deny_errno = EACCES;
	for (;;) {
		int tag;
		uint32_t len;
		char *v;
		long n;

		if (hs_wire_read_header(fd, &tag, &len) < 0 ||
		    len > HS_WIRE_MAX_FIELD)
			goto fail;
		if (tag == HS_F_END)
			break;
		if (!(v = read_body(fd, len)))
			goto fail;
		switch (tag) {
		case HS_F_VERDICT:
			have_verdict = true;
			a->verdict = strcmp(v, "allow") ? HS_DENY : HS_ALLOW;
			free(v);
			break;
		case HS_F_REASON: take(&a->reason, v); break;
		case HS_F_CONTEXT: take(&a->context, v); break;
		case HS_F_UPDATED: take(&a->updated, v); break;
		case HS_F_ID: take(&a->id, v); break;
		/* Out-of-range numbers keep the defaults: cast to int they
		 * gave any exit status, or errno 0 (found by fuzz_wire.c). */
		case HS_F_DENY_EXIT: n = to_long(v); free(v);
			if (n >= 0 && n <= 255)
				a->deny_exit = (int)n;
			break;
		case HS_F_DENY_ERRNO: n = to_long(v); free(v);
			if (n > 0 && n <= INT_MAX)
				a->deny_errno = (int)n;
			break;
		case HS_F_TOOL_CALL: a->tool_call = to_long(v) == 1; free(v);
			break;
		case HS_F_OWN: a->own = to_long(v) == 1; free(v);
			break;
		case HS_F_HANDOFF: a->handoff = to_long(v) == 1; free(v);
			break;
		case HS_F_MORE: a->more = to_long(v) == 1; free(v);
			break;
		case HS_F_KEEPS: a->keeps = to_long(v) == 1; free(v);
			break;
		default: free(v); break;
		}
	}
	if (have_verdict)
		return 0;
fail:
	hs_answer_free(a);
	return -1;
}
