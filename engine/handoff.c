/* Hand-offs; see handoff.h and docs/agents.md.
 *
 * The unwrap is a tiny evaluator over the parsed script: it follows the
 * script's positional parameters through assignments and function calls
 * to the one carrier, and gives up (NULL: the hook is shown the script,
 * and the script is judged as opaque) at anything whose value it cannot
 * know exactly — an unquoted expansion (split and globbed), a default
 * (`${x:-y}`), a substitution, a variable set in a branch or a loop,
 * `set --`, `shift`, `read`. Everything around the carrier must be inert
 * setup (engine/unwrap.h), so nothing hidden from the hook runs. */
#include "handoff.h"

#include <stdlib.h>
#include <string.h>

#include "../common/shellargv.h"
#include "shparse.h"
#include "strbuf.h"
#include "unwrap.h"

#define MAX_VARS 32
#define MAX_FUNCS 8
#define MAX_CALLS 4
#define MAX_WORDS 256

struct var {
	char *name;
	char *value; /* NULL: set to something not known exactly */
};

struct scope {
	const char *script;
	char *const *params; /* $0 $1 …, NULL-terminated */
	size_t nparams;
	struct var vars[MAX_VARS];
	size_t nvars;
	struct {
		char *name;
		const struct hs_sh_cmd *def;
	} funcs[MAX_FUNCS];
	size_t nfuncs;
	int calls;
};

struct words {
	char *v[MAX_WORDS + 1];
	size_t n;
	bool fail;
};

static void words_add(struct words *w, char *s)
{
	if (!s || w->n >= MAX_WORDS) {
		free(s);
		w->fail = true;
		return;
	}
	w->v[w->n++] = s;
	w->v[w->n] = NULL;
}

static void words_free(struct words *w)
{
	for (size_t k = 0; k < w->n; k++)
		free(w->v[k]);
	w->n = 0;
	w->v[0] = NULL;
}

static struct var *var_find(struct scope *sc, const char *name, size_t n)
{
	for (size_t k = 0; k < sc->nvars; k++)
		if (strlen(sc->vars[k].name) == n &&
		    memcmp(sc->vars[k].name, name, n) == 0)
			return &sc->vars[k];
	return NULL;
}

/* Sets a variable (value NULL: not known); false when the table is full. */
static bool var_set(struct scope *sc, const char *name, size_t n, char *value)
{
	struct var *v = var_find(sc, name, n);

	if (!v) {
		if (sc->nvars >= MAX_VARS) {
			free(value);
			return false;
		}
		v = &sc->vars[sc->nvars++];
		v->name = strndup(name, n);
		v->value = NULL;
		if (!v->name) {
			sc->nvars--;
			free(value);
			return false;
		}
	}
	free(v->value);
	v->value = value;
	return true;
}

