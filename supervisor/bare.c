/* `hookshim __supervise --pid PID --fd FD [--lib LIB]`: the session of a
 * bare `LD_PRELOAD=libhookshim.so CMD`, started by the shim's constructor
 * in the first process that loaded it without one (shim/boot.c).
 *
 * It loads hookshim's default config (or HOOKSHIM_CONFIG=FILE:FILE...),
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

#include "../engine/dispatch.h"
#include "../engine/protect.h"
#include "../engine/write_filter.h"
#include "../common/wire.h"
#include "../cli/cli.h"
#include "log.h"
#include "outer.h"
#include "server.h"
#include "session.h"

/* As `hookshim run`: requests still being decided when PID is gone (from
 * children it left behind) get this long before the session ends. */
#define STOP_GRACE_MS 10000

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

static void fire(struct hs_session *s, enum hs_kind kind)
{
	struct hs_outcome out;

	hs_session_lifecycle(s, kind, &out);
	if (out.session_context && out.session_context[0] && isatty(2))
		fprintf(stderr, "%s\n", out.session_context);
	hs_outcome_free(&out);
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

struct sup_args {
	pid_t pid;
	int fd;
	const char *lib;
};

static int parse(int argc, char **argv, struct sup_args *a)
{
	a->pid = 0;
	a->fd = -1;
	a->lib = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--pid") == 0)
			a->pid = (pid_t)atol(argv[i + 1]);
		else if (strcmp(argv[i], "--fd") == 0)
			a->fd = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--lib") == 0)
			a->lib = argv[i + 1];
	}
	return a->pid > 0 && a->fd >= 0 ? 0 : -1;
}

/* The environment a child of `hookshim run` would get, as records;
 * joined with the outer session's when there is one (outer.h). */
static int send_env(int fd, const struct hs_session *s,
		    const struct hs_config *cfg, const char *sock,
		    const char *bin, const char *lib)
{
	char flags[256], *wf = hs_write_filter(cfg);
	int rc = 0;

	if (s->outer) {
		char *own = wf;

		wf = own ? hs_outer_write_filter(s->outer, own, cfg->root)
			 : NULL;
		free(own);
		hs_outer_flags(s->outer, cfg, flags, sizeof(flags));
	} else {
		hs_session_flags(cfg, flags, sizeof(flags));
	}
	rc |= put_record(fd, HS_ENV_SOCK, sock);
	rc |= put_record(fd, HS_ENV_SESSION, s->id);
	rc |= put_record(fd, HS_ENV_ROOT, cfg->root);
	rc |= put_record(fd, HS_ENV_BIN, bin);
	rc |= put_record(fd, HS_ENV_LIB, lib);
	rc |= put_record(fd, HS_ENV_FLAGS, flags);
	if (wf)
		rc |= put_record(fd, HS_ENV_WRITE, wf);
	rc |= put_record(fd, "UV_USE_IO_URING", "0");
	free(wf);
	return rc;
}

int cmd_supervise(int argc, char **argv)
{
	struct sup_args a;
	struct hs_cli cli;
	struct hs_config cfg;
	struct hs_session s;
	struct hs_supervisor *sv;
	struct hs_outer *outer;
	bool refuse;
	struct hs_protect *prot;
	char bin[PATH_MAX], sock[128], *cfgs, *lib;

	if (parse(argc, argv, &a) < 0) {
		fprintf(stderr, "usage: hookshim __supervise --pid PID --fd FD "
				"[--lib LIB]\n");
		return 64;
	}
	ignore_signals();
	memset(&cli, 0, sizeof(cli));
	if (hs_cli_env_config(&cli, &cfgs) < 0 || hs_cli_load(&cli, &cfg) < 0)
		return fail(a.fd, "!cannot load the config");
	for (size_t i = 0; i < cfg.ndiags; i++)
		if (cfg.diags[i].fatal ||
		    (cfg.managed.errors && cfg.diags[i].error)) {
			/* and any error of the managed policy's: it is used
			 * whole or not at all */
			char msg[600];

			snprintf(msg, sizeof(msg), "!%s", cfg.diags[i].text);
			return fail(a.fd, msg);
		}
	if (cfg.nhooks == 0) {
		put_record(a.fd, "", "-");
		close(a.fd);
		return 0;
	}
	if (!realpath("/proc/self/exe", bin) || !(lib = lib_path(a.lib, bin)))
		return fail(a.fd, "!cannot find libhookshim.so");
	/* The shim boots a bare session only where it finds none, so this
	 * is for `__supervise` started by hand inside one: it joins it. */
	outer = hs_outer_find(&refuse);
	if (refuse)
		return fail(a.fd, "!inside a session that does not answer");
	if (outer)
		hs_dispatch_hooks_in_outer_session();
	hs_supervisor_out_of_reach(outer != NULL);
	if (hs_session_init(&s, &cfg, NULL, NULL) < 0)
		return fail(a.fd, "!cannot start a session");
	s.outer = outer;
	hs_session_keep_transcript(&s, NULL);
	cfg.protect = prot = hs_protect_new(&cfg, NULL, NULL);
	snprintf(sock, sizeof(sock), "hookshim-%s", s.id);
	hs_log_export_start(&s); /* before any thread of the session logs */
	if (!(sv = hs_supervisor_start(&s, sock))) {
		hs_session_close(&s);
		return fail(a.fd, "!cannot listen");
	}
	fire(&s, HS_KIND_SESSION_START);
	if (send_env(a.fd, &s, &cfg, sock, bin, lib) < 0)
		a.pid = 0; /* nobody listens: end the session now */
	close(a.fd);
	if (a.pid > 0)
		wait_gone(a.pid);
	fire(&s, HS_KIND_SESSION_END);
	if (!hs_supervisor_stop(sv, STOP_GRACE_MS)) {
		hs_log_export_stop(&s, 500);
		hs_session_leave_transcript(&s);
		return 0; /* threads still hold the config: just exit */
	}
	hs_log_export_stop(&s, 2000);
	hs_session_close(&s);
	hs_outer_free(outer);
	hs_config_free(&cfg);
	hs_protect_free(prot);
	hs_cli_free(&cli);
	free(cfgs);
	free(lib);
	return 0;
}
