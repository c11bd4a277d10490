/* Hand-offs, the other question: does a text run a string its hook did
 * not see, or read arguments it was not shown? See handoff.h and
 * docs/agents.md. Lexical and structural checks over engine/shparse.c;
 * each says yes when in doubt (what it runs is then judged too). */
#include "handoff.h"

#include <stdlib.h>
#include <string.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "handoff_int.h"
#include "shparse.h"
#include "strbuf.h"

#define MAX_WORDS HS_HO_MAX_WORDS

static bool text_opaque(const char *text, int depth);

static bool list_opaque(const char *text, const struct hs_sh_list *l,
			int depth, bool in);

/* An assignment to a variable whose value the shell runs or reads as a
 * script: prompts (PS4 under set -x), PROMPT_COMMAND, BASH_ENV, ENV
 * (hs_ho_shell_code_name). */
static bool code_var(const struct hs_sh_word *w, const char *script)
{
	char name[32];
	size_t n = 0;

	while (w->start + n < w->end && n < sizeof(name) - 1 &&
	       hs_ho_name_char(script[w->start + n], n == 0)) {
		name[n] = script[w->start + n];
		n++;
	}
	name[n] = '\0';
	return n && w->start + n < w->end && script[w->start + n] == '=' &&
	       hs_ho_shell_code_name(name);
}

static bool cmd_opaque(const char *text, const struct hs_sh_cmd *c,
		       int depth, bool piped)
{
	char *v[MAX_WORDS + 1];
	size_t n = 0;
	int k, j;

	if (c->body &&
	    list_opaque(text, c->body, depth,
			c->kind == HS_SH_FUNC || hs_ho_stdin_unseen(text, c, piped)))
		return true;
	for (size_t a = 0; a < c->nassigns; a++)
		if (code_var(&c->assigns[a], text))
			return true;
	for (size_t a = 0; a < c->nwords; a++) /* export PS4=… */
		if (code_var(&c->words[a], text))
			return true;
	if (hs_ho_code_value(text, c, false))
		return true;
	if (c->kind != HS_SH_SIMPLE || !c->nwords)
		return false;
	/* the words up to the first one whose value is not its text */
	while (n < c->nwords && n < MAX_WORDS && c->words[n].value) {
		v[n] = c->words[n].value;
		n++;
	}
	v[n] = NULL;
	if (!n)
		return true; /* the command word is an expansion */
	k = hs_ho_skip_prefixes(v);
	/* a prefix not followed to the letter, or a runner it does not
	 * know: any shell among its words */
	if ((k < 0 || (v[k] && hs_ho_runner(v[k]))) &&
	    hs_ho_runner_runs_unseen(text, c, v, n, k < 0 ? 0 : (size_t)k, depth,
			       piped))
		return true;
	if (k < 0)
		/* a prefix not followed: opaque when it runs something
		 * not shown */
		return n < c->nwords;
	if (!v[k])
		return true; /* what the prefix runs is an expansion */
	if (strcmp(v[k], "eval") == 0 || strcmp(v[k], "trap") == 0) {
		if (n < c->nwords)
			return true;
		return hs_ho_joined_opaque(v, (size_t)k + 1, n, depth);
	}
	if (strcmp(v[k], "source") == 0 || strcmp(v[k], ".") == 0)
		return n < c->nwords || !v[k + 1] || hs_ho_stream_path(v[k + 1]);
	if (!hs_shell_name(v[k]) && strcmp(v[k], "hush") != 0)
		return hs_ho_runs_unseen(text, c, v, (size_t)k, piped);
	if (n < c->nwords)
		return true; /* a shell with an expanded option or string */
	if (hs_shell_reads_stdin(v + k))
		return true;
	j = hs_shell_operand(v + k);
	if (j < 0) { /* a script file: opaque when it is a stream */
		for (j = 1; v[k + j] && v[k + j][0] == '-'; j++)
			;
		return v[k + j] && hs_ho_stream_path(v[k + j]);
	}
	return text_opaque(v[k + j], depth + 1);
}

