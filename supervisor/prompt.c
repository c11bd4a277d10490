/* The terminal prompt for "ask" decisions; see prompt.h. */
#include "prompt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

/* How long a prompt waits for the user before using ask_default. */
#define ASK_TIMEOUT_MS (5 * 60 * 1000)

bool hs_prompt_possible(void)
{
	int fd;

	if (!isatty(0))
		return false;
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Reads one answer key from the terminal; raw-mode TUIs hand us single
 * characters, cooked mode a line: either way the first character counts. */
static bool read_yes(int fd)
{
	char c, first = 0;
	int waited = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, 1000);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return false;
		if (r == 0) {
			if ((waited += 1000) >= ASK_TIMEOUT_MS)
				return false;
			continue;
		}
		if (read(fd, &c, 1) != 1)
			return false;
		if (c == '\n' || c == '\r')
			return first == 'y' || first == 'Y';
		if (!first)
			first = c;
	}
}

enum hs_verdict hs_prompt_resolve(struct hs_session *s,
				  const struct hs_event *ev,
				  const char *reason, bool *asked)
{
	enum hs_verdict v = s->cfg->settings.ask_default == HS_ALLOW
				    ? HS_ALLOW
				    : HS_DENY;
	int fd;

	*asked = false;
	if (!s->can_prompt)
		return v;
	pthread_mutex_lock(&s->ask_mu);
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		dprintf(fd, "\r\nhookshim: a hook asks before running:\r\n"
			    "  %s\r\n%s%s%sAllow? [y/N] ",
			ev->command ? ev->command : ev->path ? ev->path : "?",
			reason ? "  reason: " : "", reason ? reason : "",
			reason ? "\r\n" : "");
		v = read_yes(fd) ? HS_ALLOW : HS_DENY;
		dprintf(fd, "%s\r\n", v == HS_ALLOW ? "allowed" : "denied");
		close(fd);
		*asked = true;
	}
	pthread_mutex_unlock(&s->ask_mu);
	return v;
}
