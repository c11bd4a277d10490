/* PATH tool wrappers: `hookshim wrap DIR TOOL...` makes DIR/TOOL symlinks
 * to hookshim; invoked under a tool's name, hookshim runs the pre hooks for
 * `TOOL ARGS...` and then the real TOOL found later on PATH. They need no
 * LD_PRELOAD, so they cover static agents the shim cannot enter. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../config/load.h"
#include "cli.h"
#include "../supervisor/agent.h"
#include "../supervisor/consult.h"
#include "../supervisor/wrappers.h"

/* How many hooks a wrapper invoked from here would load (the sources of
 * local_session() in supervisor/consult.c), its errors printed. */
static size_t wrapper_hooks(void)
{
	struct hs_sources src = { 0 };
	struct hs_config cfg = { 0 };
	char *files;
	size_t n = 0;

	if (hs_sources_from_env(&src, &files) == 0 &&
	    hs_sources_load(&src, &cfg) == 0) {
		for (size_t i = 0; i < cfg.ndiags; i++)
			if (cfg.diags[i].error)
				fprintf(stderr, "hookshim: %s\n", cfg.diags[i].text);
		n = cfg.nhooks;
		hs_config_free(&cfg);
	}
	hs_sources_free(&src);
	free(files);
	return n;
}

const char hs_usage_wrap[] =
	"usage: hookshim wrap DIR TOOL...\n"
	"Makes DIR/TOOL wrappers; put DIR first on PATH. A wrapper runs the\n"
	"pre hooks of HOOKSHIM_CONFIG's files, else hookshim's default ones,\n"
	"then TOOL; in a session, the session's.\n";

int cmd_wrap(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	size_t hooks;

	if (hs_cli_getopt(argc, argv, "+", opts, "wrap", hs_usage_wrap) != -1)
		return 64;
	argv += optind - 1; /* DIR TOOL... from argv[1] */
	argc -= optind - 1;
	if (argc < 3) {
		fputs(hs_usage_wrap, stderr);
		return 64;
	}
	if (hs_wrap_create(argv[1], &argv[2], (size_t)(argc - 2)) < 0)
		return 1;
	for (int i = 2; i < argc; i++)
		printf("wrapped %s/%s\n", argv[1], argv[i]);
	hooks = wrapper_hooks();
	if (!hooks)
		fprintf(stderr, "hookshim: wrap: no hook loads from here "
				"(HOOKSHIM_CONFIG, ~/.config/hookshim/hooks.json, "
				"./.hookshim/hooks.json): outside a session the "
				"wrappers run their tools unjudged\n");
	else
		printf("outside a session, %zu hook(s) judge them\n", hooks);
	return 0;
}

/* ---- invoked as a tool ---- */

/* The first TOOL on PATH that is not hookshim itself: the wrapper's own
 * directory, a second copy of it, or a symlink farm pointing back at us
 * are all skipped by comparing inodes, so there is no recursion. */
static char *find_real(const char *tool)
{
	struct stat self;
	char cand[PATH_MAX];

	if (stat("/proc/self/exe", &self) < 0 ||
	    hs_agent_find_exe(tool, cand, &self) != 0)
		return NULL;
	return strdup(cand);
}

/* Did the shim already decide this very exec? (design: "Checked exactly
 * once") */
static bool already_checked(void)
{
	const char *m = getenv(HS_ENV_CHECKED);
	char want[48];

	if (!m)
		return false;
	snprintf(want, sizeof(want), "exec:%ld", (long)getpid());
	if (strcmp(m, want) == 0)
		return true;
	snprintf(want, sizeof(want), "spawn:%ld", (long)getppid());
	return strcmp(m, want) == 0;
}

static bool inert(void)
{
	const char *v = getenv(HS_ENV_OFF);

	return v && v[0] && strcmp(v, "0") != 0;
}

static int exec_real(const char *real, char **argv, bool mark)
{
	if (mark) {
		char m[48];

		snprintf(m, sizeof(m), "exec:%ld", (long)getpid());
		setenv(HS_ENV_CHECKED, m, 1);
		setenv(HS_ENV_ROLE, "tool", 1);
	}
	execv(real, argv);
	fprintf(stderr, "hookshim: %s: %s\n", real, strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

int wrapper_main(int argc, char **argv)
{
	const char *tool = strrchr(argv[0], '/');
	const char *role = getenv(HS_ENV_ROLE);
	struct hs_msg req;
	struct hs_answer ans;
	char cwd[PATH_MAX], *real;
	int nested, rc;

	(void)argc;
	tool = tool ? tool + 1 : argv[0];
	real = find_real(tool);
	if (!real) {
		fprintf(stderr, "hookshim: %s: command not found on PATH "
				"(past the hookshim wrapper)\n", tool);
		return 127;
	}
	/* A hook's own commands, and an exec the shim has just judged, go
	 * straight through. */
	if (inert() || already_checked())
		return exec_real(real, argv, false);
	/* Inside a tool call the shim already judged, this is a nested
	 * command: the config decides whether that fires. Without the shim
	 * (a static agent) nobody judged it: it is the tool call. */
	nested = role && strcmp(role, "tool") == 0;
	memset(&req, 0, sizeof(req));
	req.op = "exec";
	req.phase = "pre";
	req.via = "wrapper";
	req.nested = nested;
	req.pid = getpid();
	req.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	req.exe = real;
	req.argv = argv;
	hs_consult(&req, &ans);
	if (ans.verdict == HS_DENY) {
		fprintf(stderr, "%s", ans.reason ? ans.reason : "denied by hook");
		if (!ans.reason || !ans.reason[0] ||
		    ans.reason[strlen(ans.reason) - 1] != '\n')
			fputc('\n', stderr);
		rc = ans.deny_exit;
		hs_answer_free(&ans);
		free(real);
		return rc;
	}
	if (ans.context && ans.context[0]) {
		fputs(ans.context, stderr);
		if (ans.context[strlen(ans.context) - 1] != '\n')
			fputc('\n', stderr);
	}
	if (hs_consult_interest() & HS_INTEREST_EXEC_POST) {
		rc = hs_exec_supervised(real, argv, ans.id, nested);
		hs_answer_free(&ans);
		free(real);
		return rc;
	}
	hs_answer_free(&ans);
	rc = exec_real(real, argv, true);
	free(real);
	return rc;
}
