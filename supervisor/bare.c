/* The session of a bare `LD_PRELOAD=libhookshim.so CMD`, served by
 * `hookshim __supervise --pid PID --fd FD [--lib LIB]` (cli/supervise.c),
 * which the shim's constructor starts in the first process that loaded it
 * without one (shim/boot.c).
 *
 * With hookshim's default config (or HOOKSHIM_CONFIG=FILE:FILE...) it
 * listens on a fresh abstract socket, fires SessionStart, then writes the
 * session's environment on FD as NUL-terminated NAME=value records and
 * closes it; the process PID installs them and its children inherit them.
 * When PID exits and no request is in flight it fires SessionEnd and
 * exits. Answers on FD instead of an environment:
 *   "-"       no hooks configured: the shim stays inert, silently;
 *   "!TEXT"   a failure the shim reports in one warning line. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/wire.h"
#include "bare.h"
#include "lifecycle.h"

/* As `hookshim run`: requests still being decided when PID is gone (from
 * children it left behind) get this long before the session ends, and
 * the last OpenTelemetry records this long to reach the collector. */
#define STOP_GRACE_MS 10000
#define EXPORT_GRACE_MS 2000

/* One record, NUL included: values (the write filter) may hold newlines. */
static int put_record(int fd, const char *name, const char *val)
{
	char *s;
	int n = asprintf(&s, "%s%s%s", name, name[0] ? "=" : "", val);
	int rc;

	if (n < 0)
		return -1;
	rc = hs_write_full(fd, s, (size_t)n + 1);
	free(s);
	return rc;
}

static int fail(int fd, const char *why)
{
	put_record(fd, "", why); /* why starts with '!' */
	close(fd);
	return 1;
}

/* The keyboard and job-control signals are for the program that owns the
 * terminal; the supervisor stays in its process group (so it may prompt
 * on /dev/tty) and must outlive a Ctrl-C until that program is gone. */
static void ignore_signals(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN,
				    SIGTTOU, SIGHUP, SIGPIPE };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_IGN);
}

/* Blocks until `pid` is gone: a pidfd when the kernel has them, else
 * polling (the pid could be reused in between; a late SessionEnd is the
 * worst that follows). */
static void wait_gone(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
		close(fd);
		return;
	}
#endif
	while (kill(pid, 0) == 0 || errno == EPERM)
		usleep(200 * 1000);
}

/* <bindir>/../lib/libhookshim.so unless given. */
static char *lib_path(const char *given, const char *bin)
{
	char guess[PATH_MAX], real[PATH_MAX], *copy;

	if (given && given[0])
		return strdup(given);
	if (!(copy = strdup(bin)))
		return NULL;
	snprintf(guess, sizeof(guess), "%s/../lib/libhookshim.so",
		 dirname(copy));
	free(copy);
	return realpath(guess, real) ? strdup(real) : NULL;
}

/* The environment a child of `hookshim run` would get, as records;
 * joined with the outer session's when there is one (outer.h). */
static int send_env(int fd, struct hs_life *l, const char *bin,
		    const char *lib)
{
	const char *wf = hs_life_write(l);
	int rc = 0;

	rc |= put_record(fd, HS_ENV_SOCK, l->sock);
	rc |= put_record(fd, HS_ENV_SESSION, l->s.id);
	rc |= put_record(fd, HS_ENV_ROOT, l->cfg->root);
	rc |= put_record(fd, HS_ENV_BIN, bin);
	rc |= put_record(fd, HS_ENV_LIB, lib);
	rc |= put_record(fd, HS_ENV_FLAGS, l->flags);
	if (wf)
		rc |= put_record(fd, HS_ENV_WRITE, wf);
	rc |= put_record(fd, "UV_USE_IO_URING", "0");
	return rc;
}

/* After loading: the session, or why not on fd. */
static int serve(struct hs_config *cfg, int fd, pid_t pid, const char *lib_arg)
{
	struct hs_life life;
	const char *why;
	char bin[PATH_MAX], *lib;

	for (size_t i = 0; i < cfg->ndiags; i++)
		if (cfg->diags[i].fatal ||
		    (cfg->managed.errors && cfg->diags[i].error)) {
			/* and any error of the managed policy's: it is used
			 * whole or not at all */
			char msg[600];

			snprintf(msg, sizeof(msg), "!%s", cfg->diags[i].text);
			return fail(fd, msg);
		}
	if (cfg->nhooks == 0) {
		put_record(fd, "", "-");
		close(fd);
		return 0;
	}
	if (!realpath("/proc/self/exe", bin) || !(lib = lib_path(lib_arg, bin)))
		return fail(fd, "!cannot find libhookshim.so");
	/* The shim boots a bare session only where it finds none, so an
	 * outer session is for `__supervise` started by hand inside one: it
	 * joins it. */
	if (hs_life_begin(&life, cfg, NULL, NULL, false, &why) < 0) {
		char msg[128];

		free(lib);
		snprintf(msg, sizeof(msg), "!%s", why);
		return fail(fd, msg);
	}
	if (hs_life_serve(&life) < 0) {
		hs_life_stop(&life, 0, 0, true);
		hs_life_end(&life);
		free(lib);
		return fail(fd, "!cannot listen");
	}
	hs_life_fire(&life, HS_KIND_SESSION_START, true);
	if (send_env(fd, &life, bin, lib) < 0)
		pid = 0; /* nobody listens: end the session now */
	close(fd);
	free(lib);
	if (pid > 0)
		wait_gone(pid);
	hs_life_fire(&life, HS_KIND_SESSION_END, true);
	if (!hs_life_stop(&life, STOP_GRACE_MS, EXPORT_GRACE_MS, true))
		exit(0); /* threads still hold the config: just exit */
	hs_life_end(&life);
	return 0;
}

int hs_bare_session(const struct hs_sources *src, int fd, pid_t pid,
		    const char *lib)
{
	struct hs_config cfg;
	int rc;

	ignore_signals();
	if (hs_sources_load(src, &cfg) < 0)
		return fail(fd, "!cannot load the config");
	rc = serve(&cfg, fd, pid, lib);
	hs_config_free(&cfg);
	return rc;
}
