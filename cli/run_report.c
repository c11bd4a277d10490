/* Notices and CI reports of `hookshim run`; see run_report.h. */
#include "run_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/dispatch.h"

bool hs_run_report_opt(struct hs_run_report *rr, int c, const char *arg)
{
	switch (c) {
	case HS_OPT_CI: rr->ci = true; return true;
	case HS_OPT_NO_CI: rr->no_ci = true; return true;
	case HS_OPT_FAIL_ON_DENY: rr->fail_on_deny = true; return true;
	case HS_OPT_NO_NOTICES: rr->no_notices = true; return true;
	case HS_OPT_JUNIT: rr->junit = arg; return true;
	default: return false;
	}
}

/* CI=true is what GitHub Actions, GitLab CI, CircleCI, Travis and most
 * others set; "1" too. */
static bool ci_environment(void)
{
	const char *ci = getenv("CI");

	return ci && (strcmp(ci, "true") == 0 || strcmp(ci, "1") == 0);
}

bool hs_run_report_ci(struct hs_run_report *rr)
{
	if (!rr->no_ci && ci_environment())
		rr->ci = true;
	return rr->ci;
}

void hs_run_report_settings(struct hs_run_report *rr, struct hs_config *cfg)
{
	/* CI fails closed: nobody answers a prompt there, so an "ask" is a
	 * deny, and a call nobody can judge (the supervisor gone) is too. */
	if (hs_run_report_ci(rr)) {
		cfg->settings.ask_default = HS_DENY;
		cfg->settings.deny_on_loss = true;
	}
}

void hs_run_report_begin(struct hs_run_report *rr, struct hs_config *cfg,
			 struct hs_session *s)
{
	hs_report_init(&rr->report);
	rr->report.policy = cfg->sources;
	rr->report.npolicy = cfg->nsources;
	hs_notices_init(&rr->notices, cfg->settings.notices && !rr->no_notices);
	/* Each attached one costs a log record per decided event: only
	 * what this run will show. */
	if (rr->ci || rr->junit || rr->fail_on_deny)
		s->report = &rr->report;
	if (rr->notices.enabled)
		s->notices = &rr->notices;
	/* where the reports go is settled now, before the agent runs */
	hs_report_file_hold(&rr->junit_file, rr->junit);
	hs_report_file_hold(&rr->md_file, rr->ci ? getenv("GITHUB_STEP_SUMMARY")
						 : NULL);
	rr->started = true;
}

int hs_run_report_end(struct hs_run_report *rr, int code, int status)
{
	int effective = code >= 0	    ? code
			: WIFEXITED(status) ? WEXITSTATUS(status)
					    : -1;

	const char *md = rr->md_file.path;

	if (!rr->started)
		return code;
	hs_notices_flush(&rr->notices);
	if (rr->ci)
		hs_report_summary(stderr, &rr->report, false);
	/* on GitHub Actions, each denial and failed hook as an annotation
	 * of the run (workflow commands are read from stdout) */
	if (rr->ci && getenv("GITHUB_ACTIONS") &&
	    strcmp(getenv("GITHUB_ACTIONS"), "true") == 0)
		hs_report_annotations(stdout, &rr->report);
	if (rr->ci && md && md[0] &&
	    hs_report_markdown(&rr->report, &rr->md_file) < 0)
		fprintf(stderr, "hookshim: $GITHUB_STEP_SUMMARY %s: %s\n", md,
			strerror(errno));
	if (rr->junit && hs_report_junit(&rr->report, &rr->junit_file) < 0)
		fprintf(stderr, "hookshim: --junit %s: %s\n", rr->junit,
			strerror(errno));
	if (rr->fail_on_deny && rr->report.denied > 0 && effective == 0) {
		fprintf(stderr, "hookshim: %zu call%s denied (--fail-on-deny)\n",
			rr->report.denied, rr->report.denied == 1 ? "" : "s");
		code = 1;
	}
	return code;
}

void hs_run_report_free(struct hs_run_report *rr)
{
	if (!rr->started)
		return;
	hs_report_free(&rr->report);
	hs_notices_free(&rr->notices);
	hs_report_file_release(&rr->junit_file);
	hs_report_file_release(&rr->md_file);
	rr->started = false;
}
