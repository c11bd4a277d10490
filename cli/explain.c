/* hookshim explain LOG: for each exec a session's --log recorded, why it
 * was or was not a tool call and which text the hook received; the tool
 * to reach for when a hook did not fire. It reads only the log, so it
 * explains what the supervisor decided then, not what it would decide
 * now. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/command.h"
#include "cli.h"

static const char *str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* The argv of a line, NULL-terminated (malloc'd), or NULL. */
static char **argv_of(const cJSON *o)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "argv"), *w;
	char **v = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	cJSON_ArrayForEach(w, a)
		if (cJSON_IsString(w))
			v[n++] = w->valuestring;
	return v;
}

static void print_block(const char *label, const char *text)
{
	printf("    %s:", label);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		printf(" %.*s\n", (int)n, p);
		p += n;
		if (*p && *++p)
			printf("    %*s", (int)strlen(label) + 1, "");
	}
	if (!*text)
		printf("\n");
}

/* Which mechanism asked the hooks about a call: the log's "via". */
static const char *judged_by(const char *via)
{
	if (!via)
		return "the shim, in the process that made the call";
	if (strcmp(via, "floor") == 0)
		return "the syscall floor (a process without the shim: a "
		       "static program, raw syscalls)";
	if (strcmp(via, "wrapper") == 0)
		return "a PATH wrapper (hookshim wrap)";
	if (strcmp(via, "run") == 0)
		return "hookshim run, before starting it";
	return via;
}

static void explain_exec(int n, const cJSON *o)
{
	const char *decision = str(o, "decision"), *cmd = str(o, "command");
	const cJSON *wr = cJSON_GetObjectItemCaseSensitive(o, "wrapper");
	const cJSON *hooks = cJSON_GetObjectItemCaseSensitive(o, "hooks");
	char **argv = argv_of(o), *line = argv ? hs_command_quote_argv(argv)
					       : NULL;
	const char *ev = str(o, "event");
	int pid = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "pid"));

	printf("#%d exec (pid %d): %s\n", n, pid, line ? line : "?");
	if (decision && strcmp(decision, "agent_internal") == 0) {
		printf("    not a tool call: %s\n", str(o, "reason"));
		printf("    no hook ran\n");
	} else {
		bool nested = cJSON_IsTrue(cJSON_GetObjectItem(o, "nested"));

		const char *via = str(o, "via");

		if (nested)
			printf("    a nested exec, inside a tool call\n");
		else if (cJSON_IsTrue(cJSON_GetObjectItem(o, "stdin_line")))
			printf("    a tool call: a command a shell fed on its "
			       "stdin read, judged before the shell had it "
			       "(docs/agents.md)\n");
		else if (via && strcmp(via, "wrapper") == 0)
			printf("    a tool call: a wrapped tool (hookshim wrap) "
			       "ran\n");
		else if (cJSON_IsTrue(cJSON_GetObjectItem(o,
							  "beneath_handoff")))
			printf("    a tool call: a program started by a shell "
			       "beneath a hand-off, whose commands no hook "
			       "saw as text (docs/agents.md)\n");
		else if (via && strcmp(via, "run") == 0)
			printf("    a tool call: the command hookshim run "
			       "starts\n");
		else if (argv && hs_command_shell_index(argv) >= 0)
			printf("    a tool call: the agent ran a shell with a "
			       "command string\n");
		else
			printf("    a tool call: every exec counts "
			       "(\"tool_calls\": \"every-exec\")\n");
		printf("    judged by %s\n", judged_by(via));
		if (wr && strcmp(str(wr, "shape") ? str(wr, "shape") : "",
				 "argument-handoff") == 0)
			printf("    the string its script hands to eval or a "
			       "shell, from its arguments (argument-handoff)\n");
		else if (wr)
			printf("    the model's command, out of %s's wrapper "
			       "(%s)\n", str(wr, "agent"), str(wr, "shape"));
		else if (cJSON_IsTrue(cJSON_GetObjectItem(o, "stdin_line")))
			printf("    the command as the shell read it\n");
		else if (argv && hs_command_shell_index(argv) >= 0)
			printf("    no agent wrapper: the script as it is (an "
			       "agent no profile names gets its scripts "
			       "shown whole and its own shells judged as "
			       "tool calls; `hookshim learn` drafts a "
			       "profile: docs/agents.md)\n");
		print_block("the hook received", cmd ? cmd : "");
		if (cJSON_IsTrue(cJSON_GetObjectItem(o, "handoff")))
			printf("    it runs a string the hook did not see: "
			       "every program its shell starts is judged "
			       "too\n");
		printf("    %s, %d hook%s ran: %s%s%s\n",
		       ev && strcmp(ev, "pre") == 0 ? "PreToolUse" : ev ? ev : "?",
		       cJSON_GetArraySize(hooks),
		       cJSON_GetArraySize(hooks) == 1 ? "" : "s",
		       decision ? decision : "?",
		       str(o, "reason") ? ": " : "",
		       str(o, "reason") ? str(o, "reason") : "");
	}
	free(line);
	free(argv);
}

const char hs_usage_explain[] =
	"usage: hookshim explain LOG  (a session's --log file)\n"
	"For each exec of the session: a tool call or the agent's own shell,\n"
	"which wrapper it came through, and the text the hook received.\n";

int cmd_explain(int argc, char **argv)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0;
	int n = 0, lineno = 0;

	static const struct option opts[] = { { NULL, 0, NULL, 0 } };
	const char *file;

	if (hs_cli_getopt(argc, argv, "", opts, "explain", hs_usage_explain) !=
		    -1 ||
	    optind != argc - 1) {
		fputs(hs_usage_explain, stderr);
		return 64;
	}
	file = argv[optind];
	f = fopen(file, "r");
	if (!f) {
		perror(file);
		return 1;
	}
	while (getline(&buf, &cap, f) > 0) {
		cJSON *o = cJSON_Parse(buf);
		const char *op = o ? str(o, "op") : NULL;
		const char *ev = o ? str(o, "event") : NULL;

		lineno++;
		if (!o) {
			fprintf(stderr, "hookshim explain: %s:%d: not JSON\n",
				file, lineno);
		} else if (op && strcmp(op, "exec") == 0 && ev &&
			   strcmp(ev, "pre") == 0) {
			explain_exec(++n, o);
		} else if (op && strcmp(op, "exec") == 0) {
			printf("   %s of %s: %s\n", ev ? ev : "?",
			       str(o, "tool_use_id") ? str(o, "tool_use_id") : "?",
			       str(o, "decision") ? str(o, "decision") : "?");
		} else if (op && (strcmp(op, "write") == 0 ||
				  strcmp(op, "read") == 0)) {
			printf("   %s %s (%s): %s\n", op,
			       str(o, "path") ? str(o, "path") : "?",
			       str(o, "operation") ? str(o, "operation") : op,
			       str(o, "decision") ? str(o, "decision") : "?");
		} else if (op && strcmp(op, "connect") == 0) {
			printf("   connect %s (%s): %s\n",
			       str(o, "url") ? str(o, "url") : "?",
			       str(o, "command") ? str(o, "command") : "?",
			       str(o, "decision") ? str(o, "decision") : "?");
		}
		cJSON_Delete(o);
	}
	free(buf);
	fclose(f);
	if (!n)
		printf("no exec in %s\n", file);
	return 0;
}
