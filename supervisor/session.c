/* A session: config snapshot, decisions, lifecycle events; see session.h
 * and docs/design-exec.md. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/shellargv.h"
#include "../common/wire.h"
#include "../engine/command.h"
#include "../engine/handoff.h"
#include "../engine/shparse.h"
#include "../engine/decide.h"
#include "atomic_save.h"
#include "caller.h"
#include "log.h"
#include "otlp.h"
#include "outer.h"
#include "prompt.h"
#include "transcript.h"

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
	s->root_alias = cfg->root_alias;
	s->log_fd = -1;
	if (session_id)
		snprintf(s->id, sizeof(s->id), "%s", session_id);
	else
		hs_random_hex(s->id, 16);
	if (log_path) {
		/* not through a symlink: one left by an earlier session's
		 * agent would make us append to whatever it names */
		s->log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND |
						   O_NOFOLLOW | O_CLOEXEC,
				 0600);
		if (s->log_fd < 0) {
			fprintf(stderr, "hookshim: --log %s: %s\n", log_path,
				strerror(errno));
			return -1;
		}
	}
	s->can_prompt = hs_prompt_possible();
	pthread_mutex_init(&s->log_mu, NULL);
	pthread_mutex_init(&s->ask_mu, NULL);
	hs_atomic_init(&s->atomic);
	hs_staged_init(&s->staged);
	hs_net_cache_init(&s->net);
	s->net.keep = cfg->settings.net_keep;
	return 0;
}

void hs_session_keep_transcript(struct hs_session *s, const char *keep_as)
{
	if (!s->transcript)
		s->transcript = hs_transcript_open(s->id, keep_as);
}

void hs_session_leave_transcript(struct hs_session *s)
{
	hs_transcript_finish(s->transcript);
}

void hs_session_close(struct hs_session *s)
{
	hs_log_export_stop(s, 0); /* stopped already where a session ends */
	hs_otlp_free(s->otlp);  /* no thread decides any more */
	s->otlp = NULL;
	hs_transcript_close(s->transcript);
	s->transcript = NULL;
	if (s->log_fd >= 0)
		close(s->log_fd);
	s->log_fd = -1;
	pthread_mutex_destroy(&s->log_mu);
	pthread_mutex_destroy(&s->ask_mu);
	hs_atomic_destroy(&s->atomic);
	hs_tickets_free(s->tickets);
	s->tickets = NULL;
	hs_staged_destroy(&s->staged);
	hs_net_cache_destroy(&s->net);
}

static bool is_post_phase(const struct hs_msg *req)
{
	return req->phase && strncmp(req->phase, "post", 4) == 0;
}

/* Is req's exec one of the agent's own shells (caller.h)? Never beneath
 * a hand-off: what runs there is the model's, whatever it looks like. A
 * post comes from `hookshim __exec` once the command, a child of its
 * own, has ended: asked of __exec itself, the process that made the exec
 * (the kernel's name for the asker), whose parent is the agent. */
static const char *own_shell(const struct hs_msg *req, bool post)
{
	struct hs_msg at;

	if (!req->argv || !req->argv[0] || req->nested > 0 || req->beneath > 0)
		return NULL;
	if (!post || req->peer <= 0)
		return hs_caller_agent_internal(req);
	at = *req;
	at.pid = req->peer;
	return hs_caller_agent_internal(&at);
}

/* The event a request describes. Strings stay owned by req; `command`
 * (to free) and `id` (caller's buffer) are computed here. -1 when the
 * request is not something hooks see, OWN_SHELL when it is one of the
 * agent's own shells (no event either). */
