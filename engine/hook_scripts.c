/* The script files of a hook command; see hook_scripts.h. */
#include "hook_scripts.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../config/dialect.h"
#include "curl_load.h"
#include "shparse.h"
#include "strbuf.h"

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* $NAME or ${NAME} at t[*i] (t[*i] == '$') appended to b; false when the
 * value cannot be known. */
static bool expand_var(struct hs_strbuf *b, const char *t, size_t n,
		       size_t *i, const char *(*var)(const char *, void *),
		       void *arg)
{
	char name[128];
	size_t k = *i + 1, len = 0;
	bool brace = k < n && t[k] == '{';
	const char *v;

	if (brace)
		k++;
	while (k < n && name_char(t[k], len == 0) && len < sizeof(name) - 1)
		name[len++] = t[k++];
	name[len] = '\0';
	if (!len || (brace && (k >= n || t[k] != '}')))
		return false; /* $( $1 $? ${x:-y} ... */
	if (brace)
		k++;
	if (!(v = var(name, arg)))
		return false;
	hs_sb_adds(b, v);
	*i = k;
	return true;
}

char *hs_hook_word_value(const char *t, size_t n,
			 const char *(*var)(const char *name, void *arg),
			 void *arg)
{
	struct hs_strbuf b = { 0 };
	size_t i = 0;

	if (n && t[0] == '~' && (n == 1 || t[1] == '/')) {
		const char *home = var("HOME", arg);

		if (!home)
			return NULL;
		hs_sb_adds(&b, home);
		i = 1;
	}
	while (i < n) {
		char c = t[i];

		if (c == '\'') {
			size_t e = i + 1;

			while (e < n && t[e] != '\'')
				e++;
			if (e >= n)
				goto unknown;
			hs_sb_add(&b, t + i + 1, e - i - 1);
			i = e + 1;
		} else if (c == '"') {
			for (i++; i < n && t[i] != '"';) {
				if (t[i] == '\\' && i + 1 < n &&
				    strchr("\\\"$`", t[i + 1])) {
					hs_sb_addc(&b, t[i + 1]);
					i += 2;
				} else if (t[i] == '$') {
					if (!expand_var(&b, t, n, &i, var, arg))
						goto unknown;
				} else if (t[i] == '`') {
					goto unknown;
				} else {
					hs_sb_addc(&b, t[i++]);
				}
			}
			if (i >= n)
				goto unknown;
			i++;
		} else if (c == '\\' && i + 1 < n) {
			hs_sb_addc(&b, t[i + 1]);
			i += 2;
		} else if (c == '$') {
			if (!expand_var(&b, t, n, &i, var, arg))
				goto unknown;
		} else if (strchr("`*?[", c)) {
			goto unknown; /* runs something, or a glob */
		} else {
			hs_sb_addc(&b, c);
			i++;
		}
	}
	return hs_sb_take(&b);
unknown:
	hs_sb_free(&b);
	return NULL;
}

/* python, python3, python3.11, as a path or a name */
static bool python(const char *prog)
{
	const char *base = strrchr(prog, '/');

	base = base ? base + 1 : prog;
	return strncmp(base, "python", 6) == 0 &&
	       strspn(base + 6, "0123456789.") == strlen(base + 6);
}

/* Interpreters whose first operand is the script they run. */
static bool interpreter(const char *prog)
{
	static const char *const names[] = {
		"sh", "bash", "dash", "zsh", "ksh", "ash", "busybox",
		"python", "python2", "python3", "node", "nodejs", "perl",
		"ruby", "php", "bun", "deno", "tsx", "ts-node", NULL
	};
	const char *base = strrchr(prog, '/');

	base = base ? base + 1 : prog;
	for (const char *const *n = names; *n; n++)
		if (strcmp(base, *n) == 0)
			return true;
	return python(prog); /* python3.11 */
}

