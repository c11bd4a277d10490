/* `hookshim run [config options] [--log FILE] [--] CMD [ARG...]`: one
 * session. Snapshot the config, start the supervisor, fire SessionStart,
 * run CMD with the shim preloaded, fire SessionEnd, exit as CMD did.
 * See docs/design-exec.md, "Processes". */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../config/diagnostics.h"
#include "../engine/command.h"
#include "../engine/runner.h"
#include "../engine/dispatch.h"
#include "../engine/protect.h"
#include "../common/shellargv.h"
#include "../common/wire.h"
#include "cli.h"
#include "run_report.h"
#include "../supervisor/agent.h"
#include "../supervisor/lifecycle.h"
#include "../supervisor/log.h"
#include "../floor/floor.h"
#include "../supervisor/outer.h"
#include "../supervisor/session.h"
#include "../supervisor/wrappers.h"

extern char **environ;

/* How long SessionEnd waits for requests still being decided (from
 * processes CMD left behind) before giving up on them. */
#define STOP_GRACE_MS 10000
/* The same once the agent was terminated: hooks still running are killed
 * first, so this is only for their threads to answer. */
#define ABRUPT_GRACE_MS 500
/* How long the last OpenTelemetry records may take to reach the
 * collector once the session is over (supervisor/otlp.h). */
#define EXPORT_GRACE_MS 2000

/* ---- CMD itself as a tool call ---- */

char *hs_cli_resolve_exe(const char *name)
{
	char cand[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, cand) ? strdup(cand) : strdup(name);
	return strdup(hs_agent_find_exe(name, cand, NULL) == 0 ? cand : name);
}

/* `hookshim run -- bash -c STR` is itself a tool call: hookshim run plays
 * the agent that launches it, so it asks the hooks before starting CMD
 * (the shim leaves children of the hookshim binary alone). Returns true to
 * start CMD; false when denied (*code set). *id gets the tool_use_id. */
static bool judge_cmd(struct hs_session *s, char **cmd, int *code, char **id)
{
	struct hs_msg req;
	struct hs_answer ans;
	char cwd[PATH_MAX], *exe = hs_cli_resolve_exe(cmd[0]);
	bool go;

	*id = NULL;
	memset(&req, 0, sizeof(req));
	req.op = "exec";
	req.phase = "pre";
	req.via = "run";
	req.nested = 0;
	req.pid = getpid();
	req.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	req.exe = exe;
	req.argv = cmd;
	hs_session_decide(s, &req, &ans);
	free(exe);
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
	/* a hook rewrote the command (updatedInput): CMD runs it instead;
	 * cmd is hookshim's own argv, which outlives the agent */
	if (go && ans.updated && hs_command_shell_index(cmd) >= 0) {
		cmd[hs_command_shell_index(cmd)] = ans.updated;
		ans.updated = NULL;
	}
	*id = ans.id;
	ans.id = NULL;
	hs_answer_free(&ans);
	return go;
}

/* ---- the syscall floor ---- */

/* Probes the floor (floor/floor.h) and adds its cookie to the
 * session's flags. -1 when "require" cannot be met, or an explicitly
 * chosen enforce mode (which is the floor deciding every call): not
 * starting. An enforce mode the session only implied (CI, strict) falls
 * back to guard without a floor, said in one line. Inside
 * an outer session with a floor, that floor covers this session too (its
 * cookie is in `flags` already; a second listener would get EBUSY). */
