/* From an exec's argv to the command a hook sees; see command.h.
 *
 * A wrapper is recognised by structure (engine/unwrap.c over the agent
 * profiles of config/agents.json, applied by engine/unwrap.c), and only when every part of it around
 * the model's command is the agent's own inert setup. Anything else is
 * shown as the full script, which is always the safe answer: a guard
 * that sees more text can only match more. */
#include "command.h"
#include "../common/plainstr.h"
#include "../common/shellargv.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "agents.h"
#include "handoff.h"
#include "strbuf.h"
#include "unwrap.h"

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

char *hs_command_unwrap(const char *script, char *const envp[])
{
	return hs_unwrap(script, envp, NULL);
}

bool hs_command_tool_call(char *const argv[], bool every_exec)
{
	return argv && argv[0] &&
	       (every_exec || hs_command_shell_index(argv) >= 0) &&
	       !hs_command_agent_internal(argv);
}

/* ---- quoting an argv back into a command line ---- */

static bool is_safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c);
}

static void quote_word(struct hs_strbuf *b, const char *w)
{
	bool safe = *w != '\0';

	for (const char *p = w; *p && safe; p++)
		safe = is_safe_char(*p);
	if (safe) {
		hs_sb_add(b, w, strlen(w));
		return;
	}
	hs_sb_addc(b, '\'');
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			hs_sb_add(b, "'\\''", 4);
		else
			hs_sb_addc(b, *p);
	}
	hs_sb_addc(b, '\'');
}

char *hs_command_quote_argv(char *const argv[])
{
	struct hs_strbuf b = { 0 };

	for (size_t i = 0; argv && argv[i]; i++) {
		if (i)
			hs_sb_addc(&b, ' ');
		quote_word(&b, argv[i]);
	}
	return hs_sb_take(&b);
}

/* A profile's argument hand-off (agent_profile.h): the whole script
 * matches its glob and the parameter it names is there. */
static char *profile_handoff(char *const argv[], int i,
			     struct hs_command_why *why)
{
	const struct hs_agent_set *set = hs_agents();
	size_t nparams = 0;

	while (argv[i + 1 + nparams])
		nparams++;
	for (size_t k = 0; k < set->n; k++)
		for (size_t j = 0; j < set->v[k].nhandoffs; j++) {
			const struct hs_agent_handoff *h = &set->v[k].handoffs[j];

			if ((size_t)h->command >= nparams ||
			    fnmatch(h->script, argv[i], 0) != 0)
				continue;
			if (why) {
				why->agent = set->v[k].name;
				why->shape = "profile-handoff";
			}
			return strdup(argv[i + 1 + h->command]);
		}
	return NULL;
}

/* bash, sh or dash, whose parameter rules engine/handoff.c follows. */
static bool bourne(const char *path)
{
	const char *b = hs_base(path);

	if (*b == '-')
		b++;
	return strcmp(b, "bash") == 0 || strcmp(b, "sh") == 0 ||
	       strcmp(b, "dash") == 0;
}

char *hs_command_text(char *const argv[], char *const envp[])
{
	return hs_command_explain(argv, envp, NULL);
}

char *hs_command_explain(char *const argv[], char *const envp[],
			 struct hs_command_why *why)
{
	return hs_command_explain_as(argv, argv ? argv[0] : NULL, envp, why);
}

char *hs_command_explain_as(char *const argv[], const char *exe,
			    char *const envp[], struct hs_command_why *why)
{
	int i = hs_command_shell_index(argv);
	struct hs_unwrap_how how = { 0 };
	bool exact = true;
	char *cmd;

	if (why)
		*why = (struct hs_command_why){ 0 };
	if (i < 0)
		return hs_command_quote_argv(argv);
	cmd = hs_unwrap(argv[i], envp, &how);
	if (cmd && why) {
		why->agent = how.agent->name;
		why->shape = hs_shape_name(how.shape);
	}
	/* no agent's wrapper: a script of a profile's that hands on one of
	 * its arguments, or any bash or sh script that only does that */
	if (!cmd)
		cmd = profile_handoff(argv, i, why);
	/* the program that runs decides the rules, not argv[0]: zsh as
	 * `dash` reads $12 as the twelfth parameter */
	if (!cmd && bourne(argv[0]) && bourne(exe ? exe : argv[0]) &&
	    (cmd = hs_handoff_unwrap(argv[i], argv + i + 1, &exact)) && why) {
		why->agent = "any";
		why->shape = "argument-handoff";
	}
	if (!cmd)
		cmd = strdup(argv[i]);
	/* what runs a string the hook did not see, or reads arguments it is
	 * not shown, has what it runs judged too */
	if (why && cmd)
		why->beneath = !exact || hs_handoff_opaque(cmd) ||
			       (argv[i + 1] && hs_handoff_uses_params(cmd));
	return cmd;
}

/* Does internal entry `in` of agent a say argv (a shell whose -c string
 * is argv[i]) is one of its own shells? */
static bool internal_is(const struct hs_agent *a,
			const struct hs_agent_internal *in, char *const argv[],
			int i)
{
	size_t n = 0;

	if (in->shell && strcmp(in->shell, argv[0]) != 0)
		return false;
	if (in->argv) {
		while (argv[n] && in->argv[n] &&
		       fnmatch(in->argv[n], argv[n], 0) == 0)
			n++;
		return !argv[n] && !in->argv[n];
	}
	if (argv[i + 1])
		return false; /* no arguments after the script */
	if (in->script)
		return hs_unwrap_script_is(in->script, argv[i]);
	if (in->text)
		return strcmp(in->text, argv[i]) == 0;
	if (in->snapshot_check)
		return hs_unwrap_snapshot_check(a, argv[i]);
	for (size_t k = 0; in->contains && in->contains[k]; k++)
		if (!strstr(argv[i], in->contains[k]))
			return false;
	return in->contains != NULL;
}

static bool runs_as(const struct hs_agent *a, char *const names[]);

/* An agent's own shells are its own only when it starts them. */
static bool caller_ok(const struct hs_agent *a, char *const caller[])
{
	return !caller || runs_as(a, caller);
}

/* Is one of names a process of a's? */
static bool runs_as(const struct hs_agent *a, char *const names[])
{
	for (size_t n = 0; names[n]; n++)
		for (size_t k = 0; a->processes && a->processes[k]; k++)
			if (strcmp(names[n], a->processes[k]) == 0)
				return true;
	return false;
}

const char *hs_command_agent_internal(char *const argv[])
{
	return hs_command_agent_internal_of(argv, NULL);
}

const char *hs_command_agent_internal_of(char *const argv[],
					 char *const caller[])
{
	const struct hs_agent_set *set = hs_agents();
	int i;

	if (!argv || !argv[0] || !hs_command_is_shell(argv[0]))
		return NULL;
	i = hs_command_shell_index(argv);
	if (i < 0)
		return NULL;
	for (size_t k = 0; k < set->n; k++)
		for (size_t j = 0; caller_ok(&set->v[k], caller) &&
				   j < set->v[k].ninternal; j++)
			if (internal_is(&set->v[k], &set->v[k].internal[j],
					argv, i))
				return set->v[k].internal[j].what;
	return NULL;
}

