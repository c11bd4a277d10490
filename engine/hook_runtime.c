/* A hook's runtime beyond its script files; see hook_runtime.h. */
#include "hook_runtime.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../common/shellargv.h"
#include "hook_git.h"
#include "hook_node.h"
#include "hook_scripts.h"
#include "runner.h"

/* What a walk collected: names, deduplicated. */
struct names {
	char **v;
	size_t n;
};

static void put_name(struct names *s, const char *w)
{
	char **v;

	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], w) == 0)
			return;
	if (s->n >= 256 || !(v = realloc(s->v, (s->n + 1) * sizeof(*v))))
		return;
	s->v = v;
	if ((v[s->n] = strdup(w)))
		s->n++;
}

static void free_names(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

struct rt {
	const struct hs_config *cfg;
	const struct hs_hook *h;
	const char *label;
	struct hs_protect *p;
	struct names scripts, progs;
	const char *home;
	const char *path; /* the hooks' PATH */
	const char *cwd;  /* the hook's directory */
};

static void on_script(const char *path, void *arg)
{
	put_name(&((struct rt *)arg)->scripts, path);
}

static void on_program(const char *word, void *arg)
{
	put_name(&((struct rt *)arg)->progs, word);
}

static void protect(struct rt *x, const char *path, enum hs_prot_kind kind,
		    const char *fmt, const char *what)
{
	char why[512];

	snprintf(why, sizeof(why), fmt, what, x->label);
	hs_protect_put(x->p, path, kind, why);
}

/* A shell in the hook's command that reads start-up files of its own
 * (`bash -lc`, `bash -i`, `--rcfile F`): a login one reads /etc/profile
 * (and /etc/profile.d/ through it) and the first of ~/.bash_profile,
 * ~/.bash_login, ~/.profile -- which on Debian reads ~/.bashrc --; an
 * interactive one /etc/bash.bashrc and ~/.bashrc. The agent's
 * ~/.bash_profile ran in such a hook (session 38's attack run). */
static void on_shell_start(unsigned how, const char *rc, void *arg)
{
	static const char *const login[] = { ".bash_profile", ".bash_login",
					     ".profile", ".bashrc", NULL };
	struct rt *x = arg;
	char p[PATH_MAX + 32];

	if (how & HS_HOOK_LOGIN) {
		protect(x, "/etc/profile", HS_PROT_FILE, "%s, read by %s",
			"a login shell's start-up file");
		protect(x, "/etc/profile.d", HS_PROT_TREE, "%s, read by %s",
			"a login shell's start-up files");
		for (int i = 0; x->home && login[i]; i++) {
			snprintf(p, sizeof(p), "%s/%s", x->home, login[i]);
			protect(x, p, HS_PROT_FILE, "%s, read by %s",
				"a login shell's start-up file");
		}
	}
	if (how & HS_HOOK_INTERACTIVE) {
		protect(x, "/etc/bash.bashrc", HS_PROT_FILE, "%s, read by %s",
			"an interactive shell's start-up file");
		if (x->home) {
			snprintf(p, sizeof(p), "%s/.bashrc", x->home);
			protect(x, p, HS_PROT_FILE, "%s, read by %s",
				"an interactive shell's start-up file");
		}
	}
	if (rc && rc[0]) {
		snprintf(p, sizeof(p), "%s%s%s", rc[0] == '/' ? "" : x->cwd,
			 rc[0] == '/' ? "" : "/", rc);
		if (strlen(p) < PATH_MAX) {
			hs_path_fold(p);
			protect(x, p, HS_PROT_FILE, "%s, read by %s",
				"a shell's --rcfile");
		}
	}
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Is dir (absolute, folded) the same as or under d? */
static bool at_or_under(const char *dir, const char *d)
{
	size_t n = strlen(d);

	if (n == 1 && d[0] == '/')
		return true;
	return strncmp(dir, d, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

/* One PATH entry as a directory: empty or relative ones from the hook's
 * directory; false when it does not fit. */
static bool path_dir(const struct rt *x, const char *s, size_t n, char *out)
{
	int r;

	if (n && s[0] == '/')
		r = snprintf(out, PATH_MAX, "%.*s", (int)n, s);
	else
		r = snprintf(out, PATH_MAX, "%s/%.*s", x->cwd, (int)n, s);
	if (r < 0 || r >= PATH_MAX)
		return false;
	hs_path_fold(out);
	return true;
}

static bool on_path(const struct rt *x, const char *dir)
{
	char d[PATH_MAX];

	for (const char *s = x->path; s;) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (path_dir(x, s, n, d) && strcmp(d, dir) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

/* A script's directory is protected whole unless protecting it would
 * stop the session's ordinary work: the root and above, HOME and above,
 * temp and system directories, the PATH. */
static bool tree_ok(const struct rt *x, const char *dir)
{
	static const char *const sys[] = { "/usr", "/bin", "/sbin", "/lib",
					   "/lib32", "/lib64", "/libx32",
					   "/etc", "/proc", "/sys", "/dev",
					   NULL };
	static const char *const temp[] = { "/tmp", "/var/tmp", "/dev/shm",
					    "/run", NULL };
	const char *root = x->cfg->root ? x->cfg->root : "/";

	if (at_or_under(root, dir) || (x->home && at_or_under(x->home, dir)))
		return false;
	for (int i = 0; sys[i]; i++)
		if (at_or_under(dir, sys[i]))
			return false;
	for (int i = 0; temp[i]; i++)
		if (strcmp(dir, temp[i]) == 0)
			return false;
	return !on_path(x, dir);
}

/* Shell builtins and keywords: never looked up on PATH. */
static bool builtin(const char *w)
{
	static const char *const names[] = {
		":", ".", "source", "[", "[[", "test", "echo", "printf",
		"true", "false", "exit", "return", "cd", "read", "set",
		"unset", "export", "local", "shift", "eval", "exec", "trap",
		"wait", "break", "continue", "let", "declare", "typeset",
		"readonly", "getopts", "pwd", "type", "hash", "ulimit",
		"umask", "alias", "unalias", "command", "builtin", "kill",
		"times", "jobs", "fg", "bg", "!", "{", "}", "function",
		"if", "then", "else", "elif", "fi", "do", "done", "while",
		"until", "for", "case", "esac", "in", "select", "time",
		NULL
	};

	for (int i = 0; names[i]; i++)
		if (strcmp(w, names[i]) == 0)
			return true;
	return false;
}

/* name looked up on the hooks' PATH as the shell does: the file it runs
 * is protected, and the same name in every directory searched before
 * (not there now: its creation is what is denied). `found` gets the
 * file (or "" when none). */
static void shadows(struct rt *x, const char *name, char *found)
{
	char d[PATH_MAX], cand[PATH_MAX], ahead[PATH_MAX + 64];
	struct names before = { 0 };
	struct stat sb;

	found[0] = '\0';
	for (const char *s = x->path; s && !found[0];) {
		const char *e = strchr(s, ':'), *entry = s;
		size_t n = e ? (size_t)(e - s) : strlen(s);

		s = e ? e + 1 : NULL;
		if (!path_dir(x, entry, n, d) ||
		    snprintf(cand, sizeof(cand), "%s/%s",
			     strcmp(d, "/") ? d : "", name) >= (int)sizeof(cand))
			continue;
		if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    access(cand, X_OK) == 0)
			snprintf(found, PATH_MAX, "%s", cand);
		else
			put_name(&before, cand);
	}
	if (found[0])
		snprintf(ahead, sizeof(ahead), "ahead of %s", found);
	else
		snprintf(ahead, sizeof(ahead), "not found now");
	for (size_t i = 0; i < before.n; i++) {
		char why[PATH_MAX + 600];

		snprintf(why, sizeof(why),
			 "%s on the PATH of %s, %s", name, x->label, ahead);
		hs_protect_put(x->p, before.v[i], HS_PROT_ON_PATH, why);
	}
	if (found[0])
		protect(x, found, HS_PROT_ON_PATH, "%s, run by %s", name);
	free_names(&before);
}

/* python's user site directory, USERBASE/lib/pythonX.Y/site-packages
 * (USERBASE: PYTHONUSERBASE, else ~/.local, as the hook's environment
 * has them), when the interpreter's file name says X.Y (python3 ->
 * python3.11); false when it does not. */
static bool python_site_by_name(struct rt *x, const char *interp)
{
	char real[PATH_MAX], site[PATH_MAX * 2];
	const char *b, *ub = hs_hook_var(x->cfg, x->h, "PYTHONUSERBASE");
	unsigned maj, min;
	int end = 0;

	if (!realpath(interp, real))
		return false;
	b = base(real);
	if (sscanf(b, "python%u.%u%n", &maj, &min, &end) != 2 || b[end])
		return false;
	if (ub && ub[0] == '/')
		snprintf(site, sizeof(site), "%s/lib/python%u.%u/site-packages",
			 ub, maj, min);
	else if (!ub && x->home)
		snprintf(site, sizeof(site),
			 "%s/.local/lib/python%u.%u/site-packages", x->home,
			 maj, min);
	else
		return false;
	protect(x, site, HS_PROT_TREE, "the user site directory of %s, "
		"loaded at its start by %s", base(interp));
	return true;
}

/* python's user site directory, from its file name or else asked of the
 * interpreter itself (-S: nothing of it runs; a pyenv shim, say), once
 * per interpreter for the session. */
static void python_site(struct rt *x, const char *interp)
{
	static struct {
		char *interp, *site;
	} cache[8];
	static int ncache;
	struct hs_run_spec spec = { 0 };
	struct hs_run_result res;
	char cmd[PATH_MAX * 2 + 128], *q = cmd;
	const char *site = NULL;

	if (python_site_by_name(x, interp))
		return;
	for (int i = 0; i < ncache; i++)
		if (strcmp(cache[i].interp, interp) == 0)
			site = cache[i].site;
	if (!site) {
		/* the interpreter's path, single-quoted */
		q += snprintf(q, 8, "exec '");
		for (const char *s = interp; *s && q < cmd + PATH_MAX * 2; s++) {
			if (*s == '\'') {
				memcpy(q, "'\\''", 4);
				q += 4;
			} else {
				*q++ = *s;
			}
		}
		snprintf(q, sizeof(cmd) - (size_t)(q - cmd),
			 "' -S -c 'import site, sys; "
			 "sys.stdout.write(site.getusersitepackages())' "
			 "</dev/null 2>/dev/null");
		spec.command = cmd;
		spec.timeout_ms = 5000;
		spec.max_output = PATH_MAX;
		if (hs_run(&spec, &res) == 0 && res.status == HS_RUN_EXITED &&
		    res.exit_code == 0 && res.out && res.out[0] == '/' &&
		    !strchr(res.out, '\n') && ncache < 8) {
			cache[ncache].interp = strdup(interp);
			cache[ncache].site = strdup(res.out);
			if (cache[ncache].interp && cache[ncache].site)
				site = cache[ncache++].site;
		}
		hs_run_result_free(&res);
	}
	if (site)
		protect(x, site, HS_PROT_TREE, "the user site directory of %s, "
			"loaded at its start by %s", base(interp));
}

/* -r/--require/--import/--loader FILE of NODE_OPTIONS. */
static void node_options(struct rt *x, const char *opts)
{
	char *copy = strdup(opts), *save = NULL, *w;
	bool next = false;

	for (w = copy ? strtok_r(copy, " \t", &save) : NULL; w;
	     w = strtok_r(NULL, " \t", &save)) {
		const char *eq = strchr(w, '=');

		if (next && (w[0] == '/' || w[0] == '.'))
			protect(x, w, HS_PROT_FILE, "%s, loaded by %s", "NODE_OPTIONS");
		next = !strcmp(w, "-r") || !strcmp(w, "--require") ||
		       !strcmp(w, "--import") || !strcmp(w, "--loader") ||
		       !strcmp(w, "--experimental-loader");
		if (eq && eq[1] && (eq[1] == '/' || eq[1] == '.') &&
		    (!strncmp(w, "--require=", 10) ||
		     !strncmp(w, "--import=", 9) ||
		     !strncmp(w, "--loader=", 9) ||
		     !strncmp(w, "--experimental-loader=", 22)))
			protect(x, eq + 1, HS_PROT_FILE, "%s, loaded by %s",
				"NODE_OPTIONS");
	}
	free(copy);
}

/* The directories of search-path variable var (PYTHONPATH, NODE_PATH,
 * PERL5LIB, ...) as the hook's environment has it: each protected whole,
 * where a script's directory would be (tree_ok); relative ones from the
 * hook's directory. A module the agent puts there ran in the hook
 * (session 38's attack run: json.py, JSON/PP.pm, a NODE_PATH package). */
static void module_dirs(struct rt *x, const char *var)
{
	const char *v = hs_hook_var(x->cfg, x->h, var);
	char d[PATH_MAX];

	for (const char *s = v; s && *s;) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n && path_dir(x, s, n, d) && tree_ok(x, d))
			protect(x, d, HS_PROT_TREE, "%s, loaded by %s", var);
		s = e ? e + 1 : NULL;
	}
}

/* The start-up files of interpreter `prog` (a path, or the bare name
 * when it was not found). */
static void startup(struct rt *x, const char *prog)
{
	const char *b = base(prog), *v;
	char p[PATH_MAX];

	if (hs_hook_python_name(b)) {
		module_dirs(x, "PYTHONPATH");
		if (prog[0] == '/')
			python_site(x, prog);
	} else if (strncmp(b, "perl", 4) == 0) {
		module_dirs(x, "PERL5LIB");
		module_dirs(x, "PERLLIB");
	} else if (strcmp(b, "ruby") == 0) {
		module_dirs(x, "RUBYLIB");
	} else if (strcmp(b, "git") == 0) {
		hs_hook_git(x->cfg, x->h, x->home, x->cwd, x->label, x->p);
	} else if (strcmp(b, "jq") == 0 && x->home) {
		snprintf(p, sizeof(p), "%s/.jq", x->home);
		protect(x, p, HS_PROT_TREE, "%s's start-up file, loaded by %s", "jq");
	} else if (strcmp(b, "node") == 0 || strcmp(b, "nodejs") == 0) {
		module_dirs(x, "NODE_PATH");
		if ((v = hs_hook_var(x->cfg, x->h, "NODE_OPTIONS")))
			node_options(x, v);
	}
}

/* abs, a python, a virtualenv's (bin/python3 beside a pyvenv.cfg one
 * level up): its settings and lib/, by path or found on PATH (an agent
 * started in an activated virtualenv). */
static void venv(struct rt *x, const char *path)
{
	char abs[PATH_MAX], p[PATH_MAX + 16];
	char *slash;

	if (strlen(path) >= sizeof(abs))
		return;
	memcpy(abs, path, strlen(path) + 1);
	if (!hs_hook_python_name(abs) || !(slash = strrchr(abs, '/')))
		return;
	*slash = '\0'; /* .../bin */
	if (!(slash = strrchr(abs, '/')) || slash == abs)
		return;
	*slash = '\0'; /* the environment */
	snprintf(p, sizeof(p), "%s/pyvenv.cfg", abs);
	if (access(p, F_OK) != 0)
		return;
	protect(x, p, HS_PROT_FILE, "%s, read by %s", "a virtualenv's settings");
	snprintf(p, sizeof(p), "%s/lib", abs);
	protect(x, p, HS_PROT_TREE, "%s, loaded by %s",
		"a virtualenv's libraries");
}

/* A program a hook runs by its path (an interpreter its script's "#!"
 * names, `/opt/x/bin/tool` in its command): the file, which a program
 * by a bare name has too (shadows); and a virtualenv's interpreter
 * (bin/python3 beside a pyvenv.cfg one level up) has its environment's
 * libraries as its runtime: pyvenv.cfg and lib/, where a .pth file runs
 * at its start. A project's .venv/bin/python3 replaced by a script, or
 * given a .pth, ran in the hook. */
static void program_file(struct rt *x, const char *w)
{
	char abs[PATH_MAX * 2 + 2];
	struct stat sb;

	snprintf(abs, sizeof(abs), "%s%s%s", w[0] == '/' ? "" : x->cwd,
		 w[0] == '/' ? "" : "/", w);
	if (strlen(abs) >= PATH_MAX)
		return;
	hs_path_fold(abs);
	if (stat(abs, &sb) != 0 || !S_ISREG(sb.st_mode))
		return;
	protect(x, abs, HS_PROT_FILE, "%s, run by %s", base(abs));
	venv(x, abs);
}

/* A script's interpreter from its "#!" line: "/bin/bash", or the name
 * "#!/usr/bin/env [-S] python3" looks up on PATH. */
static void shebang(struct rt *x, const char *script, bool *shell_script)
{
	char line[512], *w, *save = NULL;
	FILE *f = fopen(script, "r");
	bool env = false;

	*shell_script = strlen(script) > 3 &&
			strcmp(script + strlen(script) - 3, ".sh") == 0;
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f) || strncmp(line, "#!", 2) != 0) {
		fclose(f);
		return;
	}
	fclose(f);
	for (w = strtok_r(line + 2, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		if (!env && strcmp(base(w), "env") == 0) {
			env = true;
			on_program(w, x);
			continue;
		}
		if (env && (w[0] == '-' || strchr(w, '=')))
			continue;
		on_program(w, x);
		*shell_script = hs_shell_name(w);
		break;
	}
}

/* A shell script's own commands: its text walked as the command is. */
static void script_text(struct rt *x, const char *script)
{
	struct hs_hook_visit v = { .program = on_program,
				   .shell_start = on_shell_start };
	FILE *f = fopen(script, "r");
	char *text;
	size_t n;

	if (!f)
		return;
	if ((text = malloc(65536))) {
		n = fread(text, 1, 65535, f);
		text[n] = '\0';
		if (!memchr(text, '\0', n))
			hs_hook_walk(x->cfg, x->h, text, &v, x);
		free(text);
	}
	fclose(f);
}

void hs_hook_runtime(const struct hs_config *cfg, const struct hs_hook *h,
		     const char *label, struct hs_protect *p)
{
	struct hs_hook_visit v = { .script = on_script,
				   .program = on_program,
				   .shell_start = on_shell_start };
	struct rt x = { .cfg = cfg, .h = h, .label = label, .p = p };
	char found[PATH_MAX], dir[PATH_MAX];
	const char *bash_env;
	size_t nscripts;

	if (h->action != HS_ACTION_COMMAND || !h->command || !p)
		return;
	x.home = hs_hook_var(cfg, h, "HOME");
	if (x.home && x.home[0] != '/')
		x.home = NULL;
	x.path = hs_hook_var(cfg, h, "PATH");
	if (!x.path)
		x.path = "/usr/local/bin:/usr/bin:/bin";
	x.cwd = h->work_dir ? h->work_dir : cfg->root ? cfg->root : "/";
	hs_hook_walk(cfg, h, NULL, &v, &x);
	/* the scripts: their directories, interpreters and, for a shell
	 * script, the programs it runs */
	nscripts = x.scripts.n;
	for (size_t i = 0; i < nscripts; i++) {
		const char *s = x.scripts.v[i];
		bool shell_script;
		char *slash;

		snprintf(dir, sizeof(dir), "%s", s);
		if ((slash = strrchr(dir, '/')) && slash != dir) {
			*slash = '\0';
			if (tree_ok(&x, dir))
				protect(&x, dir, HS_PROT_TREE, "%s of %s",
					"the directory of the hook script");
		}
		shebang(&x, s, &shell_script);
		if (shell_script)
			script_text(&x, s);
		else if (hs_hook_node_script(s))
			hs_hook_node(s, x.home, label, p);
	}
	for (size_t i = 0; i < x.progs.n; i++) {
		const char *w = x.progs.v[i];

		if (strchr(w, '/')) {
			program_file(&x, w);
			startup(&x, w);
			continue;
		}
		if (builtin(w) || !w[0])
			continue;
		shadows(&x, w, found);
		if (found[0])
			venv(&x, found);
		startup(&x, found[0] ? found : w);
	}
	/* what a shell reads at its start (every hook's command runs in
	 * one): bash, not interactive, reads BASH_ENV; sh, interactive, ENV.
	 * The variable itself comes from the host or the policy, which the
	 * agent cannot change; the file it names is protected. */
	if ((bash_env = hs_hook_var(cfg, h, "BASH_ENV")) &&
	    bash_env[0] == '/')
		protect(&x, bash_env, HS_PROT_FILE, "%s, read by the shell of %s",
			"BASH_ENV");
	if ((bash_env = hs_hook_var(cfg, h, "ENV")) &&
	    bash_env[0] == '/')
		protect(&x, bash_env, HS_PROT_FILE, "%s, read by the shell of %s",
			"ENV");
	free_names(&x.scripts);
	free_names(&x.progs);
}

struct pythons {
	int any, inline_;
};

static void count_python(const char *word, void *arg)
{
	((struct pythons *)arg)->any += hs_hook_python_name(word);
}

static void count_inline(const char *prog, void *arg)
{
	(void)prog;
	((struct pythons *)arg)->inline_++;
}

bool hs_hook_python_inline(const struct hs_config *cfg,
			   const struct hs_hook *h)
{
	struct hs_hook_visit v = { .program = count_python,
				   .python_inline = count_inline };
	struct pythons n = { 0, 0 };

	if (h->action != HS_ACTION_COMMAND || !h->command)
		return false;
	hs_hook_walk(cfg, h, NULL, &v, &n);
	return n.inline_ > 0 && n.inline_ == n.any;
}
