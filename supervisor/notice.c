/* Terminal notices; see notice.h. */
#include "notice.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "report.h"

void hs_notices_init(struct hs_notices *n, bool enabled)
{
	memset(n, 0, sizeof(*n));
	pthread_mutex_init(&n->mu, NULL);
	n->enabled = enabled;
	n->queued = cJSON_CreateArray();
}

void hs_notices_free(struct hs_notices *n)
{
	cJSON_Delete(n->queued);
	n->queued = NULL;
	pthread_mutex_destroy(&n->mu);
}

/* The controlling terminal as a stream, if there is one and nothing
 * full-screen owns it. *raw tells a TUI from no terminal at all. */
static FILE *free_terminal(bool *raw)
{
	struct termios t;
	int fd = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	FILE *f;

	*raw = false;
	if (fd < 0)
		return NULL;
	if (tcgetattr(fd, &t) == 0 && !(t.c_lflag & ICANON)) {
		*raw = true;
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

void hs_notice(struct hs_notices *n, const cJSON *rec)
{
	const char *why;
	bool raw;
	FILE *tty;

	if (!n->enabled || !(why = hs_record_notable(rec)))
		return;
	pthread_mutex_lock(&n->mu);
	tty = free_terminal(&raw);
	if (tty) {
		/* \r first: the agent may have left the cursor mid-line. */
		fprintf(tty, "\r\033[2mhookshim %s: ", why);
		hs_report_line(tty, rec, false);
		fputs("\033[0m", tty);
		fclose(tty);
		n->shown++;
	} else if (raw) {
		cJSON_AddItemToArray(n->queued, cJSON_Duplicate(rec, 1));
	}
	/* No terminal at all (CI, pipes): nobody to tell; the log and CI
	 * mode's summary say it. */
	pthread_mutex_unlock(&n->mu);
}

unsigned hs_notices_flush(struct hs_notices *n)
{
	unsigned count = 0;
	const cJSON *rec;
	bool raw;
	FILE *out;

	if (!n->enabled)
		return 0;
	pthread_mutex_lock(&n->mu);
	count = (unsigned)cJSON_GetArraySize(n->queued);
	if (count) {
		FILE *tty = free_terminal(&raw);

		out = tty ? tty : stderr;
		fprintf(out, "hookshim: %u notice%s from this session:\n", count,
			count == 1 ? "" : "s");
		cJSON_ArrayForEach(rec, n->queued) {
			fprintf(out, "  %s: ", hs_record_notable(rec));
			hs_report_line(out, rec, false);
		}
		if (tty)
			fclose(tty);
		cJSON_Delete(n->queued);
		n->queued = cJSON_CreateArray();
	}
	pthread_mutex_unlock(&n->mu);
	return count;
}
