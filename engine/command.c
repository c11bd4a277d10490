/* From an exec's argv to the command a hook sees; see command.h.
 *
 * The unwrapping is deliberately narrow: it only recognises the exact
 * shapes agents generate, and only accepts an argument it can unquote
 * exactly (no expansion left for the shell to do). Anything else is shown
 * as the full script, which is always the safe answer: a guard that sees
 * more text can only match more. */
#include "command.h"
#include "../common/shellargv.h"

#include <stdlib.h>
#include <string.h>

/* A growable string; `failed` turns later appends into no-ops so callers
 * check once at the end. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void sb_add(struct sbuf *b, const char *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *s;

		while (cap < b->len + n + 1)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s) {
			b->failed = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_addc(struct sbuf *b, char c)
{
	sb_add(b, &c, 1);
}

/* Takes the string out of b (an empty string if nothing was added). */
static char *sb_take(struct sbuf *b)
{
	if (!b->failed && !b->s)
		sb_add(b, "", 0);
	if (b->failed) {
		free(b->s);
		b->s = NULL;
		return NULL;
	}
	return b->s;
}

bool hs_command_is_shell(const char *path)
{
	return hs_shell_name(path);
}

int hs_command_shell_index(char *const argv[])
{
	if (!argv || !hs_shell_name(argv[0]))
		return -1;
	return hs_shell_operand(argv);
}

/* ---- exact unquoting of simple shell words ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Characters that end an unquoted word (operators) or that the shell
 * would expand, so the word's value is not its text. */
static bool is_operator(char c)
{
	return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' ||
	       c == '(' || c == ')' || c == '\n';
}

static bool expands_unquoted(char c, bool word_start)
{
	return c == '$' || c == '`' || c == '*' || c == '?' || c == '[' ||
	       c == '{' || (word_start && (c == '~' || c == '#'));
}

/* Parses one word at *pp into out (its value after quote removal).
 * Returns 1 for a word, 0 when *pp is at an operator or the end, -1 when
 * the word cannot be unquoted exactly. */
static int parse_word(const char **pp, struct sbuf *out)
{
	const char *p = *pp;
	bool any = false;

	while (*p && !is_blank(*p) && !is_operator(*p)) {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (!q)
				return -1;
			sb_add(out, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p || *p == '$' || *p == '`')
					return -1;
				if (*p == '\\' && p[1] &&
				    strchr("$`\"\\\n", p[1])) {
					if (p[1] != '\n')
						sb_addc(out, p[1]);
					p++;
					continue;
				}
				sb_addc(out, *p);
			}
			p++;
		} else if (*p == '\\') {
			if (!p[1])
				return -1;
			if (p[1] != '\n')
				sb_addc(out, p[1]);
			p += 2;
		} else {
			if (expands_unquoted(*p, !any))
				return -1;
			sb_addc(out, *p);
			p++;
		}
		any = true;
	}
	*pp = p;
	return any ? 1 : 0;
}

static const char *skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

/* The arguments of Claude Code's `eval XT`, where XT is the quoted
 * command, optionally followed by ` < /dev/null`, ending at `end`
 * (exclusive). eval joins its arguments with spaces. NULL if the text is
 * not exactly that. */
static char *parse_eval_args(const char *p, const char *end)
{
	struct sbuf out = { 0 };
	char *text;
	size_t n = (size_t)(end - p);
	int words = 0;

	/* Work on a NUL-terminated copy so the word parser cannot run past
	 * `end`. */
	text = strndup(p, n);
	if (!text)
		return NULL;
	p = text;
	for (;;) {
		int r;

		p = skip_blanks(p);
		if (words)
			sb_addc(&out, ' ');
		r = parse_word(&p, &out);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		words++;
	}
	if (!words)
		goto fail;
	out.len--; /* the separator added before the failed word */
	out.s[out.len] = '\0';
	if (*p == '<') {
		p = skip_blanks(p + 1);
		if (strncmp(p, "/dev/null", 9) != 0)
			goto fail;
		p = skip_blanks(p + 9);
	}
	if (*p)
		goto fail;
	free(text);
	return sb_take(&out);
fail:
	free(text);
	free(out.s);
	return NULL;
}

/* Claude Code ends every script with ` && pwd -P >| FILE` (FILE one
 * quoted word). Returns where that tail starts, or NULL. */
