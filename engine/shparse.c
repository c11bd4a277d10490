/* A recursive-descent parser for the shell grammar; see shparse.h.
 *
 * It follows bash's reading of a script closely enough that the extent
 * of every command is right (where a subshell ends, which `)` closes a
 * `$(`, where a here-document's body stops), because the wrapper
 * recogniser relies on extents to cut the model's command out verbatim.
 * It is strict rather than forgiving: whatever it does not know fails the
 * parse, and the caller then shows the whole script. */
#include "shparse.h"

#include <stdlib.h>
#include <string.h>

#include "shlex.h"

/* A redirection operator at p->i (after an optional fd), into r. */
static bool redir_op(struct sh_ps *p, struct hs_sh_redir *r)
{
	static const char *const ops[] = { "&>>", "<<<", "<<-", "&>", ">>",
					   ">|", "<<", "<&", ">&", "<>", "<",
					   ">", NULL };

	for (size_t k = 0; ops[k]; k++) {
		size_t n = strlen(ops[k]);

		if (p->i + n <= p->n && strncmp(p->s + p->i, ops[k], n) == 0) {
			memcpy(r->op, ops[k], n + 1);
			p->i += n;
			return true;
		}
	}
	return false;
}

static bool parse_redir(struct sh_ps *p, struct hs_sh_cmd *c, int fd)
{
	struct hs_sh_redir *r;

	c->redirs = sh_grow(c->redirs, &c->nredirs, sizeof(*c->redirs), p);
	if (p->fail)
		return false;
	r = &c->redirs[c->nredirs - 1];
	r->fd = fd;
	if (!redir_op(p, r))
		return false;
	sh_skip_blanks(p);
	if (!sh_scan_word(p, &r->target, false))
		return false;
	if (strncmp(r->op, "<<", 2) == 0 && r->op[2] != '<') {
		const char *d = r->target.value;
		struct hs_sh_word raw;
		char *delim;

		if (p->nhd >= SH_MAX_HEREDOCS)
			return false;
		/* A delimiter is quote-removed but never expanded. */
		raw = r->target;
		delim = d ? strdup(d)
			  : strndup(p->s + raw.start, raw.end - raw.start);
		if (!delim)
			return false;
		p->hd[p->nhd].delim = delim;
		p->hd[p->nhd].strip_tabs = r->op[2] == '-';
		p->nhd++;
	}
	return true;
}

/* Redirections after a compound command. */
static bool parse_trailing_redirs(struct sh_ps *p, struct hs_sh_cmd *c)
{
	for (sh_skip_blanks(p);; sh_skip_blanks(p)) {
		char ch = sh_at(p, 0);

		if ((ch == '<' || ch == '>') && sh_at(p, 1) != '(') {
			if (!parse_redir(p, c, -1))
				return false;
		} else if (ch == '&' && sh_at(p, 1) == '>') {
			if (!parse_redir(p, c, -1))
				return false;
		} else if (ch >= '0' && ch <= '9') {
			size_t k = 0;

			while (sh_at(p, k) >= '0' && sh_at(p, k) <= '9')
				k++;
			if (sh_at(p, k) != '<' && sh_at(p, k) != '>')
				return true;
			p->i += k;
			if (!parse_redir(p, c, atoi(p->s + p->i - k)))
				return false;
		} else {
			return true;
		}
	}
}

static bool parse_command(struct sh_ps *p, struct hs_sh_cmd *c);
static void free_cmd(struct hs_sh_cmd *c);

/* A function's body: a compound command, kept as c's body (a list of
 * that one command), so what the function runs can be looked at. */
