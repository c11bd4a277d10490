/* Session reports from log records; see report.h. One file past ~600
 * lines on purpose: its five renderers (a line, the summary, markdown,
 * GitHub annotations, JUnit) all read records through the same small
 * readers (what is notable, which hook decided, the label of a hook),
 * and split they would have to export those. */
#include "report.h"

#include "../engine/strbuf.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void hs_report_init(struct hs_report *r)
{
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->mu, NULL);
	r->cases = cJSON_CreateArray();
	r->notable = cJSON_CreateArray();
}

void hs_report_free(struct hs_report *r)
{
	cJSON_Delete(r->cases);
	cJSON_Delete(r->notable);
	pthread_mutex_destroy(&r->mu);
	r->cases = r->notable = NULL;
}

/* A record's string member, or NULL. */
static const char *str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static double num(const cJSON *o, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static const cJSON *hooks(const cJSON *rec)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(rec, "hooks");

	return cJSON_IsArray(h) ? h : NULL;
}

/* What went wrong with one hook run, or NULL. Exit 2 is a decision, not a
 * failure; every other non-zero exit is the dialects' non-blocking error.
 * A run that never reached a verdict says how in its "failure" ("hook
 * failed: killed by signal 9 (SIGKILL)", supervisor/log.c); the words
 * below are for logs written before it did. */
static const char *run_trouble(const cJSON *run)
{
	const char *st = str(run, "status");
	double code = num(run, "exit_code", 0);

	if (str(run, "failure"))
		return str(run, "failure");
	if (!st)
		return NULL;
	if (strcmp(st, "timeout") == 0)
		return "hook timed out";
	if (strcmp(st, "spawn_failed") == 0 ||
	    (strcmp(st, "exited") == 0 && (code == 127 || code == 126)))
		return "hook missing";
	if (strcmp(st, "signaled") == 0)
		return "hook crashed";
	if (strcmp(st, "exited") == 0 && code != 0 && code != 2)
		return "hook failed";
	return NULL;
}

const char *hs_record_notable(const cJSON *rec)
{
	const char *d = str(rec, "decision");
	const cJSON *run;

	if (d && (strcmp(d, "deny") == 0 || strcmp(d, "block") == 0))
		return "denied";
	cJSON_ArrayForEach(run, hooks(rec)) {
		const char *t = run_trouble(run);

		if (t)
			return t;
	}
	if (str(rec, "context"))
		return "context added";
	return NULL;
}

const char *hs_record_tool(const cJSON *rec)
{
	const char *op = str(rec, "op");
	const cJSON *run;

	cJSON_ArrayForEach(run, hooks(rec)) {
		const char *t = str(run, "tool");

		if (t && t[0])
			return t;
	}
	if (op && strcmp(op, "exec") == 0)
		return "Bash";
	if (op && strcmp(op, "write") == 0)
		return "Write";
	if (op && strcmp(op, "read") == 0)
		return "Read";
	if (op && strcmp(op, "connect") == 0)
		return "WebFetch";
	if (op && strcmp(op, "syscall") == 0) /* refused by the floor */
		return "syscall";
	return "-"; /* session start and end: no tool */
}

static const char *subject(const cJSON *rec)
{
	const char *s = str(rec, "url") ? str(rec, "url") : str(rec, "command");

	return s ? s : str(rec, "path") ? str(rec, "path") : "";
}

static bool is_denial(const cJSON *rec)
{
	const char *d = str(rec, "decision");

	return d && (strcmp(d, "deny") == 0 || strcmp(d, "block") == 0);
}

void hs_report_add(struct hs_report *r, const cJSON *rec)
{
	const char *ev = str(rec, "event");
	const cJSON *h = hooks(rec), *run;
	const char *d = str(rec, "decision");
	bool tool_event = ev && (strcmp(ev, "pre") == 0 ||
				 strncmp(ev, "post", 4) == 0);

	/* The agent's own shells (hookshim explain's business) are not
	 * tool events. */
	if (d && strcmp(d, "agent_internal") == 0)
		return;

	pthread_mutex_lock(&r->mu);
	if (tool_event) {
		r->events++;
		if (strcmp(ev, "pre") == 0 && !is_denial(rec))
			r->allowed++;
	}
	if (is_denial(rec))
		r->denied++;
	cJSON_ArrayForEach(run, h) {
		r->hook_runs++;
		if (run_trouble(run))
			r->hook_failures++;
	}
	if (tool_event && cJSON_GetArraySize(h) > 0)
		cJSON_AddItemToArray(r->cases, cJSON_Duplicate(rec, 1));
	if (hs_record_notable(rec))
		cJSON_AddItemToArray(r->notable, cJSON_Duplicate(rec, 1));
	pthread_mutex_unlock(&r->mu);
}

