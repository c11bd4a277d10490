/* `hookshim log FILE [--denied] [--tool NAME] [--since WHEN] [--json]
 * [--summary] [--junit OUT] [--markdown OUT]`: a session's --log as a
 * readable timeline — what was asked, what was decided and why, how long
 * each hook took — built by the same code that reports a live session
 * (supervisor/report.c), so both say the same.
 *
 * FILE may also be an OTLP JSON-lines file (the "otlp" setting's
 * "file": one ExportLogsServiceRequest a line), read back into records
 * (supervisor/otlp_record.c).
 *
 * WHEN is a time as the log writes it (2026-12-02T01:02:03Z, or any
 * prefix of one) or an age: 30s, 10m, 2h, 1d. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../supervisor/otlp_record.h"
#include "../supervisor/report.h"
#include "cli.h"

struct log_opts {
	const char *file;
	bool denied, json, summary;
	const char *tool;
	char since[40]; /* ISO time; "" for none */
	const char *junit, *markdown;
};

const char hs_usage_log[] =
	"usage: hookshim log FILE [--denied] [--tool NAME] [--since WHEN] [--json]\n"
	"                    [--summary] [--junit OUT] [--markdown OUT]\n"
	"A session's --log as a timeline: what was asked, decided and why, which\n"
	"hooks ran and how long they took. WHEN is a time (2026-12-02T10:00) or\n"
	"an age (10m); --json passes the chosen lines through unchanged.\n";

static int log_usage(void)
{
	fputs(hs_usage_log, stderr);
	return 64;
}

/* "10m" and friends as an ISO time that long ago; an ISO time (or
 * prefix) as it is. 0, or -1 when it is neither. */
static int parse_since(const char *s, char *out, size_t cap)
{
	char *end;
	long v = strtol(s, &end, 10);
	long mult = 0;
	time_t t;
	struct tm tm;

	if (end != s && end[0] && !end[1]) {
		switch (end[0]) {
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		case 'd': mult = 86400; break;
		}
	}
	if (mult && v >= 0) {
		t = time(NULL) - (time_t)(v * mult);
		gmtime_r(&t, &tm);
		strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &tm);
		return 0;
	}
	if (strlen(s) >= 4 && s[0] >= '0' && s[0] <= '9' && strlen(s) < cap) {
		snprintf(out, cap, "%s", s);
		return 0;
	}
	return -1;
}

static int parse_log_args(int argc, char **argv, struct log_opts *o)
{
	enum { DENIED = HS_OPT_VERB, JSON, SUMMARY, TOOL, JUNIT, MARKDOWN,
	       SINCE };
	static const struct option opts[] = {
		{ "denied", no_argument, NULL, DENIED },
		{ "json", no_argument, NULL, JSON },
		{ "summary", no_argument, NULL, SUMMARY },
		{ "tool", required_argument, NULL, TOOL },
		{ "junit", required_argument, NULL, JUNIT },
		{ "markdown", required_argument, NULL, MARKDOWN },
		{ "since", required_argument, NULL, SINCE },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = hs_cli_getopt(argc, argv, "", opts, "log",
				  hs_usage_log)) != -1) {
		switch (c) {
		case DENIED: o->denied = true; break;
		case JSON: o->json = true; break;
		case SUMMARY: o->summary = true; break;
		case TOOL: o->tool = optarg; break;
		case JUNIT: o->junit = optarg; break;
		case MARKDOWN: o->markdown = optarg; break;
		case SINCE:
			if (parse_since(optarg, o->since, sizeof(o->since)) < 0) {
				fprintf(stderr, "hookshim log: --since %s: not a "
						"time (2026-12-02T10:00) or an "
						"age (30s, 10m, 2h, 1d)\n",
					optarg);
				return -1;
			}
			break;
		default:
			return -1;
		}
	}
	if (optind < argc)
		o->file = argv[optind++];
	if (optind < argc)
		return -1;
	return o->file ? 0 : -1;
}