static bool parse_func_body(struct sh_ps *p, struct hs_sh_cmd *c)
{
	struct hs_sh_list *l = calloc(1, sizeof(*l));
	struct hs_sh_pipe *pp = l ? calloc(1, sizeof(*pp)) : NULL;
	struct hs_sh_cmd *body = pp ? calloc(1, sizeof(*body)) : NULL;
	bool ok;

	if (!body) {
		free(l);
		free(pp);
		return false;
	}
	pp->cmds = body;
	pp->ncmds = 1;
	l->pipes = pp;
	l->n = 1;
	c->body = l;
	c->kind = HS_SH_FUNC;
	ok = parse_command(p, body) && body->kind != HS_SH_SIMPLE;
	pp->start = body->start;
	pp->end = pp->next_end = body->end;
	return ok;
}

/* A body up to a closing reserved word or `)`, non-empty. */
static bool parse_body(struct sh_ps *p, struct hs_sh_list **out, bool in_paren)
{
	struct hs_sh_list *l = hs_sh_parse_list(p, in_paren);

	if (!l)
		return false;
	if (!l->n) {
		hs_sh_free_list(l);
		return false;
	}
	if (*out) {
		/* IF: every branch in one list, in order */
		struct hs_sh_pipe *np = realloc((*out)->pipes,
			((*out)->n + l->n) * sizeof(*np));

		if (!np) {
			hs_sh_free_list(l);
			return false;
		}
		memcpy(np + (*out)->n, l->pipes, l->n * sizeof(*np));
		(*out)->pipes = np;
		(*out)->n += l->n;
		free(l->pipes);
		free(l);
	} else {
		*out = l;
	}
	return true;
}

/* if/while/until/for/select/case/[[, at their keyword. */
static bool parse_keyword_compound(struct sh_ps *p, struct hs_sh_cmd *c)
{
	bool ok = false;

	if (sh_at_word(p, "if")) {
		c->kind = HS_SH_IF;
		p->i += 2;
		do {
			if (!parse_body(p, &c->body, false) ||
			    !sh_expect_word(p, "then") ||
			    !parse_body(p, &c->body, false))
				return false;
			sh_skip_newlines(p);
		} while (sh_at_word(p, "elif") && (p->i += 4));
		if (sh_at_word(p, "else")) {
			p->i += 4;
			if (!parse_body(p, &c->body, false))
				return false;
		}
		return sh_expect_word(p, "fi");
	}
	c->kind = HS_SH_OTHER;
	if (sh_at_word(p, "while") || sh_at_word(p, "until")) {
		p->i += 5;
		ok = parse_body(p, &c->body, false) && sh_expect_word(p, "do") &&
		     parse_body(p, &c->body, false) && sh_expect_word(p, "done");
	} else if (sh_at_word(p, "for") || sh_at_word(p, "select")) {
		struct hs_sh_word w = { 0 };

		p->i += sh_at_word(p, "for") ? 3 : 6;
		sh_skip_blanks(p);
		if (sh_at(p, 0) == '(' && sh_at(p, 1) == '(') {
			p->i += 2;
			if (!sh_scan_arith(p, &w))
				return false;
		} else {
			if (!sh_scan_word(p, &w, false))
				return false;
			sh_free_word(&w);
			sh_skip_newlines(p);
			if (sh_at_word(p, "in")) {
				for (p->i += 2, sh_skip_blanks(p);
				     !sh_is_meta(sh_at(p, 0)); sh_skip_blanks(p)) {
					w = (struct hs_sh_word){ 0 };
					if (!sh_scan_word(p, &w, false))
						return false;
					sh_free_word(&w);
				}
			}
		}
		sh_skip_blanks(p);
		if (sh_at(p, 0) == ';')
			p->i++;
		ok = sh_expect_word(p, "do") && parse_body(p, &c->body, false) &&
		     sh_expect_word(p, "done");
	} else if (sh_at_word(p, "case")) {
		struct hs_sh_word w = { 0 };

		p->i += 4;
		sh_skip_blanks(p);
		if (!sh_scan_word(p, &w, false))
			return false;
		sh_free_word(&w);
		if (!sh_expect_word(p, "in"))
			return false;
		for (sh_skip_newlines(p); !sh_at_word(p, "esac"); sh_skip_newlines(p)) {
			if (sh_at(p, 0) == '(')
				p->i++;
			for (;;) { /* pattern | pattern ) */
				sh_skip_blanks(p);
				w = (struct hs_sh_word){ 0 };
				if (!sh_scan_word(p, &w, false))
					return false;
				sh_free_word(&w);
				sh_skip_blanks(p);
				if (sh_at(p, 0) == ')')
					break;
				if (sh_at(p, 0) != '|')
					return false;
				p->i++;
			}
			p->i++;
			sh_skip_newlines(p);
			if (sh_at(p, 0) != ';' && !sh_at_word(p, "esac") &&
			    !parse_body(p, &c->body, false))
				return false;
			sh_skip_newlines(p);
			if (sh_at(p, 0) == ';' && sh_at(p, 1) == ';')
				p->i += sh_at(p, 2) == '&' ? 3 : 2;
			else if (sh_at(p, 0) == ';' && sh_at(p, 1) == '&')
				p->i += 2;
			else if (!sh_at_word(p, "esac"))
				return false;
		}
		p->i += 4;
		ok = true;
	} else if (sh_at_word(p, "[[")) {
		/* Inside [[ ]] the operators are the test's, not the shell's:
		 * only the extent matters, and a `]]` inside parentheses (a
		 * =~ regex's) does not end it. */
		int paren = 0;

		for (p->i += 2, sh_skip_blanks(p);
		     paren > 0 || !sh_at_word(p, "]]"); sh_skip_blanks(p)) {
			struct hs_sh_word w = { 0 };

			if (!sh_at(p, 0))
				return false;
			if (sh_at(p, 0) == '\n') {
				sh_take_newline(p);
			} else if (strchr("()<>&|!", sh_at(p, 0))) {
				paren += sh_at(p, 0) == '(' ? 1
					 : sh_at(p, 0) == ')' ? -1 : 0;
				p->i++;
			} else {
				if (!sh_scan_word(p, &w, false))
					return false;
				sh_free_word(&w);
			}
		}
		p->i += 2;
		ok = true;
	}
	return ok;
}

