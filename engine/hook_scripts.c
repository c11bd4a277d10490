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
#include "../common/plainstr.h"
#include "../common/shellargv.h"
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

bool hs_hook_python_name(const char *prog)
{
	const char *base = hs_base(prog);

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
	const char *base = hs_base(prog);

	for (const char *const *n = names; *n; n++)
		if (strcmp(base, *n) == 0)
			return true;
	return hs_hook_python_name(prog); /* python3.11 */
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

/* A runner of the command after its own options and operands (env,
 * nohup, nice, timeout 5, xargs, ... -- common/shellargv.c's chain --,
 * exec, command): how many operands of its own come first; -1 for any
 * other program. */
static int runner(const char *prog)
{
	const char *b = hs_base(prog);

	if (!strcmp(b, "exec") || !strcmp(b, "command"))
		return 0;
	if (!hs_chain_name(prog))
		return -1;
	/* timeout's duration, chrt's priority, taskset's mask */
	return !strcmp(b, "timeout") || !strcmp(b, "chrt") ||
	       !strcmp(b, "taskset");
}

/* Does runner prog's option opt (not attached to its value) take the
 * next word as its value? */
static bool runner_value(const char *prog, const char *opt)
{
	static const struct {
		const char *prog, *opts;
	} t[] = {
		{ "env", " -u -C -S --unset --chdir --split-string " },
		{ "nice", " -n --adjustment " },
		{ "timeout", " -s -k --signal --kill-after " },
		{ "stdbuf", " -i -o -e --input --output --error " },
		{ "ionice", " -c -n -p -P -u --class --classdata --pid --pgid --uid " },
		{ "xargs", " -a -d -E -I -L -n -P -s --arg-file --delimiter "
			   "--max-lines --max-args --max-procs --max-chars " },
		{ "time", " -f -o --format --output " },
		{ "exec", " -a " },
	};
	const char *b = hs_base(prog);
	char o[40];

	if (strlen(opt) > sizeof(o) - 3)
		return false;
	snprintf(o, sizeof(o), " %s ", opt);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(b, t[i].prog))
			return strstr(t[i].opts, o) != NULL;
	return false;
}

/* python's options whose value is the next word */
static bool python_value(const char *opt)
{
	return !strcmp(opt, "-W") || !strcmp(opt, "-X") ||
	       !strcmp(opt, "-Q") || !strcmp(opt, "--check-hash-based-pycs");
}

static void walk_text(const struct ctx *x, const char *text, int depth);

/* A shell's words from k: its options (clusters of -x or +x; -o, +o, -O,
 * +O and --rcfile, --init-file take the next word; a c anywhere makes
 * the first operand a command line, walked as the hook's own; -- and -
 * end them), then its script, a candidate. */
static void shell_operands(const struct ctx *x, const struct hs_sh_cmd *c,
			   size_t k, int depth)
{
	bool text = false, opts = true;
	unsigned how = 0;
	char *rc = NULL, *op = NULL;

	for (; k < c->nwords; k++) {
		if (!(op = word(x, &c->words[k])))
			break;
		if (opts && (!strcmp(op, "--") || !strcmp(op, "-"))) {
			opts = false;
		} else if (opts && (op[0] == '-' || op[0] == '+') && op[1]) {
			if (op[1] == '-') {
				how |= !strcmp(op, "--login") ? HS_HOOK_LOGIN
							      : 0;
				if ((!strcmp(op, "--rcfile") ||
				     !strcmp(op, "--init-file")) &&
				    ++k < c->nwords) {
					free(rc);
					rc = word(x, &c->words[k]);
				}
			} else {
				text |= op[0] == '-' && strchr(op + 1, 'c');
				if (op[0] == '-' && strchr(op + 1, 'l'))
					how |= HS_HOOK_LOGIN;
				if (op[0] == '-' && strchr(op + 1, 'i'))
					how |= HS_HOOK_INTERACTIVE;
				k += strpbrk(op + 1, "oO") != NULL;
			}
		} else {
			break; /* its script, or its -c text */
		}
		free(op);
		op = NULL;
	}
	if ((how || rc) && x->v->shell_start)
		x->v->shell_start(how, rc, x->arg);
	if (op && text)
		walk_text(x, op, depth + 1);
	else if (op)
		candidate(x, op);
	free(op);
	free(rc);
}

/* An interpreter's operands: its script (a candidate), python's code
 * inline or on stdin, a shell's -c text (walked as the hook's own). */