/* in: the list reads a stdin the hook did not see (a group's or a loop's
 * in a pipe, or redirected so; a function's, whose callers may pipe) */
static bool list_opaque(const char *text, const struct hs_sh_list *l,
			int depth, bool in)
{
	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++)
			if (cmd_opaque(text, &l->pipes[i].cmds[j], depth,
				       in || j > 0))
				return true;
	return false;
}

/* Is the word `w` at s (a word boundary before it) there? */
static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = s; (p = strstr(p, w)); p++)
		if ((p == s || !hs_ho_name_char(p[-1], false)) &&
		    !hs_ho_name_char(p[n], false))
			return true;
	return false;
}

/* A builtin that leaves code behind in the shell's tables by an option
 * of `opt`'s letter: `hash -p PATH NAME` is BASH_CMDS[NAME]=PATH
 * (session 38's attack run: `hash -p "/bin/$(printf r)m" ls; ls -rf V`
 * ran rm), `enable -f FILE NAME` loads a builtin. Read as text with its
 * quotes and backslashes taken out (`ha\sh`, `'hash'`), the option in
 * any cluster (`-rp`, `-lp`). */
static bool leaves_code(const char *text, const char *name, char opt)
{
	char *t = malloc(strlen(text) + 1), *d = t;
	bool r = false;

	if (!t)
		return true;
	for (const char *p = text; *p; p++)
		if (*p != '\\' && *p != '\'' && *p != '"')
			*d++ = *p;
	*d = '\0';
	if (has_word(t, name))
		for (const char *p = t; (p = strstr(p, " -")) && !r; p += 2)
			for (const char *q = p + 2;
			     (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z');
			     q++)
				r |= *q == opt;
	free(t);
	return r;
}

/* Names of the environment a shell runs as code, set however (`for
 * BASH_ENV in …`, read, printf -v, export -f): read as text. */
static bool env_code(const char *text)
{
	return strstr(text, "BASH_ENV") || strstr(text, "PROMPT_COMMAND") ||
	       strstr(text, "PS4") || strstr(text, "BASH_FUNC") ||
	       strstr(text, "BASH_ALIASES") || strstr(text, "BASH_CMDS") ||
	       leaves_code(text, "hash", 'p') ||
	       leaves_code(text, "enable", 'f') ||
	       ((has_word(text, "export") || has_word(text, "declare") ||
		 has_word(text, "typeset")) && strstr(text, " -f"));
}

/* A command substitution, $(…) or `…`, anywhere in text. */
static bool substitutes(const char *text)
{
	for (const char *p = text; (p = strstr(p, "$(")); p++)
		if (p[2] != '(')
			return true;
	return strchr(text, '`') != NULL;
}

/* Somewhere bash evaluates arithmetic: $((…)), ((…)), let, [[ … ]],
 * declare -i, test -v. */
static bool arithmetic(const char *text)
{
	return strstr(text, "((") || strstr(text, "[[") || strstr(text, "-v ") ||
	       has_word(text, "let") || strstr(text, "-i ");
}

static bool text_opaque(const char *text, int depth)
{
	struct hs_sh_list *l;
	bool r;

	if (depth > 8)
		return true;
	/* prompt expansion of data (${x@P}), indirection (${!x}), and
	 * arithmetic beside a substitution: bash evaluates an array
	 * subscript's $(…) in `: $((x))` when x came from data */
	if (strstr(text, "@P}") || strstr(text, "${!") ||
	    (substitutes(text) && arithmetic(text)) || env_code(text) ||
	    hs_ho_code_default(text))
		return true;
	if (!(l = hs_sh_parse(text)))
		return true; /* what it runs cannot be told */
	r = list_opaque(text, l, depth, false);
	hs_sh_free(l);
	return r;
}

bool hs_ho_text_opaque(const char *text, int depth)
{
	return text_opaque(text, depth);
}

bool hs_ho_joined_opaque(char *const v[], size_t from, size_t n, int depth)
{
	struct hs_strbuf b = { 0 };
	bool r;

	for (size_t i = from; i < n; i++) {
		if (i > from)
			hs_sb_addc(&b, ' ');
		hs_sb_adds(&b, v[i]);
	}
	r = b.s && text_opaque(b.s, depth + 1);
	hs_sb_free(&b);
	return r;
}

bool hs_handoff_opaque(const char *text)
{
	return !text || text_opaque(text, 0);
}

bool hs_handoff_uses_params(const char *script)
{
	if (!script)
		return false;
	for (const char *p = script; (p = strchr(p, '$')); p++) {
		const char *q = p[1] == '{' ? p + 2 : p + 1;

		if ((*q >= '0' && *q <= '9') || *q == '@' || *q == '*' ||
		    *q == '#' || (p[1] == '{' && *q == '!'))
			return true;
	}
	/* `for a; do`, `for a do`: a loop over "$@" */
	for (const char *p = script; (p = strstr(p, "for")); p++) {
		const char *q = p + 3;

		if (p != script && hs_ho_name_char(p[-1], false))
			continue;
		if (*q != ' ' && *q != '\t')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!hs_ho_name_char(*q, true))
			continue;
		while (hs_ho_name_char(*q, false))
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == ';' || *q == '\n' || strncmp(q, "do", 2) == 0)
			return true;
	}
	return has_word(script, "shift") || has_word(script, "getopts") ||
	       strstr(script, "BASH_ARGV") || strstr(script, "BASH_ARGC") ||
	       strstr(script, "/cmdline");
}