static const char *claude_tail(const char *script)
{
	static const char tail[] = " && pwd -P >| ";
	const char *t = NULL;

	for (const char *p = strstr(script, tail); p;
	     p = strstr(p + 1, tail))
		t = p;
	if (!t) {
		return NULL;
	} else {
		const char *w = t + sizeof(tail) - 1;
		struct sbuf tmp = { 0 };
		int r = parse_word(&w, &tmp);

		free(tmp.s);
		if (r != 1 || *skip_blanks(w))
			return NULL;
	}
	return t;
}

/* Claude Code may carry the command text in the environment instead of
 * the script, for commands its own process-tree tools would otherwise
 * match; the script then evals the variable. */
#define CLAUDE_CARRY_VAR "__CLAUDE_CC_COMMAND_TEXT"
#define CLAUDE_CARRY_EVAL                                                    \
	"'eval' \"\\builtin 'unset' -v '" CLAUDE_CARRY_VAR "'; 'eval' $"      \
	CLAUDE_CARRY_VAR "\""

static const char *env_get(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* ---- Claude Code's preamble, segment by segment ----
 *
 * Unwrapping hides the preamble from the hook, so it is only done when
 * every preamble segment is one Claude Code itself writes and that runs
 * nothing the hook would care about. Otherwise a model could put its real
 * work in a "preamble" (pi and others run the model's text verbatim) and
 * show the hook an innocent eval. Each matcher returns the length of its
 * segment at p, or 0. */

static size_t lit(const char *p, const char *text)
{
	size_t n = strlen(text);

	return strncmp(p, text, n) == 0 ? n : 0;
}

/* [A-Za-z_]+ */
static size_t name_len(const char *p)
{
	size_t n = 0;

	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
	       p[n] == '_')
		n++;
	return n;
}

/* Option names separated by single spaces: NO_EXTENDED_GLOB NO_EQUALS */
static size_t names_len(const char *p)
{
	size_t n = name_len(p), k;

	while (n && p[n] == ' ' && (k = name_len(p + n + 1)))
		n += 1 + k;
	return n;
}

/* source SNAPSHOT 2>/dev/null || true -- the snapshot Claude Code wrote */
static size_t seg_source(const char *p)
{
	const char *q = p;
	struct sbuf path = { 0 };
	size_t n = lit(q, "source ");
	bool ok;

	if (!n)
		return 0;
	q += n;
	ok = parse_word(&q, &path) == 1 && path.s &&
	     strstr(path.s, "/shell-snapshots/snapshot-") &&
	     (n = lit(q, " 2>/dev/null || true"));
	free(path.s);
	return ok ? (size_t)(q - p) + n : 0;
}

/* \builtin setopt OPTS 2>/dev/null || true */
static size_t seg_setopt(const char *p)
{
	size_t n = lit(p, "\\builtin setopt "), k, t;

	if (!n || !(k = names_len(p + n)) ||
	    !(t = lit(p + n + k, " 2>/dev/null || true")))
		return 0;
	return n + k + t;
}

/* { \builtin shopt -u extglob || \builtin setopt OPTS; } >/dev/null 2>&1
 * || true */
static size_t seg_either_glob(const char *p)
{
	size_t n = lit(p, "{ \\builtin shopt -u extglob || \\builtin setopt ");
	size_t k, t;

	if (!n || !(k = names_len(p + n)) ||
	    !(t = lit(p + n + k, "; } >/dev/null 2>&1 || true")))
		return 0;
	return n + k + t;
}

/* { \builtin unalias -- 'X'; \builtin unset -f -- 'X'; } >/dev/null 2>&1
 * || true */
static size_t seg_unalias(const char *p)
{
	const char *q = p;
	size_t n = lit(q, "{ \\builtin unalias -- '"), k;

	if (!n)
		return 0;
	q += n;
	if (!(k = name_len(q)))
		return 0;
	q += k;
	if (!(n = lit(q, "'; \\builtin unset -f -- '")))
		return 0;
	q += n;
	if (name_len(q) != k || strncmp(q, q - n - k, k) != 0)
		return 0;
	q += k;
	if (!(n = lit(q, "'; } >/dev/null 2>&1 || true")))
		return 0;
	return (size_t)(q - p) + n;
}

static size_t seg_fixed(const char *p)
{
	static const char *const fixed[] = {
		"\\builtin shopt -u extglob 2>/dev/null || true",
		"{ \\builtin typeset +x '" CLAUDE_CARRY_VAR "' 2>/dev/null || "
		"\\builtin true; }",
		"{ \\builtin [ -n \"${" CLAUDE_CARRY_VAR ":+1}\" ] || { "
		"\\builtin echo '" CLAUDE_CARRY_VAR "?' >&2; \\builtin exit "
		"126; }; }",
	};
	size_t n;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if ((n = lit(p, fixed[i])))
			return n;
	return 0;
}

/* Does [p, end) consist of known segments, each followed by " && "? */
static bool known_preamble(const char *p, const char *end)
{
	static size_t (*const segs[])(const char *) = {
		seg_source, seg_fixed, seg_unalias, seg_setopt, seg_either_glob,
	};

	while (p < end) {
		size_t n = 0;

		for (size_t i = 0; !n && i < sizeof(segs) / sizeof(segs[0]); i++)
			n = segs[i](p);
		if (!n || p + n > end || !lit(p + n, " && "))
			return false;
		p += n + 4;
	}
	return p == end;
}

static char *unwrap_claude(const char *script, char *const envp[])
{
	const char *end = claude_tail(script);
	static const char carry[] = CLAUDE_CARRY_EVAL;
	size_t carry_len = sizeof(carry) - 1;

	if (!end)
		return NULL;
	/* Carried: the script's eval segment is exactly the variable's. */
	if ((size_t)(end - script) >= carry_len &&
	    memcmp(end - carry_len, carry, carry_len) == 0) {
		const char *v = env_get(envp, CLAUDE_CARRY_VAR);

		if (!v || !known_preamble(script, end - carry_len))
			return NULL;
		return parse_eval_args(v, v + strlen(v));
	}
	/* Inline: the `eval ` that ends a known preamble and whose
	 * arguments run, as plain quoted words, to the tail. */
	for (const char *p = strstr(script, "eval "); p && p < end;
	     p = strstr(p + 1, "eval ")) {
		const char *args = p + 5, *seg = p, *stop = end;
		char *cmd;

		/* `{ eval XT; }` on some platforms. */
		if (p - script >= 2 && memcmp(p - 2, "{ ", 2) == 0) {
			if (end - args < 3 || memcmp(end - 3, "; }", 3) != 0)
				continue;
			seg = p - 2;
			stop = end - 3;
		}
		if (!known_preamble(script, seg))
			continue;
		cmd = parse_eval_args(args, stop);
		if (cmd)
			return cmd;
	}
	return NULL;
}

char *hs_command_unwrap(const char *script, char *const envp[])
{
	if (!script)
		return NULL;
	return unwrap_claude(script, envp);
}

static bool is_safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c);
}

