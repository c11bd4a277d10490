/* The agent process of `hookshim run`: its environment, its PATH
 * wrappers, its start with the signal dispositions we were given, and the
 * wait for it; see agent.h. */
#include "agent.h"
#include "../floor/floor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/wire.h"
#include "../config/session_env.h"

extern char **environ;

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

/* environ, minus every HOOKSHIM_* (an outer session's, or values the user
 * left around), plus this session's. The shim treats CMD (a child of the
 * hookshim binary) as decided: it is the agent. */
char **hs_agent_environ(const struct hs_agent_env *se)
{
	struct envb b = { 0 };
	const char *old_preload = getenv("LD_PRELOAD");
	const char *old_path = getenv("PATH");

	for (char **e = environ; *e; e++) {
		if (has_prefix(*e, "HOOKSHIM_") ||
		    has_prefix(*e, "LD_PRELOAD=") ||
		    has_prefix(*e, "UV_USE_IO_URING=") ||
		    (se->wrap_dir && has_prefix(*e, "PATH=")) ||
		    (se->cfg && hs_session_env_sets(se->cfg, *e)))
			continue;
		env_put(&b, strdup(*e));
	}
	for (size_t i = 0; se->cfg && i < se->cfg->nenv; i++) {
		const struct hs_session_var *v = &se->cfg->env[i];

		if (se->wrap_dir && strcmp(v->name, "PATH") == 0)
			old_path = v->value; /* the wrappers go in front */
		else
			env_kv(&b, v->name, v->value);
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
char *hs_agent_find_lib(const char *bin)
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

/* ---- signals ---- */

/* CMD owns the terminal: keyboard signals reach it directly (same
 * process group) and must not kill us, or SessionEnd would never fire.
 * SIGTERM/SIGHUP sent to us alone are passed on. */
static const int ignored[] = { SIGINT, SIGQUIT, SIGTSTP };
static const int passed[] = { SIGTERM, SIGHUP };
_Static_assert(sizeof(ignored) / sizeof(ignored[0]) == HS_AGENT_NIGNORED,
	       "hs_agent_signals holds one slot per ignored signal");
_Static_assert(sizeof(passed) / sizeof(passed[0]) == HS_AGENT_NPASSED,
	       "hs_agent_signals holds one slot per passed signal");
#define NIGNORED HS_AGENT_NIGNORED
#define NPASSED HS_AGENT_NPASSED

static volatile sig_atomic_t child_pid;
static int child_pidfd = -1; /* CMD's, for the late kill (kill_late) */
static volatile sig_atomic_t early_sig; /* arrived before CMD started */
static volatile sig_atomic_t passed_sig; /* the last one passed on */

/* The terminate callback runs on a thread of its own, woken through a
 * pipe: a signal handler may only write(). */
static int term_pipe[2] = { -1, -1 };
static void (*term_fn)(void *);
static void *term_arg;

static void pass_on(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
	else
		early_sig = sig;
	passed_sig = sig;
	if (term_pipe[1] >= 0 && write(term_pipe[1], &c, 1) < 0) {
		/* full: a wake-up is pending already */
	}
	errno = saved;
}

struct parent_of {
	pid_t pid, ppid;
	long start;
};

static int by_parent(const void *a, const void *b)
{
	const struct parent_of *x = a, *y = b;

	return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

/* The n processes in out and every process under them, as /proc shows
 * their parents now, into out (cap entries), each one's start time in
 * start (the n given: 0); their count. One scan of /proc, every process
 * with its parent, sorted by parent, and the tree below out[] walked in
 * memory: a scan a generation took a chain 1,000 deep 15 s to list. */
static size_t descendants(pid_t *out, long *start, size_t n, size_t cap)
{
	struct parent_of *all = NULL, *grown;
	size_t na = 0, ca = 0;
	struct hs_proc_stat st;
	struct dirent *e;
	DIR *d;

	if (!(d = opendir("/proc")))
		return n;
	while ((e = readdir(d))) {
		long p = atol(e->d_name);

		if (p <= 0 || hs_proc_stat(p, &st) < 0)
			continue;
		if (na == ca) {
			ca = ca ? 2 * ca : 1024;
			if (!(grown = realloc(all, ca * sizeof(*all))))
				break;
			all = grown;
		}
		all[na++] = (struct parent_of){ (pid_t)p, (pid_t)st.ppid,
						st.start };
	}
	closedir(d);
	if (all)
		qsort(all, na, sizeof(*all), by_parent);
	for (size_t i = 0; i < n; i++)
		start[i] = 0;
	for (size_t i = 0; i < n && n < cap; i++) {
		size_t lo = 0, hi = na;

		while (lo < hi) { /* the first whose parent is out[i] */
			size_t mid = lo + (hi - lo) / 2;

			if (all[mid].ppid < out[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < na && all[lo].ppid == out[i] && n < cap; lo++) {
			start[n] = all[lo].start;
			out[n++] = all[lo].pid;
		}
	}
	free(all);
	return n;
}

/* SIGTERM or SIGHUP was passed on to CMD. A CMD that ignores it (or
 * takes longer than the grace to end) must not hold the session, which
 * ends within 2 s of the signal: after TERM_GRACE_MS, CMD and every
 * process under it is killed, and the session's orphans, which are ours
 * in enforce mode, with what is under them. */
#define TERM_GRACE_MS 1000

/* SIGKILL to each of the n processes in pids that lives and is still
 * the one listed -- its start time start[i], where that is not 0 (a
 * child of ours, whose pid is not free until we reap it) -- by a pidfd
 * opened before that look: one that ended since it was listed, its pid
 * taken by a process outside the session, is not killed. A zombie of
 * ours among them (an orphan that ended: floor/floor_orphans.c) reaped.
 * True when any was there to kill or reap: look again. (Another's
 * zombie is its parent's to reap, no reason to look again: the rounds'
 * scans of /proc, a few ms each, held a SIGTERM past its 2 s.) */
static bool kill_list(const pid_t *pids, const long *start, size_t n)
{
	struct hs_proc_stat st;
	siginfo_t si;
	bool any = false;
	int fd;

	for (size_t i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		/* gone (ESRCH); for want of a descriptor, by its pid, as
		 * before pidfds: better a rare wrong pid than one left */
		fd = (int)syscall(SYS_pidfd_open, pids[i], 0);
		if (fd < 0 && errno == ESRCH)
			continue;
		if (hs_proc_stat(pids[i], &st) < 0 ||
		    (start && start[i] && st.start != start[i])) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (st.state != 'Z') {
			if (fd < 0)
				kill(pids[i], SIGKILL);
			else
				syscall(SYS_pidfd_send_signal, fd, SIGKILL,
					NULL, 0);
			any = true;
		} else if (st.ppid == (long)getpid()) {
			if (fd < 0)
				(void)waitid(P_PID, (id_t)pids[i], &si,
					     WEXITED | WNOHANG);
			else
				(void)waitid(P_PIDFD, (id_t)fd, &si,
					     WEXITED | WNOHANG);
			any = true;
		}
		if (fd >= 0)
			close(fd);
	}
	return any;
}

/* Every process under cmd (none: 0) and the session's orphans (ours in
 * enforce mode: floor/floor_orphans.c) with every process under them,
 * killed; cmd itself is not. Round after round -- the tree (its
 * members' parent is CMD until it dies), the orphans with what is under
 * them, and then those forked meanwhile or orphaned by the kills, which
 * are ours then -- until a round finds nothing there: however many there
 * are (a list of 1,024 left 89 of 600 orphans running), and however they
 * move. Between the rounds' scans of /proc, the orphans alone, which are
 * quick to list (our children), until none is left: a process that
 * forks its successor and ends, once a millisecond, outran the scans
 * (each round's process gone from its pid by its kill, its successor
 * never listed). */
#define KILL_ROUNDS 64
#define KILL_CAP 16384
#define KILL_QUICK 10000
#define KILL_MS 500 /* a process that will not die (D state) holds no more */
static void kill_under(pid_t cmd)
{
	pid_t small[1024], *tree = malloc(KILL_CAP * sizeof(*tree));
	long small_start[1024], *start = malloc(KILL_CAP * sizeof(*start));
	size_t cap = tree && start ? KILL_CAP : sizeof(small) / sizeof(small[0]);
	size_t at = cmd > 0, n;
	long until = hs_now_ms() + KILL_MS;

	if (!tree || !start) {
		free(tree);
		free(start);
		tree = small;
		start = small_start;
	}
	for (int round = 0; round < KILL_ROUNDS && hs_now_ms() < until;
	     round++) {
		bool any;

		tree[0] = cmd;
		n = descendants(tree, start,
				at + hs_floor_orphans(tree + at, cap / 2), cap);
		any = kill_list(tree + at, start + at, n - at);
		for (int k = 0; k < KILL_QUICK && hs_now_ms() < until &&
				(n = hs_floor_orphans(tree, cap)) &&
				kill_list(tree, NULL, n);
		     k++)
			any = true;
		if (!any)
			break;
	}
	if (tree != small) {
		free(tree);
		free(start);
	}
}

static void kill_late(void)
{
	struct pollfd p = { .fd = child_pidfd, .events = POLLIN };

	if (child_pidfd < 0 || poll(&p, 1, TERM_GRACE_MS) != 0)
		return; /* ended (or cannot tell) */
	kill_under((pid_t)child_pid);
	syscall(SYS_pidfd_send_signal, child_pidfd, SIGKILL, NULL, 0);
}

static void *terminator(void *unused)
{
	char c;

	(void)unused;
	while (read(term_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	term_fn(term_arg);
	kill_late();
	return NULL;
}

int hs_agent_on_terminate(void (*fn)(void *), void *arg)
{
	pthread_t t;
	pthread_attr_t at;
	int rc;

	if (pipe2(term_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	/* The read end blocks; only the handler's end must not. */
	fcntl(term_pipe[0], F_SETFL, 0);
	term_fn = fn;
	term_arg = arg;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &at, terminator, NULL);
	pthread_attr_destroy(&at);
	/* A signal between hs_agent_take_signals and the pipe found no pipe
	 * to wake us through: wake now, or a hook already running (judging
	 * `hookshim run -- sh -c STR` itself) would hold the session until
	 * its own timeout. Both writing is harmless: one byte is read. */
	if (!rc && passed_sig && write(term_pipe[1], "", 1) < 0) {
		/* full: a wake-up is pending already */
	}
	return rc ? -1 : 0;
}

void hs_agent_take_signals(struct hs_agent_signals *ss)
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
static void child_sig_attr(const struct hs_agent_signals *ss,
			   posix_spawnattr_t *at)
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
pid_t hs_agent_start(char **cmd, char **envp,
		     const struct hs_agent_signals *ss,
		     const struct hs_floor_plan *fp, int *code)
{
	posix_spawnattr_t at;
	pid_t pid;
	int err;

	posix_spawnattr_init(&at);
	child_sig_attr(ss, &at);
	if (fp && fp->on) {
		/* the filter goes in between fork and exec */
		sigset_t def;

		posix_spawnattr_getsigdefault(&at, &def);
		err = hs_floor_spawn(fp, &pid, cmd, envp, &def, &ss->mask);
	} else {
		err = posix_spawnp(&pid, cmd[0], NULL, &at, cmd, envp);
	}
	posix_spawnattr_destroy(&at);
	if (err) {
		fprintf(stderr, "hookshim: %s: %s\n", cmd[0], strerror(err));
		*code = err == ENOENT ? 127 : 126;
		return -1;
	}
	child_pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (child_pidfd >= 0)
		fcntl(child_pidfd, F_SETFD, FD_CLOEXEC);
	child_pid = pid;
	if (early_sig)
		kill(pid, early_sig);
	return pid;
}

/* Are we the foreground job of our controlling terminal (on one of our
 * standard descriptors)? */
static bool in_foreground(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		pid_t fg = tcgetpgrp(fd);

		if (fg > 0)
			return fg == getpgrp();
	}
	return false;
}

/* Waits for CMD; mirrors its job-control stops so the user's shell sees
 * the job stop and continue as a whole. Returns the wait status. */
int hs_agent_wait(pid_t pid)
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
		/* A job-control stop is the user's shell's to see, on the
		 * terminal whose foreground we are. Anywhere else (CI, a
		 * pipeline in the background) it is no one's: a session that
		 * stopped itself there -- a tool call's `kill -STOP $PPID` --
		 * held every call waiting on the supervisor and took no
		 * SIGTERM until a SIGCONT came (session 38's attack run).
		 * The agent stays stopped; a signal passed on to it ends it
		 * (kill_late). */
		if (!in_foreground())
			continue;
		kill(getpid(), SIGSTOP);
		kill(pid, SIGCONT);
	}
}

void hs_agent_kill_orphans(void)
{
	kill_under(0);
}

int hs_agent_passed_signal(void)
{
	return (int)passed_sig;
}

int hs_agent_find_exe(const char *name, char *out, const struct stat *skip)
{
	const char *path = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {
		snprintf(out, PATH_MAX, "%s", name);
		return 0;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; p;) {
		const char *end = strchr(p, ':');
		int n = end ? (int)(end - p) : (int)strlen(p);
		struct stat st;

		if (snprintf(out, PATH_MAX, "%.*s/%s", n, n ? p : ".", name) <
			    PATH_MAX &&
		    stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    !(skip && st.st_dev == skip->st_dev &&
		      st.st_ino == skip->st_ino)) {
			if (access(out, X_OK) == 0)
				return 0;
			err = EACCES;
		}
		p = end ? end + 1 : NULL;
	}
	return err;
}