#define OWN_SHELL (-2)
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
		if ((internal = own_shell(req, ev->kind == HS_KIND_POST))) {
			if (ev->kind == HS_KIND_PRE)
				hs_log_internal(s, req, internal);
			return OWN_SHELL;
		}
		ev->op = HS_OP_EXEC;
		ev->argv = req->argv;
		ev->exe = req->exe ? req->exe : req->argv[0];
		*command = hs_caller_command_text(req, why);
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
	} else if (strcmp(req->op, "read") == 0) {
		/* the agent's own read (shim/read_event.c): pre only */
		if (!req->path || ev->kind != HS_KIND_PRE)
			return -1;
		ev->op = HS_OP_READ;
		ev->path = req->path;
		ev->operation = req->operation; /* name-too-long, or none */
	} else if (strcmp(req->op, "connect") == 0) {
		/* a command's outbound connection (shim/net.c), or a
		 * datagram it sends without one (operation "send"); a
		 * connection's post when it closes, with what it carried */
		if (!req->address || req->port < 0 || req->port > 65535)
			return -1;
		ev->has_bytes = req->has_sent && req->has_received;
		ev->bytes_sent = req->sent;
		ev->bytes_received = req->received;
		ev->op = HS_OP_NET;
		ev->operation = req->operation &&
					strcmp(req->operation, "send") == 0
				? "send" : "connect";
		ev->address = req->address;
		ev->host = req->host && req->host[0] ? req->host : req->address;
		ev->port = (int)req->port;
		ev->protocol = req->proto && strcmp(req->proto, "udp") == 0
				       ? "udp" : "tcp";
		/* what opened it, for the hooks: informational only (the
		 * process may have rewritten its own arguments) */
		ev->command = *command = hs_net_command_of(req->pid);
	} else {
		return -1;
	}
	ev->nested = req->nested > 0;
	ev->beneath = req->beneath > 0;
	ev->line = req->line > 0 && ev->op == HS_OP_EXEC;
	ev->cwd = req->cwd ? req->cwd : s->root;
	ev->pid = (pid_t)req->pid;
	ev->via = req->via;
	ev->session_id = s->id;
	ev->root = s->root;
	ev->root_alias = s->root_alias;
	if (req->id && req->id[0]) {
		snprintf(id, idcap, "%s", req->id);
	} else {
		unsigned long n = __atomic_add_fetch(&s->next_id, 1,
						     __ATOMIC_RELAXED);

		snprintf(id, idcap, "hs-%.16s-%lu", s->id, n);
	}
	ev->tool_use_id = id;
	ev->transcript_path = hs_transcript_path(s->transcript);
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

static void allow(const struct hs_session *s, struct hs_answer *ans)
{
	memset(ans, 0, sizeof(*ans));
	ans->verdict = HS_ALLOW;
	ans->deny_exit = s->cfg->settings.deny_exit;
	ans->deny_errno = s->cfg->settings.deny_errno;
}

/* A command a shell fed on stdin read (shim/stdin_line.c), asked about
 * line by line, that is not whole yet (an `if` still open, a
 * here-document): asked with LINE 1 it waits for its next line, nothing
 * judged or logged; with LINE 2 it is judged as it is and the answer
 * says it was unfinished (MORE), so that the shim judges it again with
 * its next line. */
static bool line_unfinished(const struct hs_msg *req)
{
	int i;

	return req->line > 0 && req->op && strcmp(req->op, "exec") == 0 &&
	       req->argv && req->argv[0] &&
	       (i = hs_command_shell_index(req->argv)) >= 0 &&
	       hs_sh_needs_more(req->argv[i]);
}

/* Did a hook of out fail to reach a verdict (crashed, timed out, could
 * not start)? Its outcome is then not kept for the destination: the next
 * connection asks again. */
static bool any_failed(const struct hs_outcome *out)
{
	char buf[160];

	for (size_t i = 0; i < out->nruns; i++)
		if (hs_run_failure(&out->runs[i].res, buf, sizeof(buf)))
			return true;
	return false;
}

/* This session's own hooks. */
static void decide_here(struct hs_session *s, const struct hs_msg *req,
			struct hs_answer *ans)
{
	struct hs_event ev;
	struct hs_outcome out;
	char id[160], *command;
	enum hs_verdict v;
	bool asked = false, unissued;
	struct hs_command_why why = { 0 };
	int rc;

