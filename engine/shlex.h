/* Between shparse.c (the grammar) and shlex.c (words and tokens): the
 * parser's state and the lexical helpers. Not a public interface. */
#ifndef HOOKSHIM_ENGINE_SHLEX_H
#define HOOKSHIM_ENGINE_SHLEX_H

#include <stdbool.h>
#include <stddef.h>

#include "shparse.h"

/* Nesting of $( ), ( ), { }, compounds: deeper input fails rather than
 * exhausting the supervisor's stack. */
#define SH_MAX_DEPTH 64
#define SH_MAX_HEREDOCS 16

struct sh_ps {
	const char *s;
	size_t n; /* strlen(s): nothing past it is ever read */
	size_t i;
	int depth;
	bool fail;
	struct {
		char *delim;
		bool strip_tabs;
	} hd[SH_MAX_HEREDOCS];
	size_t nhd;
	bool hd_open; /* a here-document's body ran to the end unclosed */
};


/* Appends a zeroed element to arr (of *n elements of size bytes); on
 * allocation failure sets p->fail and returns arr unchanged. */
void *sh_grow(void *arr, size_t *n, size_t size, struct sh_ps *p);
char sh_at(const struct sh_ps *p, size_t k);
/* Characters that end an unquoted word. */
bool sh_is_meta(char c);
bool sh_is_name_char(char c, bool first);
/* Blanks, line continuations and a comment up to its newline. */
void sh_skip_blanks(struct sh_ps *p);
/* At a newline: consumes it and the bodies of pending here-documents. */
void sh_take_newline(struct sh_ps *p);
void sh_skip_newlines(struct sh_ps *p);
/* From after `((` to after its `))`. */
bool sh_scan_arith(struct sh_ps *p, struct hs_sh_word *w);
/* One word at p->i into w; `assign` allows NAME=( … ). */
bool sh_scan_word(struct sh_ps *p, struct hs_sh_word *w, bool assign);
void sh_free_word(struct hs_sh_word *w);
/* Is the unquoted word at p->i exactly kw? */
bool sh_at_word(const struct sh_ps *p, const char *kw);
/* A reserved word that closes a body (}, then, fi, done, esac, …)? */
bool sh_at_reserved_stop(const struct sh_ps *p);
/* Skips newlines, then consumes kw or fails. */
bool sh_expect_word(struct sh_ps *p, const char *kw);

/* In shparse.c: a list up to `)` (in_paren), a closing reserved word or
 * the end; what $( … ) and <( … ) contain. */
struct hs_sh_list *hs_sh_parse_list(struct sh_ps *p, bool in_paren);
void hs_sh_free_list(struct hs_sh_list *l);

#endif
