/* `hookshim __exec --id ID [--nested] -- EXE ARGV...`: runs one tool call
 * for post hooks; and `hookshim __deny EXIT REASON...`, the stand-in the
 * shim spawns for a denied posix_spawn. See docs/design-exec.md. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/wire.h"
#include "cli.h"
#include "../engine/child.h"
#include "../supervisor/consult.h"

extern char **environ;

/* Bytes of each stream kept for the post hook; the command's own output is
 * never cut, only the copy. */
#define CAPTURE_MAX (1u << 20)

/* Writes text to stderr as one line (adds the newline if missing). */
static void say(const char *text)
{
	size_t n = strlen(text);

	if (!n)
		return;
	(void)hs_write_full(2, text, n);
	if (text[n - 1] != '\n')
		(void)hs_write_full(2, "\n", 1);
}

/* ---- one stream: child pipe -> our fd, with a capped copy ---- */

struct stream {
	int out;      /* our stdout or stderr */
	bool out_ok;  /* our side still takes writes */
	char *buf;    /* the captured head */
	size_t len;
};

/* Copies one read of the child's stream i to our side, unchanged, and
 * keeps what fits of it in the capped copy. */
static void pump(struct hs_child *c, int i, struct stream *s)
{
	char chunk[65536];
	ssize_t r = hs_child_read(c, i, chunk, sizeof(chunk));

	if (r <= 0)
		return;
	if (s->out_ok && hs_write_full(s->out, chunk, (size_t)r) < 0) {
		/* The reader is gone: let the command find out as it would
		 * have, by closing its pipe. */
		s->out_ok = false;
		hs_close_fd(&c->out[i]);
		return;
	}
	if (s->len < CAPTURE_MAX) {
		size_t keep = (size_t)r;

		if (keep > CAPTURE_MAX - s->len)
			keep = CAPTURE_MAX - s->len;
		if (!s->buf)
			s->buf = malloc(CAPTURE_MAX + 1);
		if (s->buf) {
			memcpy(s->buf + s->len, chunk, keep);
			s->len += keep;
			s->buf[s->len] = '\0';
		}
	}
}

/* The streams hs_child_poll found ready, stdout first. */
static void pump_ready(struct hs_child *c, int ready, struct stream *st)
{
	for (int i = 0; i < 2; i++)
		if (ready & HS_CHILD_READY(i))
			pump(c, i, &st[i]);
}

/* ---- signals: forwarded to the command, which decides its own fate ---- */

static volatile sig_atomic_t fwd_pid;

static void forward(int sig)
{
	int saved = errno;

	if (fwd_pid > 0)
		kill((pid_t)fwd_pid, sig);
	errno = saved;
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				 SIGUSR1, SIGUSR2 };

static void install_forwarding(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &sa, NULL);
	/* A closed reader must not kill us before the post hook runs. */
	signal(SIGPIPE, SIG_IGN);
}

/* ---- the child ---- */

