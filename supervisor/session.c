/* The session supervisor; see supervisor.h and docs/design-exec.md. */
#include "session.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../engine/command.h"
#include "../common/wire.h"
#include "../cli/cli.h"

/* A request larger than this in total is refused: it can only be a bug or
 * an attack, and each one is held in memory while its hooks run. */
#define MSG_MAX_TOTAL (256u << 20)
#define MSG_MAX_ARGS (1u << 20)
/* Requests served at once; the acceptor waits for a free slot beyond. */
#define MAX_ACTIVE 256
/* How long a connected client may take to send its request. */
#define REQUEST_TIMEOUT_S 60
/* How long a prompt waits for the user before using ask_default. */
#define ASK_TIMEOUT_MS (5 * 60 * 1000)

/* ---------------------------------------------------------------- wire */

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

/* ------------------------------------------------------------- session */

void hs_random_hex(char *buf, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[64];
	size_t got = 0;

	if (n > sizeof(raw))
		n = sizeof(raw);
	while (got < n) {
		ssize_t r = getrandom(raw + got, n - got, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	if (got < n) { /* no getrandom: still unique enough per host */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (size_t i = got; i < n; i++)
			raw[i] = (unsigned char)((ts.tv_nsec >> (i % 4 * 8)) ^
						 (getpid() >> (i % 2 * 8)) ^ i);
	}
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = hex[raw[i] >> 4];
		buf[2 * i + 1] = hex[raw[i] & 15];
	}
	buf[2 * n] = '\0';
}

/* Can a human be asked? The supervisor must have a controlling terminal
 * and sit on a tty; otherwise (CI, pipes) nobody would ever answer. */
static bool terminal_present(void)
{
	int fd;

	if (!isatty(0))
		return false;
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int hs_session_init(struct hs_session *s, const struct hs_config *cfg,
		    const char *session_id, const char *log_path)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->root = cfg->root;
	s->log_fd = -1;
	if (session_id)
		snprintf(s->id, sizeof(s->id), "%s", session_id);
	else
		hs_random_hex(s->id, 16);
	if (log_path) {
		s->log_fd = open(log_path,
				 O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (s->log_fd < 0) {
			fprintf(stderr, "hookshim: --log %s: %s\n", log_path,
				strerror(errno));
			return -1;
		}
	}
	s->can_prompt = terminal_present();
	pthread_mutex_init(&s->log_mu, NULL);
	pthread_mutex_init(&s->ask_mu, NULL);
	return 0;
}

void hs_session_close(struct hs_session *s)
{
	if (s->log_fd >= 0)
		close(s->log_fd);
	s->log_fd = -1;
	pthread_mutex_destroy(&s->log_mu);
	pthread_mutex_destroy(&s->ask_mu);
}

/* "2025-01-31T12:34:56.789Z" */
static void iso_now(char *buf, size_t cap)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

static const char *kind_name(const struct hs_event *ev)
{
	switch (ev->kind) {
	case HS_KIND_PRE: return "pre";
	case HS_KIND_POST: return ev->failed ? "post_failure" : "post";
	case HS_KIND_SESSION_START: return "session_start";
	case HS_KIND_SESSION_END: return "session_end";
	default: return "none";
	}
}

static const char *run_status_name(enum hs_run_status st)
{
	switch (st) {
	case HS_RUN_EXITED: return "exited";
	case HS_RUN_SIGNALED: return "signaled";
	case HS_RUN_TIMEOUT: return "timeout";
	default: return "spawn_failed";
	}
}

static void add_opt_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
}

static cJSON *log_runs(const struct hs_outcome *out)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < out->nruns; i++) {
		const struct hs_hook_run *r = &out->runs[i];
		cJSON *o = cJSON_CreateObject();

		add_opt_str(o, "source", r->hook->source);
		add_opt_str(o, "event", r->hook->event_name);
		cJSON_AddStringToObject(o, "dialect",
					hs_dialect_name(r->hook->dialect));
		add_opt_str(o, "command", r->hook->command);
		add_opt_str(o, "tool", r->tool_name);
		cJSON_AddStringToObject(o, "status",
					run_status_name(r->res.status));
		if (r->res.status == HS_RUN_EXITED)
			cJSON_AddNumberToObject(o, "exit_code",
						r->res.exit_code);
		if (r->res.status == HS_RUN_SIGNALED)
			cJSON_AddNumberToObject(o, "signal", r->res.signo);
		cJSON_AddNumberToObject(o, "duration_ms",
					(double)r->res.duration_ms);
		if (r->said)
			cJSON_AddStringToObject(o, "verdict",
						hs_verdict_name(r->verdict));
		add_opt_str(o, "note", r->note);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static void log_event(struct hs_session *s, const struct hs_event *ev,
		      const struct hs_outcome *out, const char *decision,
		      bool asked)
{
	cJSON *o;
	char ts[40], *line;

	if (s->log_fd < 0)
		return;
	o = cJSON_CreateObject();
	iso_now(ts, sizeof(ts));
	cJSON_AddStringToObject(o, "ts", ts);
	cJSON_AddStringToObject(o, "session", s->id);
	cJSON_AddStringToObject(o, "event", kind_name(ev));
	if (ev->op & HS_OP_EXEC)
		cJSON_AddStringToObject(o, "op", "exec");
	else if (ev->op & HS_OP_WRITE)
		cJSON_AddStringToObject(o, "op", "write");
	add_opt_str(o, "tool_use_id", ev->tool_use_id);
	if (ev->pid)
		cJSON_AddNumberToObject(o, "pid", ev->pid);
	add_opt_str(o, "cwd", ev->cwd);
	if (ev->op & HS_OP_EXEC) {
		cJSON *argv = cJSON_AddArrayToObject(o, "argv");

		cJSON_AddBoolToObject(o, "nested", ev->nested);
		add_opt_str(o, "command", ev->command);
		add_opt_str(o, "exe", ev->exe);
		for (size_t i = 0; ev->argv && ev->argv[i]; i++)
			cJSON_AddItemToArray(argv,
					     cJSON_CreateString(ev->argv[i]));
	}
	add_opt_str(o, "path", ev->path);
	add_opt_str(o, "new_path", ev->new_path);
	add_opt_str(o, "operation", ev->operation);
	if (ev->kind == HS_KIND_POST) {
		if (ev->signo)
			cJSON_AddNumberToObject(o, "signal", ev->signo);
		else
			cJSON_AddNumberToObject(o, "exit_code", ev->exit_code);
		cJSON_AddNumberToObject(o, "duration_ms",
					(double)ev->duration_ms);
	}
	cJSON_AddStringToObject(o, "decision", decision);
	if (out->verdict == HS_ASK)
		cJSON_AddBoolToObject(o, "asked", asked);
	add_opt_str(o, "reason", out->reason);
	add_opt_str(o, "context", out->context);
	add_opt_str(o, "system_message", out->system_message);
	add_opt_str(o, "session_context", out->session_context);
	if (out->stop)
		cJSON_AddStringToObject(o, "stop_reason",
					out->stop_reason ? out->stop_reason : "");
	cJSON_AddItemToObject(o, "hooks", log_runs(out));
	if (out->nwarnings) {
		cJSON *w = cJSON_AddArrayToObject(o, "warnings");

		for (size_t i = 0; i < out->nwarnings; i++)
			cJSON_AddItemToArray(w,
					     cJSON_CreateString(out->warnings[i]));
	}
	line = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!line)
		return;
	/* One write per line under the lock: lines never interleave, even
	 * with another session appending to the same file (O_APPEND). */
	{
		size_t n = strlen(line);
		char *buf = realloc(line, n + 2);

		if (buf) {
			line = buf;
			line[n++] = '\n';
			pthread_mutex_lock(&s->log_mu);
			if (write(s->log_fd, line, n) < 0) {
				/* nothing useful to do: logging is advisory */
			}
			pthread_mutex_unlock(&s->log_mu);
		}
	}
	free(line);
}

