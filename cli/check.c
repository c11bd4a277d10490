/* hookshim check: what is loaded, grouped by event, then every
 * diagnostic and their counts; exits 1 when any is an error. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "../config/dialect.h"
#include "../config/diagnostics.h"
#include "../config/load.h"
#include "../config/session_env.h"
#include "../common/wire.h"
#include "../engine/dispatch.h"
#include "../engine/protect.h"
#include "../engine/write_filter.h"
#include "../floor/floor.h"
#include "../supervisor/otlp.h"
#include "cli.h"

static const char *matcher_text(const struct hs_hook *h)
{
	if (h->matcher.kind == HS_MATCH_ALL)
		return "*";
	return h->matcher.pattern;
}

static void print_hook(const struct hs_hook *h)
{
	size_t n = strcspn(h->command, "\n");
	char rule[256] = "", prio[32] = "";

	if (hs_dialect_ops(h->dialect)->priorities)
		snprintf(prio, sizeof(prio), ", priority %d", h->priority);
	if (h->has_rule)
		snprintf(rule, sizeof(rule), " if %s(%s)", h->rule.tool,
			 h->rule.pattern ? h->rule.pattern : "*");
	printf("  %-8s %-20s %.*s%s  (%gs%s)%s\n", hs_dialect_name(h->dialect),
	       matcher_text(h), (int)(n > 60 ? 60 : n), h->command,
	       n > 60 ? "..." : "", h->timeout_ms / 1000.0, prio, rule);
	printf("           from %s%s%s%s\n", h->source, h->name ? ", hook " : "",
	       h->name ? h->name : "",
	       h->managed ? " (managed: no other file removes or weakens it)"
			  : "");
	if (h->content_pre)
		printf("           reads the content: its writes are staged, "
		       "asked at close (docs/staged-writes.md)\n");
	if (h->read_named && h->matcher.kind == HS_MATCH_ALL)
		printf("           names %s in its script: reads are events for "
		       "it (docs/how-it-works.md, \"Read events\")\n",
		       hs_dialect_ops(h->dialect)->tools.read);
}

/* The administrator's layer and what it locks (config/load.h). */
static void print_managed(const struct hs_config *cfg)
{
	if (!cfg->managed.nfiles && !cfg->managed.errors)
		return;
	printf("\nmanaged policy: %zu file(s), loaded first%s\n",
	       cfg->managed.nfiles,
	       cfg->managed.errors ? "; HAS ERRORS: hookshim run refuses to "
				     "start"
				   : "");
	for (size_t i = 0; i < cfg->managed.nlocks; i++)
		printf("  locked hookshim.%s  (%s)\n", cfg->managed.locks[i].key,
		       cfg->managed.locks[i].file);
	if (cfg->managed.hooks_only)
		printf("  allowManagedHooksOnly  (%s): no other file's hooks "
		       "load\n", cfg->managed.why_hooks_only);
	printf("  (other files add hooks; none removes, reorders or weakens "
	       "the managed ones)\n");
}

/* The settings "env", as hooks and the agent get it; values of names that
 * look like secrets are masked (check's output ends up in CI logs). */
static void print_env(const struct hs_config *cfg)
{
	if (!cfg->nenv)
		return;
	printf("\nenv (settings \"env\": Claude-dialect hooks, and the agent "
	       "under hookshim run)\n");
	for (size_t i = 0; i < cfg->nenv; i++) {
		const struct hs_session_var *v = &cfg->env[i];

		if (hs_session_env_secret(v->name))
			printf("  %s=****  (masked, %zu characters)\n", v->name,
			       strlen(v->value));
		else
			printf("  %s=%s\n", v->name, v->value);
		printf("           from %s\n", v->source);
	}
}

/* What self-protection covers (engine/protect.h): the same set `run`
 * computes, which adds its --log and --junit files. */
static void print_protected(const struct hs_protect *p)
{
	printf("\nprotected during a session (no hook can allow a write):\n");
	for (size_t i = 0; p && i < p->n; i++)
		printf("  protect %s%s  (%s)\n", p->v[i].path,
		       p->v[i].kind == HS_PROT_TREE ? "/**" : "", p->v[i].why);
	printf("  (and hookshim run's --log and --junit files; renaming the "
	       "root or a directory above it is denied too)\n");
}

/* The agent profiles in force (config/agent_profile.h): only when a user
 * or an administrator added some, with where each came from. */
