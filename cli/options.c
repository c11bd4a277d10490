/* The config options every subcommand shares. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "cli.h"

const char *hs_cli_value(int argc, char **argv, int *i, const char *opt)
{
	const char *a = argv[*i];
	size_t n = strlen(opt);

	if (strncmp(a, opt, n) == 0 && a[n] == '=')
		return a + n + 1;
	if (*i + 1 >= argc) {
		fprintf(stderr, "hookshim: %s needs a value\n", opt);
		return NULL;
	}
	return argv[++*i];
}

bool hs_cli_is_opt(const char *a, const char *opt)
{
	size_t n = strlen(opt);

	return strncmp(a, opt, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

int hs_cli_option(struct hs_cli *cli, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	enum hs_dialect d;

	if (strcmp(a, "-c") == 0 || hs_cli_is_opt(a, "--config")) {
		if (!(v = hs_cli_value(argc, argv, i, strcmp(a, "-c") ? "--config" : "-c")))
			return -1;
		return hs_sources_add_file(&cli->src, v,
					   cli->has_dialect ? (int)cli->dialect
							    : -1) < 0
			       ? -1
			       : 1;
	}
	if (hs_cli_is_opt(a, "--import") || hs_cli_is_opt(a, "--dialect")) {
		bool import = hs_cli_is_opt(a, "--import");

		if (!(v = hs_cli_value(argc, argv, i, import ? "--import" : "--dialect")))
			return -1;
		if (hs_dialect_parse(v, &d) < 0) {
			fprintf(stderr, "hookshim: unknown dialect '%s' (%s)\n",
				v, hs_dialect_names());
			return -1;
		}
		if (!import) {
			cli->has_dialect = true;
			cli->dialect = d;
		}
		else if (cli->src.nimports < HS_NDIALECT)
			cli->src.imports[cli->src.nimports++] = (int)d;
		return 1;
	}
	if (strcmp(a, "--trust-project") == 0) {
		cli->src.trust_project = true;
		return 1;
	}
	if (hs_cli_is_opt(a, "--root")) {
		if (!(v = hs_cli_value(argc, argv, i, "--root")))
			return -1;
		cli->src.root = v;
		return 1;
	}
	return 0;
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

