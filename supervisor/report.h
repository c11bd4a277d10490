/* What a session decided, for people: one line per event (`hookshim log`),
 * a summary at the end (CI mode, terminal notices), GitHub's step summary
 * in markdown, and JUnit XML for CI systems.
 *
 * Everything is built from the --log record of each event (supervisor/
 * log.c makes it), so a live session and a log file read back later print
 * the same thing from the same code. */
#ifndef HOOKSHIM_SUPERVISOR_REPORT_H
#define HOOKSHIM_SUPERVISOR_REPORT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cJSON;

struct hs_report {
	pthread_mutex_t mu;
	size_t events;    /* tool events decided (pre and post) */
	size_t allowed;   /* pre events allowed */
	size_t denied;    /* pre events denied (and post blocks) */
	size_t hook_runs;
	size_t hook_failures; /* a hook that crashed, timed out, is missing */
	struct cJSON *cases;  /* records of events that ran a hook */
	struct cJSON *notable; /* records of denials, failures, context */
	/* the policy's files, for the step summary (the config's own
	 * strings, set by whoever owns it; may stay NULL) */
	char *const *policy;
	size_t npolicy;
};

void hs_report_init(struct hs_report *r);
void hs_report_free(struct hs_report *r);

/* Counts one record and keeps it when it matters. Thread-safe. */
void hs_report_add(struct hs_report *r, const struct cJSON *rec);

/* Why a record deserves a notice: "denied", "hook timed out", "hook
 * missing", "hook crashed", "hook failed", "context added"; NULL when it
 * does not. */
const char *hs_record_notable(const struct cJSON *rec);

/* The tool name the record's hooks saw (Bash, Write, edit_file, ...), else
 * one derived from the operation. */
const char *hs_record_tool(const struct cJSON *rec);

/* One line for a record: time, event, tool, what, decision, reason and
 * the hooks that ran. Control characters in what and why are escaped, so a
 * file name cannot forge lines. */
void hs_report_line(FILE *f, const struct cJSON *rec, bool color);

/* Counts, then every denial with its reason and every hook failure. */
void hs_report_summary(FILE *f, struct hs_report *r, bool color);

/* A file a report is written to at the end (--junit FILE,
 * $GITHUB_STEP_SUMMARY), named before the agent starts: its directory
 * is opened then and held, and the file is opened in it with O_NOFOLLOW,
 * so nothing the agent does meanwhile -- a symlink put at the name (to a
 * policy file, to /etc/...), a directory on the way renamed or replaced
 * by a symlink -- makes the supervisor write anywhere else. A directory
 * that does not exist yet is opened at the end (made by the session). */
struct hs_report_file {
	const char *path;
	int dir;        /* held, or -1 */
	char base[256]; /* the last component */
};
void hs_report_file_hold(struct hs_report_file *o, const char *path);
void hs_report_file_release(struct hs_report_file *o);

/* Appends the summary as markdown (GitHub's $GITHUB_STEP_SUMMARY). 0, or
 * -1 with errno (ELOOP: a symlink at the name). */
int hs_report_markdown(struct hs_report *r, const struct hs_report_file *o);

/* GitHub Actions workflow commands, one per denial (::error) and per
 * failed hook (::warning), titled with the tool and naming the hook's
 * file, so the run's page shows them as annotations. */
void hs_report_annotations(FILE *f, struct hs_report *r);

/* Writes JUnit XML: one testcase per event that ran a hook, a failure for
 * each denial, an error for each hook that failed. 0, or -1 with errno. */
int hs_report_junit(struct hs_report *r, const struct hs_report_file *o);

#endif
