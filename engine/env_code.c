/* Which entries of an environment carry code a hook did not see: a
 * shell's or the dynamic loader's, an interpreter's, and the programs
 * others run by a variable's name -- pagers, editors, git's programs and
 * settings, less's options and key files. floor/floor_handoff.c asks of
 * a confirmed tool call's /proc/PID/environ, engine/opaque.c of a name
 * that a tool call's text gives a value its hook did not see. What the
 * agents set for their commands, measured (tests/e2e, a tool call's
 * `env`), is inert: Codex PAGER, GIT_PAGER and GH_PAGER "cat"; Claude
 * Code GIT_EDITOR "true"; Qwen Code PAGER "cat"; Gemini CLI git's
 * credential.helper, core.fsmonitor, core.hooksPath, core.sshCommand,
 * core.editor, sequence.editor and diff.external set empty (to run
 * nothing), core.pager "cat", GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM
 * /dev/null, GIT_ASKPASS empty. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/plainstr.h"
#include "env_code.h"

/* The next blank-separated word of [*v, end): its start, its length in
 * *n (0: no word left); *v moves past it. */
static const char *word(const char **v, const char *end, size_t *n)
{
	const char *w;

	while (*v < end && (**v == ' ' || **v == '\t'))
		(*v)++;
	for (w = *v; w < end && *w != ' ' && *w != '\t'; w++)
		;
	*n = (size_t)(w - *v);
	w = *v;
	*v += *n;
	return w;
}

/* Does node's NODE_OPTIONS value v (len bytes) hold anything but the
 * options that load no code -- a heap's size, warnings, source maps --
 * (not --require, --import, --loader, --inspect, --env-file,
 * --openssl-config, ..., nor one unknown here)? */
static bool node_options_carry(const char *v, size_t len)
{
	static const char *const inert[] = {
		"--max-old-space-size=", "--max_old_space_size=",
		"--max-semi-space-size=", "--max_semi_space_size=",
		"--stack-size=", "--max-http-header-size=", "--title=",
		"--openssl-legacy-provider",
		"--unhandled-rejections=", "--dns-result-order=",
		"--disable-warning=", "--no-warnings", "--no-deprecation",
		"--trace-warnings", "--trace-deprecation",
		"--trace-uncaught", "--enable-source-maps",
		"--use-openssl-ca", "--use-bundled-ca", "--preserve-symlinks",
	};
	const char *end = v + len, *w;
	size_t n;

	while ((w = word(&v, end, &n)), n) {
		bool ok = false;

		for (size_t k = 0; !ok && k < sizeof(inert) / sizeof(*inert);
		     k++) {
			size_t m = strlen(inert[k]);

			ok = inert[k][m - 1] == '=' ? n > m && !memcmp(w, inert[k], m)
						    : n == m && !memcmp(w, inert[k], m);
		}
		if (!ok)
			return true;
	}
	return false;
}

/* Is entry e (NAME=VALUE) one that carries code into a shell or any
 * dynamic program -- a file a shell sources (BASH_ENV, ENV, ZDOTDIR, and
 * HOME's for a login, interactive or zsh shell), exported functions,
 * shell options and prompts that run commands, the dynamic loader's
 * preloads, audits and search paths -- or into an interpreter: the
 * modules python, perl, ruby, lua and node find first or load at start
 * (sitecustomize.py on PYTHONPATH, PERL5OPT's -M, RUBYOPT's -r,
 * NODE_OPTIONS' --require), a JVM's agents and classes, OpenSSL's
 * modules (any program that links it), the configuration a program
 * reads from XDG_CONFIG_HOME as from HOME (git's core.fsmonitor),
 * python's stdin after its script (PYTHONINSPECT) and its compiled
 * modules' place, Tcl's init.tcl, a makefile make reads first and its
 * options, tar's options (a checkpoint's exec), GLib's and GTK's
 * modules, a D-Bus address that execs a program -- with a value? */
