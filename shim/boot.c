/* A bare `LD_PRELOAD=libhookshim.so CMD`, without `hookshim run`: the
 * first process that loads the shim outside a session starts one for
 * itself, from its constructor (an ordinary context: a fresh image, before
 * main, normally single-threaded).
 *
 * When hooks are configured (HOOKSHIM_CONFIG, or a default hooks.json that
 * exists) it starts `hookshim __supervise` detached (double fork, so no
 * stray child for the host to wait for; every descriptor but a result pipe
 * closed; the terminal kept only where it is one, for ask prompts), waits a
 * bounded time for the session's variables on the pipe and installs them
 * in environ, so this process is the agent and its children join the
 * session. The supervisor ends the session when this process exits.
 * Without hook files nothing is started: the cost is a few access(2)s.
 * On any failure one warning line, and the shim stays inert, as do the
 * children (HOOKSHIM_INERT=1), which would otherwise each try again. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/plainstr.h"
#include "boot.h"
#include "../common/wire.h"
#include "real.h"
#include "state.h"

extern char **environ;

/* How long the constructor waits for the supervisor: it loads the config
 * and runs the SessionStart hooks first. */
#define BOOT_WAIT_MS 10000
#define BOOT_REPLY_MAX 16384

/* getenv without calling the host's getenv (bash defines its own, not
 * ready before main). */
static const char *env_get(const char *name)
{
	size_t n = strlen(name);

	for (char **ep = environ; ep && *ep; ep++)
		if (strncmp(*ep, name, n) == 0 && (*ep)[n] == '=')
			return *ep + n + 1;
	return NULL;
}

static bool exists_at(const char *dir, const char *rel)
{
	char p[PATH_MAX];
	size_t a = strlen(dir), b = strlen(rel);

	if (!dir[0] || a + b + 2 > sizeof(p))
		return false;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, rel, b + 1);
	return access(p, R_OK) == 0;
}

/* The files `hookshim __supervise` would load (config/load.c's defaults). */
static bool hooks_configured(void)
{
	const char *cfg = env_get("HOOKSHIM_CONFIG");
	const char *xdg = env_get("XDG_CONFIG_HOME");
	const char *home = env_get("HOME");

	if (cfg && cfg[0])
		return true;
	if (xdg && xdg[0] ? exists_at(xdg, "hookshim/hooks.json")
			  : home && exists_at(home, ".config/hookshim/hooks.json"))
		return true;
	return exists_at(".", ".hookshim/hooks.json");
}

