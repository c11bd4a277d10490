/* JSON files with located errors; cJSON reports only a pointer, so the
 * line and column are counted from the text up to it. */
#include "jsonfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_MAX_CONFIG (16u << 20)

static void locate(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

static bool only_space(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
			return false;
	return true;
}

cJSON *hs_json_parse_text(const char *name, const char *text, size_t len,
			  char *err, size_t errlen)
{
	const char *end = NULL;
	cJSON *json = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	int line, col;
	size_t n;

	if (json)
		return json;
	if (!end || end > text + len)
		end = text + len;
	/* cJSON points at the last token it read when the text runs out. */
	if (end >= text + len || only_space(end + 1, text + len)) {
		locate(text, text + len, &line, &col);
		snprintf(err, errlen, "%s:%d:%d: malformed JSON: unexpected end "
			 "of input", name, line, col);
		return NULL;
	}
	/* cJSON's string parser reports the place after the character it
	 * rejected (a '}' or ']' where a key should follow a comma): at the
	 * end of a line, that is the character before. */
	if ((*end == '\n' || *end == '\r') && end > text && end[-1] != ' ' &&
	    end[-1] != '\t' && end[-1] != '\n' && end[-1] != '\r')
		end--;
	locate(text, end, &line, &col);
	n = strcspn(end, "\r\n");
	snprintf(err, errlen, "%s:%d:%d: malformed JSON near '%.*s'", name,
		 line, col, (int)(n > 20 ? 20 : n), end);
	return NULL;
}

cJSON *hs_json_read_file(const char *path, char *err, size_t errlen,
			 int *missing, struct hs_jsonpos *pos)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	cJSON *json;

	*missing = 0;
	if (pos)
		memset(pos, 0, sizeof(*pos));
	if (!f) {
		*missing = errno == ENOENT || errno == ENOTDIR;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t n;

		if (len + 4096 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb || cap > HS_MAX_CONFIG) {
				free(nb ? nb : buf);
				fclose(f);
				snprintf(err, errlen, "%s: file too large or "
					 "out of memory", path);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	json = hs_json_parse_text(path, buf, len, err, errlen);
	/* Without an index messages still name the file and the JSON path;
	 * it fails only when out of memory. */
	if (json && pos)
		(void)hs_jsonpos_build(pos, buf, len, json);
	free(buf);
	return json;
}