static void print_agents(const struct hs_config *cfg)
{
	if (!cfg->agents.n)
		return;
	printf("\nagent profiles (docs/agents.md):\n");
	for (size_t i = 0; i < cfg->agents.n; i++) {
		const struct hs_agent *a = &cfg->agents.v[i];

		printf("  %-14s %zu own shell(s), %zu hand-off(s)%s%s  (%s)\n",
		       a->name, a->ninternal, a->nhandoffs,
		       a->shapes ? ", wrapper " : "",
		       a->shapes ? hs_shape_name(a->shapes & -a->shapes) : "",
		       a->source);
	}
}

/* Where writes are events (engine/write_filter.c): the root, or the
 * writes.include entries, plus what hooks' "if" rules name outside it. */
static void print_scope(const struct hs_config *cfg)
{
	const struct hs_settings *s = &cfg->settings;
	char names[512], *filter;

	printf("\nwrites judged: ");
	if (s->write_include && s->write_include[0])
		for (char **e = s->write_include; *e; e++)
			printf("%s%s", e == s->write_include ? "" : ", ", *e);
	else
		printf("under the root, %s", cfg->root);
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const char *pat = hs_write_scope_rule(&cfg->hooks[i]);
		char why[256];

		/* not what an exclusion hides (a dead-rule warning says so) */
		if (pat && !hs_write_unwatched(cfg, &cfg->hooks[i], why,
					       sizeof(why)))
			printf("; %s (\"if\" of %s's %s hook)", pat,
			       cfg->hooks[i].source, cfg->hooks[i].event_name);
	}
	if (s->write_exclude && s->write_exclude[0])
		for (char **e = s->write_exclude; *e; e++)
			printf("%s%s", e == s->write_exclude ? "; except " : ", ",
			       *e);
	printf("\n");
	/* writes.agent_anywhere (common/agent_place.h) */
	if (!s->agent_anywhere) {
		printf("the agent's own writes: as the commands' "
		       "(writes.agent_anywhere is off)\n");
		return;
	}
	filter = hs_write_filter(cfg);
	hs_write_filter_names(filter, names, sizeof(names));
	free(filter);
	printf("the agent's own writes: anywhere but its own places (~/.NAME, "
	       "~/.NAME.*, ~/.config/NAME, ~/.local/share/NAME, "
	       "~/.cache/NAME, ~/.local/state/NAME for NAME %s, the program "
	       "`run` starts%s; ~/.cache, ~/.local/state, "
	       "~/.config/configstore, __pycache__; /tmp, /var/tmp, "
	       "/dev/shm, $TMPDIR", names,
	       cfg->settings.enforce ? ""
				     : " and, in guard mode, the writer's own "
				       "name");
	for (char **e = s->agent_state; e && *e; e++)
		printf(", %s", *e);
	printf(")\n");
}

/* Whether connections are events (docs/network.md). */
static void print_network(const struct hs_config *cfg)
{
	const struct hs_settings *s = &cfg->settings;

	unsigned in = hs_config_interest(cfg);

	if (!(in & (HS_INTEREST_NET_PRE | HS_INTEREST_NET_POST))) {
		printf("connections: no event (no hook for WebFetch)\n");
		return;
	}
	if (in & HS_INTEREST_NET_PRE) {
		char keep[48];

		if (s->net_keep < 0)
			snprintf(keep, sizeof(keep), "once per destination");
		else if (s->net_keep == 0)
			snprintf(keep, sizeof(keep), "every time (no cache)");
		else
			snprintf(keep, sizeof(keep),
				 "a decision kept %d s per destination",
				 s->net_keep);
		printf("connections judged (WebFetch): every connect and "
		       "datagram sent of the commands' programs%s, %s; a "
		       "denied one fails with %s; except the agent's model "
		       "endpoint from its environment",
		       s->net_agent ? " and the agent's own" : "", keep,
		       s->net_deny_errno == ECONNREFUSED ? "ECONNREFUSED"
							 : strerror(s->net_deny_errno));
		for (char **e = s->net_exclude; e && *e; e++)
			printf(", %s", *e);
		printf(" (docs/network.md)\n");
	}
	if (in & HS_INTEREST_NET_POST)
		printf("connections reported (PostToolUse WebFetch): when a "
		       "program with the shim closes one, with the bytes it "
		       "carried (docs/network.md)\n");
}

/* What a pre hook that fails (crashes, is killed, times out, is missing,
 * cannot start) means for its call, as `run` resolves it outside and in
 * CI mode, and the handlers that say otherwise. */