	allow(s, ans);
	if ((rc = build_event(s, req, &ev, &command, id, sizeof(id), &why)) < 0) {
		/* the agent's own shell: the shim runs it as it is, with no
		 * post and no hand-off (it is no tool call) */
		ans->own = rc == OWN_SHELL;
		free(command);
		return;
	}
	/* a connection's close: its name verified; an excluded destination
	 * has no post as it had no pre */
	if (ev.op == HS_OP_NET && ev.kind != HS_KIND_PRE) {
		hs_net_verify_host(&ev);
		if (hs_net_excluded(s->cfg, &ev)) {
			free(command);
			return;
		}
	}
	/* one decided before, the agent's model, an excluded destination:
	 * no hook, no record (net_cache.h); its name verified first */
	if (ev.op == HS_OP_NET && ev.kind == HS_KIND_PRE) {
		bool deny;
		int err;
		char *why_not = NULL;

		/* the floor's notification of a connect this process's shim
		 * was allowed (enforce mode): the same call */
		if (req->via && strcmp(req->via, "floor") == 0 &&
		    hs_net_granted(&s->net, &ev)) {
			free(command);
			return;
		}
		if (hs_net_cache_get(&s->net, &ev, &deny, &err, &why_not)) {
			if (!deny && !req->via)
				hs_net_grant(&s->net, &ev);
			if (deny) {
				ans->verdict = HS_DENY;
				ans->deny_errno = err;
				ans->reason = why_not;
			}
			free(command);
			return;
		}
		/* (the floor names a connection only by a name its own
		 * lookup led to the address: floor_net.c) */
		if (!req->via)
			hs_net_verify_host(&ev);
		if (hs_net_excluded(s->cfg, &ev)) {
			if (!req->via)
				hs_net_grant(&s->net, &ev);
			free(command);
			return;
		}
	}
	/* A publish of a staged write whose open this session did not allow
	 * (a forged HOOKSHIM_FDS record: staged.h) is a whole write. */
	unissued = ev.stage == HS_STAGE_PUBLISH &&
		   !hs_staged_confirm(&s->staged, id, ev.path);
	if (unissued)
		ev.stage = HS_STAGE_NONE;
	/* Before the hooks: one reading the transcript sees its own call
	 * (the model's calls: a connection is not one of them) */
	if (ev.op != HS_OP_NET)
		hs_transcript_tool_use(s->transcript, &ev);
	hs_dispatch(s->cfg, &ev, &out);
	if (unissued)
		hs_outcome_warn(&out, "the publish of a staged write whose "
				"open this session never allowed: judged as a "
				"whole write, every pre hook asked");
	v = out.verdict;
	if (__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
	    ev.kind == HS_KIND_PRE && v != HS_DENY) {
		free(out.reason);
		out.reason = strdup("hookshim: the session ended before its "
				    "hooks decided");
		out.verdict = v = HS_DENY;
	}
	if (s->watch)
		s->watch(s->watch_arg, &ev, &out);
	/* A rewrite (updatedInput) is what runs: only a shell's -c command
	 * can be rewritten (the shim swaps that string), anything else is
	 * not run; and a prompt shows what would run. */
	if (out.updated_command && ev.kind == HS_KIND_PRE &&
	    ev.op == HS_OP_EXEC && v != HS_DENY &&
	    !(req->argv && hs_command_shell_index(req->argv) >= 0)) {
		free(out.reason);
		out.reason = strdup("hookshim: a hook rewrote this command "
				    "(updatedInput), but only a shell's -c "
				    "command can be rewritten: not run");
		out.verdict = v = HS_DENY;
	}
	if (v == HS_ASK) {
		const char *said = ev.command;

		if (out.updated_command && ev.op == HS_OP_EXEC)
			ev.command = out.updated_command;
		v = hs_prompt_resolve(s, &ev, out.reason, &asked);
		ev.command = said;
	}
	ans->verdict = v == HS_DENY ? HS_DENY : HS_ALLOW;
	if (ans->verdict == HS_DENY && out.deny_errno)
		ans->deny_errno = out.deny_errno;
	if (ans->verdict == HS_DENY)
		ans->reason = strdup(out.reason && out.reason[0]
					     ? out.reason
					     : "blocked by a hookshim hook");
	if (out.context && out.context[0])
		ans->context = strdup(out.context);
	if (ev.kind == HS_KIND_PRE)
		ans->id = strdup(id);
	if (ans->verdict == HS_ALLOW && ev.kind == HS_KIND_PRE &&
	    ev.op == HS_OP_EXEC && out.updated_command)
		ans->updated = strdup(out.updated_command);
	/* what runs a string its hook did not see has what it runs judged
	 * too (engine/handoff.h): said to the shim, which gives its shell
	 * the role "handoff" */
	if (ans->verdict == HS_ALLOW && ev.kind == HS_KIND_PRE &&
	    ev.op == HS_OP_EXEC && !ev.nested)
		ans->handoff = out.updated_command
				       ? hs_handoff_opaque(out.updated_command)
				       : why.beneath;
	if (ev.stage == HS_STAGE_OPEN && ev.kind == HS_KIND_PRE &&
	    ans->verdict == HS_ALLOW)
		hs_staged_allowed(&s->staged, id, ev.path);
	if (ev.op == HS_OP_NET && ev.kind == HS_KIND_PRE) {
		/* a refused connection looks like one nobody answers */
		if (ans->verdict == HS_DENY && !out.deny_errno)
			ans->deny_errno = s->cfg->settings.net_deny_errno;
		ans->failed = any_failed(&out);
		if (!__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
		    !ans->failed)
			hs_net_cache_put(&s->net, &ev, ans->verdict == HS_DENY,
					 ans->deny_errno, ans->reason);
		if (ans->verdict != HS_DENY && !req->via)
			hs_net_grant(&s->net, &ev);
	} else if (ev.op != HS_OP_NET) {
		hs_transcript_tool_result(s->transcript, &ev,
					  ans->verdict == HS_DENY ? ans->reason
								  : NULL);
	}
	hs_log_event(s, &ev, &out, ans->verdict == HS_DENY ? "deny" : "allow",
		  asked, &why);
	hs_outcome_free(&out);
	free(command);
}