static void operands(const struct ctx *x, const struct hs_sh_cmd *c,
		     size_t k, const char *prog, int depth)
{
	bool py = hs_hook_python_name(prog), inline_py = py;

	if (hs_shell_name(prog)) {
		shell_operands(x, c, k, depth);
		return;
	}
	/* busybox sh ...: the applet's */
	if (!strcmp(hs_base(prog), "busybox") && k < c->nwords) {
		char *applet = word(x, &c->words[k]);
		bool is_sh = applet && hs_shell_name(applet);

		free(applet);
		if (is_sh) {
			shell_operands(x, c, k + 1, depth);
			return;
		}
	}
	for (; k < c->nwords; k++) {
		char *op = word(x, &c->words[k]);

		if (!op) {
			inline_py = false; /* not known */
			break;
		}
		/* "-": python's (node's, perl's) stdin */
		if (inline_code(op) || !strcmp(op, "-")) {
			free(op);
			break;
		}
		if (py && python_value(op))
			k++;
		else if (op[0] != '-') {
			candidate(x, op);
			free(op);
			inline_py = false;
			break;
		}
		free(op);
	}
	if (py && inline_py && x->v->python_inline)
		x->v->python_inline(prog, x->arg);
}

static bool env_text(const char *run, const char *opt)
{
	return !strcmp(hs_base(run), "env") &&
	       (!strcmp(opt, "-S") || !strcmp(opt, "--split-string"));
}

static void simple_at(const struct ctx *x, const struct hs_sh_cmd *c,
		      int depth)
{
	char *prog = NULL, *run = NULL; /* the runner whose words these are */
	bool value = false;		/* this word is an option's value */
	bool text = false;		/* ... env -S's, a command line */
	int ops = 0;			/* operands of its own still to come */
	size_t i = 0;

	/* runners (exec, command, env, nohup, nice, timeout 5, xargs,
	 * stdbuf: each but exec and command a program itself) run the word
	 * after their own options, their values and operands, and env's
	 * VAR=...; env -S's value is a command line of its own */
	for (; i < c->nwords; i++) {
		free(prog);
		if (!(prog = word(x, &c->words[i]))) {
			free(run);
			return;
		}
		if (value) {
			if (text)
				walk_text(x, prog, depth + 1);
			value = text = false;
			continue;
		}
		if (run && prog[0] == '-') {
			const char *sv;

			/* env -S"...", --split-string=..., -iS "...": its
			 * command line attached, or the next word */
			if (env_text(run, "-S") &&
			    !strncmp(prog, "--split-string=", 15)) {
				walk_text(x, prog + 15, depth + 1);
				continue;
			}
			if (env_text(run, "-S") && prog[1] && prog[1] != '-' &&
			    (sv = strchr(prog + 1, 'S'))) {
				if (sv[1])
					walk_text(x, sv + 1, depth + 1);
				else
					value = text = true;
				continue;
			}
			value = prog[1] && runner_value(run, prog);
			text = env_text(run, prog);
			continue;
		}
		if (run && ops > 0) {
			ops--;
			continue;
		}
		if (run && strchr(prog, '=') && prog[0] != '/')
			continue;
		if ((ops = runner(prog)) < 0)
			break;
		free(run);
		run = strdup(prog);
		if (x->v->program && strcmp(prog, "exec") &&
		    strcmp(prog, "command"))
			x->v->program(prog, x->arg);
	}
	free(run);
	if (i >= c->nwords) {
		free(prog);
		return;
	}
	if (x->v->program)
		x->v->program(prog, x->arg);
	if (strchr(prog, '/'))
		candidate(x, prog);
	if (interpreter(prog))
		operands(x, c, i + 1, prog, depth);
	free(prog);
}

static void list_at(const struct ctx *x, const struct hs_sh_list *l, int depth)
{
	for (size_t i = 0; l && i < l->n; i++)
		for (size_t j = 0; j < l->pipes[i].ncmds; j++) {
			const struct hs_sh_cmd *c = &l->pipes[i].cmds[j];

			if (c->kind == HS_SH_SIMPLE)
				simple_at(x, c, depth);
			else if (c->body)
				list_at(x, c->body, depth);
		}
}

/* A command line a hook's command runs (`sh -c TEXT`, `env -S TEXT`),
 * walked as its own; a few levels deep at most. */
static void walk_text(const struct ctx *x, const char *text, int depth)
{
	struct ctx y = *x;
	struct hs_sh_list *l;

	if (depth > 4 || !(l = hs_sh_parse(text)))
		return;
	y.script = text;
	list_at(&y, l, depth);
	hs_sh_free(l);
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
	list_at(&x, l, 0);
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
