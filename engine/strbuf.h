/* A growable string for the engine's text building (command text, write
 * filters, parsed shell words). `failed` turns every later append into a
 * no-op, so a caller checks once at the end instead of after each call. */
#ifndef HOOKSHIM_ENGINE_STRBUF_H
#define HOOKSHIM_ENGINE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct hs_strbuf {
	char *s;      /* NUL-terminated once anything was added; else NULL */
	size_t len, cap;
	bool failed;  /* an allocation failed: the content is incomplete */
};

void hs_sb_add(struct hs_strbuf *b, const char *p, size_t n);
void hs_sb_addc(struct hs_strbuf *b, char c);
void hs_sb_adds(struct hs_strbuf *b, const char *s);

/* The string, handed over to the caller (an empty string if nothing was
 * added); NULL after a failed allocation. b is left empty either way. */
char *hs_sb_take(struct hs_strbuf *b);

/* Drops the content (b may be reused). */
void hs_sb_free(struct hs_strbuf *b);

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if none
 * (overlong forms, surrogates and code points past U+10FFFF included). */
size_t hs_utf8_len(const unsigned char *p, size_t n);

#endif