static void scope_free(struct scope *sc)
{
	for (size_t k = 0; k < sc->nvars; k++) {
		free(sc->vars[k].name);
		free(sc->vars[k].value);
	}
	for (size_t k = 0; k < sc->nfuncs; k++)
		free(sc->funcs[k].name);
}

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* $… at s[*i] (just past the '$'): appends its value; false when it is
 * not a plain parameter or its value is not known. `star`: "$*" and
 * positional parameters joined by spaces (bash's default IFS). */
static bool param(struct scope *sc, const char *s, size_t n, size_t *i,
		  struct hs_strbuf *b)
{
	size_t from = *i, len;
	bool braced = from < n && s[from] == '{';
	const char *v;

	if (braced)
		from++;
	len = 0;
	if (from < n && s[from] >= '0' && s[from] <= '9') {
		len = 1;
		while (braced && from + len < n && s[from + len] >= '0' &&
		       s[from + len] <= '9')
			len++;
	} else if (from < n && s[from] == '*') {
		len = 1;
	} else {
		while (from + len < n && name_char(s[from + len], len == 0))
			len++;
	}
	if (!len || (braced && (from + len >= n || s[from + len] != '}')))
		return false;
	*i = from + len + (braced ? 1 : 0);
	if (s[from] == '*') {
		for (size_t k = 1; k < sc->nparams; k++) {
			if (k > 1)
				hs_sb_addc(b, ' ');
			hs_sb_adds(b, sc->params[k]);
		}
		return true;
	}
	if (s[from] >= '0' && s[from] <= '9') {
		size_t k = 0;

		/* the digits of this word only: `$12` is ${1}2 */
		for (size_t d = 0; d < len && k < 1000; d++)
			k = k * 10 + (size_t)(s[from + d] - '0');
		if (k < sc->nparams)
			hs_sb_adds(b, sc->params[k]);
		return true; /* an unset parameter is empty */
	}
	{
		struct var *var = var_find(sc, s + from, len);

		v = var ? var->value : NULL;
	}
	if (!v)
		return false;
	hs_sb_adds(b, v);
	return true;
}

/* The word s[0,n) after expansion into w: quote removal and plain
 * parameters, "$@" as one word per parameter when it is the whole word.
 * Unquoted expansions only where no splitting happens (`assign`). */
static bool expand(struct scope *sc, const char *s, size_t n, bool assign,
		   struct words *w)
{
	struct hs_strbuf b = { 0 };
	bool dq = false;

	if (n == 4 && memcmp(s, "\"$@\"", 4) == 0) {
		for (size_t k = 1; k < sc->nparams; k++)
			words_add(w, strdup(sc->params[k]));
		return !w->fail;
	}
	if (n && s[0] == '~')
		return false;
	for (size_t i = 0; i < n;) {
		char c = s[i];

		if (c == '$') {
			i++;
			if ((!dq && !assign) || (i < n && s[i] == '@') ||
			    !param(sc, s, n, &i, &b))
				goto fail;
		} else if (dq) {
			if (c == '"') {
				dq = false;
			} else if (c == '`') {
				goto fail;
			} else if (c == '\\' && i + 1 < n &&
				   strchr("$`\"\\\n", s[i + 1])) {
				if (s[i + 1] != '\n')
					hs_sb_addc(&b, s[i + 1]);
				i++;
			} else {
				hs_sb_addc(&b, c);
			}
			i++;
		} else if (c == '"') {
			dq = true;
			i++;
		} else if (c == '\'') {
			const char *e = memchr(s + i + 1, '\'', n - i - 1);

			if (!e)
				goto fail;
			hs_sb_add(&b, s + i + 1, (size_t)(e - s - i - 1));
			i = (size_t)(e - s) + 1;
		} else if (c == '\\') {
			if (i + 1 >= n)
				goto fail;
			if (s[i + 1] != '\n')
				hs_sb_addc(&b, s[i + 1]);
			i += 2;
		} else if (strchr("*?[]{}`", c) && !assign) {
			goto fail; /* globs and brace expansion */
		} else if (c == '`') {
			goto fail;
		} else {
			hs_sb_addc(&b, c);
			i++;
		}
	}
	if (dq || b.failed)
		goto fail;
	words_add(w, hs_sb_take(&b));
	return !w->fail;
fail:
	hs_sb_free(&b);
	return false;
}

static bool expand_word(struct scope *sc, const struct hs_sh_word *wd,
			struct words *w)
{
	return !wd->runs &&
	       expand(sc, sc->script + wd->start, wd->end - wd->start, false, w);
}

/* NAME=VALUE (an assignment, or a declaration builtin's argument): sets
 * NAME, to NULL when VALUE is not known exactly. False for what cannot
 * be followed: `+=`, arrays, a malformed name. */
static bool assign(struct scope *sc, const char *s, size_t n)
{
	size_t k = 0;
	struct words w = { .n = 0 };
	char *v = NULL;

	while (k < n && name_char(s[k], k == 0))
		k++;
	if (!k || k >= n || s[k] != '=' || (k + 1 < n && s[k + 1] == '('))
		return k && k == n; /* a bare NAME declares nothing known */
	if (expand(sc, s + k + 1, n - k - 1, true, &w) && w.n == 1) {
		v = w.v[0];
		w.n = 0;
	}
	words_free(&w);
	return var_set(sc, s, k, v);
}

static const char *literal(const struct hs_sh_cmd *c, size_t k)
{
	return k < c->nwords ? hs_sh_value(&c->words[k]) : NULL;
}

static bool is_any(const char *s, const char *const *names)
{
	for (; s && *names; names++)
		if (strcmp(s, *names) == 0)
			return true;
	return false;
}

static const char *const declares[] = { "export", "declare", "typeset",
					"readonly", "local", NULL };

/* Does any command of l (at any depth) change a variable or the
 * positional parameters? Setup inside a group or a branch must not: its
 * effect would depend on the branch taken. */
static bool touches_vars(const struct hs_sh_list *l)
{
	static const char *const changers[] = { "export", "declare", "typeset",
		"readonly", "local", "unset", "set", "printf", "read",
		"shift", NULL };

	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++) {
			const struct hs_sh_cmd *c = &l->pipes[i].cmds[j];

			if (c->nassigns || is_any(literal(c, 0), changers) ||
			    touches_vars(c->body))
				return true;
		}
	return false;
}

