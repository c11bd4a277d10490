/* The hookshim command line: shared option handling and the subcommands. */
#ifndef HOOKSHIM_CLI_CLI_H
#define HOOKSHIM_CLI_CLI_H

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

/* Runs `exe argv` as `hookshim __exec` does: output copied live, then a
 * post / post-failure request with exit status and captured output, any
 * context written to stderr. Returns the exit status to report; a signal
 * death is re-raised. `id` (the pre event's tool_use_id) may be NULL. */
int hs_exec_supervised(const char *exe, char *const argv[], const char *id,
		       int nested);

/* Creates DIR (and parents) holding TOOL -> the hookshim binary symlinks.
 * 0, or -1 with a message. */
int hs_wrap_create(const char *dir, char *const tools[], size_t ntools);

int cmd_check(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_wrap(int argc, char **argv);
int cmd_explain(int argc, char **argv);
/* Internal: supervise one command for post hooks, run as a tool wrapper. */
int cmd_exec(int argc, char **argv);
/* Internal: `__deny EXIT REASON` prints REASON to stderr, exits EXIT. */
int cmd_deny(int argc, char **argv);
/* Internal: the session of a bare LD_PRELOAD (supervisor/bare.c). */
int cmd_supervise(int argc, char **argv);
/* A PATH wrapper: argv[0] names the wrapped tool. */
int wrapper_main(int argc, char **argv);

#endif