/* ------------------------------------------------------------ escaping */

/* For a terminal: control characters and invalid UTF-8 as \n, \t, \xNN,
 * so what a file name or a hook prints cannot move the cursor or start a
 * line of its own. At most max bytes of s, "…" when cut. */
static void put_text(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n && i < max) {
		size_t l = hs_utf8_len(p + i, n - i);

		if (p[i] == '\n') {
			fputs("\\n", f);
		} else if (p[i] == '\t') {
			fputs("\\t", f);
		} else if (!l || p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\x%02x", p[i]);
			l = 1;
		} else {
			fwrite(p + i, 1, l, f);
		}
		i += l ? l : 1;
	}
	if (i < n)
		fputs("…", f);
}

/* For XML: the five entities, characters XML 1.0 forbids and invalid
 * UTF-8 as U+FFFD. */
static void put_xml(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);

	for (size_t i = 0; i < n;) {
		size_t l = hs_utf8_len(p + i, n - i);

		switch (l ? p[i] : 0) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (!l || (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
				   p[i] != '\r'))
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(p + i, 1, l, f);
		}
		i += l ? l : 1;
	}
}

/* For a markdown table cell: one line, no pipes or backticks that would
 * end the cell or the code span. */
static void put_md(FILE *f, const char *s, size_t max)
{
	size_t i = 0;

	for (; s && s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '|' || c == '`')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else
			fputc(c, f);
	}
	if (s && s[i])
		fputs("…", f);
}

/* ---------------------------------------------------------- renderers */

/* One shell word of cmd from *p, its quotes dropped ("$X"/a.sh is
 * $X/a.sh), into buf; *p moves past it. Empty at the end. */
static void shell_word(const char **p, char *buf, size_t n)
{
	const char *s = *p + strspn(*p, " \t");
	char quote = 0;
	size_t k = 0;

	for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
		if (!quote && (*s == '"' || *s == '\'')) {
			quote = *s;
			continue;
		}
		if (quote && *s == quote) {
			quote = 0;
			continue;
		}
		if (k + 1 < n)
			buf[k++] = *s;
	}
	buf[k] = '\0';
	*p = s;
}

/* The script a hook runs names it best: its file name -- the program
 * word, or an interpreter's script (bash x.sh, python3 x.py) -- however
 * it is quoted ("$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh). */
static const char *hook_label(const cJSON *run)
{
	static const char *const interpreters[] = { "sh", "bash", "dash",
		"zsh", "python", "python3", "node", "perl", "ruby", NULL };
	static __thread char buf[64];
	const char *cmd = str(run, "command"), *p = cmd, *name;
	char word[PATH_MAX];

	if (!cmd)
		return "hook";
	shell_word(&p, word, sizeof(word));
	name = strrchr(word, '/') ? strrchr(word, '/') + 1 : NULL;
	for (const char *const *i = interpreters; *i; i++)
		if (strcmp(name ? name : word, *i) == 0) {
			shell_word(&p, word, sizeof(word));
			name = strrchr(word, '/') ? strrchr(word, '/') + 1
			       : word[0] && word[0] != '-' && strchr(word, '.')
				       ? word /* bash guard.sh */
				       : NULL;
			break;
		}
	if (name && name[0]) {
		snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(buf) - 1, name);
		return buf;
	}
	return "inline hook";
}

/* "exit 2", or "JSON deny" when the hook said so in JSON on exit 0. */
static void put_outcome(FILE *f, const cJSON *run)
{
	const char *st = str(run, "status"), *v = str(run, "verdict");

	if (st && strcmp(st, "exited") == 0 && v &&
	    num(run, "exit_code", 0) == 0)
		fprintf(f, "JSON %s", v);
	else if (st && strcmp(st, "exited") == 0)
		fprintf(f, "exit %d", (int)num(run, "exit_code", 0));
	else
		fputs(st ? st : "?", f);
}