/* Both contexts, for the model: the outer's first. */
static void join_context(struct hs_answer *ans, char *outer)
{
	char *both;

	if (!outer || !outer[0]) {
		free(outer);
		return;
	}
	if (!ans->context || !ans->context[0]) {
		free(ans->context);
		ans->context = outer;
		return;
	}
	if (asprintf(&both, "%s\n%s", outer, ans->context) >= 0) {
		free(ans->context);
		ans->context = both;
	}
	free(outer);
}

/* The agent asks whether an exec is a tool call, to hand it the reasons
 * of its own denied writes (shim/reason.c): a shell with a command
 * string (or any exec, with every-exec) that is not one of the agent's
 * own shells. No event, no log: it is asked only while a reason waits. */
static bool classify_only(const struct hs_msg *req, struct hs_answer *ans,
			  const struct hs_session *s)
{
	if (!req->phase || strcmp(req->phase, "classify") != 0)
		return false;
	allow(s, ans);
	/* the shim asks only for a shell with a command string (or any
	 * exec, with every-exec), as it reads them from the exe */
	ans->tool_call = req->op && strcmp(req->op, "exec") == 0 &&
			 hs_command_tool_call(req->argv, true);
	return true;
}

static void decide_judged(struct hs_session *s, const struct hs_msg *req,
			  struct hs_answer *ans)
{
	struct hs_answer up;
	struct hs_msg own;
	bool asked;