static bool shell_entry(const char *e, size_t len)
{
	static const char *const names[] = {
		"BASH_ENV=", "ENV=", "ZDOTDIR=", "HOME=", "SHELLOPTS=",
		"BASHOPTS=", "PS4=", "PROMPT_COMMAND=", "LD_PRELOAD=",
		"LD_AUDIT=", "LD_LIBRARY_PATH=", "GCONV_PATH=",
		"PYTHONPATH=", "PYTHONHOME=", "PYTHONSTARTUP=",
		"PYTHONUSERBASE=", "PERL5OPT=", "PERL5LIB=", "PERLLIB=",
		"PERL5DB=", "RUBYOPT=", "RUBYLIB=", "NODE_PATH=",
		"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=", "_JAVA_OPTIONS=",
		"CLASSPATH=", "GEM_HOME=", "GEM_PATH=", "BUNDLE_GEMFILE=",
		"LUA_INIT=", "LUA_PATH=", "LUA_CPATH=", "PYTHONWARNINGS=",
		"OPENSSL_CONF=", "OPENSSL_MODULES=", "OPENSSL_ENGINES=",
		"XDG_CONFIG_HOME=", "PYTHONINSPECT=", "PYTHONPYCACHEPREFIX=",
		"TCL_LIBRARY=", "TCLLIBPATH=", "TK_LIBRARY=",
		/* a makefile read first, make's options (variables too:
		 * SHELL), tar's (--to-command, --checkpoint-action=exec) */
		"MAKEFILES=", "MAKEFLAGS=", "GNUMAKEFLAGS=", "TAR_OPTIONS=",
		/* GLib's and GTK's modules; D-Bus's session bus address,
		 * whose unixexec: transport runs a program */
		"GIO_EXTRA_MODULES=", "GIO_MODULE_DIR=", "GTK_MODULES=",
		"GTK_PATH=", "DBUS_SESSION_BUS_ADDRESS=",
	};

	if (len > 10 && strncmp(e, "BASH_FUNC_", 10) == 0)
		return true;
	if (len >= 13 && strncmp(e, "NODE_OPTIONS=", 13) == 0)
		return node_options_carry(e + 13, len - 13);
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t n = strlen(names[k]);

		/* an empty one carries nothing -- but an empty HOME or
		 * ZDOTDIR names "/": its .profile, its .zshenv */
		if (len >= n && strncmp(e, names[k], n) == 0)
			return len > n || !strcmp(names[k], "HOME=") ||
			       !strcmp(names[k], "ZDOTDIR=");
	}
	return false;
}

/* ---- programs named by value ---- */

/* Is option word w (n bytes) one of those less (or more) takes that
 * read or write no file and run nothing: a short cluster of
 * R r F X S K M m N n i I E e Q q s a c d f g J L u U w W, a tab stop
 * (-x<n>, -<n>), or a long one of those? (-k, -o, -O, -t, -T, -p,
 * --lesskey*, --log-file, --tag name files or what to open.) */
static bool pager_option(const char *w, size_t n)
{
	static const char *const longs[] = {
		"--RAW-CONTROL-CHARS", "--raw-control-chars",
		"--quit-if-one-screen", "--no-init", "--chop-long-lines",
		"--ignore-case", "--IGNORE-CASE", "--quit-at-eof",
		"--QUIT-AT-EOF", "--LONG-PROMPT", "--line-numbers",
		"--squeeze-blank-lines", "--quiet", "--silent", "--QUIET",
		"--no-lessopen", "--mouse", "--use-color", "--quit-on-intr",
	};

	if (n < 2 || w[0] != '-')
		return false;
	if (w[1] == '-') {
		for (size_t k = 0; k < sizeof(longs) / sizeof(*longs); k++)
			if (n == strlen(longs[k]) && !memcmp(w, longs[k], n))
				return true;
		return false;
	}
	for (size_t i = 1; i < n; i++)
		if (!strchr("RrFXSKMmNniIEeQqsacdfgJLuUwWx0123456789", w[i]))
			return false;
	return true;
}

/* Are all words of v (len bytes) such options (LESS, SYSTEMD_LESS)? */
static bool inert_options(const char *v, size_t len)
{
	const char *end = v + len, *w;
	size_t n;

	while ((w = word(&v, end, &n)), n)
		if (!pager_option(w, n))
			return false;
	return true;
}

static bool git_setting_carries(const char *key, size_t kl, const char *value,
				size_t vl);

