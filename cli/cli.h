/* The hookshim command line: shared option handling and the subcommands. */
#ifndef HOOKSHIM_CLI_CLI_H
#define HOOKSHIM_CLI_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <sys/types.h>

#include "../config/model.h"
#include "../supervisor/sources.h"
#include "verbs.h"

/* Options every config-reading subcommand takes:
 *   -c FILE (repeatable, in order), --import DIALECT (repeatable),
 *   --dialect NAME (applies to the -c files after it), --root DIR,
 *   --trust-project; loaded with hs_sources_load, freed with
 *   hs_sources_free (supervisor/sources.h). */
struct hs_cli {
	struct hs_sources src;
	bool has_dialect; /* --dialect seen: applies to later -c files */
	enum hs_dialect dialect;
};

/* Every verb parses with getopt_long (`--opt VALUE` and `--opt=VALUE`,
 * unique prefixes of long options), through hs_cli_getopt: getopt_long
 * quiet, and what is wrong said the project's way -- "unknown option
 * 'X'; did you mean 'Y'?" from the verb's usage text, "X needs a value"
 * -- after which it returns '?' and the verb returns 64. A leading '+'
 * in `shortopts` stops at the first operand (run's CMD). */
int hs_cli_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts, const char *verb,
		  const char *usage);

/* The config options' rows, for a verb's getopt_long table; their short
 * option is "c:". hs_cli_config_opt takes what getopt_long returned:
 * 1 when it was one of them, 0 when not, -1 on a bad value (said). */
enum {
	HS_OPT_IMPORT = 0x100,
	HS_OPT_DIALECT,
	HS_OPT_ROOT,
	HS_OPT_TRUST,
	HS_OPT_VERB, /* a verb's own long-only options start here */
};
#define HS_CLI_CONFIG_OPTIONS                                         \
	{ "config", required_argument, NULL, 'c' },                   \
	{ "import", required_argument, NULL, HS_OPT_IMPORT },         \
	{ "dialect", required_argument, NULL, HS_OPT_DIALECT },       \
	{ "root", required_argument, NULL, HS_OPT_ROOT },             \
	{ "trust-project", no_argument, NULL, HS_OPT_TRUST }
int hs_cli_config_opt(struct hs_cli *cli, int c, const char *arg);
/* Levenshtein distance of a and b, capped at 64: for "did you mean". */
size_t hs_cli_distance(const char *a, const char *b);

/* An argument `verb` does not take, said on stderr: "unexpected" for a
 * word, "unknown option" for an option, with "did you mean" the nearest
 * option its help (`usage`) names. The caller returns 64. */
void hs_cli_bad_arg(const char *verb, const char *arg, const char *usage);

/* execvp's search for `name`, as the executable of an exec event (an
 * absolute, resolved path when found; the name itself when not).
 * malloc'd. */
char *hs_cli_resolve_exe(const char *name);

/* Re-raises the signal that ended a child (without dumping core here), or
 * returns its exit status: hookshim exits as the command it ran. */
int hs_exit_as(int status);

/* Runs `exe argv` as `hookshim __exec` does: output copied live, then a
 * post / post-failure request with exit status and captured output, any
 * context written to stderr. Returns the exit status to report; a signal
 * death is re-raised. `id` (the pre event's tool_use_id) may be NULL. */
/* A command that ran, as `__exec` saw it. */
struct hs_exec_ran {
	const char *exe;
	char *const *argv;
	const char *id; /* the pre event's tool_use_id, or NULL */
	int nested;
	pid_t pid;
	int status; /* a wait status */
	long ms;
	const char *cwd;
	const char *out, *err; /* captured, capped; may be NULL */
	size_t out_len, err_len;
};

/* Its post / post-failure request: what `__exec` sends when the command
 * ended, and what `hookshim test` decides for a post event. Strings are
 * borrowed; `error` (cap bytes) receives the failure text. */
struct hs_msg;
void hs_exec_post_request(struct hs_msg *req, const struct hs_exec_ran *r,
			  char *error, size_t cap);

int hs_exec_supervised(const char *exe, char *const argv[], const char *id,
		       int nested);

/* The verbs (verbs.h), each `int cmd_x(int argc, char **argv)` with argv[0]
 * its own name. */
#define HS_VERB_PROTO_(name, fn, help, usage)                                 \
	int fn(int argc, char **argv);                                         \
	extern const char usage[];
HS_VERBS(HS_VERB_PROTO_)
#undef HS_VERB_PROTO_

/* A PATH wrapper: argv[0] names the wrapped tool. */
int wrapper_main(int argc, char **argv);

#endif
