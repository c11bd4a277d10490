/* hookshim: the CLI, and the tool wrapper when called by another name. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../common/wire.h"

#define HOOKSHIM_VERSION "0.1.0"

__attribute__((used)) const char HS_EXE_MARK[] = "hookshim " HOOKSHIM_VERSION;


static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run [-c FILE]... [--import D] [--log FILE] -- CMD..."
			  "  run CMD under hooks" },
	{ "check", cmd_check, "check [-c FILE]...  list loaded hooks and "
			      "warnings" },
	{ "test", cmd_test, "test [-c FILE]... EVENT --tool NAME --input JSON"
			    "  run a synthetic event" },
	{ "wrap", cmd_wrap, "wrap DIR TOOL...  create PATH wrappers" },
	{ "explain", cmd_explain, "explain LOG  why each exec of a --log was "
				  "or was not a tool call" },
	{ "__exec", cmd_exec, NULL },
	{ "__deny", cmd_deny, NULL },
	{ "__supervise", cmd_supervise, NULL },
};

static int usage(FILE *f)
{
	fprintf(f, "hookshim %s — hooks for any agent, from the outside\n\n"
		   "usage:\n", HOOKSHIM_VERSION);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].help)
			fprintf(f, "  hookshim %s\n", commands[i].help);
	fprintf(f, "\nconfig options: -c FILE (repeatable), --import "
		   "memcode|mnemoai|memoh|claude,\n  --dialect NAME (for the "
		   "-c files after it), --root DIR\n");
	return f == stderr ? 64 : 0;
}

int main(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');

	self = self ? self + 1 : argv[0];
	if (strcmp(self, "hookshim") != 0 && strncmp(self, "hookshim", 8) != 0)
		return wrapper_main(argc, argv);
	if (argc < 2)
		return usage(stderr);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0)
		return usage(stdout);
	if (strcmp(argv[1], "--version") == 0) {
		printf("hookshim %s\n", HOOKSHIM_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "hookshim: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
