/* Hand-offs: variables a program runs or loads as code (engine/env_code.c:
 * PAGER, LD_PRELOAD, PERL5OPT, NODE_OPTIONS, ...) that a text gives a
 * value its hook was not shown, however it is spelled, or sets for a
 * shell's later commands (docs/agents.md, "Hand-offs"). */
#include <string.h>

#include "env_code.h"
#include "handoff_int.h"
#include "shparse.h"

/* Is variable n git's alone, so that what it runs git starts, and that
 * is judged (docs/agents.md)? Not GIT_EDITOR, GIT_PAGER, GIT_ASKPASS,
 * which gh and others read too. */
static bool git_only(const char *n)
{
	static const char *const shared[] = { "GIT_EDITOR", "GIT_PAGER",
					      "GIT_ASKPASS", NULL };

	return !strncmp(n, "GIT_", 4) && !hs_ho_is_any(n, shared);
}

bool hs_ho_shell_code_name(const char *n)
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
bool hs_ho_code_value(const char *text, const struct hs_sh_cmd *c,
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
			       : odd || hs_ho_shell_code_name(name) ||
					 !value_shown(text, w))
			return true;
	}
	return false;
}

/* `${NAME:=…}`, `${NAME=…}` (and :-'s kin that assign) of such a
 * variable, anywhere in text. */
bool hs_ho_code_default(const char *text)
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