/* Reads one answer key from the terminal; raw-mode TUIs hand us single
 * characters, cooked mode a line: either way the first character counts. */
static bool read_yes(int fd)
{
	char c, first = 0;
	int waited = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, 1000);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return false;
		if (r == 0) {
			if ((waited += 1000) >= ASK_TIMEOUT_MS)
				return false;
			continue;
		}
		if (read(fd, &c, 1) != 1)
			return false;
		if (c == '\n' || c == '\r')
			return first == 'y' || first == 'Y';
		if (!first)
			first = c;
	}
}

static enum hs_verdict resolve_ask(struct hs_session *s,
				   const struct hs_event *ev,
				   const char *reason, bool *asked)
{
	enum hs_verdict v = s->cfg->settings.ask_default == HS_ALLOW
				    ? HS_ALLOW
				    : HS_DENY;
	int fd;

	*asked = false;
	if (!s->can_prompt)
		return v;
	pthread_mutex_lock(&s->ask_mu);
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		dprintf(fd, "\r\nhookshim: a hook asks before running:\r\n"
			    "  %s\r\n%s%s%sAllow? [y/N] ",
			ev->command ? ev->command : ev->path ? ev->path : "?",
			reason ? "  reason: " : "", reason ? reason : "",
			reason ? "\r\n" : "");
		v = read_yes(fd) ? HS_ALLOW : HS_DENY;
		dprintf(fd, "%s\r\n", v == HS_ALLOW ? "allowed" : "denied");
		close(fd);
		*asked = true;
	}
	pthread_mutex_unlock(&s->ask_mu);
	return v;
}

