/* Core benchmarks: how fast the engine rejects events no hook matches, and
 * what one trivial hook costs against a bare spawn of the same command.
 * Prints ratios measured in the same run; asserts nothing. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "../config/load.h"
#include "../engine/dispatch.h"

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bench_matcher(const char *cfgpath)
{
	struct hs_config cfg;
	struct hs_event ev = { .kind = HS_KIND_PRE, .op = HS_OP_EXEC,
			       .command = "ls -la", .root = "/tmp",
			       .session_id = "bench" };
	struct hs_outcome out;
	const int n = 200000;
	double t0, dt;

	hs_config_init(&cfg, "/tmp");
	hs_config_load_file(&cfg, cfgpath, -1, false);
	hs_config_finish(&cfg);
	t0 = now();
	for (int i = 0; i < n; i++) {
		hs_dispatch(&cfg, &ev, &out);
		if (out.nruns) {
			fprintf(stderr, "bench: a hook matched; fix the config\n");
			exit(1);
		}
		hs_outcome_free(&out);
	}
	dt = now() - t0;
	printf("matcher: %zu hooks (regex, exact, glob, if-rules), none "
	       "matching: %.0f events/s (%.2f us/event)\n",
	       cfg.nhooks, n / dt, dt / n * 1e6);
	hs_config_free(&cfg);
}

static double bare_spawn(int n)
{
	char *argv[] = { "/bin/sh", "-c", "true", NULL };
	double t0 = now();

	for (int i = 0; i < n; i++) {
		pid_t pid;
		int st;

		if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0)
			exit(1);
		waitpid(pid, &st, 0);
	}
	return (now() - t0) / n;
}

static double hook_dispatch(int n)
{
	struct hs_config cfg;
	struct hs_hook *h;
	struct hs_event ev = { .kind = HS_KIND_PRE, .op = HS_OP_EXEC,
			       .command = "ls", .root = "/tmp",
			       .session_id = "bench" };
	struct hs_outcome out;
	char err[64];
	double t0;

	hs_config_init(&cfg, "/tmp");
	h = hs_config_add_hook(&cfg);
	hs_dialect_parse("claude", &h->dialect);
	h->event_name = strdup("PreToolUse");
	h->kind = HS_KIND_PRE;
	h->ops = HS_OP_ANY;
	h->command = strdup("true");
	h->source = strdup("bench");
	h->timeout_ms = 10000;
	hs_matcher_init(&h->matcher, HS_MATCH_ALL, "", err, sizeof(err));
	t0 = now();
	for (int i = 0; i < n; i++) {
		hs_dispatch(&cfg, &ev, &out);
		hs_outcome_free(&out);
	}
	t0 = (now() - t0) / n;
	hs_config_free(&cfg);
	return t0;
}

int main(int argc, char **argv)
{
	const int n = 300;
	double bare, hook;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_core NONMATCHING-CONFIG\n");
		return 64;
	}
	bench_matcher(argv[1]);
	bare = bare_spawn(n);
	hook = hook_dispatch(n);
	printf("one trivial hook (sh -c true): full dispatch %.0f us, bare "
	       "posix_spawn+wait %.0f us: %.2fx\n",
	       hook * 1e6, bare * 1e6, hook / bare);
	return 0;
}