static void print_failure(const struct hs_config *cfg, bool enforce)
{
	struct hs_settings here = cfg->settings, ci = cfg->settings;
	size_t own[2] = { 0, 0 };

	here.enforce = enforce;
	hs_settings_resolve_failure(&here, false);
	ci.enforce = true;
	hs_settings_resolve_failure(&ci, true);
	printf("a failed hook: %s its call (%s)", here.fail_closed ? "denies"
		       : "allows", here.fail_closed ? here.fail_closed_why
		       : "the dialects' rule: a non-blocking error");
	if (!here.fail_closed && ci.fail_closed)
		printf("; denies under --ci and CI=true");
	for (size_t i = 0; i < cfg->nhooks; i++)
		if (cfg->hooks[i].fail_closed >= 0)
			own[cfg->hooks[i].fail_closed]++;
	if (own[0] || own[1])
		printf("; failClosed: true on %zu hook(s), false on %zu", own[1],
		       own[0]);
	printf("\n");
}

/* The trust model `hookshim run` would use (cli/run.c resolves it the
 * same way, with --ci known only there). */
static void print_mode(const struct hs_config *cfg,
		       const struct hs_floor_plan *fp)
{
	bool explicit_mode, in_ci = hs_settings_want_enforce(&cfg->settings,
							     true,
							     &explicit_mode);
	bool here = hs_settings_want_enforce(&cfg->settings, false,
					     &explicit_mode);
	const char *why = explicit_mode ? "\"mode\""
			  : cfg->settings.strict ? "\"strict\""
			  : cfg->settings.floor == HS_FLOOR_REQUIRE
				  ? "\"floor\": \"require\""
				  : "the default";

	printf("\ntrust model: %s (%s)", here ? "enforce" : "guard", why);
	if (!here && in_ci)
		printf("; enforce under --ci and CI=true");
	if ((here || in_ci) && !fp->on && fp->why[0])
		printf("; enforce %s here: no syscall floor",
		       explicit_mode ? "would refuse to start"
				     : "falls back to guard");
	printf("\n  (README, \"Guard and enforce\")\n");
	/* writes.follow_symlinks: enforce mode's default (config/model.c) */
	printf("symlinks: %s\n",
	       cfg->settings.follow_symlinks_set
		       ? (cfg->settings.follow_symlinks
				  ? "followed: the file one leads to is judged "
				    "(\"follow_symlinks\")"
				  : "judged by the name written "
				    "(\"follow_symlinks\": false)")
	       : here ? "followed: the file one leads to is judged (enforce "
			"mode's default)"
		      : "judged by the name written (guard mode's default; "
			"enforce mode follows them)");
	print_failure(cfg, here);
}

/* The agent's user namespace (floor/floor_userns.c), where the plan
 * wanted one (not root, not "off"). */
static void print_userns(const struct hs_config *cfg,
			 const struct hs_floor_plan *fp)
{
	int u = cfg->settings.floor_userns;

	if (fp->userns)
		printf("  the agent runs in a user namespace of its own%s: the "
		       "supervisor reads every session process, non-dumpable "
		       "ones too\n",
		       u == HS_FLOOR_USERNS_ON ? "" : " in enforce mode");
	else if (fp->userns_why[0])
		printf("  %s: a process that makes itself non-dumpable would "
		       "have its calls left to the kernel\n", fp->userns_why);
}

/* What `hookshim run` would get from the kernel (the same probe). */
static void print_floor(const struct hs_config *cfg)
{
	static const char *const modes[] = { "auto", "require", "off" };
	struct hs_floor_plan fp;
	/* probed as under CI, where enforce is the default: the user
	 * namespace is tried only for enforce mode ("floor_userns": "auto") */
	struct hs_config c2 = *cfg;
	struct hs_settings set = cfg->settings;
	bool explicit_mode;

	c2.settings.enforce = hs_settings_want_enforce(&cfg->settings, true,
						       &explicit_mode);
	printf("\nsyscall floor (%s): ", modes[cfg->settings.floor % 3]);
	if (hs_floor_plan(&fp, &c2) < 0)
		printf("out of memory\n");
	else if (fp.on) {
		static const struct { unsigned bit; const char *name; } cls[] = {
			{ HS_FLOOR_WRITES, "writes" }, { HS_FLOOR_EXECS, "execs" },
			{ HS_FLOOR_READS, "the agent's reads" },
		};
		int n = 0;

		printf("available: hookshim run decides static binaries' and raw "
		       "syscalls' ");
		for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++)
			if (fp.what & cls[i].bit)
				printf("%s%s", n++ ? " and " : "", cls[i].name);
		printf(" too%s\n",
		       fp.sync_wakeup ? "" : " (no synchronous wake-up)");
		/* docs/floor.md, "Refused calls": as run would, in the mode
		 * it would use outside CI */
		set.enforce = hs_settings_want_enforce(&set, false,
						       &explicit_mode);
		hs_settings_floor_defaults(&set);
		for (int g = 0, k = 0; g < HS_FA_COUNT; g++) {
			bool on = set.floor_allow & (1u << g);

			printf("%s%s%s", k++ ? ", " : "  refused (EPERM, with the "
					   "reason): ", hs_floor_allow_name(g),
			       !on ? ""
			       : set.floor_allow_set &&
					       (set.enforce ||
						(g != HS_FA_BIT_LANDLOCK &&
						 g != HS_FA_BIT_PROCESS_IMAGE))
				       ? " (allowed by floor_allow)"
				       : " (allowed in guard mode)");
		}
		if (set.floor_sandbox_mounts)
			printf("\n  (guard mode: mounts inside a sandbox's own "
			       "mount namespace are let through)");
		printf("\n");
		print_userns(cfg, &fp);
	}
	else if (!fp.why[0])
		printf("not needed (no pre hook on writes or commands)\n");
	else
		printf("not available: %s%s\n", fp.why,
		       cfg->settings.floor == HS_FLOOR_REQUIRE
			       ? "; hookshim run would refuse to start"
			       : "");
	printf("  (only under hookshim run: a bare LD_PRELOAD has no floor)\n");
	print_mode(cfg, &fp);
	hs_floor_plan_free(&fp);
}

