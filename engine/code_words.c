/* Hand-offs: programs that run code given in their words or on their
 * stdin -- interpreters, runners, programs whose options run a command --
 * given what the hook was not shown (docs/agents.md, "Hand-offs").
 * engine/opaque.c asks, for each simple command of a text; each says
 * yes when in doubt (what it runs is then judged too). git only where
 * its command is a script that runs what it is given (filter-branch,
 * bisect run): what else it runs of its words and settings, it starts,
 * and what git starts is judged (shim/exec_decide.c,
 * floor/floor_exec.c). */
#include <stdlib.h>
#include <string.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "handoff_int.h"
#include "shparse.h"

/* A file whose content is a stream, not a script anyone could read
 * beforehand: /dev/stdin, /dev/fd/N, /proc/self/fd/N, a fifo. */
bool hs_ho_stream_path(const char *p)
{
	return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

/* Programs that run other programs from their arguments. Beneath one,
 * any argument naming a shell is a hand-off: `xargs -0
 * sh -c`, `busybox sh`, `command -p sh`, `stdbuf -o0 sh`. */
bool hs_ho_runner(const char *p)
{
	static const char *const names[] = { "env", "nohup", "nice", "setsid",
		"timeout", "stdbuf", "ionice", "chrt", "taskset", "xargs", "time",
		"busybox", "command", "builtin", "exec", "sudo", "doas", "su",
		"runuser", "flock", "watch", "unshare", "nsenter", "chroot",
		"script", "strace", "ltrace", "parallel", "find", "fakeroot",
		"proot", "bwrap", "firejail", "systemd-run", "setpriv", NULL };
	return hs_ho_is_any(hs_base(p), names);
}

/* Programs with options that run a command they are given (ssh's
 * ProxyCommand, tar's --to-command, rsync's -e, an editor's -c, wget's
 * --use-askpass, sqlite3's .shell, npm's scripts and npx's packages):
 * any word not shown may be such an option, and what it runs is not
 * shown either. */
static bool option_runner(const char *p)
{
	static const char *const names[] = {
		"ssh", "scp", "sftp", "rsync", "tar", "gtar", "bsdtar", "cpio",
		"zip", "vim", "vi", "nvim", "ex", "view", "vimdiff", "emacs",
		"gdb", "less", "more", "man", "wget", "tcpdump",
		"sqlite3", "mysql", "psql", "npm", "npx", "pnpm", "yarn",
		"socat", "nc", "ncat", "openssl", "apt", "apt-get", "dpkg",
		"pip", "pip3", "uv", "uvx", "pipx", "cargo", "go", "docker",
		"podman", "kubectl", "crontab", "at", "git-shell", NULL };
	return hs_ho_is_any(hs_base(p), names);
}

/* Is word w shown as it runs: its value its text, or a text the parser
 * leaves unvalued for its braces alone, which expand to nothing else
 * (find's and xargs' `{}`, `-I{}`: no comma, no `..`)? */
static bool shown(const char *text, const struct hs_sh_word *w)
{
	if (w->value)
		return true;
	for (size_t i = w->start; i < w->end; i++) {
		char ch = text[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr("_{}/+=:@%-", ch)))
			return false;
	}
	return true;
}

/* What an interpreter's options mean: those whose next word is its code
 * (python -c, perl -e, node --eval, php -r, ...), a module it loads
 * (python -m), or data (perl -I, python -W, awk -v); for the rest a
 * flag. By family, from its base name b. */
enum opt_kind { OPT_FLAG, OPT_CODE, OPT_DATA };

static enum opt_kind interp_opt(const char *b, const char *o)
{
	static const char *const py_code[] = { "-c", "-m", NULL };
	static const char *const py_data[] = { "-W", "-X", "-Q", NULL };
	static const char *const pl_code[] = { "-e", "-E", NULL };
	static const char *const pl_data[] = { "-I", "-x", NULL };
	/* --import and --loader take data: URLs too */
	static const char *const node_code[] = { "-e", "-p", "--eval",
						 "--print", "--import",
						 "--loader",
						 "--experimental-loader", NULL };
	/* a module to require first: a file, which a write hook guards */
	static const char *const node_data[] = { "-C", "--conditions", "-r",
						 "--require", NULL };
	static const char *const awk_code[] = { "-f", "-e", "--source",
						"--file", "-W", NULL };
	static const char *const awk_data[] = { "-v", "-F", NULL };
	static const char *const other_code[] = { "-e", "-r", "-f", "-l",
						  NULL };

