/* The config options every subcommand shares. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../config/dialect.h"
#include "../config/load.h"
#include "../engine/dead_rules.h"
#include "../engine/hook_scripts.h"
#include "cli.h"

static int add_file(struct hs_cli *cli, const char *path, int dialect)
{
	const char **f = realloc(cli->files, (size_t)(cli->nfiles + 1) * sizeof(*f));
	int *d;

	if (!f)
		return -1;
	cli->files = f;
	d = realloc(cli->file_dialects, (size_t)(cli->nfiles + 1) * sizeof(*d));
	if (!d)
		return -1;
	cli->file_dialects = d;
	cli->files[cli->nfiles] = path;
	cli->file_dialects[cli->nfiles] = dialect;
	cli->nfiles++;
	return 0;
}

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
		return add_file(cli, v, cli->has_dialect ? (int)cli->dialect : -1) < 0
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
		else if (cli->nimports < HS_NDIALECT)
			cli->imports[cli->nimports++] = (int)d;
		return 1;
	}
	if (strcmp(a, "--trust-project") == 0) {
		cli->trust_project = true;
		return 1;
	}
	if (hs_cli_is_opt(a, "--root")) {
		if (!(v = hs_cli_value(argc, argv, i, "--root")))
			return -1;
		cli->root = v;
		return 1;
	}
	return 0;
}

int hs_cli_env_config(struct hs_cli *cli, char **copy)
{
	const char *env = getenv("HOOKSHIM_CONFIG");
	char *save = NULL;

	*copy = NULL;
	if (!env || !env[0])
		return 0;
	if (!(*copy = strdup(env)))
		return -1;
	for (char *p = strtok_r(*copy, ":", &save); p;
	     p = strtok_r(NULL, ":", &save)) {
		char *av[] = { "-c", p, NULL };
		int i = 0;

		if (hs_cli_option(cli, 2, av, &i) < 0)
			return -1;
	}
	return 0;
}

/* The logical name of `root` (physical): the root as the user named it
 * -- the --root text, or the shell's $PWD when the root is the working
 * directory -- made absolute against $PWD without resolving symlinks, as
 * `cd` does. NULL when that is the physical name already or does not
 * lead to root. */
static char *logical_root(const char *named, const char *root)
{
	const char *pwd = getenv("PWD");
	char logical[PATH_MAX], real[PATH_MAX];
	int n;

	if (named && named[0] == '/')
		n = snprintf(logical, sizeof(logical), "%s", named);
	else if (pwd && pwd[0] == '/')
		n = named ? snprintf(logical, sizeof(logical), "%s/%s", pwd, named)
			  : snprintf(logical, sizeof(logical), "%s", pwd);
	else
		return NULL;
	if (n < 0 || (size_t)n >= sizeof(logical))
		return NULL;
	hs_path_fold(logical);
	if (strcmp(logical, root) == 0 || !realpath(logical, real) ||
	    strcmp(real, root) != 0)
		return NULL;
	return strdup(logical);
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

int hs_cli_load(const struct hs_cli *cli, struct hs_config *cfg)
{
	char root[PATH_MAX];

	if (cli->root) {
		if (!realpath(cli->root, root)) {
			perror(cli->root);
			return -1;
		}
	} else if (!getcwd(root, sizeof(root))) {
		perror("getcwd");
		return -1;
	}
	hs_config_init(cfg, root);
	cfg->root_alias = logical_root(cli->root, root);
	cfg->trust_project = cli->trust_project;
	/* the administrator's first, whatever else is named */
	hs_config_load_managed(cfg);
	for (int i = 0; i < cli->nfiles; i++)
		hs_config_load_file(cfg, cli->files[i], cli->file_dialects[i],
				    false);
	for (int i = 0; i < cli->nimports; i++)
		hs_config_import(cfg, (enum hs_dialect)cli->imports[i]);
	if (!cli->nfiles && !cli->nimports)
		hs_config_load_default(cfg);
	hs_config_finish(cfg);
	hs_hook_check_programs(cfg);
	hs_dead_rules(cfg);
	/* outside CI mode; `run` resolves it again once it knows */
	hs_settings_resolve_failure(&cfg->settings, false);
	return 0;
}

void hs_cli_free(struct hs_cli *cli)
{
	free(cli->files);
	free(cli->file_dialects);
	memset(cli, 0, sizeof(*cli));
}