/* One of git's single-quoted words at *p (before end): its unquoted text
 * into out (cap bytes), its length in *n, *p past it; false when there
 * is none, or it does not fit. git quotes ' as '\''. */
static bool sq_word(const char **p, const char *end, char *out, size_t cap,
		    size_t *n)
{
	const char *q = *p;

	*n = 0;
	if (q >= end || *q != '\'')
		return false;
	for (q++;;) {
		if (q >= end)
			return false;
		if (*q == '\'') {
			if (end - q >= 4 && !memcmp(q, "'\\''", 4)) {
				q += 4;
				if (*n + 1 >= cap)
					return false;
				out[(*n)++] = '\'';
				continue;
			}
			q++;
			break;
		}
		if (*n + 1 >= cap)
			return false;
		out[(*n)++] = *q++;
	}
	out[*n] = '\0';
	*p = q;
	return true;
}

/* Does GIT_CONFIG_PARAMETERS' value v (len bytes) -- what git gives its
 * children of its `-c` settings, 'key'='value' or 'key=value' words --
 * hold a setting that carries code (git_setting_carries), or one not
 * read so? */
static bool params_carry(const char *v, size_t len)
{
	const char *p = v, *end = v + len;
	char key[256], val[4096];
	size_t kl, vl;

	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			return false;
		if (!sq_word(&p, end, key, sizeof(key), &kl))
			return true;
		if (p < end && *p == '=') { /* 'key'='value' */
			p++;
			if (!sq_word(&p, end, val, sizeof(val), &vl))
				return true;
		} else { /* 'key=value' */
			char *eq = memchr(key, '=', kl);

			vl = eq ? kl - (size_t)(eq + 1 - key) : 0;
			if (eq) {
				memmove(val, eq + 1, vl);
				kl = (size_t)(eq - key);
			}
		}
		if (git_setting_carries(key, kl, val, vl))
			return true;
	}
}

/* Is value v (len bytes) a program that runs nothing of the agent's
 * choosing: none at all (""), or cat, true, false, ":", echo, less or
 * more -- by that name, or in /bin or /usr/bin -- with such options
 * alone ("less -R")? */
static bool inert_program(const char *v, size_t len)
{
	static const char *const names[] = { "cat",  "true", "false", ":",
					     "echo", "less", "more" };
	const char *end = v + len, *w = word(&v, end, &len);
	bool ok = false;

	if (!len)
		return true;
	if (len > 9 && !memcmp(w, "/usr/bin/", 9))
		w += 9, len -= 9;
	else if (len > 5 && !memcmp(w, "/bin/", 5))
		w += 5, len -= 5;
	for (size_t k = 0; !ok && k < sizeof(names) / sizeof(*names); k++)
		ok = len == strlen(names[k]) && !memcmp(w, names[k], len);
	/* then options alone */
	return ok && inert_options(v, (size_t)(end - v));
}

/* Is v (len bytes) a shell of the system's, by its path in /bin or
 * /usr/bin? */
static bool system_shell(const char *v, size_t len)
{
	static const char *const shells[] = {
		"/bin/sh",  "/bin/bash",  "/bin/dash",	"/bin/zsh",
		"/bin/ksh", "/bin/mksh", "/bin/fish", "/usr/bin/sh",
		"/usr/bin/bash", "/usr/bin/dash", "/usr/bin/zsh",
		"/usr/bin/ksh", "/usr/bin/mksh", "/usr/bin/fish",
	};

	for (size_t k = 0; k < sizeof(shells) / sizeof(*shells); k++)
		if (len == strlen(shells[k]) && !memcmp(v, shells[k], len))
			return true;
	return false;
}

/* Entry e (NAME=VALUE, len bytes) of a variable whose value is a program
 * to run (a pager, an editor, a browser, an askpass: git log, git commit,
 * man, gh run them), less's options or key files (a lesskey file's #env
 * sets LESSOPEN, which runs a command), or one of git's ways to code (its
 * ssh, diff, proxy, exec path, templates' hooks, `-c` settings,
 * configuration files, protocols allowed) or gpg's home (its
 * agent-program), git's test fsmonitor (still read by release git), or
 * the shell less runs LESSOPEN with (SHELL): code unless inert ("cat",
 * "true", options that name no file; none; a configuration file
 * /dev/null; a shell of the system's; the system's git-core, which git
 * gives the programs it starts). */
