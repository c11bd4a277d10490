/* The config options every subcommand shares. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "cli.h"

int hs_cli_config_opt(struct hs_cli *cli, int c, const char *arg)
{
	enum hs_dialect d;

	switch (c) {
	case 'c':
		return hs_sources_add_file(&cli->src, arg,
					   cli->has_dialect ? (int)cli->dialect
							    : -1) < 0
			       ? -1
			       : 1;
	case HS_OPT_IMPORT:
	case HS_OPT_DIALECT:
		if (hs_dialect_parse(arg, &d) < 0) {
			fprintf(stderr, "hookshim: unknown dialect '%s' (%s)\n",
				arg, hs_dialect_names());
			return -1;
		}
		if (c == HS_OPT_DIALECT) {
			cli->has_dialect = true;
			cli->dialect = d;
		} else if (cli->src.nimports < HS_NDIALECT) {
			cli->src.imports[cli->src.nimports++] = (int)d;
		}
		return 1;
	case HS_OPT_TRUST:
		cli->src.trust_project = true;
		return 1;
	case HS_OPT_ROOT:
		cli->src.root = arg;
		return 1;
	default:
		return 0;
	}
}

int hs_cli_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts, const char *verb,
		  const char *usage)
{
	char opts[32];
	int c;

	/* '+' first when the caller stops at its first operand, then ':'
	 * so a value missing is told from an unknown option */
	snprintf(opts, sizeof(opts), "%s:%s", shortopts[0] == '+' ? "+" : "",
		 shortopts + (shortopts[0] == '+'));
	opterr = 0;
	c = getopt_long(argc, argv, opts, longopts, NULL);
	if (c == ':') {
		fprintf(stderr, "hookshim %s: %s needs a value (hookshim help "
				"%s)\n", verb, argv[optind - 1], verb);
		return '?';
	}
	if (c == '?') {
		/* optopt: an unknown short option (perhaps inside a cluster),
		 * named alone; for a long one -- unknown, ambiguous, or given
		 * a value it does not take (glibc then sets optopt to its
		 * value) -- the word optind has passed */
		char one[3] = { '-', (char)optopt, '\0' };
		bool shortopt = optopt > 0 && optopt < 256 &&
				strncmp(argv[optind - 1], "--", 2) != 0;

		hs_cli_bad_arg(verb, shortopt ? one : argv[optind - 1], usage);
	}
	return c;
}

void hs_cli_bad_arg(const char *verb, const char *arg, const char *usage)
{
	size_t alen = strcspn(arg, "="), bd = 3;
	char word[64], best[64] = "";

	if (arg[0] != '-') {
		fprintf(stderr, "hookshim %s: unexpected '%s'\n", verb, arg);
		return;
	}
	/* every option the verb's help names: a word starting with - or
	 * --, not a hyphenated word's tail ("force-push") */
	for (const char *p = usage; *p; p++) {
		size_t n = 0, d;

		if (*p != '-' || (p > usage && (isalnum((unsigned char)p[-1]) ||
						 p[-1] == '-')))
			continue;
		while ((isalnum((unsigned char)p[n]) || p[n] == '-') &&
		       n < sizeof(word) - 1)
			n++;
		if (n < 2 || p[n - 1] == '-')
			continue;
		memcpy(word, p, n);
		word[n] = '\0';
		p += n - 1;
		d = strncmp(word, arg, alen) == 0 && alen > 2
			    ? 1
			    : hs_cli_distance(word, alen < 63 ? strndupa(arg, alen)
							      : arg);
		if (d < bd) {
			bd = d;
			snprintf(best, sizeof(best), "%s", word);
		}
	}
	fprintf(stderr, "hookshim %s: unknown option '%s'", verb, arg);
	if (best[0])
		fprintf(stderr, "; did you mean '%s'?", best);
	fprintf(stderr, " (hookshim help %s)\n", verb);
}