/* Builtins that keep code for later, and the prefixes that run one. */
static bool keeps_code_word(const char *w)
{
	/* read, mapfile: a line of the shell's own input taken as data,
	 * which a later expansion may run */
	static const char *const words[] = { "alias", "trap", "hash", "enable",
					     "source", ".", "eval", "read",
					     "mapfile", "readarray", NULL };

	for (size_t i = 0; words[i]; i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

static bool list_keeps(const char *text, const struct hs_sh_list *l);

static bool cmd_keeps(const char *text, const struct hs_sh_cmd *c)
{
	size_t k = 0;
	const char *w;

	if (c->kind == HS_SH_FUNC)
		return true;
	if (c->body && list_keeps(text, c->body))
		return true;
	if (c->kind != HS_SH_SIMPLE)
		return false;
	/* a variable later programs run as code: `export
	 * GIT_SSH_COMMAND=…` then `git fetch`, `export PAGER=…` then `man` */
	if (hs_ho_code_value(text, c, true))
		return true;
	/* past the words that run a builtin: builtin, command, time, and
	 * their options (command -p, time -p, --) */
	for (; k < c->nwords; k++) {
		if (!(w = c->words[k].value))
			return true; /* an expanded command word: any of them */
		if (strcmp(w, "builtin") != 0 && strcmp(w, "command") != 0 &&
		    strcmp(w, "time") != 0 && w[0] != '-')
			return keeps_code_word(w);
	}
	return false;
}

static bool list_keeps(const char *text, const struct hs_sh_list *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++)
			if (cmd_keeps(text, &l->pipes[i].cmds[j]))
				return true;
	return false;
}

bool hs_handoff_leaves_code(const char *text)
{
	struct hs_sh_list *l;
	bool r;

	if (!text || env_code(text) || hs_ho_code_default(text) ||
	    !(l = hs_sh_parse(text)))
		return true;
	r = list_keeps(text, l);
	hs_sh_free(l);
	return r;
}

bool hs_handoff_evaluates_data(const char *text)
{
	return !text || arithmetic(text) || strstr(text, "$[") ||
	       strstr(text, "${!") || strstr(text, "@P}");
}