void hs_report_line(FILE *f, const cJSON *rec, bool color)
{
	const char *ts = str(rec, "ts"), *ev = str(rec, "event");
	const char *d = str(rec, "decision"), *why = str(rec, "reason");
	const char *op = str(rec, "operation"), *ctx = str(rec, "context");
	const cJSON *run;
	bool deny = is_denial(rec);

	/* "2026-12-02T01:02:03.456Z": the time of day is enough in a line. */
	fprintf(f, "%.12s  %-12s %-10s ", ts && strlen(ts) > 11 ? ts + 11 : "?",
		ev ? ev : "?", hs_record_tool(rec));
	if (color)
		fputs(deny ? "\033[31m" : "\033[32m", f);
	fprintf(f, "%-5s", deny ? "DENY" : d ? d : "?");
	if (color)
		fputs("\033[0m", f);
	fputc(' ', f);
	if (op)
		fprintf(f, "%s ", op);
	put_text(f, subject(rec), 200);
	if (str(rec, "new_path")) {
		fputs(" -> ", f);
		put_text(f, str(rec, "new_path"), 200);
	}
	/* a connection's close: what it carried */
	if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(rec, "bytes_sent")))
		fprintf(f, " (sent %.0f, received %.0f bytes)",
			num(rec, "bytes_sent", 0), num(rec, "bytes_received", 0));
	if (why && deny) {
		fputs("  — ", f);
		put_text(f, why, 300);
	}
	if (ctx) {
		fputs("  + context: ", f);
		put_text(f, ctx, 200);
	}
	cJSON_ArrayForEach(run, hooks(rec)) {
		const char *t = run_trouble(run);

		fprintf(f, "%s%s ", run == hooks(rec)->child ? "  [" : ", ",
			hook_label(run));
		put_outcome(f, run);
		fprintf(f, " %d ms%s%s", (int)num(run, "duration_ms", 0),
			t ? ": " : "", t ? t : "");
		if (!run->next)
			fputc(']', f);
	}
	fputc('\n', f);
}

void hs_report_summary(FILE *f, struct hs_report *r, bool color)
{
	const cJSON *rec;

	pthread_mutex_lock(&r->mu);
	fprintf(f, "%shookshim:%s %zu tool event%s, %zu allowed, %zu denied; "
		   "%zu hook run%s, %zu failed\n",
		color ? "\033[1m" : "", color ? "\033[0m" : "", r->events,
		r->events == 1 ? "" : "s", r->allowed, r->denied, r->hook_runs,
		r->hook_runs == 1 ? "" : "s", r->hook_failures);
	cJSON_ArrayForEach(rec, r->notable) {
		fprintf(f, "  %s: ", hs_record_notable(rec));
		hs_report_line(f, rec, color);
	}
	pthread_mutex_unlock(&r->mu);
}

/* The directory part of o->path (PATH_MAX). */
static void dir_of(const struct hs_report_file *o, char *dir)
{
	const char *slash = strrchr(o->path, '/');

	if (!slash)
		snprintf(dir, PATH_MAX, ".");
	else if (slash == o->path)
		snprintf(dir, PATH_MAX, "/");
	else
		snprintf(dir, PATH_MAX, "%.*s", (int)(slash - o->path),
			 o->path);
}