/* Options after which an interpreter runs text or a module, no file. */
static bool inline_code(const char *opt)
{
	return strcmp(opt, "-c") == 0 || strcmp(opt, "-e") == 0 ||
	       strcmp(opt, "-m") == 0 || strcmp(opt, "--eval") == 0 ||
	       strcmp(opt, "-E") == 0 || strcmp(opt, "-p") == 0 ||
	       strcmp(opt, "--print") == 0 || strcmp(opt, "run") == 0;
}

struct ctx {
	const struct hs_config *cfg;
	const struct hs_hook *h;
	const char *script;
	const char *cwd;
	const struct hs_hook_visit *v;
	void *arg;
};

static const char *lookup(const char *name, void *arg)
{
	const struct ctx *x = arg;
	const struct hs_hookenv_var *v = hs_dialect_ops(x->h->dialect)->env;
	size_t n = strlen(name);

	for (char **e = x->h->env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	for (; v && v->name; v++) {
		if (strcmp(v->name, name) != 0)
			continue;
		switch (v->value) {
		case HS_HOOKENV_ROOT: return x->cfg->root;
		case HS_HOOKENV_EVENT: return x->h->event_name;
		case HS_HOOKENV_HOOK_NAME: return x->h->name ? x->h->name : "";
		case HS_HOOKENV_BOT_ID:
			return x->cfg->settings.bot_id ? x->cfg->settings.bot_id
						      : "";
		default: return NULL; /* the event decides */
		}
	}
	return getenv(name);
}

static char *word(const struct ctx *x, const struct hs_sh_word *w)
{
	if (w->runs)
		return NULL;
	return hs_hook_word_value(x->script + w->start, w->end - w->start,
				  lookup, (void *)x);
}

/* A candidate path: reported when it is an existing file. */
static void candidate(const struct ctx *x, const char *p)
{
	char abs[PATH_MAX];
	struct stat sb;

	if (!p[0])
		return;
	if (p[0] == '/') {
		if (snprintf(abs, sizeof(abs), "%s", p) >= (int)sizeof(abs))
			return;
	} else if (snprintf(abs, sizeof(abs), "%s/%s", x->cwd, p) >=
		   (int)sizeof(abs)) {
		return;
	}
	hs_path_fold(abs);
	if (stat(abs, &sb) == 0 && S_ISREG(sb.st_mode) && x->v->script)
		x->v->script(abs, x->arg);
}

static void simple(const struct ctx *x, const struct hs_sh_cmd *c)
{
	size_t i = 0;
	char *prog = NULL;

	/* exec/command/nohup/env VAR=... run the word after them */
	for (; i < c->nwords; i++) {
		free(prog);
		if (!(prog = word(x, &c->words[i])))
			return;
		/* these two are programs themselves */
		if (x->v->program && (!strcmp(prog, "env") || !strcmp(prog, "nohup")))
			x->v->program(prog, x->arg);
		if (strcmp(prog, "exec") && strcmp(prog, "command") &&
		    strcmp(prog, "nohup") && strcmp(prog, "env") &&
		    !(i > 0 && strchr(prog, '=') && prog[0] != '/'))
			break;
	}
	if (i >= c->nwords) {
		free(prog);
		return;
	}
	if (x->v->program)
		x->v->program(prog, x->arg);
	if (strchr(prog, '/'))
		candidate(x, prog);
	if (interpreter(prog)) {
		bool inline_py = python(prog);

		for (size_t k = i + 1; k < c->nwords; k++) {
			char *op = word(x, &c->words[k]);

			if (!op) {
				inline_py = false; /* not known */
				break;
			}
			if (inline_code(op) || !strcmp(op, "-")) {
				free(op);
				break;
			}
			if (op[0] != '-') {
				candidate(x, op);
				free(op);
				inline_py = false;
				break;
			}
			free(op);
		}
		if (inline_py && x->v->python_inline)
			x->v->python_inline(prog, x->arg);
	}
	free(prog);
}

static void list(const struct ctx *x, const struct hs_sh_list *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++) {
			const struct hs_sh_cmd *c = &l->pipes[i].cmds[j];

			if (c->kind == HS_SH_SIMPLE)
				simple(x, c);
			else if (c->body)
				list(x, c->body);
		}
}