static bool is_func(struct scope *sc, const char *name, size_t *at)
{
	for (size_t k = 0; name && k < sc->nfuncs; k++)
		if (strcmp(sc->funcs[k].name, name) == 0) {
			*at = k;
			return true;
		}
	return false;
}

/* A setup command: inert, and its effect on variables followed. */
static bool setup(struct scope *sc, const struct hs_sh_cmd *c)
{
	const char *name = literal(c, 0);
	bool decl = is_any(name, declares);
	size_t at;

	/* a function of the script named like a builtin is not that
	 * builtin; nor can a group's or a branch's commands be told apart
	 * from one once a function exists */
	if (is_func(sc, name, &at) ||
	    (sc->nfuncs && c->kind != HS_SH_SIMPLE))
		return false;
	if (c->kind == HS_SH_GROUP || c->kind == HS_SH_IF)
		return !touches_vars(c->body) && hs_unwrap_inert(c);
	if (c->kind != HS_SH_SIMPLE)
		return false;
	/* `local` is inert like declare, which unwrap.c's list names; so is
	 * `cd` (it runs no program) */
	if (!decl && !(name && strcmp(name, "cd") == 0 && !c->nassigns &&
		       !c->nredirs) &&
	    !hs_unwrap_inert(c))
		return false;
	for (size_t k = 0; k < c->nwords; k++)
		if (c->words[k].runs)
			return false;
	if (decl && (c->nredirs || c->nassigns))
		return false;
	if (!c->nwords) {
		for (size_t k = 0; k < c->nassigns; k++) {
			const struct hs_sh_word *a = &c->assigns[k];

			if (a->runs ||
			    !assign(sc, sc->script + a->start, a->end - a->start))
				return false;
		}
		return true;
	}
	if (c->nassigns) /* X=1 true: temporary, not followed */
		return false;
	if (decl) {
		for (size_t k = 1; k < c->nwords; k++) {
			const struct hs_sh_word *a = &c->words[k];
			const char *v = hs_sh_value(a);

			if (a->runs)
				return false;
			if (v && v[0] == '-') { /* -n, -a, -A: not followed */
				if (strpbrk(v, "naAI"))
					return false;
				continue;
			}
			if (!assign(sc, sc->script + a->start, a->end - a->start))
				return false;
		}
		return true;
	}
	if (strcmp(name ? name : "", "cd") == 0) /* runs no program */
		return true;
	if (strcmp(name ? name : "", "unset") == 0) {
		for (size_t k = 1; k < c->nwords; k++) {
			const char *v = literal(c, k);

			if (!v)
				return false;
			if (v[0] != '-' && !var_set(sc, v, strlen(v), NULL))
				return false;
		}
		return true;
	}
	if (strcmp(name ? name : "", "set") == 0) {
		/* options only: `set -- …` or an operand changes $1… */
		for (size_t k = 1; k < c->nwords; k++) {
			const char *v = literal(c, k);

			if (!v || (v[0] != '-' && v[0] != '+') || !v[1] ||
			    strcmp(v, "--") == 0)
				return false;
			if (v[strlen(v) - 1] == 'o' && k + 1 < c->nwords)
				k++; /* -o NAME, -euo NAME */
		}
		return true;
	}
	if (strcmp(name ? name : "", "printf") == 0)
		for (size_t k = 1; k < c->nwords; k++)
			if (!literal(c, k) || strncmp(literal(c, k), "-v", 2) == 0)
				return false;
	return true;
}

/* Past `command`, `builtin`, `exec` and run-its-operand programs with
 * their options: the index of the command they run, or -1 when a prefix
 * is not one this knows to the letter. */