static void exec_child(const char *exe, char *const argv[], int out_w,
		       int err_w, pid_t parent)
{
	char mark[48];

	/* Dies with us: nobody else would wait for it or report it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
		_exit(127);
	/* Already decided: the shim in the child (if any) must not decide
	 * again, and what the command starts is nested. We are single-
	 * threaded, so setenv after fork is safe. */
	snprintf(mark, sizeof(mark), "exec:%ld", (long)getpid());
	setenv(HS_ENV_CHECKED, mark, 1);
	setenv(HS_ENV_ROLE, "tool", 1);
	if (strchr(exe, '/'))
		execve(exe, argv, environ);
	else
		execvpe(exe, argv, environ);
	fprintf(stderr, "%s: %s\n", exe, strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Copies both streams until the child exits. Returns its wait status. */
static int copy_until_exit(struct hs_child *c, struct stream *st)
{
	int status;

	for (;;) {
		int ready = hs_child_poll(c, -1);

		/* A poll that cannot work ends the watch with the status
		 * unknown (reported as 0); the command, not reaped, dies with
		 * us (PR_SET_PDEATHSIG). */
		if (ready < 0 && errno != EINTR)
			return 0;
		if (ready > 0)
			pump_ready(c, ready, st);
		if (hs_child_exited(c))
			break;
	}
	status = hs_child_reap(c);
	/* Reaped behind our back (SIGCHLD ignored): nothing to report. */
	return status < 0 ? 0 : status;
}

/* After the command exited, its output may still be in flight, or held
 * by a background process it left behind. Drain what is there; if a
 * writer remains, hand the copying to a forked helper so the exit is
 * reported now and the rest still reaches the agent when written, as it
 * would without us. */
static void drain_rest(struct hs_child *c, struct stream *st)
{
	int ready;

	while ((ready = hs_child_poll(c, 20)) > 0)
		pump_ready(c, ready, st);
	if (!hs_child_reading(c))
		return;
	if (fork() == 0) {
		/* Only the pipes are the helper's to watch. */
		hs_close_fd(&c->pidfd);
		for (int i = 0; i < 2; i++) {
			free(st[i].buf);
			st[i].buf = NULL;
			st[i].len = CAPTURE_MAX; /* stop capturing */
		}
		while (hs_child_reading(c)) {
			ready = hs_child_poll(c, -1);
			if (ready < 0)
				break;
			pump_ready(c, ready, st);
		}
		_exit(0);
	}
}

void hs_exec_post_request(struct hs_msg *req, const struct hs_exec_ran *r,
			  char *error, size_t cap)
{
	memset(req, 0, sizeof(*req));
	req->op = "exec";
	req->nested = r->nested;
	req->pid = r->pid;
	req->id = r->id;
	req->cwd = r->cwd;
	req->exe = r->exe;
	req->argv = r->argv;
	req->duration_ms = r->ms;
	if (WIFSIGNALED(r->status)) {
		req->signo = WTERMSIG(r->status);
		snprintf(error, cap, "Command killed by signal %d (%s)",
			 WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
	} else {
		req->has_exit_code = true;
		req->exit_code = WEXITSTATUS(r->status);
		snprintf(error, cap, "Command failed with exit code %d",
			 WEXITSTATUS(r->status));
	}
	req->phase = req->signo || req->exit_code ? "post-failure" : "post";
	req->error = req->signo || req->exit_code ? error : NULL;
	req->out = r->out ? r->out : "";
	req->out_len = r->out ? r->out_len : 0;
	req->err = r->err ? r->err : "";
	req->err_len = r->err ? r->err_len : 0;
}

static void report(const char *exe, char *const argv[], const char *id,
		   int nested, pid_t pid, int status, long ms,
		   struct stream *st)
{
	struct hs_msg req;
	struct hs_answer ans;
	char cwd[PATH_MAX], error[96];
	struct hs_exec_ran r = {
		.exe = exe, .argv = argv, .id = id, .nested = nested,
		.pid = pid, .status = status, .ms = ms,
		.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL,
		.out = st[0].buf, .out_len = st[0].len,
		.err = st[1].buf, .err_len = st[1].len,
	};

	hs_exec_post_request(&req, &r, error, sizeof(error));
	hs_consult(&req, &ans);
	/* The agent's model reads the command's stderr: that is where what
	 * the post hooks want it to know goes. */
	if (ans.verdict == HS_DENY && ans.reason)
		say(ans.reason);
	if (ans.context)
		say(ans.context);
	hs_answer_free(&ans);
}

int hs_exec_supervised(const char *exe, char *const argv[], const char *id,
		       int nested)
{
	struct stream st[2] = { { .out = 1, .out_ok = true },
				{ .out = 2, .out_ok = true } };
	struct hs_child c;
	int status;
	pid_t parent = getpid(), pid;
	long t0 = hs_now_ms();

	/* Its stdin is ours, inherited: only its output is piped. */
	if (hs_child_pipes(&c, false) < 0) {
		perror("hookshim: pipe");
		return 126;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("hookshim: fork");
		return 126;
	}
	if (pid == 0)
		exec_child(exe, argv, c.theirs[1], c.theirs[2], parent);
	fwd_pid = pid;
	install_forwarding();
	hs_child_started(&c, pid);
	status = copy_until_exit(&c, st);
	drain_rest(&c, st);
	hs_child_close(&c);
	report(exe, argv, id, nested, pid, status, hs_now_ms() - t0, st);
	free(st[0].buf);
	free(st[1].buf);
	return hs_exit_as(status);
}

static int exec_usage(void)
{
	fprintf(stderr, "usage: hookshim __exec [--id ID] [--nested] -- EXE "
			"ARGV0 [ARG...]\n");
	return 64;
}

int cmd_exec(int argc, char **argv)
{
	enum { ID = HS_OPT_VERB, NESTED };
	static const struct option opts[] = {
		{ "id", required_argument, NULL, ID },
		{ "nested", no_argument, NULL, NESTED },
		{ NULL, 0, NULL, 0 },
	};
	const char *id = NULL;
	int nested = 0, i, c;

	/* '+': EXE and its arguments are not ours */
	while ((c = hs_cli_getopt(argc, argv, "+", opts, "__exec", "")) != -1) {
		if (c == ID)
			id = optarg;
		else if (c == NESTED)
			nested = 1;
		else
			return exec_usage();
	}
	i = optind;
	if (i >= argc)
		return exec_usage();
	/* EXE alone runs with argv = { EXE }. */
	if (i + 1 >= argc)
		return hs_exec_supervised(argv[i], &argv[i], id, nested);
	return hs_exec_supervised(argv[i], &argv[i + 1], id, nested);
}

int cmd_deny(int argc, char **argv)
{
	long code;
	char *end;

	if (argc < 2)
		return 126;
	errno = 0;
	code = strtol(argv[1], &end, 10);
	if (errno || *end || code < 0 || code > 255)
		code = 126;
	for (int i = 2; i < argc; i++) {
		(void)hs_write_full(2, argv[i], strlen(argv[i]));
		(void)hs_write_full(2, i + 1 < argc ? " " : "", i + 1 < argc);
	}
	if (argc > 2 && argv[argc - 1][0] &&
	    argv[argc - 1][strlen(argv[argc - 1]) - 1] != '\n')
		(void)hs_write_full(2, "\n", 1);
	return (int)code;
}

/* Exiting the way a supervised child did. */
int hs_exit_as(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct rlimit no_core = { 0, 0 };
		sigset_t set;

		/* Report the child's death the way a shell would have seen
		 * it; the core, if any, was the child's to dump, not ours. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		return 128 + sig;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