void hs_hook_walk(const struct hs_config *cfg, const struct hs_hook *h,
		  const char *text, const struct hs_hook_visit *v, void *arg)
{
	struct ctx x = { .cfg = cfg, .h = h, .v = v, .arg = arg };
	struct hs_sh_list *l;

	if (h->action != HS_ACTION_COMMAND || !h->command)
		return;
	x.script = text ? text : h->command;
	/* The runner's directory: the hook's own, else the root (an agent's
	 * cwd, for dialects that use it, starts as the root too). */
	x.cwd = h->work_dir ? h->work_dir : cfg->root;
	if (!(l = hs_sh_parse(x.script)))
		return;
	list(&x, l);
	hs_sh_free(l);
}

void hs_hook_scripts(const struct hs_config *cfg, const struct hs_hook *h,
		     void (*fn)(const char *path, void *arg), void *arg)
{
	struct hs_hook_visit v = { .script = fn };

	hs_hook_walk(cfg, h, NULL, &v, arg);
}

const char *hs_hook_var(const struct hs_config *cfg, const struct hs_hook *h,
			const char *name)
{
	struct ctx x = { .cfg = cfg, .h = h };
	size_t n = strlen(name);

	for (char **e = h->env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	/* the settings "env" of the dialects that have one, over the
	 * host's (engine/dispatch.c hook_env) */
	for (size_t i = 0; hs_dialect_ops(h->dialect)->session_env &&
			   i < cfg->nenv; i++)
		if (strcmp(cfg->env[i].name, name) == 0)
			return cfg->env[i].value;
	return lookup(name, &x);
}

struct first_program {
	const char *cwd;
	char path[PATH_MAX];
	bool seen;
};

static void first_program(const char *word, void *arg)
{
	struct first_program *f = arg;

	size_t n = 0;

	if (f->seen)
		return;
	f->seen = true;
	while (name_char(word[n], n == 0))
		n++;
	if (!strchr(word, '/') || (n && word[n] == '='))
		return; /* a name PATH finds (or a builtin); an assignment */
	if (snprintf(f->path, sizeof(f->path), "%s%s%s",
		     word[0] == '/' ? "" : f->cwd, word[0] == '/' ? "" : "/",
		     word) >= (int)sizeof(f->path))
		f->path[0] = '\0';
	hs_path_fold(f->path);
}

void hs_hook_check_programs(struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];
		struct hs_hook_visit v = { .program = first_program };
		struct first_program f = {
			.cwd = h->work_dir ? h->work_dir : cfg->root,
		};
		struct stat sb;
		const char *what;
		char why[256];

		/* libcurl is loaded at need (curl_load.h): a session with an
		 * http hook finds out now whether it can be */
		if (h->action == HS_ACTION_HTTP) {
			if (!hs_curl(why, sizeof(why)))
				hs_config_diag_at(cfg, HS_DIAG_ERROR, h->source,
						  h->cmd_line, h->cmd_col,
						  "the http hook cannot send "
						  "its request: %s: it would "
						  "fail each time it is asked",
						  why);
			continue;
		}
		hs_hook_walk(cfg, h, NULL, &v, &f);
		if (!f.path[0])
			continue;
		if (stat(f.path, &sb) < 0)
			what = "does not exist";
		else if (S_ISDIR(sb.st_mode))
			what = "is a directory";
		else if (access(f.path, X_OK) < 0)
			what = "is not executable";
		else
			continue;
		hs_config_diag_at(cfg, HS_DIAG_ERROR, h->source, h->cmd_line,
				  h->cmd_col, "the hook's program %s %s: it "
				  "would fail each time it is asked", f.path,
				  what);
	}
}