static bool program_entry(const char *e, size_t len)
{
	static const char *const programs[] = {
		"PAGER=", "GIT_PAGER=", "GH_PAGER=", "MANPAGER=",
		"SYSTEMD_PAGER=", "EDITOR=", "VISUAL=", "GIT_EDITOR=",
		"GIT_SEQUENCE_EDITOR=", "SUDO_EDITOR=", "GH_EDITOR=",
		"BROWSER=", "GH_BROWSER=", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"SUDO_ASKPASS=", "SELECTED_EDITOR=",
	};
	static const char *const options[] = { "LESS=", "SYSTEMD_LESS=" };
	static const char *const code[] = {
		"GIT_SSH=", "GIT_SSH_COMMAND=", "GIT_EXTERNAL_DIFF=",
		"GIT_PROXY_COMMAND=", "GIT_EXEC_PATH=", "GIT_TEMPLATE_DIR=",
		"GIT_CONFIG_PARAMETERS=", "GIT_CONFIG=", "GIT_CONFIG_GLOBAL=",
		"GIT_CONFIG_SYSTEM=", "GIT_ALLOW_PROTOCOL=", "GNUPGHOME=",
		"LESSOPEN=", "LESSCLOSE=", "LESSKEY=", "LESSKEYIN=",
		"LESSKEY_SYSTEM=", "LESSKEYIN_SYSTEM=", "LESSKEY_CONTENT=",
		"LESSKEY_CONTENT_SYSTEM=", "MANOPT=", "GIT_TEST_FSMONITOR=",
	};
	const char *v = memchr(e, '=', len);
	size_t n;

	if (!v)
		return false;
	v++;
	n = len - (size_t)(v - e);
	for (size_t k = 0; k < sizeof(programs) / sizeof(*programs); k++)
		if (hs_starts(e, programs[k]))
			return !inert_program(v, n);
	/* less runs LESSOPEN (the user's lesspipe) with $SHELL -c */
	if (hs_starts(e, "SHELL="))
		return !system_shell(v, n);
	for (size_t k = 0; k < sizeof(options) / sizeof(*options); k++)
		if (hs_starts(e, options[k]))
			return !inert_options(v, n);
	/* `git -c user.name=x commit` gives its hooks this */
	if (hs_starts(e, "GIT_CONFIG_PARAMETERS="))
		return params_carry(v, n);
	/* git gives its children its own: the system's */
	if (hs_starts(e, "GIT_EXEC_PATH=") &&
	    ((n == 17 && !memcmp(v, "/usr/lib/git-core", 17)) ||
	     (n == 21 && !memcmp(v, "/usr/libexec/git-core", 21))))
		return false;
	for (size_t k = 0; k < sizeof(code) / sizeof(*code); k++)
		if (hs_starts(e, code[k]))
			return n && !(n == 9 && !memcmp(v, "/dev/null", 9));
	return false;
}

bool hs_env_code(const char *e, size_t len)
{
	return shell_entry(e, len) || program_entry(e, len);
}

bool hs_env_code_name(const char *name, size_t n)
{
	/* with a value no rule finds inert: not a program of the inert
	 * set, an option, a system shell or /dev/null */
	char e[128];

	if (!n || n > sizeof(e) - 3 || memchr(name, '=', n))
		return false;
	if (n > 11 && memcmp(name, "GIT_CONFIG_", 11) == 0)
		return true;
	memcpy(e, name, n);
	memcpy(e + n, "=\001", 3);
	return hs_env_code(e, n + 2);
}

/* ---- git's settings by the environment ---- */

/* Does setting key = value (lengths kl, vl) carry code: any but those
 * that run nothing and load no file (colours, a user's name, advice...),
 * a pager's or an editor's that is inert, or one of a program's set
 * empty, which runs none (Gemini CLI's)? A url.*.insteadOf rewrites
 * remotes whatever its value (an empty one, every remote). */