/* A record's string member, or NULL. */
static const char *field(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static bool wanted(const struct log_opts *o, const cJSON *rec)
{
	const char *ts = field(rec, "ts");

	if (o->denied) {
		const char *d = field(rec, "decision");

		if (!d || (strcmp(d, "deny") != 0 && strcmp(d, "block") != 0))
			return false;
	}
	if (o->tool) {
		const cJSON *h, *run;
		bool hit = strcasecmp(hs_record_tool(rec), o->tool) == 0;

		h = cJSON_GetObjectItemCaseSensitive(rec, "hooks");
		if (!cJSON_IsArray(h))
			h = NULL;
		cJSON_ArrayForEach(run, h) {
			const char *t = field(run, "tool");

			hit |= t && strcasecmp(t, o->tool) == 0;
		}
		if (!hit)
			return false;
	}
	/* ISO times of one format compare as strings. */
	if (o->since[0] && (!ts || strcmp(ts, o->since) < 0))
		return false;
	return true;
}

/* One record into the report and out; `line` is its text as read, or
 * NULL for one made from an OTLP request. */
static void show(const struct log_opts *o, struct hs_report *rep,
		 const cJSON *rec, const char *line, bool color)
{
	char *text;

	if (!wanted(o, rec))
		return;
	hs_report_add(rep, rec);
	if (o->json && line) {
		puts(line);
	} else if (o->json) {
		text = cJSON_PrintUnformatted(rec);
		if (text)
			puts(text);
		free(text);
	} else if (!o->summary) {
		hs_report_line(stdout, rec, color);
	}
}

int cmd_log(int argc, char **argv)
{
	struct log_opts o;
	struct hs_report rep;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0, bad = 0;
	bool color;
	int rc = 0;

	if (parse_log_args(argc, argv, &o) < 0)
		return log_usage();
	f = strcmp(o.file, "-") == 0 ? stdin : fopen(o.file, "r");
	if (!f) {
		fprintf(stderr, "hookshim log: %s: %s\n", o.file, strerror(errno));
		return 1;
	}
	color = !o.json && isatty(1) && !getenv("NO_COLOR");
	hs_report_init(&rep);
	while ((n = getline(&line, &cap, f)) > 0) {
		cJSON *rec;

		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n)
			continue;
		rec = cJSON_ParseWithLength(line, (size_t)n);
		if (!cJSON_IsObject(rec)) {
			/* A torn last line of a live log, or not a log at
			 * all: say where, keep the rest. */
			fprintf(stderr, "hookshim log: %s:%lu: not a log "
					"record (skipped)\n", o.file, lineno);
			bad++;
			cJSON_Delete(rec);
			continue;
		}
		if (cJSON_GetObjectItemCaseSensitive(rec, "resourceLogs")) {
			/* the OTLP file format: a request a line */
			cJSON *all = hs_otlp_records(rec), *r;

			cJSON_ArrayForEach(r, all)
				show(&o, &rep, r, NULL, color);
			cJSON_Delete(all);
		} else {
			show(&o, &rep, rec, line, color);
		}
		cJSON_Delete(rec);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (o.summary)
		hs_report_summary(stdout, &rep, color);
	if (o.junit) {
		struct hs_report_file rf;

		hs_report_file_hold(&rf, o.junit);
		if (hs_report_junit(&rep, &rf) < 0) {
			fprintf(stderr, "hookshim log: --junit %s: %s\n",
				o.junit, strerror(errno));
			rc = 1;
		}
		hs_report_file_release(&rf);
	}
	if (o.markdown) {
		struct hs_report_file rf;

		hs_report_file_hold(&rf, o.markdown);
		if (hs_report_markdown(&rep, &rf) < 0) {
			fprintf(stderr, "hookshim log: --markdown %s: %s\n",
				o.markdown, strerror(errno));
			rc = 1;
		}
		hs_report_file_release(&rf);
	}
	hs_report_free(&rep);
	return rc ? rc : bad && lineno == bad ? 1 : 0;
}