static bool parse_simple(struct sh_ps *p, struct hs_sh_cmd *c)
{
	c->kind = HS_SH_SIMPLE;
	for (sh_skip_blanks(p);; sh_skip_blanks(p)) {
		char ch = sh_at(p, 0);
		struct hs_sh_word w = { 0 };
		size_t k = 0;

		while (sh_at(p, k) >= '0' && sh_at(p, k) <= '9')
			k++;
		if (k && (sh_at(p, k) == '<' || sh_at(p, k) == '>') &&
		    sh_at(p, k + 1) != '(') {
			p->i += k;
			if (!parse_redir(p, c, atoi(p->s + p->i - k)))
				return false;
			continue;
		}
		if (((ch == '<' || ch == '>') && sh_at(p, 1) != '(') ||
		    (ch == '&' && sh_at(p, 1) == '>')) {
			if (!parse_redir(p, c, -1))
				return false;
			continue;
		}
		if (sh_is_meta(ch) && !((ch == '<' || ch == '>') && sh_at(p, 1) == '('))
			break;
		if (!c->nwords && sh_is_name_char(ch, true)) {
			size_t n = 0;

			while (sh_is_name_char(sh_at(p, n), false))
				n++;
			if (sh_at(p, n) == '=' || (sh_at(p, n) == '+' && sh_at(p, n + 1) == '=') ||
			    sh_at(p, n) == '[') {
				if (!sh_scan_word(p, &w, true))
					return false;
				c->assigns = sh_grow(c->assigns, &c->nassigns,
						  sizeof(w), p);
				if (p->fail) {
					sh_free_word(&w);
					return false;
				}
				c->assigns[c->nassigns - 1] = w;
				continue;
			}
		}
		if (!sh_scan_word(p, &w, false))
			return false;
		c->words = sh_grow(c->words, &c->nwords, sizeof(w), p);
		if (p->fail) {
			sh_free_word(&w);
			return false;
		}
		c->words[c->nwords - 1] = w;
		sh_skip_blanks(p);
		if (c->nwords == 1 && !c->nassigns && sh_at(p, 0) == '(') {
			/* name () compound: a function definition */
			p->i++;
			sh_skip_blanks(p);
			if (sh_at(p, 0) != ')')
				return false;
			p->i++;
			sh_skip_newlines(p);
			return parse_func_body(p, c);
		}
	}
	return c->nwords || c->nassigns || c->nredirs;
}