	if (!strncmp(b, "python", 6) || !strncmp(b, "pypy", 4))
		return hs_ho_is_any(o, py_code)	  ? OPT_CODE
		       : hs_ho_is_any(o, py_data) ? OPT_DATA
						  : OPT_FLAG;
	if (!strncmp(b, "perl", 4) || !strncmp(b, "ruby", 4))
		return hs_ho_is_any(o, pl_code)	  ? OPT_CODE
		       : hs_ho_is_any(o, pl_data) ? OPT_DATA
						  : OPT_FLAG;
	if (!strncmp(b, "node", 4) || !strcmp(b, "bun") || !strcmp(b, "deno"))
		return hs_ho_is_any(o, node_code)   ? OPT_CODE
		       : hs_ho_is_any(o, node_data) ? OPT_DATA
						    : OPT_FLAG;
	if (strstr(b, "awk"))
		return hs_ho_is_any(o, awk_code)   ? OPT_CODE
		       : hs_ho_is_any(o, awk_data) ? OPT_DATA
						   : OPT_FLAG;
	return hs_ho_is_any(o, other_code) ? OPT_CODE : OPT_FLAG;
}

/* Does interpreter v[0] (base name b), whose words are all shown, take
 * its program from its stdin: "-" or a stream where its program goes
 * (`make -f -`, `python3 /dev/fd/3 3<<<…`: 2, a stream whatever feeds
 * it), or, for one that reads it there when given none (none_too), no
 * program at all (1)? */
static int program_on_stdin(char *const v[], const char *b, bool none_too)
{
	for (size_t i = 1; v[i]; i++) {
		enum opt_kind o = interp_opt(b, v[i]);

		if (!strcmp(v[i], "-"))
			return 1;
		if (hs_ho_stream_path(v[i]))
			return 2;
		if (!strcmp(v[i], "--"))
			return v[i + 1] ? (hs_ho_stream_path(v[i + 1]) ? 2 : 0)
					: none_too;
		if (v[i][0] != '-')
			return 0; /* its program */
		if (o == OPT_CODE)
			return !v[i + 1]		      ? none_too
			       : !strcmp(v[i + 1], "-")	      ? 1
			       : hs_ho_stream_path(v[i + 1]) ? 2
						      : 0;
		if (o == OPT_DATA && v[i + 1])
			i++;
	}
	return none_too;
}

/* Does c read data the hook did not see on its stdin, or on another
 * descriptor its program may name (/dev/fd/3): a pipe (a command after
 * the first of its pipeline), a file redirected from a name not shown
 * or a stream, another descriptor, a here-string not shown, or a
 * here-document whose delimiter is unquoted in a text that expands? */
bool hs_ho_stdin_unseen(const char *text, const struct hs_sh_cmd *c,
			bool piped)
{
	if (piped)
		return true;
	for (size_t r = 0; r < c->nredirs; r++) {
		const struct hs_sh_redir *d = &c->redirs[r];
		const char *v = d->target.value;

		if (!strcmp(d->op, "<&"))
			return true; /* another descriptor's: not seen */
		if (!strcmp(d->op, "<") || !strcmp(d->op, "<>") ||
		    !strcmp(d->op, "<<<")) {
			if (!v || hs_ho_stream_path(v))
				return true;
		} else if (!strcmp(d->op, "<<") || !strcmp(d->op, "<<-")) {
			size_t n = d->target.end - d->target.start;

			if (!memchr(text + d->target.start, '\'', n) &&
			    !memchr(text + d->target.start, '"', n) &&
			    !memchr(text + d->target.start, '\\', n) &&
			    (strchr(text, '$') || strchr(text, '`')))
				return true;
		}
	}
	return false;
}

/* Is word w one word whatever it expands to: no expansion in it outside
 * double quotes, so that no split of it can make another option? (A
 * substitution inside them is skipped whole, its own quotes with it.) */