void hs_report_file_hold(struct hs_report_file *o, const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char dir[PATH_MAX];

	o->path = path;
	o->dir = -1;
	o->base[0] = '\0';
	if (!path)
		return;
	snprintf(o->base, sizeof(o->base), "%s", slash ? slash + 1 : path);
	dir_of(o, dir);
	o->dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

void hs_report_file_release(struct hs_report_file *o)
{
	if (o->dir >= 0)
		close(o->dir);
	o->dir = -1;
}

/* o's file, opened in its held directory without following a symlink at
 * its name: "a" appends, "w" truncates. Only a regular file with no
 * other name: one hard-linked to another (`ln ~/.bashrc junit.xml`, by
 * the agent) would have us write that one (session 38's attack run:
 * ~/.bashrc emptied and written with the JUnit XML, or the step
 * summary appended to it); looked at before a truncation. NULL with
 * errno. */
static FILE *report_open(const struct hs_report_file *o, const char *mode)
{
	/* (O_NONBLOCK: a FIFO put at its name would hold us, no reader) */
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
		    (mode[0] == 'a' ? O_APPEND : 0);
	int dir = o->dir, fd, e;
	char d[PATH_MAX];
	struct stat sb;
	FILE *f;

	if (!o->base[0] || strcmp(o->base, ".") == 0 ||
	    strcmp(o->base, "..") == 0) {
		errno = EISDIR;
		return NULL;
	}
	if (dir < 0) { /* not there at the start */
		dir_of(o, d);
		if ((dir = open(d, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			return NULL;
	}
	fd = openat(dir, o->base, flags, 0666);
	e = errno;
	if (dir != o->dir)
		close(dir);
	if (fd < 0) {
		errno = e;
		return NULL;
	}
	if (fstat(fd, &sb) != 0)
		e = errno;
	else if (!S_ISREG(sb.st_mode))
		e = EINVAL;
	else if (sb.st_nlink > 1)
		e = EMLINK;
	else if (mode[0] == 'w' && ftruncate(fd, 0) != 0)
		e = errno;
	else
		e = 0;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	if (!(f = fdopen(fd, mode))) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

/* The run that decided a denial (said deny, or exited 2), else the
 * first that failed; NULL when none did. */
static const cJSON *deciding_run(const cJSON *rec)
{
	const cJSON *run;

	cJSON_ArrayForEach(run, hooks(rec)) {
		const char *v = str(run, "verdict"), *st = str(run, "status");

		if ((v && strcmp(v, "deny") == 0) ||
		    (st && strcmp(st, "exited") == 0 &&
		     num(run, "exit_code", 0) == 2))
			return run;
	}
	cJSON_ArrayForEach(run, hooks(rec))
		if (run_trouble(run))
			return run;
	return NULL;
}

/* "guard.sh (policy.json): exit 2" / ": JSON deny" / ": killed ...". */
static void put_decider(FILE *f, const cJSON *run,
			void (*put)(FILE *, const char *, size_t))
{
	const char *v = str(run, "verdict"), *t = run_trouble(run);
	char how[64];

	put(f, hook_label(run), 80);
	fputs(" (", f);
	put(f, str(run, "source") ? str(run, "source") : "?", 200);
	fputs("): ", f);
	if (t) {
		put(f, t, 200);
		return;
	}
	if (v && num(run, "exit_code", 0) == 0)
		snprintf(how, sizeof(how), "JSON %s", v);
	else
		snprintf(how, sizeof(how), "exit %d", (int)num(run, "exit_code", 0));
	put(f, how, sizeof(how));
}

/* A workflow command's text: % and line breaks escaped, and in a
 * property also ':' and ','; bounded. */
static void put_gh(FILE *f, const char *s, size_t max, bool property)
{
	for (size_t n = 0; s && *s && n < max; s++, n++) {
		if (*s == '%')
			fputs("%25", f);
		else if (*s == '\r')
			fputs("%0D", f);
		else if (*s == '\n')
			fputs("%0A", f);
		else if (property && *s == ':')
			fputs("%3A", f);
		else if (property && *s == ',')
			fputs("%2C", f);
		else
			fputc(*s, f);
	}
}

static void put_gh_data(FILE *f, const char *s, size_t max)
{
	put_gh(f, s, max, false);
}

void hs_report_annotations(FILE *f, struct hs_report *r)
{
	const cJSON *rec;

	pthread_mutex_lock(&r->mu);
	cJSON_ArrayForEach(rec, r->notable) {
		const char *t = hs_record_notable(rec);
		const cJSON *run = deciding_run(rec);
		bool deny = is_denial(rec);

		if (!deny && (!t || strcmp(t, "context added") == 0))
			continue;
		fputs(deny ? "::error " : "::warning ", f);
		if (run && str(run, "source")) {
			fputs("file=", f);
			put_gh(f, str(run, "source"), 300, true);
			fputc(',', f);
		}
		fputs("title=", f);
		put_gh(f, "hookshim: ", 20, true);
		put_gh(f, hs_record_tool(rec), 40, true);
		put_gh(f, deny ? " denied" : " hook failed", 20, true);
		fputs("::", f);
		put_gh_data(f, subject(rec), 200);
		if (deny && str(rec, "reason")) {
			fputs(" — ", f);
			put_gh_data(f, str(rec, "reason"), 400);
		}
		if (run) {
			fputs(" [", f);
			put_decider(f, run, put_gh_data);
			fputc(']', f);
		}
		fputc('\n', f);
	}
	pthread_mutex_unlock(&r->mu);
	fflush(f);
}

int hs_report_markdown(struct hs_report *r, const struct hs_report_file *o)
{
	FILE *f = report_open(o, "a");
	const cJSON *rec;

	if (!f)
		return -1;
	pthread_mutex_lock(&r->mu);
	fprintf(f, "### hookshim\n\n%zu tool events, %zu allowed, **%zu "
		   "denied**; %zu hook runs, %zu failed.\n\n",
		r->events, r->allowed, r->denied, r->hook_runs,
		r->hook_failures);
	for (size_t i = 0; i < r->npolicy; i++) {
		fputs(i ? ", `" : "Policy: `", f);
		put_md(f, r->policy[i], 200);
		fputs(i + 1 < r->npolicy ? "`" : "`\n\n", f);
	}
	if (cJSON_GetArraySize(r->notable) > 0)
		fputs("| what | tool | call | reason | decided by |\n"
		      "|---|---|---|---|---|\n", f);
	cJSON_ArrayForEach(rec, r->notable) {
		const cJSON *run = deciding_run(rec);

		fprintf(f, "| %s | %s | `", hs_record_notable(rec),
			hs_record_tool(rec));
		put_md(f, subject(rec), 120);
		fputs("` | ", f);
		put_md(f, str(rec, "reason") ? str(rec, "reason")
					     : str(rec, "context"), 200);
		fputs(" | ", f);
		if (run)
			put_decider(f, run, put_md);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	pthread_mutex_unlock(&r->mu);
	return fclose(f) == 0 ? 0 : -1;
}

int hs_report_junit(struct hs_report *r, const struct hs_report_file *o)
{
	FILE *f = report_open(o, "w");
	const cJSON *rec;
	size_t failures = 0, errors = 0, n = 0;
	double total = 0;

	if (!f)
		return -1;
	pthread_mutex_lock(&r->mu);
	cJSON_ArrayForEach(rec, r->cases) {
		const char *t = hs_record_notable(rec);
		const cJSON *run;

		n++;
		if (is_denial(rec))
			failures++;
		else if (t && strcmp(t, "context added") != 0)
			errors++;
		cJSON_ArrayForEach(run, hooks(rec))
			total += num(run, "duration_ms", 0) / 1000.0;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"hookshim\" tests=\"%zu\" failures=\"%zu\" "
		   "errors=\"%zu\" time=\"%.3f\">\n", n, failures, errors, total);
	fprintf(f, "  <testsuite name=\"hookshim\" tests=\"%zu\" failures=\"%zu\" "
		   "errors=\"%zu\" skipped=\"0\" time=\"%.3f\">\n",
		n, failures, errors, total);
	cJSON_ArrayForEach(rec, r->cases) {
		const char *t = hs_record_notable(rec);
		const cJSON *run;
		double secs = 0;

		cJSON_ArrayForEach(run, hooks(rec))
			secs += num(run, "duration_ms", 0) / 1000.0;
		fputs("    <testcase classname=\"hookshim.", f);
		put_xml(f, hs_record_tool(rec));
		fputs("\" name=\"", f);
		put_xml(f, str(rec, "event"));
		fputs(" ", f);
		put_xml(f, subject(rec));
		fprintf(f, "\" time=\"%.3f\"", secs);
		if (is_denial(rec)) {
			fputs(">\n      <failure type=\"denied\" message=\"", f);
			put_xml(f, str(rec, "reason"));
			fputs("\">", f);
			put_xml(f, str(rec, "reason"));
			fputs("</failure>\n    </testcase>\n", f);
		} else if (t && strcmp(t, "context added") != 0) {
			fputs(">\n      <error type=\"", f);
			put_xml(f, t);
			fputs("\" message=\"", f);
			put_xml(f, t);
			fputs("\"/>\n    </testcase>\n", f);
		} else {
			fputs("/>\n", f);
		}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	pthread_mutex_unlock(&r->mu);
	return fclose(f) == 0 ? 0 : -1;
}
