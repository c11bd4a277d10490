/* Hand-offs, the unwrap; see handoff.h and docs/agents.md. The other
 * question, whether a text is opaque, is opaque.c's. (A little over 600
 * lines: one evaluator, whose scope, expansion, setup and carrier rules
 * are read together.)
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
#include "handoff_int.h"

#define MAX_VARS 32
#define MAX_FUNCS 8
#define MAX_CALLS 4
#define MAX_WORDS HS_HO_MAX_WORDS

struct var {
	char *name;
	char *value; /* NULL: set to something not known exactly */
};

struct scope {
	const char *script;
	bool *exact; /* cleared when the string alone may not be all that
		      * runs: the script defines functions */
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

bool hs_ho_name_char(char c, bool first)
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
		while (from + len < n && hs_ho_name_char(s[from + len], len == 0))
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

	while (k < n && hs_ho_name_char(s[k], k == 0))
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

bool hs_ho_is_any(const char *s, const char *const *names)
{
	for (; s && *names; names++)
		if (strcmp(s, *names) == 0)
			return true;
	return false;
}

static const char *const declares[] = { "export", "declare", "typeset",
					"readonly", "local", NULL };

static bool is_func(struct scope *sc, const char *name, size_t *at)
{
	for (size_t k = 0; name && k < sc->nfuncs; k++)
		if (strcmp(sc->funcs[k].name, name) == 0) {
			*at = k;
			return true;
		}
	return false;
}

/* A name the unwrap may follow: lower case, so none of the shell's own
 * (IFS, PS4, BASH_ENV, PATH, CDPATH, PROMPT_COMMAND, …), which change
 * what the carried string does. */
static bool clean_name(const char *s, size_t n)
{
	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!(s[k] == '_' || (s[k] >= 'a' && s[k] <= 'z') ||
		      (s[k] >= '0' && s[k] <= '9')))
			return false;
	return true;
}

/* NAME=VALUE of a clean name whose value is known or not followed. */
static bool clean_assign(struct scope *sc, const struct hs_sh_word *w)
{
	const char *s = sc->script + w->start;
	size_t n = w->end - w->start, k = 0;

	while (k < n && hs_ho_name_char(s[k], k == 0))
		k++;
	return !w->runs && clean_name(s, k) && assign(sc, s, n);
}

/* `exit`/`return` with nothing, digits or $? */
static bool status_word(struct scope *sc, const struct hs_sh_word *w)
{
	const char *s = sc->script + w->start;
	size_t n = w->end - w->start;

	if ((n == 2 && memcmp(s, "$?", 2) == 0) ||
	    (n == 4 && memcmp(s, "\"$?\"", 4) == 0))
		return true;
	return w->value && strspn(w->value, "0123456789") == strlen(w->value);
}

/* A setup command, from a short list of what runs nothing and changes
 * nothing the carried string depends on but the variables followed:
 * assignments and declarations (no options) of clean names, `set` of
 * options, `unset`, `true`, `:`, `exit`/`return` with a status. No
 * redirection, no group or branch, nothing else -- `[ -v 'a[$(…)]' ]`,
 * `: "${x:=…}"` and `PS4=…; set -x` run code with no exec to see. */
static bool setup(struct scope *sc, const struct hs_sh_cmd *c)
{
	const char *name = literal(c, 0);
	size_t at;

	if (c->kind != HS_SH_SIMPLE || c->nredirs || is_func(sc, name, &at))
		return false;
	if (!c->nwords) {
		for (size_t k = 0; k < c->nassigns; k++)
			if (!clean_assign(sc, &c->assigns[k]))
				return false;
		return true;
	}
	if (c->nassigns || !name)
		return false;
	if (hs_ho_is_any(name, declares)) {
		for (size_t k = 1; k < c->nwords; k++)
			if (!clean_assign(sc, &c->words[k]) &&
			    !(c->words[k].value &&
			      clean_name(c->words[k].value,
					 strlen(c->words[k].value))))
				return false; /* options, special names */
		return true;
	}
	if (strcmp(name, "unset") == 0) {
		for (size_t k = 1; k < c->nwords; k++) {
			const char *v = literal(c, k);

			if (!v || !clean_name(v, strlen(v)) ||
			    !var_set(sc, v, strlen(v), NULL))
				return false;
		}
		return true;
	}
	if (strcmp(name, "set") == 0) {
		/* a short list of options: errexit, nounset, pipefail; not
		 * -k (NAME=V words become the environment), not -x (PS4),
		 * not an operand or `--` (they change $1…) */
		static const char *const longs[] = { "errexit", "nounset",
						     "pipefail", NULL };

		for (size_t k = 1; k < c->nwords; k++) {
			const char *v = literal(c, k);

			if (!v || (v[0] != '-' && v[0] != '+') || !v[1] ||
			    strspn(v + 1, "euo") != strlen(v + 1))
				return false;
			if (v[strlen(v) - 1] == 'o' &&
			    (k + 1 >= c->nwords || !hs_ho_is_any(literal(c, k + 1), longs)))
				return false;
			if (v[strlen(v) - 1] == 'o')
				k++; /* -o NAME, -euo NAME */
		}
		return true;
	}
	if (strcmp(name, "true") == 0 || strcmp(name, ":") == 0)
		return c->nwords == 1;
	if (strcmp(name, "exit") == 0 || strcmp(name, "return") == 0)
		return c->nwords == 1 ||
		       (c->nwords == 2 && status_word(sc, &c->words[1]));
	return false;
}