	if (!s->outer) {
		decide_here(s, req, ans);
		return;
	}
	/* The post of one of the agent's own shells fires no hook, ours or
	 * the outer's: told here, where who made the exec is known (the
	 * outer session would see only us) */
	if (is_post_phase(req) && req->op && strcmp(req->op, "exec") == 0 &&
	    own_shell(req, true)) {
		allow(s, ans);
		return;
	}
	/* Nested (outer.h): the outer first; its deny is final. */
	asked = hs_outer_ask(s->outer, req, &up) == 0;
	if (asked && up.verdict == HS_DENY) {
		*ans = up;
		if (!ans->reason)
			ans->reason = strdup("blocked by a hookshim hook of "
					     "the outer session");
		return;
	}
	own = *req;
	if (asked && up.id && !own.id)
		own.id = up.id; /* one tool_use_id in both sessions' logs */
	if (hs_outer_own_wants(s->outer, s->cfg, req))
		decide_here(s, &own, ans);
	else
		allow(s, ans);
	if (!asked)
		return;
	ans->own |= up.own; /* the agent's own shell, to either session */
	if (up.id && !ans->id && !is_post_phase(req)) {
		ans->id = up.id;
		up.id = NULL;
	}
	join_context(ans, up.context);
	up.context = NULL;
	hs_answer_free(&up);
}

static void decide(struct hs_session *s, const struct hs_msg *req,
		   struct hs_answer *ans)
{
	bool unfinished = line_unfinished(req);
	const char *text;
	int i;

	/* 3: the rest of a denied command, only whether it is whole yet */
	if ((unfinished && req->line == 1) || req->line == 3) {
		allow(s, ans);
		ans->more = unfinished;
		return;
	}
	decide_judged(s, req, ans);
	ans->more = unfinished;
	if (req->line <= 0 || ans->verdict != HS_ALLOW || !req->argv ||
	    (i = hs_command_shell_index(req->argv)) < 0)
		return;
	text = ans->updated ? ans->updated : req->argv[i];
	/* code left behind for a later command of the shell to run, and
	 * data an earlier one left that this one evaluates as code */
	ans->keeps = hs_handoff_leaves_code(text);
	ans->handoff |= hs_handoff_evaluates_data(text);
}

void hs_session_decide(struct hs_session *s, const struct hs_msg *req,
		       struct hs_answer *ans)
{
	char *id;

	if (classify_only(req, ans, s))
		return;
	/* the rename of an atomic save judged at its temp file (a session
	 * that is ending denies it with the rest, in decide_here) */
	if (!__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
	    hs_atomic_published(&s->atomic, req, &id)) {
		allow(s, ans);
		ans->id = id;
		return;
	}
	decide(s, req, ans);
	hs_atomic_decided(&s->atomic, req, ans);
}

/* What a ticket is kept under: what was judged, as both sides name it.
 * `kind`: the operation as the hooks saw it -- an exec, nested or not
 * (a command the hooks let through as nested is no tool call's ticket),
 * a write with its operation (a create is no delete's); `a`: an exec's
 * executable as the file it is (the floor names the path the caller
 * gave, /bin/bash, the shim the one it found, /usr/bin/bash), a write's
 * or read's path; `b`: an exec's argv, as a digest (a ticket for `bash
 * -c ls` is no ticket for `bash -c 'rm -rf x'`), a rename's or link's
 * new name. */
struct ticket_key {
	char kind[40];
	const char *a, *b;
	char exe[PATH_MAX], digest[48];
};

static void ticket_key_argv(const struct hs_msg *req, char *const *argv,
			    struct ticket_key *k);

static void ticket_key(const struct hs_msg *req, struct ticket_key *k)
{
	ticket_key_argv(req, req->argv, k);
}

/* An exec a hook rewrote (updatedInput): the shim runs the shell with the
 * new command (shim/exec_decide.c), so that argv is what the floor sees
 * and what the ticket is for. */
static void ticket_key_updated(const struct hs_msg *req, const char *updated,
			       struct ticket_key *k)
{
	size_t n = req->argv_count < 4096 ? req->argv_count : 0;
	char *argv[n + 1];
	int at;

	if (!n) /* none, or too many for the stack: the request's own */
		return;
	for (size_t i = 0; i < req->argv_count; i++)
		argv[i] = req->argv[i];
	argv[req->argv_count] = NULL;
	at = hs_shell_operand(argv);
	if (at >= 0 && (size_t)at < req->argv_count)
		argv[at] = (char *)updated;
	ticket_key_argv(req, argv, k);
}

static void ticket_key_argv(const struct hs_msg *req, char *const *argv,
			    struct ticket_key *k)
{
	unsigned long long h = 1469598103934665603ull;

