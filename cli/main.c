/* hookshim: the CLI, and the tool wrapper when called by another name. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../config/dialect.h"
#include "cli.h"
#include "verbs.h"
#include "../common/version.h"
#include "../common/wire.h"

__attribute__((used)) const char HS_EXE_MARK[] = "hookshim " HOOKSHIM_VERSION;

const char hs_usage_none[] = "";

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
	const char *usage;
} commands[] = {
#define HS_VERB_ROW_(name, fn, help, usage) { #name, fn, help, usage },
	HS_VERBS(HS_VERB_ROW_)
#undef HS_VERB_ROW_
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

size_t hs_cli_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (la >= 63 || lb >= 63)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* The public verb nearest to `word` (within 2 edits, or the one it
 * begins), or NULL. */
static const char *nearest(const char *word)
{
	const char *best = NULL;
	size_t bd = 3;

	for (size_t i = 0; i < NCOMMANDS; i++) {
		size_t d;

		if (!commands[i].help)
			continue;
		d = strncmp(commands[i].name, word, strlen(word)) == 0 && *word
			    ? 1
			    : hs_cli_distance(word, commands[i].name);
		if (d < bd) {
			bd = d;
			best = commands[i].name;
		}
	}
	return best;
}

/* A public verb's row, or -1 (with "did you mean" on stderr). */
static int verb(const char *name)
{
	const char *guess;

	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return (int)i;
	fprintf(stderr, "hookshim: unknown command '%s'", name);
	if ((guess = nearest(name)))
		fprintf(stderr, "; did you mean '%s'?", guess);
	fputc('\n', stderr);
	return -1;
}

static bool help_word(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

static int usage(FILE *f)
{
	const struct hs_dialect_ops *d;

	fprintf(f, "hookshim %s — hooks for any agent, from the outside\n\n"
		   "usage:\n", HOOKSHIM_VERSION);
	for (size_t i = 0; i < NCOMMANDS; i++)
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

/* An ignored SIGCHLD, inherited across exec from whoever started us,
 * has the kernel reap our children itself: no exit status for the agent,
 * a wrapped tool or a hook (a hook's "exit 2" lost, the agent's status
 * read as 0). Every verb waits for what it starts, so the default, which
 * what we start inherits in turn. */
static void wait_for_our_children(void)
{
	struct sigaction sa;

	if (sigaction(SIGCHLD, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
	}
}

int main(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');

	wait_for_our_children();
	self = self ? self + 1 : argv[0];
	if (strcmp(self, "hookshim") != 0 && strncmp(self, "hookshim", 8) != 0)
		return wrapper_main(argc, argv);
	int v;

	if (argc < 2)
		return usage(stderr);
	if (help_word(argv[1]) ||
	    (strcmp(argv[1], "help") == 0 && argc == 2))
		return usage(stdout);
	if (strcmp(argv[1], "--version") == 0) {
		printf("hookshim %s\n", HOOKSHIM_VERSION);
		return 0;
	}
	/* `hookshim help VERB` and `hookshim VERB --help`: the same text */
	if (strcmp(argv[1], "help") == 0) {
		if ((v = verb(argv[2])) < 0)
			return 64;
		if (!commands[v].help) {
			fprintf(stderr, "hookshim: '%s' is internal: no help\n",
				argv[2]);
			return 64;
		}
		fputs(commands[v].usage, stdout);
		return 0;
	}
	if ((v = verb(argv[1])) < 0) {
		fprintf(stderr, "(hookshim --help lists the commands)\n");
		return 64;
	}
	if (argc > 2 && help_word(argv[2]) && commands[v].help) {
		fputs(commands[v].usage, stdout);
		return 0;
	}
	return commands[v].fn(argc - 1, argv + 1);
}
