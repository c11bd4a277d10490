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