/* The event a request describes. Strings stay owned by req; `command`
 * (to free) and `id` (caller's buffer) are computed here. -1 when the
 * request is not something hooks see. */
static int build_event(struct hs_session *s, const struct hs_msg *req,
		       struct hs_event *ev, char **command, char *id,
		       size_t idcap)
{
	memset(ev, 0, sizeof(*ev));
	*command = NULL;
	if (!req->op || !req->phase)
		return -1;
	if (strcmp(req->phase, "pre") == 0) {
		ev->kind = HS_KIND_PRE;
	} else if (strcmp(req->phase, "post") == 0) {
		ev->kind = HS_KIND_POST;
	} else if (strcmp(req->phase, "post-failure") == 0) {
		ev->kind = HS_KIND_POST;
		ev->failed = true;
	} else {
		return -1;
	}
	if (strcmp(req->op, "exec") == 0) {
		if (!req->argv || !req->argv[0])
			return -1;
		if (req->nested <= 0 && hs_command_agent_internal(req->argv))
			return -1;
		ev->op = HS_OP_EXEC;
		ev->argv = req->argv;
		ev->exe = req->exe ? req->exe : req->argv[0];
		*command = hs_command_text(req->argv, NULL);
		if (!*command)
			return -1;
		ev->command = *command;
	} else if (strcmp(req->op, "write") == 0) {
		if (!req->path)
			return -1;
		ev->op = HS_OP_WRITE;
		ev->path = req->path;
		ev->new_path = req->new_path;
		ev->operation = req->operation;
		ev->content = req->content;
		ev->content_len = req->content_len;
	} else {
		return -1;
	}
	ev->nested = req->nested > 0;
	ev->cwd = req->cwd ? req->cwd : s->root;
	ev->pid = (pid_t)req->pid;
	ev->session_id = s->id;
	ev->root = s->root;
	if (req->id && req->id[0]) {
		snprintf(id, idcap, "%s", req->id);
	} else {
		unsigned long n = __atomic_add_fetch(&s->next_id, 1,
						     __ATOMIC_RELAXED);

		snprintf(id, idcap, "hs-%.16s-%lu", s->id, n);
	}
	ev->tool_use_id = id;
	ev->exit_code = req->exit_code;
	ev->signo = req->signo;
	ev->duration_ms = req->duration_ms;
	ev->out = req->out;
	ev->out_len = req->out_len;
	ev->err = req->err;
	ev->err_len = req->err_len;
	ev->error = req->error;
	return 0;
}

void hs_session_decide(struct hs_session *s, const struct hs_msg *req,
		       struct hs_answer *ans)
{
	const struct hs_settings *set = &s->cfg->settings;
	struct hs_event ev;
	struct hs_outcome out;
	char id[160], *command;
	enum hs_verdict v;
	bool asked = false;

	memset(ans, 0, sizeof(*ans));
	ans->verdict = HS_ALLOW;
	ans->deny_exit = set->deny_exit;
	ans->deny_errno = set->deny_errno;
	if (build_event(s, req, &ev, &command, id, sizeof(id)) < 0) {
		free(command);
		return;
	}
	hs_dispatch(s->cfg, &ev, &out);
	v = out.verdict;
	if (v == HS_ASK)
		v = resolve_ask(s, &ev, out.reason, &asked);
	ans->verdict = v == HS_DENY ? HS_DENY : HS_ALLOW;
	if (ans->verdict == HS_DENY)
		ans->reason = strdup(out.reason && out.reason[0]
					     ? out.reason
					     : "blocked by a hookshim hook");
	if (out.context && out.context[0])
		ans->context = strdup(out.context);
	if (ev.kind == HS_KIND_PRE)
		ans->id = strdup(id);
	log_event(s, &ev, &out, ans->verdict == HS_DENY ? "deny" : "allow",
		  asked);
	hs_outcome_free(&out);
	free(command);
}

