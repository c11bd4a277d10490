/* Hand-offs, the other question: does a text run a string its hook did
 * not see, or read arguments it was not shown? See handoff.h and
 * docs/agents.md. Lexical and structural checks over engine/shparse.c;
 * each says yes when in doubt (what it runs is then judged too). */
#include "handoff.h"

#include <stdlib.h>
#include <string.h>

#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "env_code.h"
#include "handoff_int.h"
#include "shparse.h"
#include "strbuf.h"

#define MAX_WORDS HS_HO_MAX_WORDS

static bool text_opaque(const char *text, int depth);

static bool list_opaque(const char *text, const struct hs_sh_list *l,
			int depth, bool in);
static bool substitutes(const char *text);

/* A file whose content is a stream, not a script anyone could read
 * beforehand: /dev/stdin, /dev/fd/N, /proc/self/fd/N, a fifo. */
static bool stream_path(const char *p)
{
	return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

/* Programs that run other programs from their arguments. Beneath one,
 * any argument naming a shell is a hand-off: `xargs -0
 * sh -c`, `busybox sh`, `command -p sh`, `stdbuf -o0 sh`. */
static bool runner(const char *p)
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
		if (stream_path(v[i]))
			return 2;
		if (!strcmp(v[i], "--"))
			return v[i + 1] ? (stream_path(v[i + 1]) ? 2 : 0)
					: none_too;
		if (v[i][0] != '-')
			return 0; /* its program */
		if (o == OPT_CODE)
			return !v[i + 1]		      ? none_too
			       : !strcmp(v[i + 1], "-")	      ? 1
			       : stream_path(v[i + 1]) ? 2
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
static bool stdin_unseen(const char *text, const struct hs_sh_cmd *c,
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
			if (!v || stream_path(v))
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
	return on == 2 || (on == 1 && stdin_unseen(text, c, piped));
}

/* Does program v[k] of c (v: c's words up to the first not shown) run
 * code from a word not shown, or from a stdin not shown? git is no such
 * program: what it runs of its words and settings, it starts, and what
 * git starts is judged (docs/agents.md). */
static bool runs_unseen(const char *text, const struct hs_sh_cmd *c,
			char *const v[], size_t k, bool piped)
{
	bool hidden = false;

	for (size_t i = k + 1; i < c->nwords && !hidden; i++)
		hidden = !shown(text, &c->words[i]);
	if (hs_interp_name(v[k], NULL))
		return interp_unseen(text, c, v + k, k, piped);
	/* find's: any, which unquoted may split into `-exec rm …` */
	return hidden && (runner(v[k]) || option_runner(v[k]));
}

static bool runs_shell_word(const char *p)
{
	return hs_shell_name(p) || strcmp(hs_base(p), "hush") == 0;
}

/* An assignment to a variable whose value the shell runs or reads as a
 * script: prompts (PS4 under set -x), PROMPT_COMMAND, BASH_ENV, ENV. */
static bool code_var(const struct hs_sh_word *w, const char *script)
{
	static const char *const names[] = { "PS0=", "PS1=", "PS2=", "PS3=",
		"PS4=", "PROMPT_COMMAND=", "BASH_ENV=", "ENV=", NULL };

	for (size_t k = 0; names[k]; k++)
		if (w->end - w->start >= strlen(names[k]) &&
		    memcmp(script + w->start, names[k], strlen(names[k])) == 0)
			return true;
	return false;
}

/* Is variable n git's alone, so that what it runs git starts, and that
 * is judged (docs/agents.md)? Not GIT_EDITOR, GIT_PAGER, GIT_ASKPASS,
 * which gh and others read too. */
static bool git_only(const char *n)
{
	static const char *const shared[] = { "GIT_EDITOR", "GIT_PAGER",
					      "GIT_ASKPASS", NULL };

	return !strncmp(n, "GIT_", 4) && !hs_ho_is_any(n, shared);
}

/* Does a shell run or source what this variable holds, whatever it is
 * (BASH_ENV, ENV, PROMPT_COMMAND, the prompts, exported functions)? */
static bool shell_code_name(const char *n)
{
	static const char *const names[] = { "BASH_ENV", "ENV",
					     "PROMPT_COMMAND", "PS0", "PS1",
					     "PS2", "PS3", "PS4", NULL };

	return hs_ho_is_any(n, names) || !strncmp(n, "BASH_FUNC_", 10);
}

/* Is assignment word w's value shown: its text, or with $PWD alone
 * expanded (`PYTHONPATH="$PWD/src"`: where the command runs, a place the
 * hook is shown)? */
static bool value_shown(const char *text, const struct hs_sh_word *w)
{
	if (w->value)
		return true;
	for (size_t i = w->start; i < w->end; i++) {
		if (text[i] == '`' || text[i] == '\\')
			return false;
		if (text[i] != '$')
			continue;
		if (!strncmp(text + i, "${PWD}", 6))
			i += 5;
		else if (!strncmp(text + i, "$PWD", 4) &&
			 !hs_ho_name_char(text[i + 4], false))
			i += 3;
		else
			return false;
	}
	return true;
}

/* A variable whose value a program runs or loads as code (env_code.c:
 * GIT_SSH_COMMAND, PAGER, LD_PRELOAD, NODE_OPTIONS, git's settings by
 * the environment, ...) given a value the hook did not see, as a
 * command's prefix (`GIT_CONFIG_VALUE_0="$(…)" git status`), alone, or
 * by export, declare, local or readonly; or named for read or
 * printf -v to fill. Kept (for a shell's later commands): given any
 * value alone or by those, which the shell keeps. */
static bool code_value(const char *text, const struct hs_sh_cmd *c,
		       bool kept)
{
	static const char *const keepers[] = { "export", "declare", "typeset",
					       "readonly", "local", NULL };
	static const char *const fillers[] = { "read", "printf", "mapfile",
					       "readarray", NULL };
	const char *cmd = NULL;
	size_t first = 0;
	bool fills, keeps, value_next = false, name_next = false;

	/* past `command` and `builtin`, which run the builtin */
	while (first < c->nwords && (cmd = c->words[first].value) &&
	       (!strcmp(cmd, "command") || !strcmp(cmd, "builtin")))
		first++;
	if (first == c->nwords)
		cmd = NULL;
	fills = hs_ho_is_any(cmd, fillers);
	keeps = !c->nwords || hs_ho_is_any(cmd, keepers);
	for (size_t a = 0; a < c->nassigns + c->nwords; a++) {
		/* where a filler's words name variables: read's operands
		 * and -a's value, mapfile's operand, printf's -v value; not
		 * their other options' values (a prompt), printf's format */
		if (fills && a > c->nassigns + first) {
			const char *o = c->words[a - c->nassigns].value;
			bool printf_ = !strcmp(cmd, "printf");
			char last;

			if (value_next) {
				value_next = false;
				if (!name_next)
					continue;
			} else if (o && o[0] == '-' && o[1]) {
				last = o[strlen(o) - 1];
				if (printf_ && !strcmp(o, "-v"))
					value_next = name_next = true;
				else if (!printf_ &&
					 strchr(!strcmp(cmd, "read") ? "pdnNtuia"
								     : "dnOsuCc",
						last))
					value_next = true, name_next = last == 'a';
				if (!(printf_ && !strncmp(o, "-v", 2) && o[2]))
					continue;
			} else if (printf_) {
				continue; /* its format, its arguments */
			}
		}
		const struct hs_sh_word *w = a < c->nassigns
						     ? &c->assigns[a]
						     : &c->words[a - c->nassigns];
		const char *s = text + w->start, *end = text + w->end;
		char name[64];
		size_t n = 0;
		bool odd = false, eq = false;

		/* a nameref makes any later name another's */
		if (keeps && cmd && w->value && w->value[0] == '-' &&
		    strchr(w->value, 'n'))
			return true;
		if (a >= c->nassigns && !keeps && !fills)
			continue;
		if (fills && !strncmp(s, "-v", 2) && s + 2 < end)
			s += 2; /* printf -vNAME */
		else if (*s == '-')
			continue; /* an option */
		/* the name as the builtin will see it: quotes removed
		 * (`export P"ERL5OPT=…"`); anything else in it (braces, an
		 * expansion) may make any name */
		for (; s < end; s++) {
			if (*s == '"' || *s == '\'' || *s == '\\')
				continue;
			if (*s == '=' || (*s == '+' && s + 1 < end && s[1] == '=')) {
				eq = true;
				break;
			}
			if (!hs_ho_name_char(*s, n == 0))
				odd = true;
			else if (n < sizeof(name) - 1)
				name[n++] = *s;
		}
		name[n] = '\0';
		/* a name read: any, where an expansion makes it
		 * (`read -r ${x:-PERL5DB}`); a prompt is no name */
		if (!eq && fills && odd &&
		    memchr(text + w->start, '$', w->end - w->start))
			return true;
		if (!n || (!eq && (!fills || odd)))
			continue;
		if (!odd && (!hs_env_code_name(name, n) || git_only(name)))
			continue;
		if (!eq ? fills
			: kept ? keeps
			       : odd || shell_code_name(name) ||
					 !value_shown(text, w))
			return true;
	}
	return false;
}

/* `${NAME:=…}`, `${NAME=…}` (and :-'s kin that assign) of such a
 * variable, anywhere in text. */
static bool code_default(const char *text)
{
	for (const char *p = text; (p = strstr(p, "${")); p++) {
		const char *s = p + 2, *e = s;

		while (hs_ho_name_char(*e, e == s))
			e++;
		if (e > s && (e[0] == '=' || (e[0] == ':' && e[1] == '=')) &&
		    hs_env_code_name(s, (size_t)(e - s)))
			return true;
	}
	return false;
}

/* Does runner v[k] of c (v: its n words shown) run what its hook did
 * not see: a shell among its words; an interpreter with its own rule,
 * or any program that runs programs for xargs and parallel, which give
 * it words from their stdin (parallel with none runs its stdin's
 * lines); a command string (`flock -c`, `su -c`, `script -qc`, watch's
 * words, which sh -c runs) that is opaque itself; env's -S, whose string
 * it splits into a command? */
static bool runner_runs_unseen(const char *text, const struct hs_sh_cmd *c,
			       char *const v[], size_t n, size_t k, int depth,
			       bool piped)
{
	const char *b = hs_base(v[k]);
	bool feeds = !strcmp(b, "xargs") || !strcmp(b, "parallel");
	bool named = false;
	struct hs_strbuf s = { 0 };
	bool r = false;

	for (size_t a = k + 1; a < n && !r; a++) {
		const char *w = v[a];

		if (runs_shell_word(w) ||
		    (hs_interp_name(w, NULL) &&
		     (feeds || interp_unseen(text, c, v + a, a, piped))) ||
		    (feeds && (runner(w) || option_runner(w))))
			return true;
		if (w[0] == '-' && w[1] != '-') {
			if (strchr(w + 1, 'S') && !strcmp(b, "env"))
				return true;
			if (strchr(w + 1, 'c') && a + 1 < n &&
			    strcmp(b, "taskset") != 0 &&
			    text_opaque(v[a + 1], depth + 1))
				return true;
			continue;
		}
		if (!strncmp(w, "--split-string", 14) && !strcmp(b, "env"))
			return true;
		named |= w[0] != '-';
		/* watch joins its words into what sh -c runs */
		if (!strcmp(b, "watch") && w[0] != '-') {
			for (size_t i = a; i < n; i++) {
				if (i > a)
					hs_sb_addc(&s, ' ');
				hs_sb_adds(&s, v[i]);
			}
			r = s.s && text_opaque(s.s, depth + 1);
			hs_sb_free(&s);
			return r;
		}
	}
	return !strcmp(b, "parallel") && !named;
}

static bool cmd_opaque(const char *text, const struct hs_sh_cmd *c,
		       int depth, bool piped)
{
	char *v[MAX_WORDS + 1];
	struct hs_strbuf b = { 0 };
	size_t n = 0;
	int k, j;
	bool r;

	if (c->body &&
	    list_opaque(text, c->body, depth,
			c->kind == HS_SH_FUNC || stdin_unseen(text, c, piped)))
		return true;
	for (size_t a = 0; a < c->nassigns; a++)
		if (code_var(&c->assigns[a], text))
			return true;
	for (size_t a = 0; a < c->nwords; a++) /* export PS4=… */
		if (code_var(&c->words[a], text))
			return true;
	if (code_value(text, c, false))
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
	if ((k < 0 || (v[k] && runner(v[k]))) &&
	    runner_runs_unseen(text, c, v, n, k < 0 ? 0 : (size_t)k, depth,
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
		return n < c->nwords || !v[k + 1] || stream_path(v[k + 1]);
	if (!hs_shell_name(v[k]) && strcmp(v[k], "hush") != 0)
		return runs_unseen(text, c, v, (size_t)k, piped);
	if (n < c->nwords)
		return true; /* a shell with an expanded option or string */
	if (hs_shell_reads_stdin(v + k))
		return true;
	j = hs_shell_operand(v + k);
	if (j < 0) { /* a script file: opaque when it is a stream */
		for (j = 1; v[k + j] && v[k + j][0] == '-'; j++)
			;
		return v[k + j] && stream_path(v[k + j]);
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

/* Names of the environment a shell runs as code, set however (`for
 * BASH_ENV in …`, read, printf -v, export -f): read as text. */
static bool env_code(const char *text)
{
	return strstr(text, "BASH_ENV") || strstr(text, "PROMPT_COMMAND") ||
	       strstr(text, "PS4") || strstr(text, "BASH_FUNC") ||
	       strstr(text, "BASH_ALIASES") || strstr(text, "BASH_CMDS") ||
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
	    code_default(text))
		return true;
	if (!(l = hs_sh_parse(text)))
		return true; /* what it runs cannot be told */
	r = list_opaque(text, l, depth, false);
	hs_sh_free(l);
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
	if (code_value(text, c, true))
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

	if (!text || env_code(text) || code_default(text) ||
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
