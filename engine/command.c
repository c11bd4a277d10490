/* From an exec's argv to the command a hook sees; see command.h.
 *
 * A wrapper is recognised by structure (engine/unwrap.c over the agent
 * profiles of engine/agents.c), and only when every part of it around
 * the model's command is the agent's own inert setup. Anything else is
 * shown as the full script, which is always the safe answer: a guard
 * that sees more text can only match more. */
#include "command.h"
#include "../common/shellargv.h"

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

char *hs_command_text(char *const argv[], char *const envp[])
{
	return hs_command_explain(argv, envp, NULL);
}

char *hs_command_explain(char *const argv[], char *const envp[],
			 struct hs_command_why *why)
{
	int i = hs_command_shell_index(argv);
	struct hs_unwrap_how how = { 0 };
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
	/* no agent's wrapper: a script handing on one of its arguments */
	if (!cmd && (cmd = hs_handoff_unwrap(argv[i], argv + i + 1)) && why) {
		why->agent = "any";
		why->shape = "argument-handoff";
	}
	if (why && cmd)
		why->beneath = hs_handoff_opaque(cmd);
	if (!cmd) {
		cmd = strdup(argv[i]);
		/* the script reads arguments the hook is not shown */
		if (why && cmd)
			why->beneath = hs_handoff_opaque(cmd) ||
				       (argv[i + 1] && argv[i + 2] &&
					hs_handoff_uses_params(cmd));
	}
	return cmd;
}

const char *hs_shape_name(unsigned shape)
{
	switch (shape) {
	case HS_SHAPE_EVAL_CHAIN: return "eval-chain";
	case HS_SHAPE_EXEC_SHELL: return "exec-shell";
	case HS_SHAPE_SUBSHELL_TRAP: return "subshell-trap";
	case HS_SHAPE_SOURCE_REST: return "source-rest";
	default: return "";
	}
}

const char *hs_command_agent_internal(char *const argv[])
{
	int i;

	if (!argv || !argv[0] || !hs_command_is_shell(argv[0]))
		return NULL;
	i = hs_command_shell_index(argv);
	if (i < 0)
		return NULL;
	for (const struct hs_agent *a = hs_agents; a->name; a++) {
		for (const struct hs_agent_internal *in = a->internal;
		     in && in->what; in++) {
			if (in->shell && strcmp(in->shell, argv[0]) != 0)
				continue;
			if (in->match ? in->match(argv, i)
				      : !argv[i + 1] &&
					hs_unwrap_script_is(in->script, argv[i]))
				return in->what;
		}
	}
	return NULL;
}
