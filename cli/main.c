/* hookshim: the CLI, and the tool wrapper when called by another name. */
#include <stdio.h>
#include <string.h>

#include "../config/dialect.h"
#include "cli.h"
#include "verbs.h"
#include "../common/wire.h"

#define HOOKSHIM_VERSION "0.1.0"

__attribute__((used)) const char HS_EXE_MARK[] = "hookshim " HOOKSHIM_VERSION;

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
#define HS_VERB_ROW_(name, fn, help) { #name, fn, help },
	HS_VERBS(HS_VERB_ROW_)
#undef HS_VERB_ROW_
};

static int usage(FILE *f)
{
	const struct hs_dialect_ops *d;

	fprintf(f, "hookshim %s — hooks for any agent, from the outside\n\n"
		   "usage:\n", HOOKSHIM_VERSION);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].help)
			fprintf(f, "  hookshim %s\n", commands[i].help);
	fprintf(f, "\nconfig options: -c FILE (repeatable), --import ");
	for (size_t i = 0; (d = hs_dialect_in_claim_order(i, NULL)); i++)
		fprintf(f, "%s%s", i ? "|" : "", d->name);
	fprintf(f, ",\n  --dialect NAME (for the -c files after it), "
		   "--root DIR,\n  --trust-project (the project's hook files "
		   "load untrusted, for this run)\n");
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