static bool git_setting_carries(const char *key, size_t kl, const char *value,
				size_t vl)
{
	static const char *const inert[] = {
		"color.", "user.", "author.", "committer.", "advice.",
		"init.defaultbranch", "core.quotepath", "core.autocrlf",
		"core.safecrlf", "core.eol", "core.filemode", "core.ignorecase",
		"core.precomposeunicode", "i18n.", "format.pretty",
		"diff.renames", "diff.noprefix", "merge.conflictstyle",
		"pull.rebase", "pull.ff", "push.default", "fetch.prune",
		"gc.auto", "maintenance.auto", "status.", "column.",
	};
	static const char *const programs[] = {
		"core.pager", "core.editor", "sequence.editor", "pager.",
	};
	char k[64];

	if (kl >= sizeof(k))
		return true;
	/* sections and names are any case, a subsection's is kept: the
	 * lists above name none */
	for (size_t i = 0; i < kl; i++)
		k[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32
							     : key[i]);
	k[kl] = '\0';
	if (hs_starts(k, "url."))
		return true;
	if (!vl)
		return false;
	for (size_t i = 0; i < sizeof(programs) / sizeof(*programs); i++)
		if (hs_starts(k, programs[i]))
			return !inert_program(value, vl);
	for (size_t i = 0; i < sizeof(inert) / sizeof(*inert); i++) {
		size_t n = strlen(inert[i]);

		if (inert[i][n - 1] == '.' ? hs_starts(k, inert[i])
					   : strcmp(k, inert[i]) == 0)
			return false;
	}
	return true;
}

#define GIT_ENTRIES 256

/* The one entry of git's table named name ("GIT_CONFIG_KEY_3="): its
 * value into *v, *vl; 0 none, 1 found, -1 more than one (which a shell
 * and git would take the last of). */
static int git_entry(const char *const *t, int nt, const char *name,
		     const char **v, size_t *vl)
{
	size_t n = strlen(name);
	int found = 0;

	for (int i = 0; i < nt; i++)
		if (strncmp(t[i], name, n) == 0) {
			*v = t[i] + n;
			*vl = strlen(*v);
			found++;
		}
	return found > 1 ? -1 : found;
}

bool hs_env_git_carries(const char *buf, size_t len)
{
	const char *t[GIT_ENTRIES], *count, *key, *value;
	size_t kl, vl;
	char name[48];
	int nt = 0, f;
	long n;
	char *end;

	/* one pass: git's entries into a bounded table */
	for (const char *e = buf; e < buf + len; e += strlen(e) + 1) {
		if (!hs_starts(e, "GIT_CONFIG_COUNT=") &&
		    !hs_starts(e, "GIT_CONFIG_KEY_") &&
		    !hs_starts(e, "GIT_CONFIG_VALUE_"))
			continue;
		if (nt == GIT_ENTRIES)
			return true;
		t[nt++] = e;
	}
	/* the count: twice, or not plain digits (git's strtoul takes more
	 * than its look would), carries */
	if ((f = git_entry(t, nt, "GIT_CONFIG_COUNT=", &count, &vl)) < 0 ||
	    (f && (!vl || strspn(count, "0123456789") != vl)))
		return true;
	/* every pair present, whatever the count says now: a count the
	 * command's own text sets (`GIT_CONFIG_COUNT=2 git status`) makes
	 * a pair beyond the one it shows live */
	for (int i = 0; i < nt; i++) {
		bool is_key = hs_starts(t[i], "GIT_CONFIG_KEY_");

		if (!is_key && !hs_starts(t[i], "GIT_CONFIG_VALUE_"))
			continue;
		n = strtol(t[i] + (is_key ? 15 : 17), &end, 10);
		if (*end != '=' || n < 0)
			continue; /* a name git never reads */
		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld=", n);
		if ((f = git_entry(t, nt, name, &key, &kl)) < 0)
			return true;
		if (!f) { /* a value whose key the command may set */
			if (strlen(strchr(t[i], '=') + 1))
				return true;
			continue;
		}
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld=", n);
		if ((f = git_entry(t, nt, name, &value, &vl)) < 0)
			return true;
		if (!f) { /* a key whose value the command may set */
			value = "x";
			vl = 1;
		}
		if (git_setting_carries(key, kl, value, vl))
			return true;
	}
	return false;
}