static bool parse_command(struct sh_ps *p, struct hs_sh_cmd *c)
{
	bool ok;

	if (++p->depth > SH_MAX_DEPTH)
		return false;
	sh_skip_blanks(p);
	c->start = p->i;
	if (sh_at(p, 0) == '(' && sh_at(p, 1) == '(') {
		struct hs_sh_word w = { 0 };

		c->kind = HS_SH_OTHER;
		p->i += 2;
		ok = sh_scan_arith(p, &w);
	} else if (sh_at(p, 0) == '(') {
		c->kind = HS_SH_SUBSHELL;
		c->body_start = ++p->i;
		ok = parse_body(p, &c->body, true);
		sh_skip_newlines(p);
		c->body_end = p->i;
		ok = ok && sh_at(p, 0) == ')';
		if (ok) /* never past the end of an unclosed one */
			p->i++;
	} else if (sh_at_word(p, "{")) {
		c->kind = HS_SH_GROUP;
		c->body_start = ++p->i;
		ok = parse_body(p, &c->body, false);
		sh_skip_newlines(p);
		c->body_end = p->i;
		ok = ok && sh_expect_word(p, "}");
	} else if (sh_at_word(p, "if") || sh_at_word(p, "while") ||
		   sh_at_word(p, "until") || sh_at_word(p, "for") ||
		   sh_at_word(p, "select") || sh_at_word(p, "case") ||
		   sh_at_word(p, "[[")) {
		ok = parse_keyword_compound(p, c);
	} else if (sh_at_word(p, "function")) {
		struct hs_sh_word w = { 0 };

		p->i += 8;
		sh_skip_blanks(p);
		ok = sh_scan_word(p, &w, false);
		if (ok) {
			c->words = sh_grow(c->words, &c->nwords, sizeof(w), p);
			if (p->fail) {
				sh_free_word(&w);
				return false;
			}
			c->words[c->nwords - 1] = w;
		}
		sh_skip_blanks(p);
		if (ok && sh_at(p, 0) == '(') {
			p->i++;
			sh_skip_blanks(p);
			ok = sh_at(p, 0) == ')';
			p->i++;
		}
		sh_skip_newlines(p);
		ok = ok && parse_func_body(p, c);
	} else {
		p->depth--;
		ok = parse_simple(p, c);
		c->end = p->i;
		return ok;
	}
	p->depth--;
	ok = ok && parse_trailing_redirs(p, c);
	c->end = p->i;
	return ok;
}

static void free_cmd(struct hs_sh_cmd *c)
{
	for (size_t j = 0; j < c->nwords; j++)
		sh_free_word(&c->words[j]);
	for (size_t j = 0; j < c->nassigns; j++)
		sh_free_word(&c->assigns[j]);
	for (size_t j = 0; j < c->nredirs; j++)
		sh_free_word(&c->redirs[j].target);
	free(c->words);
	free(c->assigns);
	free(c->redirs);
	hs_sh_free_list(c->body);
}

static bool parse_pipe(struct sh_ps *p, struct hs_sh_pipe *pp)
{
	sh_skip_blanks(p);
	pp->start = p->i;
	if (sh_at_word(p, "!")) {
		pp->bang = true;
		p->i++;
	}
	for (;;) {
		pp->cmds = sh_grow(pp->cmds, &pp->ncmds, sizeof(*pp->cmds), p);
		if (p->fail || !parse_command(p, &pp->cmds[pp->ncmds - 1]))
			return false;
		pp->end = p->i;
		sh_skip_blanks(p);
		if (sh_at(p, 0) != '|' || sh_at(p, 1) == '|')
			return true;
		p->i += sh_at(p, 1) == '&' ? 2 : 1;
		sh_skip_newlines(p);
	}
}