static void quote_word(struct sbuf *b, const char *w)
{
	bool safe = *w != '\0';

	for (const char *p = w; *p && safe; p++)
		safe = is_safe_char(*p);
	if (safe) {
		sb_add(b, w, strlen(w));
		return;
	}
	sb_addc(b, '\'');
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			sb_add(b, "'\\''", 4);
		else
			sb_addc(b, *p);
	}
	sb_addc(b, '\'');
}

char *hs_command_quote_argv(char *const argv[])
{
	struct sbuf b = { 0 };

	for (size_t i = 0; argv && argv[i]; i++) {
		if (i)
			sb_addc(&b, ' ');
		quote_word(&b, argv[i]);
	}
	return sb_take(&b);
}

char *hs_command_text(char *const argv[], char *const envp[])
{
	int i = hs_command_shell_index(argv);
	char *cmd;

	if (i < 0)
		return hs_command_quote_argv(argv);
	cmd = hs_command_unwrap(argv[i], envp);
	return cmd ? cmd : strdup(argv[i]);
}

bool hs_command_agent_internal(char *const argv[])
{
	int i;

	if (!argv || !argv[0] || !hs_command_is_shell(argv[0]))
		return false;
	i = hs_command_shell_index(argv);
	if (i < 0 || argv[i + 1])
		return false;
	if (i == 2 && strcmp(argv[1], "-c") == 0 && strcmp(argv[2], "env") == 0)
		return true;
	return i == 3 && strcmp(argv[1], "-c") == 0 &&
	       strcmp(argv[2], "-l") == 0 &&
	       strncmp(argv[3], "SNAPSHOT_FILE=", 14) == 0 &&
	       strstr(argv[3], "/shell-snapshots/snapshot-") != NULL;
}