/* HOOKSHIM_BIN, else <libdir>/../bin/hookshim next to this library. */
static bool find_bin(char *buf, const char **lib)
{
	const char *env = hs_state()->bin; /* HOOKSHIM_BIN, "" when unset */
	Dl_info info;
	const char *slash;
	size_t n;

	*lib = "";
	if (dladdr((void *)find_bin, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/')
		*lib = info.dli_fname;
	if (env[0] && strlen(env) < PATH_MAX) {
		memcpy(buf, env, strlen(env) + 1);
	} else {
		if (!(slash = strrchr(*lib, '/')))
			return false;
		n = (size_t)(slash - *lib);
		if (n + sizeof("/../bin/hookshim") > PATH_MAX)
			return false;
		memcpy(buf, *lib, n);
		memcpy(buf + n, "/../bin/hookshim", sizeof("/../bin/hookshim"));
	}
	return access(buf, X_OK) == 0;
}

/* Is this process the hookshim binary (`LD_PRELOAD=... hookshim run`)? */
static bool self_is(const char *bin)
{
	struct stat a, b;

	return stat("/proc/self/exe", &a) == 0 && stat(bin, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* fd 0..2 of the supervisor: the terminal stays (a hook may ask), anything
 * else becomes /dev/null so that no pipe of the host is held open. */
static void child_stdio(void)
{
	int null = HS_REAL(open)("/dev/null", O_RDWR | O_CLOEXEC);

	for (int fd = 0; fd < 3; fd++)
		if (!isatty(fd) && null >= 0)
			HS_REAL(dup2)(null, fd);
}

static void close_from(int lo)
{
#ifdef SYS_close_range
	if (HS_REAL(syscall)(SYS_close_range, (unsigned)lo, ~0u, 0) == 0)
		return;
#endif
	for (int fd = lo; fd < 4096; fd++)
		HS_REAL(close)(fd);
}

/* The grandchild: becomes `hookshim __supervise`, result pipe on fd 3,
 * environ minus LD_PRELOAD (the hooks it runs must not load the shim). */
static void exec_supervisor(const char *bin, const char *lib, pid_t host,
			    int wfd)
{
	char pid[24], *argv[] = { (char *)bin, "__supervise", "--pid", pid,
				  "--fd", "3", "--lib", (char *)lib, NULL };
	size_t n = 0;

	while (environ && environ[n])
		n++;
	{
		char *env[n + 1];
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
				env[k++] = environ[i];
		env[k] = NULL;
		hs_utoa((unsigned long)host, pid);
		if (HS_REAL(dup2)(wfd, 3) < 0)
			HS_REAL(_exit)(127);
		child_stdio();
		close_from(4);
		HS_REAL(execve)(bin, argv, env);
	}
	HS_REAL(_exit)(127);
}

/* Double fork: the supervisor is not our child, so the host never reaps
 * or waits for it. Returns the read end of the result pipe, or -1. */
static int start_supervisor(const char *bin, const char *lib)
{
	int p[2], st;
	pid_t host = getpid(), mid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	mid = fork();
	if (mid == 0) {
		HS_REAL(close)(p[0]);
		if (fork() == 0)
			exec_supervisor(bin, lib, host, p[1]);
		HS_REAL(_exit)(0);
	}
	HS_REAL(close)(p[1]);
	if (mid < 0) {
		HS_REAL(close)(p[0]);
		return -1;
	}
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	return p[0];
}

/* Everything the supervisor writes until it closes the pipe, or -1 on
 * timeout or error. */
static ssize_t collect(int fd, char *buf, size_t cap)
{
	long deadline = hs_now_ms() + BOOT_WAIT_MS;
	size_t len = 0;

	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		long left = deadline - hs_now_ms();
		ssize_t r;

		if (left <= 0)
			return -1;
		r = poll(&pf, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (r > 0 && (len += (size_t)r) == cap))
			return -1;
		if (r == 0)
			return (ssize_t)len;
	}
}

/* Does environ entry e set a variable one of the records sets? */
static bool replaced(const char *e, const char *recs, size_t len)
{
	size_t n = strcspn(e, "=");

	for (size_t i = 0; i < len; i += strlen(recs + i) + 1)
		if (strncmp(recs + i, e, n) == 0 && recs[i + n] == '=')
			return true;
	return false;
}

/* A new environ: ours with the records' variables set. Never freed
 * (environ points into it for good); setenv is not ours to call before
 * main. */
static bool install(const char *recs, size_t len)
{
	size_t n = 0, add = 0, k = 0;
	char **nenv;

	for (size_t i = 0; i < len; i++)
		add += recs[i] == '\0';
	while (environ && environ[n])
		n++;
	if (!(nenv = malloc((n + add + 1) * sizeof(*nenv))))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!replaced(environ[i], recs, len))
			nenv[k++] = environ[i];
	for (size_t i = 0; i < len; i += strlen(recs + i) + 1)
		nenv[k++] = (char *)recs + i;
	nenv[k] = NULL;
	environ = nenv;
	return true;
}

/* No session for this tree: HOOKSHIM_INERT=1 so that its children do not
 * each start a supervisor (and warn) again. */
static void stay_inert(void)
{
	static char rec[] = HS_ENV_OFF "=1"; /* writable: bash edits env strings */

	install(rec, sizeof(rec));
}

static void warn(const char *why)
{
	hs_write_str(2, "hookshim: warning: no session (");
	hs_write_str(2, why);
	hs_write_str(2, "); running without hooks\n");
}

/* Reads and installs the supervisor's answer; true when in a session. */
static bool join(int fd)
{
	char *buf = malloc(BOOT_REPLY_MAX);
	ssize_t len = buf ? collect(fd, buf, BOOT_REPLY_MAX) : -1;
	bool whole = len > 0 && buf[len - 1] == '\0';

	HS_REAL(close)(fd);
	if (whole && strncmp(buf, HS_ENV_SOCK "=", sizeof(HS_ENV_SOCK)) == 0 &&
	    install(buf, (size_t)len))
		return true;
	if (!whole)
		warn("the supervisor did not answer");
	else if (buf[0] == '!')
		warn(buf + 1);
	else if (strcmp(buf, "-") != 0) /* "-": no hooks after all */
		warn("out of memory");
	free(buf);
	stay_inert();
	return false;
}

/* A process outside any session, with hooks configured: find or start the
 * supervisor. Apart from hs_boot, whose test is all nearly every process
 * runs: its pages and its stack frame stay untouched there. */
static __attribute__((noinline, cold)) bool boot_outside(void)
{
	const char *lib;
	char bin[PATH_MAX];
	int fd;

	if (!hooks_configured())
		return false;
	if (!find_bin(bin, &lib)) {
		warn("hookshim binary not found next to the library; set "
		     "HOOKSHIM_BIN");
		stay_inert();
		return false;
	}
	if (self_is(bin))
		return false;
	if ((fd = start_supervisor(bin, lib)) < 0) {
		warn("cannot start the supervisor");
		stay_inert();
		return false;
	}
	return join(fd);
}

HS_START_PATH
bool hs_boot(void)
{
	const struct hs_state *st = hs_state();

	/* in a session already (nearly every process), or HOOKSHIM_INERT:
	 * outside a session st->inert is exactly that variable */
	if (st->sock[0] || st->inert)
		return false;
	return boot_outside();
}