static int plan_floor(struct hs_config *cfg, const struct hs_outer *outer,
		      bool enforce_explicit, struct hs_floor_plan *fp,
		      char *flags, size_t cap)
{
	if (hs_outer_cookie(outer)) {
		/* the outer floor decides, in the outer session's mode */
		cfg->settings.enforce = false;
		memset(fp, 0, sizeof(*fp));
		fp->sock[0] = fp->sock[1] = fp->userns_fd = -1;
		return 0;
	}
	if (hs_floor_plan_for(fp, cfg, hs_config_interest(cfg) |
				       hs_outer_interest(outer)) < 0) {
		fprintf(stderr, "hookshim: out of memory\n");
		return -1;
	}
	if (fp->on) {
		size_t n = strlen(flags);

		/* wanted, not made (floor/floor_userns.c): said, not fatal */
		if (fp->userns_why[0])
			fprintf(stderr, "hookshim: %s: a process that makes "
					"itself non-dumpable (or one Yama keeps "
					"from us) has its calls left to the "
					"kernel, unjudged\n",
				fp->userns_why);

		snprintf(flags + n, cap - n, ",c=%llu",
			 (unsigned long long)fp->cookie);
		return 0;
	}
	/* (no why: nothing to watch, so nothing to enforce either) */
	if (cfg->settings.enforce && enforce_explicit && fp->why[0]) {
		fprintf(stderr, "hookshim: enforce mode needs the syscall "
				"floor, which is not available: %s; not "
				"starting\n", fp->why);
		return -1;
	}
	if (cfg->settings.floor == HS_FLOOR_REQUIRE) {
		fprintf(stderr, "hookshim: \"floor\": \"require\", but the "
				"syscall floor is not available: %s; not "
				"starting\n", fp->why);
		return -1;
	}
	if (fp->why[0] && cfg->settings.floor == HS_FLOOR_AUTO)
		fprintf(stderr, "hookshim: no syscall floor (%s): static "
				"binaries and raw syscalls are not seen%s\n",
			fp->why, cfg->settings.enforce ? "; guard mode, not "
							 "enforce" : "");
	else if (fp->why[0] && cfg->settings.enforce)
		fprintf(stderr, "hookshim: guard mode, not enforce: no syscall "
				"floor (%s)\n", fp->why);
	cfg->settings.enforce = false;
	return 0;
}

/* ---- the session ---- */

/* The name of the program CMD starts, whose places are the agent's own
 * (common/agent_place.h): past the programs that only start another
 * (env, nohup, timeout...: common/shellargv.h), their options and
 * NAME=VALUE words; NULL when none is left. */
static char *agent_name_of(char **cmd)
{
	for (; *cmd; cmd++) {
		const char *base = strrchr(*cmd, '/') ? strrchr(*cmd, '/') + 1
						      : *cmd;

		if (hs_chain_name(*cmd) || (*cmd)[0] == '-' ||
		    strchr(*cmd, '='))
			continue;
		/* timeout's duration, nice's number */
		if (base[0] >= '0' && base[0] <= '9' &&
		    strspn(base, "0123456789.smhd") == strlen(base))
			continue;
		return strdup(base);
	}
	return NULL;
}

const char hs_usage_run[] =
	"usage: hookshim run [-c FILE]... [--import D] [--dialect D] [--root DIR]\n"
	"                    [--trust-project] [--log FILE] [--ci|--no-ci]\n"
	"                    [--junit FILE] [--fail-on-deny] [--no-notices]\n"
	"                    [--enforce|--guard] [--] CMD [ARG...]\n"
	"Runs CMD (an agent, a build) with its commands and file writes\n"
	"judged by the hooks of the -c files (else hookshim's default ones);\n"
	"exits as CMD does. --ci (or CI=true): CI mode, a summary at the end,\n"
	"JUnit with --junit, GitHub annotations under GITHUB_ACTIONS.\n";

static int run_usage(void)
{
	fputs(hs_usage_run, stderr);
	return 64;
}

/* Config errors cost only the broken entries (or file), as the dialects
 * document; in strict mode (the strict_config setting, --ci, CI=true)
 * they refuse the session. True when the session may start. */
static bool config_usable(const struct hs_config *cfg, bool ci)
{
	size_t errors, warnings;
	char summary[64];

	hs_config_print_diags(stderr, cfg);
	hs_config_diag_counts(cfg, &errors, &warnings);
	if (cfg->managed.errors) {
		/* never part of an administrator's policy */
		fprintf(stderr, "hookshim: not starting: %zu error(s) in the "
				"managed policy (an administrator's file is "
				"used whole or not at all)\n",
			cfg->managed.errors);
		return false;
	}
	if (!errors)
		return true;
	hs_config_diag_summary(cfg, summary, sizeof(summary));
	if (cfg->settings.strict_config || ci) {
		fprintf(stderr, "hookshim: not starting: %s in the config "
				"(strict_config%s)\n", summary,
			ci ? ", implied by CI mode" : "");
		return false;
	}
	fprintf(stderr, "hookshim: %s in the config; starting without "
			"what is broken\n", summary);
	return true;
}

struct run_opts {
	struct hs_cli cli;
	struct hs_run_report report;
	int mode; /* --enforce / --guard: HS_MODE_*, over the config's */
	const char *log;
	char **cmd;
};

