/* `hookshim run [config options] [--log FILE] [--] CMD [ARG...]`: one
 * session. Snapshot the config, start the supervisor, fire SessionStart,
 * run CMD with the shim preloaded, fire SessionEnd, exit as CMD did.
 * See docs/design-exec.md, "Processes". */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/command.h"
#include "../engine/dispatch.h"
#include "../engine/write_filter.h"
#include "../common/wire.h"
#include "cli.h"
#include "../supervisor/session.h"

extern char **environ;

/* How long SessionEnd waits for requests still being decided (from
 * processes CMD left behind) before giving up on them. */
#define STOP_GRACE_MS 10000

/* ---- the child's environment ---- */

struct envb {
	char **v;
	size_t n, cap;
	bool failed;
};

/* Takes ownership of s (NULL marks the builder failed). */
static void env_put(struct envb *b, char *s)
{
	if (!s || b->failed) {
		free(s);
		b->failed = true;
		return;
	}
	if (b->n + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char **v = realloc(b->v, cap * sizeof(*v));

		if (!v) {
			free(s);
			b->failed = true;
			return;
		}
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = s;
	b->v[b->n] = NULL;
}

static void env_kv(struct envb *b, const char *k, const char *v)
{
	char *s;

	env_put(b, asprintf(&s, "%s=%s", k, v) < 0 ? NULL : s);
}

static void env_free(struct envb *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
	memset(b, 0, sizeof(*b));
}

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* The shim first, then what was there minus any libhookshim.so (a second
 * copy of the shim would judge every call twice). LD_PRELOAD takes ':' or
 * ' ' as separators. */
static char *preload_value(const char *lib, const char *old)
{
	size_t cap = strlen(lib) + (old ? strlen(old) : 0) + 2;
	char *out = malloc(cap), *tmp, *save = NULL;

	if (!out)
		return NULL;
	snprintf(out, cap, "%s", lib);
	if (!old || !(tmp = strdup(old)))
		return out;
	for (char *t = strtok_r(tmp, ": ", &save); t;
	     t = strtok_r(NULL, ": ", &save)) {
		const char *base = strrchr(t, '/');

		if (strcmp(base ? base + 1 : t, "libhookshim.so") == 0)
			continue;
		strcat(out, ":");
		strcat(out, t);
	}
	free(tmp);
	return out;
}

struct session_env {
	const char *sock, *session, *root, *bin, *lib, *flags, *wrap_dir;
	char *write; /* HOOKSHIM_WRITE (engine/write_filter.c) */
};

/* environ, minus every HOOKSHIM_* (an outer session's, or values the user
 * left around), plus this session's. The shim treats CMD (a child of the
 * hookshim binary) as decided: it is the agent. */
static char **child_env(const struct session_env *se)
{
	struct envb b = { 0 };
	const char *old_preload = getenv("LD_PRELOAD");
	const char *old_path = getenv("PATH");

	for (char **e = environ; *e; e++) {
		if (has_prefix(*e, "HOOKSHIM_") ||
		    has_prefix(*e, "LD_PRELOAD=") ||
		    has_prefix(*e, "UV_USE_IO_URING=") ||
		    (se->wrap_dir && has_prefix(*e, "PATH=")))
			continue;
		env_put(&b, strdup(*e));
	}
	if (se->lib) {
		char *v = preload_value(se->lib, old_preload);

		if (v)
			env_kv(&b, "LD_PRELOAD", v);
		else
			b.failed = true;
		free(v);
	} else if (old_preload) {
		env_kv(&b, "LD_PRELOAD", old_preload);
	}
	if (se->wrap_dir) {
		char *s;

		env_put(&b, asprintf(&s, "PATH=%s:%s", se->wrap_dir,
				     old_path ? old_path
					      : "/usr/local/bin:/usr/bin:/bin") < 0
				    ? NULL
				    : s);
	}
	env_kv(&b, HS_ENV_SOCK, se->sock);
	env_kv(&b, HS_ENV_SESSION, se->session);
	env_kv(&b, HS_ENV_ROOT, se->root);
	env_kv(&b, HS_ENV_BIN, se->bin);
	if (se->lib)
		env_kv(&b, HS_ENV_LIB, se->lib);
	env_kv(&b, HS_ENV_FLAGS, se->flags);
	if (se->write)
		env_kv(&b, HS_ENV_WRITE, se->write);
	/* CMD was decided here (judge_cmd): its constructor must not decide
	 * again, whatever the scope rules (tool_calls "every-exec" would make
	 * the agent itself a tool call). posix_spawn: the marker names us. */
	{
		char marker[32];

		snprintf(marker, sizeof(marker), "spawn:%ld", (long)getpid());
		env_kv(&b, HS_ENV_CHECKED, marker);
	}
	env_kv(&b, "UV_USE_IO_URING", "0");
	if (b.failed) {
		env_free(&b);
		return NULL;
	}
	return b.v;
}

/* HOOKSHIM_LIB if set (empty: run without the shim), else
 * <bindir>/../lib/libhookshim.so. NULL (with a warning) when missing. */
static char *find_lib(const char *bin)
{
	const char *env = getenv(HS_ENV_LIB);
	char guess[PATH_MAX], real[PATH_MAX], *dir, *copy, *lib = NULL;

	if (env && !env[0])
		return NULL;
	if (env) {
		snprintf(guess, sizeof(guess), "%s", env);
	} else {
		copy = strdup(bin);
		if (!copy)
			return NULL;
		dir = dirname(copy);
		snprintf(guess, sizeof(guess), "%s/../lib/libhookshim.so", dir);
		free(copy);
	}
	if (realpath(guess, real))
		lib = strdup(real);
	if (!lib)
		fprintf(stderr, "hookshim: warning: %s: %s; commands run without "
				"the shim\n", guess, strerror(errno));
	return lib;
}

/* ---- PATH wrappers for settings.wrap_tools ---- */

static char *make_wrap_dir(char *const *tools)
{
	const char *tmp = getenv("TMPDIR");
	size_t n = 0;
	char *dir;

	while (tools[n])
		n++;
	if (asprintf(&dir, "%s/hookshim-wrap-XXXXXX",
		     tmp && tmp[0] ? tmp : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir) || hs_wrap_create(dir, tools, n) < 0) {
		fprintf(stderr, "hookshim: wrapper dir %s: %s\n", dir,
			strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

static void remove_wrap_dir(char *dir, char *const *tools)
{
	char path[PATH_MAX];

	if (!dir)
		return;
	for (size_t i = 0; tools && tools[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tools[i]);
		unlink(path);
	}
	rmdir(dir);
	free(dir);
}

/* ---- signals ---- */

/* CMD owns the terminal: keyboard signals reach it directly (same
 * process group) and must not kill us, or SessionEnd would never fire.
 * SIGTERM/SIGHUP sent to us alone are passed on. */
static const int ignored[] = { SIGINT, SIGQUIT, SIGTSTP };
static const int passed[] = { SIGTERM, SIGHUP };
#define NIGNORED (sizeof(ignored) / sizeof(ignored[0]))
#define NPASSED (sizeof(passed) / sizeof(passed[0]))

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t early_sig; /* arrived before CMD started */

static void pass_on(int sig)
{
	int saved = errno;

	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
	else
		early_sig = sig;
	errno = saved;
}

struct sigstate {
	struct sigaction old_ignored[NIGNORED];
	struct sigaction old_passed[NPASSED];
	sigset_t mask;
};

static void take_signals(struct sigstate *ss)
{
	struct sigaction sa;

	sigprocmask(SIG_SETMASK, NULL, &ss->mask);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	for (size_t i = 0; i < NIGNORED; i++)
		sigaction(ignored[i], &sa, &ss->old_ignored[i]);
	sa.sa_handler = pass_on;
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < NPASSED; i++)
		sigaction(passed[i], &sa, &ss->old_passed[i]);
}

/* CMD gets the dispositions we were started with: default unless our own
 * parent ignored a signal (nohup), which CMD then inherits too. */
static void child_sig_attr(const struct sigstate *ss, posix_spawnattr_t *at)
{
	sigset_t def;

	sigemptyset(&def);
	for (size_t i = 0; i < NIGNORED; i++)
		if (ss->old_ignored[i].sa_handler != SIG_IGN)
			sigaddset(&def, ignored[i]);
	for (size_t i = 0; i < NPASSED; i++)
		if (ss->old_passed[i].sa_handler != SIG_IGN)
			sigaddset(&def, passed[i]);
	posix_spawnattr_setsigdefault(at, &def);
	posix_spawnattr_setsigmask(at, &ss->mask);
	posix_spawnattr_setflags(at, POSIX_SPAWN_SETSIGDEF |
					     POSIX_SPAWN_SETSIGMASK);
}

/* Starts CMD. Returns its pid, or -1 with *code set (127/126). */
static pid_t start_cmd(char **cmd, char **envp, const struct sigstate *ss,
		       int *code)
{
	posix_spawnattr_t at;
	pid_t pid;
	int err;

	posix_spawnattr_init(&at);
	child_sig_attr(ss, &at);
	err = posix_spawnp(&pid, cmd[0], NULL, &at, cmd, envp);
	posix_spawnattr_destroy(&at);
	if (err) {
		fprintf(stderr, "hookshim: %s: %s\n", cmd[0], strerror(err));
		*code = err == ENOENT ? 127 : 126;
		return -1;
	}
	child_pid = pid;
	if (early_sig)
		kill(pid, early_sig);
	return pid;
}

/* Waits for CMD; mirrors its job-control stops so the user's shell sees
 * the job stop and continue as a whole. Returns the wait status. */
static int wait_cmd(pid_t pid)
{
	int st = 0;

	for (;;) {
		pid_t r = waitpid(pid, &st, WUNTRACED);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 0;
		if (!WIFSTOPPED(st))
			return st;
		kill(getpid(), SIGSTOP);
		kill(pid, SIGCONT);
	}
}

/* ---- CMD itself as a tool call ---- */

/* execvp's search, for the event's executable. */
static char *resolve_exe(const char *name)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, cand) ? strdup(cand) : strdup(name);
	for (const char *p = path ? path : "/usr/bin:/bin"; p;) {
		const char *end = strchr(p, ':');
		int n = end ? (int)(end - p) : (int)strlen(p);
		struct stat st;

		if (snprintf(cand, sizeof(cand), "%.*s/%s", n, n ? p : ".",
			     name) < (int)sizeof(cand) &&
		    stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return strdup(cand);
		p = end ? end + 1 : NULL;
	}
	return strdup(name);
}

/* `hookshim run -- bash -c STR` is itself a tool call: hookshim run plays
 * the agent that launches it, so it asks the hooks before starting CMD
 * (the shim leaves children of the hookshim binary alone). Returns true to
 * start CMD; false when denied (*code set). *id gets the tool_use_id. */
static bool judge_cmd(struct hs_session *s, char **cmd, int *code, char **id)
{
	struct hs_msg req;
	struct hs_answer ans;
	char cwd[PATH_MAX];
	bool go;

	*id = NULL;
	memset(&req, 0, sizeof(req));
	req.op = "exec";
	req.phase = "pre";
	req.nested = 0;
	req.pid = getpid();
	req.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	req.exe = resolve_exe(cmd[0]);
	req.argv = cmd;
	hs_session_decide(s, &req, &ans);
	free(req.exe);
	go = ans.verdict != HS_DENY;
	if (!go) {
		const char *r = ans.reason ? ans.reason : "denied by hook";

		fputs(r, stderr);
		if (!r[0] || r[strlen(r) - 1] != '\n')
			fputc('\n', stderr);
		*code = ans.deny_exit;
	} else if (ans.context && ans.context[0]) {
		fputs(ans.context, stderr);
		if (ans.context[strlen(ans.context) - 1] != '\n')
			fputc('\n', stderr);
	}
	*id = ans.id;
	ans.id = NULL;
	hs_answer_free(&ans);
	return go;
}

/* ---- the session ---- */

static int run_usage(void)
{
	fprintf(stderr, "usage: hookshim run [-c FILE]... [--import D] "
			"[--dialect D] [--root DIR] [--log FILE] [--] CMD "
			"[ARG...]\n");
	return 64;
}

static void print_diags(const struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->ndiags; i++)
		fprintf(stderr, "hookshim: %s%s\n",
			cfg->diags[i].fatal ? "" : "warning: ",
			cfg->diags[i].text);
}

static void fire(struct hs_session *s, enum hs_kind kind)
{
	struct hs_outcome out;

	hs_session_lifecycle(s, kind, &out);
	/* memcode's session_start stdout is context for the model; until
	 * there is a way into the agent, the user sees it. */
	if (out.session_context && out.session_context[0]) {
		size_t n = strlen(out.session_context);

		fputs(out.session_context, stderr);
		if (out.session_context[n - 1] != '\n')
			fputc('\n', stderr);
	}
	hs_outcome_free(&out);
}

struct run_opts {
	struct hs_cli cli;
	const char *log;
	char **cmd;
};

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		int r;

		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		r = hs_cli_option(&o->cli, argc, argv, &i);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--log") == 0 && i + 1 < argc) {
			o->log = argv[++i];
		} else if (has_prefix(argv[i], "--log=")) {
			o->log = argv[i] + 6;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "hookshim run: unknown option '%s'\n",
				argv[i]);
			return -1;
		} else {
			break;
		}
	}
	if (i >= argc)
		return -1;
	o->cmd = &argv[i];
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct hs_config cfg;
	struct hs_session s;
	struct hs_supervisor *sv;
	struct session_env se = { 0 };
	struct sigstate ss;
	char sock[128], flags[128], bin[PATH_MAX], *lib, *wrap_dir = NULL;
	char **envp, *id = NULL;
	bool tool_call, go = true;
	const struct hs_settings *set;
	int status = 0, code = 1;
	pid_t pid;
	bool drained;

	if (parse_args(argc, argv, &o) < 0) {
		hs_cli_free(&o.cli);
		return run_usage();
	}
	/* The snapshot: loaded once, never re-read (mnemoai documents that
	 * editing hooks mid-session changes nothing). */
	if (hs_cli_load(&o.cli, &cfg) < 0) {
		hs_cli_free(&o.cli);
		return 1;
	}
	print_diags(&cfg);
	if (hs_config_has_fatal(&cfg)) {
		fprintf(stderr, "hookshim: not starting with a config that "
				"could not be loaded\n");
		goto out_cfg;
	}
	if (!realpath("/proc/self/exe", bin)) {
		perror("hookshim: /proc/self/exe");
		goto out_cfg;
	}
	if (hs_session_init(&s, &cfg, NULL, o.log) < 0)
		goto out_cfg;
	set = &cfg.settings;
	snprintf(sock, sizeof(sock), "hookshim-%s", s.id);
	hs_session_flags(&cfg, flags, sizeof(flags));
	lib = find_lib(bin);
	if (set->wrap_tools && set->wrap_tools[0])
		wrap_dir = make_wrap_dir(set->wrap_tools);
	tool_call = hs_command_shell_index(o.cmd) >= 0;
	se = (struct session_env){ .sock = sock, .session = s.id,
				   .root = cfg.root, .bin = bin, .lib = lib,
				   .flags = flags, .wrap_dir = wrap_dir,
				   .write = hs_write_filter(&cfg) };
	envp = child_env(&se);
	sv = envp ? hs_supervisor_start(&s, sock) : NULL;
	if (!sv)
		goto out_env;

	take_signals(&ss);
	fire(&s, HS_KIND_SESSION_START);
	/* CMD stays the agent even when it is `sh -c STR` and was judged
	 * like a tool call: `hookshim run -- sh -c 'claude'` or `-- sh -c
	 * 'make test'` must still see the commands started inside as tool
	 * calls, not as nested ones. So it gets no post hooks of its own. */
	if (tool_call)
		go = judge_cmd(&s, o.cmd, &code, &id);
	pid = go ? start_cmd(o.cmd, envp, &ss, &code)
		 : -1;
	free(id);
	if (pid > 0)
		status = wait_cmd(pid);
	fire(&s, HS_KIND_SESSION_END);
	drained = hs_supervisor_stop(sv, STOP_GRACE_MS);
	if (pid > 0)
		code = -1;
	remove_wrap_dir(wrap_dir, set->wrap_tools);
	wrap_dir = NULL;
	if (!drained) {
		/* Threads still hold the config: leave it all to exit. */
		fprintf(stderr, "hookshim: requests still in flight at "
				"session end\n");
		return code >= 0 ? code : hs_exit_as(status);
	}
out_env:
	if (envp) {
		for (char **e = envp; *e; e++)
			free(*e);
		free(envp);
	}
	remove_wrap_dir(wrap_dir, set->wrap_tools);
	free(lib);
	free(se.write);
	hs_session_close(&s);
out_cfg:
	hs_config_free(&cfg);
	hs_cli_free(&o.cli);
	return code >= 0 ? code : hs_exit_as(status);
}