/* Past `command`, `builtin`, `exec` and run-its-operand programs with
 * their options: the index of the command they run, or -1 when a prefix
 * is not one this knows to the letter. */
int hs_ho_skip_prefixes(char *const v[])
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
			/* no NAME=VALUE: PATH, BASH_ENV or BASH_FUNC_x%% would
			 * change what the command runs */
			for (k++; v[k]; k++) {
				if (strcmp(v[k], "-i") == 0 || strcmp(v[k], "-") == 0 ||
				    strcmp(v[k], "--ignore-environment") == 0)
					continue;
				if (v[k][0] == '-' || strchr(v[k], '='))
					return -1;
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
	return !n || hs_ho_is_any(n, heads) || hs_shell_name(n) || is_func(sc, n, &at);
}

static bool list_handoff(struct scope *sc, const struct hs_sh_list *l,
			 char **out);

/* A shell the unwrap knows the rules of, at a system path: not zsh or
 * ksh (`$12` is the twelfth parameter there), not a program of any
 * directory that happens to be called bash. */
static bool plain_shell(const char *p)
{
	static const char *const ok[] = { "bash", "sh", "dash", "/bin/bash",
		"/bin/sh", "/bin/dash", "/usr/bin/bash", "/usr/bin/sh",
		"/usr/bin/dash", NULL };

	return hs_ho_is_any(p, ok);
}

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
	if (c->nassigns) /* BASH_ENV=… eval: not the string alone */
		return NULL;
	for (size_t i = 0; i < c->nwords; i++)
		if (!expand_word(sc, &c->words[i], &w))
			goto done;
	if (!w.n || (k = hs_ho_skip_prefixes(w.v)) < 0 || !w.v[k])
		goto done;
	if (strcmp(w.v[k], "eval") == 0 && only_builtin_prefix(w.v, k)) {
		size_t from = (size_t)k + 1;

		if (w.v[from] && strcmp(w.v[from], "--") == 0)
			from++; /* eval's end of options */
		for (size_t i = from; i < w.n; i++) {
			if (i > from)
				hs_sb_addc(&b, ' ');
			hs_sb_adds(&b, w.v[i]);
		}
		out = hs_sb_take(&b);
	} else if (plain_shell(w.v[k]) &&
		   (j = hs_shell_operand(w.v + k)) >= 0) {
		out = strdup(w.v[k + j]);
	} else if (k == 0 && is_func(sc, w.v[0], &at) &&
		   sc->calls < MAX_CALLS) {
		/* a function of the script: its body, with these arguments
		 * as $1…, in a scope of its own */
		const struct hs_sh_cmd *def = sc->funcs[at].def;
		const struct hs_sh_cmd *body = &def->body->pipes[0].cmds[0];
		struct scope in = { .script = sc->script, .exact = sc->exact,
				    .calls = sc->calls + 1 };
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

			/* a function can stand in for any command the string
			 * names (`ls() { …; }`, `eval() { …; }`,
			 * command_not_found_handle): shown, and judged
			 * beneath */
			*sc->exact = false;

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

char *hs_handoff_unwrap(const char *script, char *const params[],
			bool *exact)
{
	struct scope sc = { .script = script, .params = params,
			    .exact = exact };
	struct hs_sh_list *l;
	char *out = NULL;

	*exact = true;
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
