/* See strbuf.h. */
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

void hs_sb_add(struct hs_strbuf *b, const char *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *s;

		while (cap < b->len + n + 1)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s) {
			b->failed = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	if (n)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void hs_sb_addc(struct hs_strbuf *b, char c)
{
	hs_sb_add(b, &c, 1);
}

void hs_sb_adds(struct hs_strbuf *b, const char *s)
{
	hs_sb_add(b, s, strlen(s));
}

char *hs_sb_take(struct hs_strbuf *b)
{
	char *s;

	if (!b->failed && !b->s)
		hs_sb_add(b, "", 0);
	if (b->failed) {
		hs_sb_free(b);
		return NULL;
	}
	s = b->s;
	*b = (struct hs_strbuf){ 0 };
	return s;
}

void hs_sb_free(struct hs_strbuf *b)
{
	free(b->s);
	*b = (struct hs_strbuf){ 0 };
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if none. */
size_t hs_utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}