struct hs_sh_list *hs_sh_parse_list(struct sh_ps *p, bool in_paren)
{
	struct hs_sh_list *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	for (sh_skip_newlines(p); sh_at(p, 0); ) {
		struct hs_sh_pipe *pp;
		char c;

		if ((in_paren && sh_at(p, 0) == ')') || sh_at_reserved_stop(p) ||
		    (sh_at(p, 0) == ';' && (sh_at(p, 1) == ';' || sh_at(p, 1) == '&')))
			break;
		l->pipes = sh_grow(l->pipes, &l->n, sizeof(*l->pipes), p);
		if (p->fail)
			goto fail;
		pp = &l->pipes[l->n - 1];
		if (!parse_pipe(p, pp))
			goto fail;
		sh_skip_blanks(p);
		c = sh_at(p, 0);
		if (c == '&' && sh_at(p, 1) == '&') {
			pp->next = HS_SH_AND;
			p->i += 2;
		} else if (c == '|' && sh_at(p, 1) == '|') {
			pp->next = HS_SH_OR;
			p->i += 2;
		} else if (c == ';' && sh_at(p, 1) != ';' && sh_at(p, 1) != '&') {
			pp->next = HS_SH_SEMI;
			p->i++;
		} else if (c == '&') {
			pp->next = HS_SH_AMP;
			p->i++;
		} else if (c == '\n') {
			pp->next = HS_SH_NL;
			sh_take_newline(p);
		} else {
			pp->next = HS_SH_END;
			pp->next_end = p->i;
			break;
		}
		pp->next_end = p->i;
		if (pp->next == HS_SH_AND || pp->next == HS_SH_OR) {
			sh_skip_newlines(p);
			if (!sh_at(p, 0) || sh_at_reserved_stop(p) ||
			    (in_paren && sh_at(p, 0) == ')'))
				goto fail; /* `a &&` with nothing after */
		} else {
			sh_skip_newlines(p);
		}
	}
	return l;
fail:
	hs_sh_free_list(l);
	return NULL;
}

void hs_sh_free_list(struct hs_sh_list *l)
{
	if (!l)
		return;
	for (size_t k = 0; k < l->n; k++) {
		for (size_t j = 0; j < l->pipes[k].ncmds; j++)
			free_cmd(&l->pipes[k].cmds[j]);
		free(l->pipes[k].cmds);
	}
	free(l->pipes);
	free(l);
}

/* *more: the text stops inside a command (the parse ran out of input,
 * or a here-document is still open) */
static struct hs_sh_list *parse(const char *script, bool *more)
{
	struct sh_ps p = { .s = script };
	struct hs_sh_list *l;

	*more = false;
	if (!script)
		return NULL;
	p.n = strlen(script);
	l = hs_sh_parse_list(&p, false);
	if (l)
		sh_skip_newlines(&p);
	/* a failed parse stops where it failed: at the end, it wanted
	 * more (an open `if`, quote or group, a trailing `&&` or `\`) */
	*more = (!l && !p.fail && p.i >= p.n) || p.hd_open || p.nhd > 0;
	for (size_t k = 0; k < p.nhd; k++)
		free(p.hd[k].delim);
	if (l && (p.fail || p.i >= p.n + 1 || sh_at(&p, 0))) {
		hs_sh_free_list(l);
		return NULL;
	}
	return l;
}

struct hs_sh_list *hs_sh_parse(const char *script)
{
	bool more;

	return parse(script, &more);
}

bool hs_sh_needs_more(const char *script)
{
	bool more;

	hs_sh_free_list(parse(script, &more));
	return more;
}

void hs_sh_free(struct hs_sh_list *l)
{
	hs_sh_free_list(l);
}

const char *hs_sh_value(const struct hs_sh_word *w)
{
	return w ? w->value : NULL;
}