void hs_session_lifecycle(struct hs_session *s, enum hs_kind kind,
			  struct hs_outcome *out)
{
	struct hs_event ev;
	char cwd[PATH_MAX];

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.session_id = s->id;
	ev.root = s->root;
	ev.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : s->root;
	ev.pid = getpid();
	hs_dispatch(s->cfg, &ev, out);
	log_event(s, &ev, out, hs_verdict_name(out->verdict), false);
}

/* --------------------------------------------------------------- server */

struct hs_supervisor {
	struct hs_session *s;
	int lfd;
	int wake[2]; /* written once to stop the acceptor */
	pthread_t acceptor;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int active;
};

struct conn {
	struct hs_supervisor *sv;
	int fd;
};

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = REQUEST_TIMEOUT_S };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void *serve(void *arg)
{
	struct conn *c = arg;
	struct hs_supervisor *sv = c->sv;
	struct hs_msg req;
	struct hs_answer ans;

	set_timeouts(c->fd);
	if (hs_msg_read(c->fd, &req) == 0) {
		/* The request is in; the hooks may take as long as their
		 * timeouts allow, so only the reply keeps a send timeout. */
		hs_session_decide(sv->s, &req, &ans);
		hs_answer_write(c->fd, &ans);
		hs_answer_free(&ans);
		hs_msg_free(&req);
	}
	close(c->fd);
	free(c);
	pthread_mutex_lock(&sv->mu);
	sv->active--;
	pthread_cond_broadcast(&sv->cv);
	pthread_mutex_unlock(&sv->mu);
	return NULL;
}

/* Only our own user's processes may ask: anyone can connect to an
 * abstract socket whose name they guess. */
static void spawn_conn(struct hs_supervisor *sv, int fd)
{
	struct conn *c = malloc(sizeof(*c));
	pthread_attr_t attr;
	pthread_t t;

	if (!c) {
		close(fd);
		return;
	}
	c->sv = sv;
	c->fd = fd;
	pthread_mutex_lock(&sv->mu);
	while (sv->active >= MAX_ACTIVE)
		pthread_cond_wait(&sv->cv, &sv->mu);
	sv->active++;
	pthread_mutex_unlock(&sv->mu);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 2u << 20);
	if (pthread_create(&t, &attr, serve, c) != 0) {
		/* Serve inline rather than drop: a dropped request would
		 * make the shim fall back to its unreachable policy. */
		serve(c);
	}
	pthread_attr_destroy(&attr);
}

static void *accept_loop(void *arg)
{
	struct hs_supervisor *sv = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = sv->lfd, .events = POLLIN },
				       { .fd = sv->wake[0], .events = POLLIN } };
		int fd;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		fd = accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue; /* EMFILE, ECONNABORTED...: try again */
		if (!hs_wire_peer_is_ours(fd)) {
			close(fd);
			continue;
		}
		spawn_conn(sv, fd);
	}
	return NULL;
}

struct hs_supervisor *hs_supervisor_start(struct hs_session *s,
					  const char *name)
{
	struct hs_supervisor *sv = calloc(1, sizeof(*sv));
	struct sockaddr_un sa;
	socklen_t len;

	if (!sv)
		return NULL;
	sv->s = s;
	sv->lfd = -1;
	sv->wake[0] = sv->wake[1] = -1;
	if (hs_wire_addr(name, &sa, &len) < 0) {
		fprintf(stderr, "hookshim: bad socket name '%s'\n", name);
		goto fail;
	}
	sv->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sv->lfd < 0 || bind(sv->lfd, (struct sockaddr *)&sa, len) < 0 ||
	    listen(sv->lfd, 512) < 0) {
		fprintf(stderr, "hookshim: supervisor socket @%s: %s\n", name,
			strerror(errno));
		goto fail;
	}
	if (pipe2(sv->wake, O_CLOEXEC) < 0)
		goto fail;
	pthread_mutex_init(&sv->mu, NULL);
	pthread_cond_init(&sv->cv, NULL);
	if (pthread_create(&sv->acceptor, NULL, accept_loop, sv) != 0) {
		pthread_mutex_destroy(&sv->mu);
		pthread_cond_destroy(&sv->cv);
		goto fail;
	}
	return sv;
fail:
	if (sv->lfd >= 0)
		close(sv->lfd);
	if (sv->wake[0] >= 0) {
		close(sv->wake[0]);
		close(sv->wake[1]);
	}
	free(sv);
	return NULL;
}