static int skip_prefixes(char *const v[])
{
	int k = 0;

	for (;;) {
		const char *p = v[k];

		if (!p)
			return -1;
		if (strcmp(p, "command") == 0 || strcmp(p, "builtin") == 0 ||
		    strcmp(p, "exec") == 0 || strcmp(p, "nohup") == 0) {
			k++;
			if (v[k] && v[k][0] == '-' && strcmp(v[k], "--") != 0)
				return -1;
			if (v[k] && strcmp(v[k], "--") == 0)
				k++;
			continue;
		}
		if (strcmp(p, "env") == 0) {
			for (k++; v[k]; k++) {
				if (strcmp(v[k], "-i") == 0 || strcmp(v[k], "-") == 0 ||
				    strcmp(v[k], "--ignore-environment") == 0)
					continue;
				if (strcmp(v[k], "-u") == 0 && v[k + 1]) {
					k++;
					continue;
				}
				if (v[k][0] == '-')
					return -1;
				if (!strchr(v[k], '='))
					break;
			}
			continue;
		}
		if (strcmp(p, "setsid") == 0) {
			for (k++; v[k] && (strcmp(v[k], "-f") == 0 ||
					   strcmp(v[k], "-w") == 0);)
				k++;
			continue;
		}
		if (strcmp(p, "nice") == 0) {
			k++;
			if (v[k] && strcmp(v[k], "-n") == 0 && v[k + 1])
				k += 2;
			else if (v[k] && v[k][0] == '-' && v[k][1] >= '0' &&
				 v[k][1] <= '9')
				k++;
			continue;
		}
		if (strcmp(p, "timeout") == 0) {
			for (k++; v[k] && v[k][0] == '-'; k++)
				if ((strcmp(v[k], "-s") == 0 ||
				     strcmp(v[k], "-k") == 0) && v[k + 1])
					k++;
			if (!v[k])
				return -1;
			k++; /* the duration */
			continue;
		}
		return k;
	}
}

/* Is c shaped like a carrier: something that may run a string: eval, an
 * inner shell, a prefix chain, a function of the script, or a command
 * word that is an expansion? */
static bool carrier_shape(struct scope *sc, const struct hs_sh_cmd *c)
{
	static const char *const heads[] = { "eval", "exec", "command",
		"builtin", "env", "nohup", "setsid", "nice", "timeout", NULL };
	const char *n = literal(c, 0);
	size_t at;

	if (c->kind != HS_SH_SIMPLE || !c->nwords)
		return false;
	return !n || is_any(n, heads) || hs_shell_name(n) || is_func(sc, n, &at);
}

static bool list_handoff(struct scope *sc, const struct hs_sh_list *l,
			 char **out);

/* Are v[0, k) only `command` and `builtin` (which eval may follow)? */
static bool only_builtin_prefix(char *const v[], int k)
{
	for (int i = 0; i < k; i++)
		if (strcmp(v[i], "command") != 0 && strcmp(v[i], "builtin") != 0)
			return false;
	return true;
}

/* The string carrier c hands on; NULL when not known exactly. */
static char *carrier(struct scope *sc, const struct hs_sh_cmd *c)
{
	struct words w = { .n = 0 };
	struct hs_strbuf b = { 0 };
	char *out = NULL;
	size_t at;
	int k, j;

	for (size_t r = 0; r < c->nredirs; r++)
		if (!c->redirs[r].target.value ||
		    strncmp(c->redirs[r].op, "<<", 2) == 0)
			return NULL;
	for (size_t r = 0; r < c->nassigns; r++)
		if (c->assigns[r].runs)
			return NULL;
	for (size_t i = 0; i < c->nwords; i++)
		if (!expand_word(sc, &c->words[i], &w))
			goto done;
	if (!w.n || (k = skip_prefixes(w.v)) < 0 || !w.v[k])
		goto done;
	if (strcmp(w.v[k], "eval") == 0 && only_builtin_prefix(w.v, k)) {
		for (size_t i = (size_t)k + 1; i < w.n; i++) {
			if (i > (size_t)k + 1)
				hs_sb_addc(&b, ' ');
			hs_sb_adds(&b, w.v[i]);
		}
		out = hs_sb_take(&b);
	} else if (hs_shell_name(w.v[k]) &&
		   (j = hs_shell_operand(w.v + k)) >= 0) {
		out = strdup(w.v[k + j]);
	} else if (k == 0 && is_func(sc, w.v[0], &at) &&
		   sc->calls < MAX_CALLS) {
		/* a function of the script: its body, with these arguments
		 * as $1…, in a scope of its own */
		const struct hs_sh_cmd *def = sc->funcs[at].def;
		const struct hs_sh_cmd *body = &def->body->pipes[0].cmds[0];
		struct scope in = { .script = sc->script, .calls = sc->calls + 1 };
		char *pv[MAX_WORDS + 1];

		pv[0] = sc->params[0];
		for (size_t i = 1; i < w.n; i++)
			pv[i] = w.v[i];
		pv[w.n] = NULL;
		in.params = pv;
		in.nparams = w.n;
		for (size_t i = 0; i < sc->nvars; i++)
			var_set(&in, sc->vars[i].name, strlen(sc->vars[i].name),
				sc->vars[i].value ? strdup(sc->vars[i].value)
						  : NULL);
		for (size_t i = 0; i < sc->nfuncs; i++) {
			char *nm = strdup(sc->funcs[i].name);

			if (!nm)
				continue;
			in.funcs[in.nfuncs].name = nm;
			in.funcs[in.nfuncs++].def = sc->funcs[i].def;
		}
		if (body->kind == HS_SH_GROUP || body->kind == HS_SH_SUBSHELL)
			list_handoff(&in, body->body, &out);
		scope_free(&in);
	}
done:
	hs_sb_free(&b);
	words_free(&w);
	return out;
}

