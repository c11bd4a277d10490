/* The hookshim command line: shared option handling and the subcommands. */
#ifndef HOOKSHIM_WRAPPERS_CLI_H
#define HOOKSHIM_WRAPPERS_CLI_H

#include "../config/model.h"

/* Options every config-reading subcommand takes:
 *   -c FILE (repeatable, in order), --import DIALECT (repeatable),
 *   --dialect NAME (applies to the -c files after it), --root DIR. */
struct hs_cli {
	const char **files;
	int *file_dialects;
	int nfiles;
	int imports[HS_NDIALECT];
	int nimports;
	const char *root;
	bool has_dialect; /* --dialect seen: applies to later -c files */
	enum hs_dialect dialect;
};

/* Consumes one config option at argv[*i] (advancing *i past its value).
 * Returns 1 if it was one, 0 if not, -1 on a usage error (printed). */
int hs_cli_option(struct hs_cli *cli, int argc, char **argv, int *i);
/* Loads what the options name (or hookshim's defaults) and finishes it. */
int hs_cli_load(const struct hs_cli *cli, struct hs_config *cfg);
void hs_cli_free(struct hs_cli *cli);

/* Re-raises the signal that ended a child (without dumping core here), or
 * returns its exit status: hookshim exits as the command it ran. */
int hs_exit_as(int status);

int cmd_check(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_wrap(int argc, char **argv);
/* Internal: supervise one command for post hooks, run as a tool wrapper. */
int cmd_exec(int argc, char **argv);
/* Internal: `__deny EXIT REASON` prints REASON to stderr, exits EXIT. */
int cmd_deny(int argc, char **argv);
/* A PATH wrapper: argv[0] names the wrapped tool. */
int wrapper_main(int argc, char **argv);

#endif
