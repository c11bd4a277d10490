/* What `hookshim run` tells people about its session: terminal notices
 * while it runs and, in CI mode (`--ci`, or CI=true in the environment),
 * a summary at the end, $GITHUB_STEP_SUMMARY markdown, `--junit FILE`, and
 * `--fail-on-deny`. */
#ifndef HOOKSHIM_CLI_RUN_REPORT_H
#define HOOKSHIM_CLI_RUN_REPORT_H

#include <stdbool.h>

#include "../config/model.h"
#include "cli.h"
#include "../supervisor/notice.h"
#include "../supervisor/report.h"
#include "../supervisor/session.h"

struct hs_run_report {
	bool ci;            /* --ci or CI=true */
	bool no_ci;         /* --no-ci: not even under CI=true */
	bool fail_on_deny;  /* exit 1 when anything was denied */
	bool no_notices;    /* --no-notices */
	const char *junit;  /* --junit FILE */
	/* --junit and $GITHUB_STEP_SUMMARY, held from before the agent */
	struct hs_report_file junit_file, md_file;
	struct hs_report report;
	struct hs_notices notices;
	bool started;
};

/* The options above, as rows of run's getopt_long table, and what
 * getopt_long returned for one: true when it was one of them. */
enum {
	HS_OPT_CI = HS_OPT_VERB + 32,
	HS_OPT_NO_CI,
	HS_OPT_FAIL_ON_DENY,
	HS_OPT_NO_NOTICES,
	HS_OPT_JUNIT,
};
#define HS_RUN_REPORT_OPTIONS                                             \
	{ "ci", no_argument, NULL, HS_OPT_CI },                           \
	{ "no-ci", no_argument, NULL, HS_OPT_NO_CI },                     \
	{ "fail-on-deny", no_argument, NULL, HS_OPT_FAIL_ON_DENY },       \
	{ "no-notices", no_argument, NULL, HS_OPT_NO_NOTICES },           \
	{ "junit", required_argument, NULL, HS_OPT_JUNIT }
bool hs_run_report_opt(struct hs_run_report *rr, int c, const char *arg);

/* Whether CI mode is on (--ci, or CI=true unless --no-ci); settled on
 * the first call, so it is known before the config is judged. */
bool hs_run_report_ci(struct hs_run_report *rr);

/* Before the session is made: CI mode's fail-closed defaults in the
 * config's settings -- before the flags the shim reads are made from
 * them (an --ci session's shim without the floor once took a lost
 * supervisor for "allow"). */
void hs_run_report_settings(struct hs_run_report *rr, struct hs_config *cfg);

/* Before the session starts: the report and notices attached to `s`. */
void hs_run_report_begin(struct hs_run_report *rr, struct hs_config *cfg,
			 struct hs_session *s);

/* After the session ended: held-back notices, the summary, markdown and
 * JUnit. Returns `code` (-1: the agent's wait `status` decides), or 1
 * when --fail-on-deny turns a success into a failure. */
int hs_run_report_end(struct hs_run_report *rr, int code, int status);
void hs_run_report_free(struct hs_run_report *rr);

#endif
