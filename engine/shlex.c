/* The shell's words and tokens, for shparse.c: quoting, substitutions
 * (for their extent), blanks, comments and here-document bodies. See
 * shparse.h for what is understood; shlex.h for the interface. */
#include "shlex.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void *sh_grow(void *arr, size_t *n, size_t size, struct sh_ps *p)
{
	char *a = realloc(arr, (*n + 1) * size);

	if (!a) {
		p->fail = true;
		return arr;
	}
	memset(a + *n * size, 0, size);
	(*n)++;
	return a;
}

/* The script's end reads as NUL however far a caller looks or has
 * stepped: a parse that goes past it fails instead of reading on. */
char sh_at(const struct sh_ps *p, size_t k)
{
	return p->i + k < p->n ? p->s[p->i + k] : '\0';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Characters that end an unquoted word. */
bool sh_is_meta(char c)
{
	return c == '\0' || is_blank(c) || c == '\n' || c == '|' || c == '&' ||
	       c == ';' || c == '<' || c == '>' || c == '(' || c == ')';
}

bool sh_is_name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* Blanks, line continuations and a comment up to (not including) its
 * newline: what separates tokens on one line. */
void sh_skip_blanks(struct sh_ps *p)
{
	for (;;) {
		if (is_blank(sh_at(p, 0))) {
			p->i++;
		} else if (sh_at(p, 0) == '\\' && sh_at(p, 1) == '\n') {
			p->i += 2;
		} else if (sh_at(p, 0) == '#') {
			while (sh_at(p, 0) && sh_at(p, 0) != '\n')
				p->i++;
		} else {
			return;
		}
	}
}

/* A newline: the bodies of the here-documents opened on its line follow
 * it, up to their delimiter lines. */
void sh_take_newline(struct sh_ps *p)
{
	p->i++;
	for (size_t k = 0; k < p->nhd; k++) {
		const char *d = p->hd[k].delim;
		size_t dn = strlen(d);

		bool closed = false;

		while (!closed && sh_at(p, 0)) {
			const char *line = p->s + p->i;
			size_t n = strcspn(line, "\n");
			const char *l = line;

			if (p->hd[k].strip_tabs)
				while (*l == '\t')
					l++;
			p->i += n + (line[n] == '\n');
			closed = (size_t)(line + n - l) == dn &&
				 memcmp(l, d, dn) == 0;
		}
		p->hd_open |= !closed;
		free(p->hd[k].delim);
	}
	p->nhd = 0;
}

void sh_skip_newlines(struct sh_ps *p)
{
	for (sh_skip_blanks(p); sh_at(p, 0) == '\n'; sh_skip_blanks(p))
		sh_take_newline(p);
}

static bool scan_dollar(struct sh_ps *p, struct hs_sh_word *w);
static bool scan_backquote(struct sh_ps *p);

/* After `(` of $( or <( : a whole script up to its `)`. */
static bool scan_cmdsub(struct sh_ps *p)
{
	struct hs_sh_list *l;

	if (++p->depth > SH_MAX_DEPTH)
		return false;
	l = hs_sh_parse_list(p, true);
	p->depth--;
	if (!l)
		return false;
	hs_sh_free_list(l);
	sh_skip_newlines(p);
	if (sh_at(p, 0) != ')')
		return false;
	p->i++;
	return true;
}

/* From just after an opening `((` or `$((` to after its `))`: parentheses
 * balance, quotes and substitutions skipped. */
bool sh_scan_arith(struct sh_ps *p, struct hs_sh_word *w)
{
	int depth = 0;

	while (sh_at(p, 0)) {
		char c = sh_at(p, 0);

		if (c == ')' && depth == 0 && sh_at(p, 1) == ')') {
			p->i += 2;
			return true;
		}
		if (c == '(')
			depth++;
		else if (c == ')' && --depth < 0)
			return false;
		if (c == '$') {
			if (!scan_dollar(p, w))
				return false;
			continue;
		}
		if (c == '`') {
			w->runs = true;
			if (!scan_backquote(p))
				return false;
			continue;
		}
		p->i++;
	}
	return false;
}

/* At a backquote: to after the closing one. */
static bool scan_backquote(struct sh_ps *p)
{
	for (p->i++; sh_at(p, 0) != '`'; p->i++) {
		if (!sh_at(p, 0))
			return false;
		if (sh_at(p, 0) == '\\' && sh_at(p, 1))
			p->i++;
	}
	p->i++;
	return true;
}

/* ${ … }: braces balance; quotes and nested substitutions inside. */
static bool scan_braces(struct sh_ps *p, struct hs_sh_word *w)
{
	int depth = 1;

	for (p->i += 2; depth; ) {
		char c = sh_at(p, 0);

		if (!c)
			return false;
		if (c == '\\' && sh_at(p, 1)) {
			p->i += 2;
		} else if (c == '\'') {
			const char *q = strchr(p->s + p->i + 1, '\'');

			if (!q)
				return false;
			p->i = (size_t)(q - p->s) + 1;
		} else if (c == '"') {
			for (p->i++; sh_at(p, 0) != '"'; ) {
				if (!sh_at(p, 0))
					return false;
				if (sh_at(p, 0) == '\\' && sh_at(p, 1))
					p->i += 2;
				else if (sh_at(p, 0) == '$') {
					if (!scan_dollar(p, w))
						return false;
				} else if (sh_at(p, 0) == '`') {
					w->runs = true;
					if (!scan_backquote(p))
						return false;
				} else
					p->i++;
			}
			p->i++;
		} else if (c == '$') {
			if (!scan_dollar(p, w))
				return false;
		} else if (c == '`') {
			w->runs = true;
			if (!scan_backquote(p))
				return false;
		} else {
			if (c == '{')
				depth++;
			else if (c == '}')
				depth--;
			p->i++;
		}
	}
	return true;
}

/* At `$` (not $' or $", which the word scanner reads as quotes): one
 * expansion, or a literal `$`. Returns false on a syntax error. */
static bool scan_dollar(struct sh_ps *p, struct hs_sh_word *w)
{
	char c = sh_at(p, 1);

	if (c == '{')
		return scan_braces(p, w);
	if (c == '(' && sh_at(p, 2) == '(') {
		p->i += 3;
		return sh_scan_arith(p, w);
	}
	if (c == '(') {
		w->runs = true;
		p->i += 2;
		return scan_cmdsub(p);
	}
	if (c == '[') { /* $[…], bash's old arithmetic: to its `]` */
		int depth = 0;

		for (p->i += 2; sh_at(p, 0) != ']' || depth; p->i++) {
			if (!sh_at(p, 0))
				return false; /* at the end: it wants more */
			depth += sh_at(p, 0) == '[' ? 1
				 : sh_at(p, 0) == ']' ? -1 : 0;
		}
		p->i++;
		return true;
	}
	p->i++;
	if (sh_is_name_char(c, true)) {
		while (sh_is_name_char(sh_at(p, 0), false))
			p->i++;
	} else if ((c >= '0' && c <= '9') || (c && strchr("@*#?-$!", c))) {
		p->i++;
	}
	return true;
}

/* $'…': ANSI-C escapes, decoded into out. */
static bool scan_ansi(struct sh_ps *p, struct hs_strbuf *out)
{
	static const char from[] = "abefnrtv\\'\"?E";
	static const char to[] = "\a\b\033\f\n\r\t\v\\'\"?\033";

	for (p->i += 2; sh_at(p, 0) != '\''; ) {
		char c = sh_at(p, 0);

		if (!c)
			return false;
		p->i++;
		if (c != '\\') {
			hs_sb_addc(out, c);
			continue;
		}
		c = sh_at(p, 0);
		if (!c)
			return false;
		p->i++;
		if (strchr(from, c)) {
			hs_sb_addc(out, to[strchr(from, c) - from]);
		} else if (c >= '0' && c <= '7') {
			int v = c - '0';

			for (int k = 0; k < 2 && sh_at(p, 0) >= '0' && sh_at(p, 0) <= '7'; k++)
				v = v * 8 + (sh_at(p, 0) - '0'), p->i++;
			hs_sb_addc(out, (char)v);
		} else if (c == 'x') {
			int v = 0, k = 0;

			for (; k < 2; k++) {
				char h = sh_at(p, 0);
				int d = h >= '0' && h <= '9' ? h - '0'
					: h >= 'a' && h <= 'f' ? h - 'a' + 10
					: h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;

				if (d < 0)
					break;
				v = v * 16 + d;
				p->i++;
			}
			if (!k)
				return false; /* bash keeps "\x": too rare to model */
			hs_sb_addc(out, (char)v);
		} else {
			/* \u, \c and unknown escapes: their value is not worth
			 * modelling; say so rather than guess. */
			return false;
		}
	}
	p->i++;
	return true;
}

/* Does `close` follow in this word? A lone `[` or `{` (the test command,
 * a group) is literal; `[ab]` and `{a,b}` are not. */
static bool closes_later(const struct sh_ps *p, char close)
{
	for (size_t k = 1; !sh_is_meta(sh_at(p, k)); k++)
		if (sh_at(p, k) == close)
			return true;
	return false;
}

/* One word at p->i. Quote removal builds the value; anything the shell
 * would expand clears `literal`. `assign` allows NAME=( … ) arrays. */
bool sh_scan_word(struct sh_ps *p, struct hs_sh_word *w, bool assign)
{
	struct hs_strbuf v = { 0 };
	bool literal = true, first = true;

	w->start = p->i;
	while (!sh_is_meta(sh_at(p, 0)) ||
	       ((sh_at(p, 0) == '<' || sh_at(p, 0) == '>') && first &&
		sh_at(p, 1) == '(') ||
	       (assign && sh_at(p, 0) == '(' && p->i > w->start &&
		p->s[p->i - 1] == '=')) {
		char c = sh_at(p, 0);

		if (c == '(' || ((c == '<' || c == '>') && sh_at(p, 1) == '(')) {
			/* NAME=( … ) or a process substitution <( … ) */
			literal = false;
			if (c != '(') {
				w->runs = true;
				p->i++;
			}
			p->i++;
			if (!scan_cmdsub(p))
				goto fail;
		} else if (c == '\'') {
			const char *q = strchr(p->s + p->i + 1, '\'');

			if (!q) {
				p->i = p->n; /* open to the end: it wants more */
				goto fail;
			}
			hs_sb_add(&v, p->s + p->i + 1, (size_t)(q - p->s) - p->i - 1);
			p->i = (size_t)(q - p->s) + 1;
		} else if (c == '$' && sh_at(p, 1) == '\'') {
			if (!scan_ansi(p, &v))
				goto fail;
		} else if (c == '"' || (c == '$' && sh_at(p, 1) == '"')) {
			p->i += c == '$' ? 2 : 1;
			while (sh_at(p, 0) != '"') {
				char d = sh_at(p, 0);

				if (!d)
					goto fail;
				if (d == '\\' && sh_at(p, 1) && strchr("$`\"\\\n", sh_at(p, 1))) {
					if (sh_at(p, 1) != '\n')
						hs_sb_addc(&v, sh_at(p, 1));
					p->i += 2;
				} else if (d == '$') {
					literal = false;
					if (!scan_dollar(p, w))
						goto fail;
				} else if (d == '`') {
					literal = false;
					w->runs = true;
					if (!scan_backquote(p))
						goto fail;
				} else {
					hs_sb_addc(&v, d);
					p->i++;
				}
			}
			p->i++;
		} else if (c == '\\') {
			if (!sh_at(p, 1)) {
				p->i = p->n; /* a line continued */
				goto fail;
			}
			if (sh_at(p, 1) != '\n')
				hs_sb_addc(&v, sh_at(p, 1));
			p->i += 2;
		} else if (c == '$') {
			literal = false;
			if (!scan_dollar(p, w))
				goto fail;
		} else if (c == '`') {
			literal = false;
			w->runs = true;
			if (!scan_backquote(p))
				goto fail;
		} else {
			/* Globs, brace expansion and a leading tilde: the
			 * value depends on more than the text. */
			if (c == '*' || c == '?' || (first && c == '~') ||
			    ((c == '[' || c == '{') &&
			     closes_later(p, c == '[' ? ']' : '}')))
				literal = false;
			hs_sb_addc(&v, c);
			p->i++;
		}
		first = false;
	}
	w->end = p->i;
	if (w->end == w->start || v.failed)
		goto fail;
	w->value = literal ? hs_sb_take(&v) : NULL;
	if (!literal)
		hs_sb_free(&v);
	return literal ? w->value != NULL : true;
fail:
	hs_sb_free(&v);
	return false;
}

void sh_free_word(struct hs_sh_word *w)
{
	free(w->value);
}

/* Is the unquoted word at p->i exactly `kw` (followed by a delimiter)? */
bool sh_at_word(const struct sh_ps *p, const char *kw)
{
	size_t n = strlen(kw);

	return p->i + n <= p->n && strncmp(p->s + p->i, kw, n) == 0 &&
	       sh_is_meta(sh_at(p, n));
}

bool sh_at_reserved_stop(const struct sh_ps *p)
{
	static const char *const stops[] = { "}", "then", "else", "elif", "fi",
					     "do", "done", "esac", NULL };

	for (size_t k = 0; stops[k]; k++)
		if (sh_at_word(p, stops[k]))
			return true;
	return false;
}

bool sh_expect_word(struct sh_ps *p, const char *kw)
{
	sh_skip_newlines(p);
	if (!sh_at_word(p, kw))
		return false;
	p->i += strlen(kw);
	return true;
}