static bool one_word(const char *text, const struct hs_sh_word *w)
{
	bool dq = false;

	for (size_t i = w->start; i < w->end; i++) {
		char ch = text[i];

		if (ch == '\\') {
			i++;
		} else if (!dq && ch == '\'') {
			while (++i < w->end && text[i] != '\'')
				;
		} else if (ch == '"') {
			dq = !dq;
		} else if (ch == '`' || ch == '$') {
			if (!dq)
				return false;
			if (ch == '$' && i + 1 < w->end && text[i + 1] == '(') {
				int depth = 0;

				for (i++; i < w->end; i++)
					if (text[i] == '(')
						depth++;
					else if (text[i] == ')' && !--depth)
						break;
			}
		}
	}
	return !dq;
}

/* Is w a count of processors, which make's -j and -l take: the text
 * `$(nproc)`, `$(nproc --all)`, `$(getconf _NPROCESSORS_ONLN)`, quoted
 * or not, after the option's letter or on its own? */
static bool cpu_count(const char *text, const struct hs_sh_word *w)
{
	static const char *const forms[] = { "$(nproc)", "$(nproc --all)",
		"$(getconf _NPROCESSORS_ONLN)", NULL };
	const char *p = text + w->start;
	size_t n = w->end - w->start;

	if (n >= 2 && p[0] == '-' && (p[1] == 'j' || p[1] == 'l'))
		p += 2, n -= 2;
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
		p++, n -= 2;
	for (size_t i = 0; forms[i]; i++)
		if (n == strlen(forms[i]) && !memcmp(p, forms[i], n))
			return true;
	return false;
}

/* Does interpreter c->words[k] (base name b) have a word not shown where
 * it may be code or an option: up to its program -- python's -c CODE or
 * -m MODULE or script, which end its options; awk's program; the script
 * of a perl, ruby or node, which take options after -e too -- or
 * anywhere for sed and make, whose options GNU getopt takes after
 * operands too? Data: what comes after the program; the value of an
 * option that takes data (awk -v, perl -I, make -C), quoted whole (an
 * unquoted one may split into options); make's -j and -l of a count of
 * processors (a separate value is optional: `-j "$x"` may be an
 * assignment that runs). */
static bool program_hidden(const char *text, const struct hs_sh_cmd *c,
			   size_t k, const char *b)
{
	bool python = !strncmp(b, "python", 6) || !strncmp(b, "pypy", 4);
	bool make = !strncmp(b, "make", 4) || !strncmp(b, "gmake", 5);
	bool sed = strstr(b, "sed") != NULL;
	enum opt_kind value = OPT_FLAG; /* the word is an option's value */

	for (size_t i = k + 1; i < c->nwords; i++) {
		const struct hs_sh_word *w = &c->words[i];
		const char *v = w->value;
		enum opt_kind was = value;

		value = OPT_FLAG;
		if (!shown(text, w)) {
			if (was == OPT_DATA && one_word(text, w))
				continue; /* awk -v x="$y", perl -I "$d" */
			if (make && cpu_count(text, w))
				continue;
			return true;
		}
		if (was != OPT_FLAG)
			continue; /* an option's value, shown */
		if (!v)
			continue;
		if (make) {
			/* -j's and -l's values are optional: a word after them
			 * may be an assignment (cpu_count alone is data) */
			if (!strcmp(v, "-C"))
				value = OPT_DATA;
			continue;
		}
		if (sed)
			continue;
		if (!strcmp(v, "--")) {
			/* the next word is its program */
			return i + 1 < c->nwords &&
			       !shown(text, &c->words[i + 1]);
		}
		if (v[0] != '-')
			return false; /* a script or awk's program: shown */
		if ((value = interp_opt(b, v)) == OPT_CODE && python)
			/* -c CODE, -m MODULE: its options end */
			return i + 1 < c->nwords &&
			       !shown(text, &c->words[i + 1]);
	}
	return false;
}

/* Does interpreter v[0] of c, at word k (v: c's words up to the first
 * not shown) run code from a word not shown, or from a stdin or stream
 * not shown? */
static bool interp_unseen(const char *text, const struct hs_sh_cmd *c,
			  char *const v[], size_t k, bool piped)
{
	const char *b = hs_base(v[0]);
	bool from_stdin = false;
	int on;

	(void)hs_interp_name(v[0], &from_stdin);
	if (program_hidden(text, c, k, b))
		return true;
	on = program_on_stdin(v, b, from_stdin);
	return on == 2 || (on == 1 && hs_ho_stdin_unseen(text, c, piped));
}

