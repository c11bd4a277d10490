/* Requests and answers on the wire; see message.h and common/wire.h. */
#include "message.h"

#include <errno.h>
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
	free(m->op);
	free(m->phase);
	free(m->id);
	free(m->cwd);
	free(m->exe);
	for (size_t i = 0; i < m->argc; i++)
		free(m->argv[i]);
	free(m->argv);
	free(m->path);
	free(m->new_path);
	free(m->operation);
	free(m->out);
	free(m->err);
	free(m->content);
	free(m->error);
	memset(m, 0, sizeof(*m));
	m->nested = -1;
}

void hs_answer_free(struct hs_answer *a)
{
	free(a->reason);
	free(a->context);
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

static int add_arg(struct hs_msg *m, char *v)
{
	char **argv;

	if (m->argc + 1 >= MSG_MAX_ARGS)
		return -1;
	argv = realloc(m->argv, (m->argc + 2) * sizeof(*argv));
	if (!argv)
		return -1;
	argv[m->argc++] = v;
	argv[m->argc] = NULL;
	m->argv = argv;
	return 0;
}

/* Files one field; v is consumed. */
static int put_field(struct hs_msg *m, int tag, char *v, uint32_t len)
{
	switch (tag) {
	case HS_F_OP: take(&m->op, v); break;
	case HS_F_PHASE: take(&m->phase, v); break;
	case HS_F_NESTED: m->nested = strcmp(v, "0") != 0; free(v); break;
	case HS_F_PID: m->pid = to_long(v); free(v); break;
	case HS_F_CWD: take(&m->cwd, v); break;
	case HS_F_EXE: take(&m->exe, v); break;
	case HS_F_ID: take(&m->id, v); break;
	case HS_F_PATH: take(&m->path, v); break;
	case HS_F_NEW_PATH: take(&m->new_path, v); break;
	case HS_F_OPERATION: take(&m->operation, v); break;
	case HS_F_ERROR: take(&m->error, v); break;
	case HS_F_EXIT:
		m->has_exit = true;
		m->exit_code = (int)to_long(v);
		free(v);
		break;
	case HS_F_SIGNAL: m->signo = (int)to_long(v); free(v); break;
	case HS_F_DURATION: m->duration_ms = to_long(v); free(v); break;
	case HS_F_STDOUT: take(&m->out, v); m->out_len = len; break;
	case HS_F_STDERR: take(&m->err, v); m->err_len = len; break;
	case HS_F_CONTENT: take(&m->content, v); m->content_len = len; break;
	case HS_F_ARG:
		if (add_arg(m, v) < 0) {
			free(v);
			return -1;
		}
		break;
	default: free(v); break; /* newer clients may send more */
	}
	return 0;
}

int hs_msg_read(int fd, struct hs_msg *m)
{
	size_t total = 0;

	memset(m, 0, sizeof(*m));
	m->nested = -1;
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
	put_opt(&w, HS_F_OP, m->op);
	put_opt(&w, HS_F_PHASE, m->phase);
	if (m->nested >= 0)
		hs_wire_puts(&w, HS_F_NESTED, m->nested ? "1" : "0");
	if (m->pid)
		hs_wire_putnum(&w, HS_F_PID, m->pid);
	put_opt(&w, HS_F_ID, m->id);
	put_opt(&w, HS_F_CWD, m->cwd);
	put_opt(&w, HS_F_EXE, m->exe);
	for (size_t i = 0; m->argv && m->argv[i]; i++)
		hs_wire_puts(&w, HS_F_ARG, m->argv[i]);
	put_opt(&w, HS_F_PATH, m->path);
	put_opt(&w, HS_F_NEW_PATH, m->new_path);
	put_opt(&w, HS_F_OPERATION, m->operation);
	if (m->has_exit)
		hs_wire_putnum(&w, HS_F_EXIT, m->exit_code);
	if (m->signo)
		hs_wire_putnum(&w, HS_F_SIGNAL, m->signo);
	if (m->has_exit || m->signo)
		hs_wire_putnum(&w, HS_F_DURATION, m->duration_ms);
	if (m->out)
		hs_wire_put(&w, HS_F_STDOUT, m->out, m->out_len);
	if (m->err)
		hs_wire_put(&w, HS_F_STDERR, m->err, m->err_len);
	if (m->content)
		hs_wire_put(&w, HS_F_CONTENT, m->content, m->content_len);
	put_opt(&w, HS_F_ERROR, m->error);
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
	hs_wire_putnum(&w, HS_F_DENY_EXIT, a->deny_exit);
	hs_wire_putnum(&w, HS_F_DENY_ERRNO, a->deny_errno);
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
		case HS_F_ID: take(&a->id, v); break;
		case HS_F_DENY_EXIT: a->deny_exit = (int)to_long(v); free(v); break;
		case HS_F_DENY_ERRNO: a->deny_errno = (int)to_long(v); free(v); break;
		default: free(v); break;
		}
	}
	if (have_verdict)
		return 0;
fail:
	hs_answer_free(a);
	return -1;
}