/* Inert setup around exactly one carrier, whose string goes to *out. */
static bool list_handoff(struct scope *sc, const struct hs_sh_list *l,
			 char **out)
{
	for (size_t k = 0; l && k < l->n; k++) {
		const struct hs_sh_pipe *p = &l->pipes[k];
		const struct hs_sh_cmd *c = &p->cmds[0];

		if (p->ncmds != 1 || p->next == HS_SH_AMP)
			goto fail;
		if (c->kind == HS_SH_FUNC) {
			const char *n = literal(c, 0);

			if (!n || sc->nfuncs >= MAX_FUNCS || !c->body ||
			    c->body->n != 1 ||
			    !(sc->funcs[sc->nfuncs].name = strdup(n)))
				goto fail;
			sc->funcs[sc->nfuncs++].def = c;
			continue;
		}
		if (!*out && carrier_shape(sc, c)) {
			if (!(*out = carrier(sc, c)) || !**out)
				goto fail;
			continue;
		}
		if (!setup(sc, c))
			goto fail;
	}
	if (*out)
		return true;
fail:
	free(*out);
	*out = NULL;
	return false;
}

char *hs_handoff_unwrap(const char *script, char *const params[])
{
	struct scope sc = { .script = script, .params = params };
	struct hs_sh_list *l;
	char *out = NULL;

	if (!script || !params || !params[0])
		return NULL; /* no arguments: nothing handed in */
	while (params[sc.nparams])
		sc.nparams++;
	if (!(l = hs_sh_parse(script)))
		return NULL;
	list_handoff(&sc, l, &out);
	hs_sh_free(l);
	scope_free(&sc);
	return out;
}

/* ---- opacity ---- */

static bool text_opaque(const char *text, int depth);

static bool list_opaque(const struct hs_sh_list *l, int depth);

static bool cmd_opaque(const struct hs_sh_cmd *c, int depth)
{
	char *v[MAX_WORDS + 1];
	struct hs_strbuf b = { 0 };
	size_t n = 0;
	int k, j;
	bool r;

	if (c->body && list_opaque(c->body, depth))
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
	k = skip_prefixes(v);
	if (k < 0)
		return n < c->nwords; /* a prefix not followed: only if it
				       * runs something not shown */
	if (!v[k])
		return true; /* what the prefix runs is an expansion */
	if (strcmp(v[k], "eval") == 0 || strcmp(v[k], "trap") == 0) {
		if (n < c->nwords)
			return true;
		for (size_t i = (size_t)k + 1; i < n; i++) {
			if (i > (size_t)k + 1)
				hs_sb_addc(&b, ' ');
			hs_sb_adds(&b, v[i]);
		}
		r = b.s && text_opaque(b.s, depth + 1);
		hs_sb_free(&b);
		return r;
	}
	if (strcmp(v[k], "source") == 0 || strcmp(v[k], ".") == 0)
		return n < c->nwords;
	if (!hs_shell_name(v[k]))
		return false;
	if (n < c->nwords)
		return true; /* a shell with an expanded option or string */
	if (hs_shell_reads_stdin(v + k))
		return true;
	j = hs_shell_operand(v + k);
	return j >= 0 && text_opaque(v[k + j], depth + 1);
}

static bool list_opaque(const struct hs_sh_list *l, int depth)
{
	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++)
			if (cmd_opaque(&l->pipes[i].cmds[j], depth))
				return true;
	return false;
}

static bool text_opaque(const char *text, int depth)
{
	struct hs_sh_list *l;
	bool r;

	if (depth > 8)
		return true;
	if (!(l = hs_sh_parse(text)))
		return true; /* what it runs cannot be told */
	r = list_opaque(l, depth);
	hs_sh_free(l);
	return r;
}

bool hs_handoff_opaque(const char *text)
{
	return !text || text_opaque(text, 0);
}

bool hs_handoff_uses_params(const char *script)
{
	for (const char *p = script; p && (p = strchr(p, '$')); p++) {
		const char *q = p[1] == '{' ? p + 2 : p + 1;

		if ((*q >= '1' && *q <= '9') || *q == '@' || *q == '*')
			return true;
	}
	return false;
}