/* Does git's command of c (at word k) run a command given in its words
 * from a shell script of its own -- filter-branch's filters, bisect
 * run's, submodule foreach's, difftool's and mergetool's tools,
 * instaweb's httpd -- with a word not shown? Its other words are not
 * looked into: what git runs of them it starts, and that is judged
 * (docs/agents.md, "git is judged by what it starts"). */
static bool git_script_words(const char *text, const struct hs_sh_cmd *c,
			     size_t k)
{
	static const char *const scripts[] = { "filter-branch", "bisect",
		"submodule", "difftool", "mergetool", "instaweb", NULL };
	const char *sub = NULL;
	bool hidden = false;

	for (size_t i = k + 1; i < c->nwords; i++) {
		const char *v = c->words[i].value, *prev = c->words[i - 1].value;
		const char *src = text + c->words[i].start;
		/* -c's and -C's values, apart or joined */
		bool value = (prev && (!strcmp(prev, "-c") || !strcmp(prev, "-C"))) ||
			     !strncmp(src, "-c", 2) || !strncmp(src, "-C", 2);

		if (!shown(text, &c->words[i])) {
			if (!sub && !value)
				return true; /* it may be the command */
			hidden = true;
		} else if (!sub && v && v[0] != '-' && !value) {
			sub = v;
		}
	}
	return hidden && (!sub || hs_ho_is_any(sub, scripts));
}

/* Does program v[k] of c (v: c's words up to the first not shown) run
 * code from a word not shown, or from a stdin not shown? git only where
 * its command is a script that runs what it is given (git_script_words):
 * what else it runs of its words and settings, it starts, and what git
 * starts is judged (docs/agents.md). */
bool hs_ho_runs_unseen(const char *text, const struct hs_sh_cmd *c,
		       char *const v[], size_t k, bool piped)
{
	if (!strcmp(hs_base(v[k]), "git"))
		return git_script_words(text, c, k);
	if (hs_interp_name(v[k], NULL))
		return interp_unseen(text, c, v + k, k, piped);
	if (!hs_ho_runner(v[k]) && !option_runner(v[k]))
		return false;
	/* any word not shown (find's, which unquoted may split into
	 * `-exec rm …`) */
	for (size_t i = k + 1; i < c->nwords; i++)
		if (!shown(text, &c->words[i]))
			return true;
	return false;
}

bool hs_ho_runs_shell_word(const char *p)
{
	return hs_shell_name(p) || strcmp(hs_base(p), "hush") == 0;
}

/* Does runner v[k] of c (v: its n words shown) run what its hook did
 * not see: a shell among its words; an interpreter with its own rule,
 * or any program that runs programs for xargs and parallel, which give
 * it words from their stdin (parallel with none runs its stdin's
 * lines); a command string (`flock -c`, `su -c`, `script -qc`, watch's
 * words, which sh -c runs) that is opaque itself; env's -S, whose string
 * it splits into a command? */
bool hs_ho_runner_runs_unseen(const char *text, const struct hs_sh_cmd *c,
			      char *const v[], size_t n, size_t k, int depth,
			      bool piped)
{
	const char *b = hs_base(v[k]);
	bool feeds = !strcmp(b, "xargs") || !strcmp(b, "parallel");
	bool named = false;

	for (size_t a = k + 1; a < n; a++) {
		const char *w = v[a];

		if (hs_ho_runs_shell_word(w) ||
		    (hs_interp_name(w, NULL) &&
		     (feeds || interp_unseen(text, c, v + a, a, piped))) ||
		    (feeds && (hs_ho_runner(w) || option_runner(w))))
			return true;
		if (w[0] == '-' && w[1] != '-') {
			if (strchr(w + 1, 'S') && !strcmp(b, "env"))
				return true;
			if (strchr(w + 1, 'c') && a + 1 < n &&
			    strcmp(b, "taskset") != 0 &&
			    hs_ho_text_opaque(v[a + 1], depth + 1))
				return true;
			continue;
		}
		if (!strncmp(w, "--split-string", 14) && !strcmp(b, "env"))
			return true;
		named |= w[0] != '-';
		/* watch joins its words into what sh -c runs */
		if (!strcmp(b, "watch") && w[0] != '-')
			return hs_ho_joined_opaque(v, a, n, depth);
	}
	return !strcmp(b, "parallel") && !named;
}