	if (strcmp(req->op, "exec") != 0) {
		snprintf(k->kind, sizeof(k->kind), "%s:%s", req->op,
			 req->operation ? req->operation : "");
		k->a = req->path;
		k->b = req->new_path;
		return;
	}
	snprintf(k->kind, sizeof(k->kind), "exec:%s",
		 req->nested == 1 ? "nested" : "call");
	k->a = req->exe && realpath(req->exe, k->exe) ? k->exe : req->exe;
	for (size_t i = 0; i < req->argv_count; i++)
		for (const char *c = argv[i];; c++) {
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
			if (!*c)
				break;
		}
	snprintf(k->digest, sizeof(k->digest), "argv:%zu:%016llx",
		 req->argv_count, h);
	k->b = k->digest;
}

/* A staged write's publish is judged once, as the write of its target;
 * the shim's link to the staging name and the rename over the target
 * are operations of their own, so its tickets go by the op alone
 * (tickets.c holds them to those two calls). */
#define STAGE_KIND "write:publish"
/* An exec found to be the agent's own shell (no hook, no tool call) */
#define OWN_KIND "exec:own"

static void decide_as(struct hs_session *s, const struct hs_msg *req,
		      enum hs_ticket_side side, pid_t tgid, pid_t parent,
		      struct hs_answer *ans, bool *ticketed)
{
	struct ticket_key k;
	char *id;
	bool pre = req->phase && strcmp(req->phase, "pre") == 0 && req->op;
	bool publish = req->stage && strcmp(req->stage, "publish") == 0;

	*ticketed = false;
	/* a command a shell read on stdin is no exec: it gives no ticket
	 * (LINE 1 and 3 answers run no hook) and takes none */
	if (!s->tickets || !pre || tgid <= 0 || req->line > 0) {
		hs_session_decide(s, req, ans);
		return;
	}
	ticket_key(req, &k);
	if (!__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
	    (hs_tickets_take(s->tickets, side, tgid, k.kind, k.a, k.b,
			     req->temp_publish, &id) ||
	     hs_tickets_take(s->tickets, side, tgid, STAGE_KIND, k.a, k.b,
			     req->temp_publish, &id) ||
	     (parent > 0 && hs_tickets_take(s->tickets, side, parent, k.kind,
					     k.a, k.b, NULL, &id)))) {
		allow(s, ans);
		ans->id = id;
		*ticketed = true;
		/* as judged: what a tool call that hands off runs is judged
		 * too, whoever asked first */
		if (strcmp(req->op, "exec") == 0 && req->argv && req->argv[0]) {
			struct hs_command_why why = { 0 };

			free(hs_caller_command_text(req, &why));
			ans->handoff = why.beneath && req->nested <= 0;
			/* the shim in the image the floor let run asked about
			 * its own start as the agent's tool call: in enforce
			 * mode it starts once more to carry its new role in
			 * its initial environment (shim/init.c), the same
			 * command by the same process, which must not be
			 * judged twice -- unless it starts under `__exec` for
			 * a post instead, another program */
			if (side == HS_TICKET_SHIM && req->nested <= 0 &&
			    req->beneath <= 0 &&
			    !(hs_config_interest(s->cfg) & HS_INTEREST_EXEC_POST))
				hs_tickets_give(s->tickets, side, tgid, k.kind,
						k.a, k.b, ans->id, false);
		}
		return;
	}
	/* the agent's own shell, found so by the other side a moment ago
	 * (the shim's question, then the exec the floor sees): logged once.
	 * The ticket says only that it was logged; whether this exec is the
	 * agent's own is asked again of what this side knows (the floor's
	 * caller is the kernel's), never taken from the other side, whose
	 * request a process may have forged */
	if (strcmp(req->op, "exec") == 0 &&
	    !__atomic_load_n(&s->ending, __ATOMIC_ACQUIRE) &&
	    own_shell(req, false) &&
	    (hs_tickets_take(s->tickets, side, tgid, OWN_KIND, k.a, k.b, NULL,
			     &id) ||
	     (parent > 0 && hs_tickets_take(s->tickets, side, parent,
					     OWN_KIND, k.a, k.b, NULL, &id)))) {
		free(id);
		allow(s, ans);
		ans->own = true;
		return;
	}
	hs_session_decide(s, req, ans);
	if (ans->verdict != HS_ALLOW)
		return;
	/* the agent's own shell ran no hook: nothing to hand over but that
	 * it is one */
	if (ans->own) {
		hs_tickets_give(s->tickets, side, tgid, OWN_KIND, k.a, k.b,
				NULL, false);
		return;
	}
	/* A staged write's open makes no named call (an O_TMPFILE). What the
	 * floor decides, only an exec is asked about again (by the shim in
	 * the new image). */
	if (req->stage && strcmp(req->stage, "open") == 0)
		return;
	if (side == HS_TICKET_FLOOR && strcmp(req->op, "exec") != 0)
		return;
	/* the floor cannot run a rewritten exec: it denies (floor.c) */
	if (side == HS_TICKET_FLOOR && ans->updated)
		return;
	if (ans->updated && strcmp(req->op, "exec") == 0)
		ticket_key_updated(req, ans->updated, &k);
	/* a publish: the link to the staging name, and its rename over the
	 * target; anything else is a write the content hooks did not see */
	for (int i = 0; i < (publish ? 2 : 1); i++)
		hs_tickets_give(s->tickets, side, tgid,
				publish ? STAGE_KIND : k.kind, k.a, k.b,
				ans->id, publish);
}