/* SIGTERM or SIGHUP to `hookshim run`: nothing the session runs may hold
 * it, so the hooks still deciding are killed and their calls denied. */
static void terminated(void *session)
{
	hs_session_ending(session);
	hs_run_kill_all(false); /* SessionEnd's hooks are still to run */
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	enum { ENFORCE = HS_OPT_VERB, GUARD, LOG };
	static const struct option opts[] = {
		HS_CLI_CONFIG_OPTIONS,
		HS_RUN_REPORT_OPTIONS,
		{ "enforce", no_argument, NULL, ENFORCE },
		{ "guard", no_argument, NULL, GUARD },
		{ "log", required_argument, NULL, LOG },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	memset(o, 0, sizeof(*o));
	/* '+': options end at CMD, whose own options are its */
	while ((c = hs_cli_getopt(argc, argv, "+c:", opts, "run",
				  hs_usage_run)) != -1) {
		if (c == '?')
			return -2;
		if ((r = hs_cli_config_opt(&o->cli, c, optarg)) != 0) {
			if (r < 0)
				return -2;
			continue;
		}
		if (hs_run_report_opt(&o->report, c, optarg))
			continue;
		switch (c) {
		case ENFORCE: o->mode = HS_MODE_ENFORCE; break;
		case GUARD: o->mode = HS_MODE_GUARD; break;
		case LOG: o->log = optarg; break;
		}
	}
	if (optind >= argc)
		return -1;
	o->cmd = &argv[optind];
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct hs_config cfg;
	struct hs_life life;
	struct hs_session *s = &life.s;
	struct hs_floor_plan fp;
	struct hs_floor *floor = NULL;
	struct hs_agent_env se = { 0 };
	struct hs_agent_signals ss;
	const char *why;
	char bin[PATH_MAX], *lib = NULL, *wrap_dir = NULL;
	char **envp = NULL, *id = NULL;
	bool tool_call, go = true;
	const struct hs_settings *set;
	int status = 0, code = 1;
	pid_t pid;
	bool drained, floor_done, abrupt, explicit_mode;

	if (parse_args(argc, argv, &o) < 0) {
		hs_sources_free(&o.cli.src);
		return run_usage();
	}
	/* The snapshot: loaded once, never re-read (mnemoai documents that
	 * editing hooks mid-session changes nothing). */
	if (hs_sources_load(&o.cli.src, &cfg) < 0) {
		hs_sources_free(&o.cli.src);
		return 1;
	}
	if (!config_usable(&cfg, hs_run_report_ci(&o.report)))
		goto out_cfg;
	if (!realpath("/proc/self/exe", bin)) {
		perror("hookshim: /proc/self/exe");
		goto out_cfg;
	}
	/* the mode first: the agent's user namespace, made before the
	 * session goes out of reach, is enforce mode's */
	{
		const char *lock = hs_config_locked(&cfg, "mode");

		if (o.mode && lock && o.mode != cfg.settings.mode)
			fprintf(stderr, "hookshim: warning: --%s: the mode is "
					"locked by the managed policy (%s): "
					"ignored\n",
				o.mode == HS_MODE_GUARD ? "guard" : "enforce",
				lock);
		else if (o.mode)
			cfg.settings.mode = o.mode;
		cfg.settings.enforce = hs_settings_want_enforce(
			&cfg.settings, hs_run_report_ci(&o.report),
			&explicit_mode);
		hs_settings_floor_defaults(&cfg.settings);
	}
	hs_run_report_settings(&o.report, &cfg);
	/* (what stops it is said on stderr where it happens) */
	if (hs_life_begin(&life, &cfg, o.log, o.report.junit, true, &why) < 0)
		goto out_cfg;
	hs_run_report_begin(&o.report, &cfg, s);
	set = &cfg.settings;
	if (plan_floor(&cfg, life.outer, explicit_mode, &fp, life.flags,
		       sizeof(life.flags)) < 0)
		go = false;
	hs_floor_hooks_no_core(&fp);
	/* after plan_floor: enforce may have fallen back to guard */
	hs_settings_resolve_failure(&cfg.settings, hs_run_report_ci(&o.report));
	if (go && cfg.settings.enforce && !(s->tickets = hs_tickets_new()))
		go = false;
	if (!go) {
		hs_floor_plan_free(&fp);
		goto out_life;
	}
	lib = hs_agent_find_lib(bin);
	if (set->wrap_tools && set->wrap_tools[0])
		wrap_dir = hs_wrap_dir_make(set->wrap_tools);
	tool_call = hs_command_shell_index(o.cmd) >= 0;
	/* the places of the program we start are its own */
	free(cfg.agent_name);
	cfg.agent_name = agent_name_of(o.cmd);
	se = (struct hs_agent_env){ .sock = life.sock, .session = s->id,
				   .root = cfg.root, .bin = bin, .lib = lib,
				   .flags = life.flags, .wrap_dir = wrap_dir,
				   .write = hs_life_write(&life),
				   .cfg = &cfg };
	envp = hs_agent_environ(&se);
	if (!envp || hs_life_serve(&life) < 0) {
		hs_life_stop(&life, 0, 0, true);
		goto out_env;
	}

	hs_agent_take_signals(&ss);
	hs_agent_on_terminate(terminated, s);
	/* enforce mode: the session's orphans are ours (floor_orphans.c)
	 * -- from before SessionStart, whose hooks' daemons a SIGTERM then
	 * ends too (one of theirs outlived the session: session 38) */
	if (fp.on && fp.enforce && !hs_floor_take_orphans())
		fprintf(stderr, "hookshim: warning: cannot take the session's "
				"orphans (%s): one whose parent ended is "
				"taken for the agent's\n",
			strerror(errno));
	hs_life_fire(&life, HS_KIND_SESSION_START, false);
	/* CMD stays the agent even when it is `sh -c STR` and was judged
	 * like a tool call: `hookshim run -- sh -c 'claude'` or `-- sh -c
	 * 'make test'` must still see the commands started inside as tool
	 * calls, not as nested ones. So it gets no post hooks of its own. */
	if (tool_call)
		go = judge_cmd(s, o.cmd, &code, &id);
	pid = go ? hs_agent_start(o.cmd, envp, &ss, &fp, &code)
		 : -1;
	free(id);
	if (pid > 0 && fp.on) {
		fp.agent = pid;
		fp.agent_env = envp;
		floor = hs_floor_start(&fp, s, se.write);
	}
	if (pid > 0)
		status = hs_agent_wait(pid);
	/* Terminated (SIGTERM, SIGHUP passed on): the session ends now, and
	 * the hooks of calls still being decided die with it, denied. */
	abrupt = hs_agent_passed_signal() != 0;
	if (abrupt) {
		hs_session_ending(s);
		/* what the agent left, ended at the signal or killed at
		 * its grace's end: ours, and it goes too (a receiver it held
		 * with them) */
		hs_agent_kill_orphans();
	} else
		hs_floor_settle(floor, STOP_GRACE_MS);
	hs_life_fire(&life, HS_KIND_SESSION_END, false);
	/* a floor thread still deciding holds the session as a request does */
	floor_done = hs_floor_stop(floor, abrupt ? ABRUPT_GRACE_MS
						 : STOP_GRACE_MS);
	hs_floor_plan_free(&fp);
	if (abrupt)
		hs_run_kill_all(false);
	/* the last records to the collector: briefly when terminated */
	drained = hs_life_stop(&life, abrupt ? ABRUPT_GRACE_MS : STOP_GRACE_MS,
			       abrupt ? ABRUPT_GRACE_MS : EXPORT_GRACE_MS,
			       floor_done);
	if (pid > 0)
		code = -1;
	hs_wrap_dir_remove(wrap_dir, set->wrap_tools);
	wrap_dir = NULL;
	code = hs_run_report_end(&o.report, code, status);
	if (!drained) {
		/* Threads still hold the config: leave it all to exit. */
		fprintf(stderr, "hookshim: requests still in flight at "
				"session end\n");
		return code >= 0 ? code : hs_exit_as(status);
	}
out_env:
	hs_floor_plan_free(&fp);
	if (envp) {
		for (char **e = envp; *e; e++)
			free(*e);
		free(envp);
	}
	hs_wrap_dir_remove(wrap_dir, set->wrap_tools);
	free(lib);
out_life:
	hs_life_end(&life);
out_cfg:
	hs_run_report_free(&o.report);
	hs_config_free(&cfg);
	hs_sources_free(&o.cli.src);
	return code >= 0 ? code : hs_exit_as(status);
}