bool hs_supervisor_stop(struct hs_supervisor *sv, int grace_ms)
{
	struct timespec deadline;
	bool drained;

	if (!sv)
		return true;
	if (write(sv->wake[1], "x", 1) < 0) {
		/* the pipe is ours and empty: cannot fail in practice */
	}
	pthread_join(sv->acceptor, NULL);
	close(sv->lfd);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += grace_ms / 1000;
	deadline.tv_nsec += (long)(grace_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&sv->mu);
	while (sv->active > 0 &&
	       pthread_cond_timedwait(&sv->cv, &sv->mu, &deadline) == 0)
		;
	drained = sv->active == 0;
	pthread_mutex_unlock(&sv->mu);
	close(sv->wake[0]);
	close(sv->wake[1]);
	if (!drained)
		return false; /* threads still use sv: leave it to exit() */
	pthread_mutex_destroy(&sv->mu);
	pthread_cond_destroy(&sv->cv);
	free(sv);
	return true;
}

/* --------------------------------------------------------------- client */

int hs_client_ask(const char *name, const struct hs_msg *req,
		  struct hs_answer *ans)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd, rc = -1;

	if (!name || hs_wire_addr(name, &sa, &len) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	while (connect(fd, (struct sockaddr *)&sa, len) < 0) {
		if (errno != EINTR)
			goto out;
	}
	if (!hs_wire_peer_is_ours(fd) || hs_msg_write(fd, req) < 0)
		goto out;
	shutdown(fd, SHUT_WR);
	rc = hs_answer_read(fd, ans);
out:
	close(fd);
	return rc;
}

/* The in-process fallback of hs_consult: hookshim's default config, loaded
 * on first use and kept for the life of this short-lived helper. */
static struct hs_session *local_session(void)
{
	static struct hs_config cfg;
	static struct hs_session s;
	static int state; /* 0 untried, 1 ready, -1 failed */
	struct hs_cli cli;

	if (state)
		return state > 0 ? &s : NULL;
	state = -1;
	memset(&cli, 0, sizeof(cli));
	cli.root = getenv(HS_ENV_ROOT);
	if (cli.root && !cli.root[0])
		cli.root = NULL;
	if (hs_cli_load(&cli, &cfg) < 0)
		return NULL;
	for (size_t i = 0; i < cfg.ndiags; i++)
		if (cfg.diags[i].fatal)
			fprintf(stderr, "hookshim: %s\n", cfg.diags[i].text);
	if (hs_session_init(&s, &cfg, getenv(HS_ENV_SESSION), NULL) < 0)
		return NULL;
	state = 1;
	return &s;
}

static const char *session_sock(void)
{
	const char *sock = getenv(HS_ENV_SOCK);

	return sock && sock[0] ? sock : NULL;
}

void hs_consult(const struct hs_msg *req, struct hs_answer *ans)
{
	struct hs_session *s;

	if (hs_client_ask(session_sock(), req, ans) == 0)
		return;
	s = local_session();
	if (s) {
		hs_session_decide(s, req, ans);
		return;
	}
	memset(ans, 0, sizeof(*ans));
	ans->verdict = HS_ALLOW;
	ans->deny_exit = 126;
	ans->deny_errno = EACCES;
}

/* "i=<bits>" out of HOOKSHIM_FLAGS; -1 when absent. */
static long flags_interest(void)
{
	const char *f = getenv(HS_ENV_FLAGS);

	for (const char *p = f; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (p[0] == 'i' && p[1] == '=')
			return strtol(p + 2, NULL, 10);
	return -1;
}

unsigned hs_consult_interest(void)
{
	struct hs_session *s;
	long bits;

	/* A live session said what its hooks want in HOOKSHIM_FLAGS. */
	if (session_sock() && (bits = flags_interest()) >= 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_un sa;
		socklen_t len;
		bool live = false;

		if (fd >= 0 && hs_wire_addr(session_sock(), &sa, &len) == 0)
			live = connect(fd, (struct sockaddr *)&sa, len) == 0;
		if (fd >= 0)
			close(fd);
		if (live)
			return (unsigned)bits;
	}
	s = local_session();
	return s ? hs_config_interest(s->cfg) : 0;
}

void hs_session_flags(const struct hs_config *cfg, char *buf, size_t len)
{
	const struct hs_settings *set = &cfg->settings;

	snprintf(buf, len, "i=%u,x=%d,e=%d,s=%d,n=%d,a=%d",
		 hs_config_interest(cfg), set->deny_exit, set->deny_errno,
		 set->strict, set->nested_exec, set->all_execs);
}