const char hs_usage_check[] =
	"usage: hookshim check [-c FILE]... [--import D] [--dialect D] [--root DIR]\n"
	"                      [--trust-project]\n"
	"Lists the hooks that load, what is protected, the write scope, the\n"
	"syscall floor and the trust model `hookshim run` would use, then every\n"
	"diagnostic at its file:line:col (the same lines run prints); exits 1\n"
	"when any is an error.\n";

int cmd_check(int argc, char **argv)
{
	struct hs_cli cli = { 0 };
	struct hs_config cfg;
	struct hs_protect *prot;
	char summary[64];
	size_t errors, warnings;
	int rc;

	static const struct option opts[] = { HS_CLI_CONFIG_OPTIONS,
					      { NULL, 0, NULL, 0 } };
	int c;

	while ((c = hs_cli_getopt(argc, argv, "c:", opts, "check",
				  hs_usage_check)) != -1)
		if (c == '?' || hs_cli_config_opt(&cli, c, optarg) <= 0)
			return 64;
	if (optind < argc) {
		hs_cli_bad_arg("check", argv[optind], hs_usage_check);
		return 64;
	}
	if (hs_sources_load(&cli.src, &cfg) < 0)
		return 1;
	printf("%zu hook(s) from %zu file(s), root %s\n", cfg.nhooks,
	       cfg.nsources, cfg.root);
	for (size_t i = 0; i < cfg.nsources; i++)
		printf("  read %s%s\n", cfg.sources[i],
		       i < cfg.managed.nfiles ? "  (managed)" : "");
	print_managed(&cfg);
	/* Group by event name in first-seen order. */
	for (size_t i = 0; i < cfg.nhooks; i++) {
		bool first = true;

		for (size_t j = 0; j < i; j++)
			if (strcmp(cfg.hooks[j].event_name,
				   cfg.hooks[i].event_name) == 0)
				first = false;
		if (!first)
			continue;
		printf("\n%s%s\n", cfg.hooks[i].event_name,
		       cfg.hooks[i].kind == HS_KIND_NONE
			       ? " (cannot fire here)"
			       : "");
		for (size_t j = i; j < cfg.nhooks; j++)
			if (strcmp(cfg.hooks[j].event_name,
				   cfg.hooks[i].event_name) == 0)
				print_hook(&cfg.hooks[j]);
	}
	print_env(&cfg);
	cfg.protect = prot = hs_protect_new(&cfg, NULL, NULL);
	print_scope(&cfg);
	print_network(&cfg);
	print_agents(&cfg);
	print_protected(prot);
	print_floor(&cfg);
	{
		char where[600];

		hs_otlp_describe(&cfg.settings, where, sizeof(where));
		printf("decisions exported (OpenTelemetry): %s\n", where);
	}
	/* The same lines `run` prints on stderr (config/diagnostics.h). */
	if (cfg.ndiags) {
		printf("\n");
		hs_config_print_diags(stdout, &cfg);
	}
	hs_config_diag_summary(&cfg, summary, sizeof(summary));
	printf("\n%s\n", summary);
	/* Non-zero on any error, not only an unusable file: a CI step
	 * running `check` must fail when a hook cannot fire as written. */
	hs_config_diag_counts(&cfg, &errors, &warnings);
	rc = errors ? 1 : 0;
	hs_config_free(&cfg);
	hs_protect_free(prot);
	hs_sources_free(&cli.src);
	return rc;
}