void hs_session_decide_as(struct hs_session *s, const struct hs_msg *req,
			  enum hs_ticket_side side, pid_t tgid,
			  struct hs_answer *ans, bool *ticketed)
{
	decide_as(s, req, side, tgid, 0, ans, ticketed);
}

void hs_session_decide_exec_as(struct hs_session *s, const struct hs_msg *req,
			       pid_t tgid, pid_t parent, struct hs_answer *ans,
			       bool *ticketed)
{
	decide_as(s, req, HS_TICKET_FLOOR, tgid, parent, ans, ticketed);
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
	ev.transcript_path = hs_transcript_path(s->transcript);
	ev.root_alias = s->root_alias;
	ev.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : s->root;
	ev.pid = getpid();
	hs_dispatch(s->cfg, &ev, out);
	hs_log_event(s, &ev, out, hs_verdict_name(out->verdict), false, NULL);
}

/* This process's start time, which names it together with its pid (a
 * reused pid starts later). */
static long own_start_time(void)
{
	struct hs_proc_stat st;

	return hs_proc_stat((long)getpid(), &st) < 0 ? -1 : st.start;
}

/* The inode of this process's network namespace, where the socket is
 * bound: a shim in another one knows the agent's sandbox hides it
 * (shim/client.c). 0 when /proc cannot tell. */
static unsigned long own_netns(void)
{
	struct stat sb;

	return stat("/proc/self/ns/net", &sb) == 0 ? (unsigned long)sb.st_ino
						   : 0;
}

void hs_session_identity(char *buf, size_t len)
{
	snprintf(buf, len, ",p=%ld,t=%ld,w=%lu", (long)getpid(),
		 own_start_time(), own_netns());
}

void hs_session_flags(const struct hs_config *cfg, char *buf, size_t len)
{
	const struct hs_settings *set = &cfg->settings;
	int n;

	n = snprintf(buf, len, "i=%u,x=%d,e=%d,s=%d,n=%d,a=%d,l=%d,k=%d,m=%d",
		     hs_config_interest(cfg), set->deny_exit, set->deny_errno,
		     set->strict, set->nested_exec, set->all_execs,
		     set->deny_on_loss, set->net_keep >= 0, set->enforce);
	if (n > 0 && (size_t)n < len)
		hs_session_identity(buf + n, len - (size_t)n);
}

void hs_supervisor_out_of_reach(bool nested)
{
	if (!nested || geteuid() == 0)
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

void hs_session_ending(struct hs_session *s)
{
	__atomic_store_n(&s->ending, true, __ATOMIC_RELEASE);
}
