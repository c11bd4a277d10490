/* The content of a write as a hook sees it; see write_content.h. */
#include "write_content.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned c = s[0];

	if (c >= 0x01 && c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong, surrogate and beyond-U+10FFFF forms */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

/* buf[0..n) as a NUL-terminated UTF-8 string, each invalid byte (and NUL)
 * replaced by U+FFFD. A sequence cut by the cap at the end is dropped.
 * malloc'd. */
static char *as_text(const char *buf, size_t n, bool cut)
{
	char *out = malloc(3 * n + 1), *o = out;
	const unsigned char *s = (const unsigned char *)buf;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(s + i, n - i);

		if (k) {
			memcpy(o, s + i, k);
			o += k;
			i += k;
			continue;
		}
		if (cut && n - i < 4 && s[i] >= 0xc2)
			break;
		memcpy(o, "\xef\xbf\xbd", 3);
		o += 3;
		i++;
	}
	*o = '\0';
	return out;
}

static void add_text(cJSON *in, const char *buf, size_t n, bool cut)
{
	char *t = as_text(buf, n, cut);

	if (!t)
		return;
	cJSON_AddItemToObject(in, "content", cJSON_CreateString(t));
	free(t);
	if (cut)
		cJSON_AddItemToObject(in, "_truncated",
				      cJSON_CreateStringArray(
					      (const char *[]){ "content" }, 1));
}

/* Up to cap bytes of the regular file at path. /proc/PID/fd/N is a link
 * to follow (a staged write has no name); any other is read as itself.
 * Never blocks on a fifo. */
static void add_file(cJSON *in, const char *path, size_t cap)
{
	bool proc = strncmp(path, "/proc/", 6) == 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				    (proc ? 0 : O_NOFOLLOW));
	char *buf = NULL;
	struct stat st;
	size_t n = 0;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (buf = malloc(cap ? cap : 1))) {
		while (n < cap) {
			ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);

			if (r <= 0)
				break;
			n += (size_t)r;
		}
		add_text(in, buf, n, st.st_size > (off_t)n);
	}
	free(buf);
	close(fd);
}

void hs_write_content_add(cJSON *in, const struct hs_hook *h,
			  const struct hs_event *ev, const char *path)
{
	size_t n;

	if (cJSON_GetObjectItemCaseSensitive(in, "content"))
		return;
	if (h->kind == HS_KIND_PRE) {
		if (ev->content_file)
			add_file(in, ev->content_file, HS_CONTENT_PRE_CAP);
		return;
	}
	if (!h->want_content || h->kind != HS_KIND_POST)
		return;
	if (!ev->content) {
		if (path)
			add_file(in, path, HS_CONTENT_POST_CAP);
		return;
	}
	/* the file as written, carried by the request: capped as read */
	n = ev->content_len;
	add_text(in, ev->content, n > HS_CONTENT_POST_CAP ? HS_CONTENT_POST_CAP
							  : n,
		 n > HS_CONTENT_POST_CAP);
}
