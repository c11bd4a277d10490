/* A session: config snapshot, decisions, lifecycle events; see session.h
 * and docs/design-exec.md. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../engine/command.h"
#include "log.h"
#include "prompt.h"

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
	s->can_prompt = hs_prompt_possible();
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

/* The event a request describes. Strings stay owned by req; `command`
 * (to free) and `id` (caller's buffer) are computed here. -1 when the
 * request is not something hooks see. */
static int build_event(struct hs_session *s, const struct hs_msg *req,
		       struct hs_event *ev, char **command, char *id,
		       size_t idcap, struct hs_command_why *why)
{
	const char *internal;

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
		/* The agent's own shells are no tool call; the log says
		 * so, for `hookshim explain`. */
		if (req->nested <= 0 &&
		    (internal = hs_command_agent_internal(req->argv))) {
			if (ev->kind == HS_KIND_PRE)
				hs_log_internal(s, req, internal);
			return -1;
		}
		ev->op = HS_OP_EXEC;
		ev->argv = req->argv;
		ev->exe = req->exe ? req->exe : req->argv[0];
		*command = hs_command_explain(req->argv, NULL, why);
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
		ev->content_file = req->content_file;
		if (req->stage && strcmp(req->stage, "open") == 0)
			ev->stage = HS_STAGE_OPEN;
		else if (req->stage && strcmp(req->stage, "publish") == 0)
			ev->stage = HS_STAGE_PUBLISH;
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
	struct hs_command_why why = { 0 };

	memset(ans, 0, sizeof(*ans));
	ans->verdict = HS_ALLOW;
	ans->deny_exit = set->deny_exit;
	ans->deny_errno = set->deny_errno;
	if (build_event(s, req, &ev, &command, id, sizeof(id), &why) < 0) {
		free(command);
		return;
	}
	hs_dispatch(s->cfg, &ev, &out);
	v = out.verdict;
	if (__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
	    ev.kind == HS_KIND_PRE && v != HS_DENY) {
		free(out.reason);
		out.reason = strdup("hookshim: the session ended before its "
				    "hooks decided");
		out.verdict = v = HS_DENY;
	}
	if (v == HS_ASK)
		v = hs_prompt_resolve(s, &ev, out.reason, &asked);
	ans->verdict = v == HS_DENY ? HS_DENY : HS_ALLOW;
	if (ans->verdict == HS_DENY)
		ans->reason = strdup(out.reason && out.reason[0]
					     ? out.reason
					     : "blocked by a hookshim hook");
	if (out.context && out.context[0])
		ans->context = strdup(out.context);
	if (ev.kind == HS_KIND_PRE)
		ans->id = strdup(id);
	hs_log_event(s, &ev, &out, ans->verdict == HS_DENY ? "deny" : "allow",
		  asked, &why);
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
	hs_log_event(s, &ev, out, hs_verdict_name(out->verdict), false, NULL);
}

void hs_session_flags(const struct hs_config *cfg, char *buf, size_t len)
{
	const struct hs_settings *set = &cfg->settings;

	snprintf(buf, len, "i=%u,x=%d,e=%d,s=%d,n=%d,a=%d,l=%d",
		 hs_config_interest(cfg), set->deny_exit, set->deny_errno,
		 set->strict, set->nested_exec, set->all_execs,
		 set->deny_on_loss);
}

void hs_session_ending(struct hs_session *s)
{
	__atomic_store_n(&s->ending, true, __ATOMIC_RELEASE);
}
