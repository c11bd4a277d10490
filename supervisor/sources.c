/* Where a session's config comes from, and loading it; see sources.h. */
#include "sources.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "../config/load.h"
#include "../engine/dead_rules.h"
#include "../engine/hook_scripts.h"

int hs_sources_add_file(struct hs_sources *src, const char *path, int dialect)
{
	size_t n = (size_t)src->nfiles + 1;
	const char **f = realloc(src->files, n * sizeof(*f));
	int *d;

	if (!f)
		return -1;
	src->files = f;
	if (!(d = realloc(src->file_dialects, n * sizeof(*d))))
		return -1;
	src->file_dialects = d;
	src->files[src->nfiles] = path;
	src->file_dialects[src->nfiles] = dialect;
	src->nfiles++;
	return 0;
}

int hs_sources_from_env(struct hs_sources *src, char **copy)
{
	const char *env = getenv("HOOKSHIM_CONFIG");
	char *save = NULL;

	*copy = NULL;
	if (!env || !env[0])
		return 0;
	if (!(*copy = strdup(env)))
		return -1;
	for (char *p = strtok_r(*copy, ":", &save); p;
	     p = strtok_r(NULL, ":", &save))
		if (hs_sources_add_file(src, p, -1) < 0)
			return -1;
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

int hs_sources_load(const struct hs_sources *src, struct hs_config *cfg)
{
	char root[PATH_MAX];

	if (src->root) {
		if (!realpath(src->root, root)) {
			perror(src->root);
			return -1;
		}
	} else if (!getcwd(root, sizeof(root))) {
		perror("getcwd");
		return -1;
	}
	hs_config_init(cfg, root);
	cfg->root_alias = logical_root(src->root, root);
	cfg->trust_project = src->trust_project;
	/* the administrator's first, whatever else is named */
	hs_config_load_managed(cfg);
	for (int i = 0; i < src->nfiles; i++)
		hs_config_load_file(cfg, src->files[i], src->file_dialects[i],
				    false);
	for (int i = 0; i < src->nimports; i++)
		hs_config_import(cfg, (enum hs_dialect)src->imports[i]);
	if (!src->nfiles && !src->nimports)
		hs_config_load_default(cfg);
	hs_config_finish(cfg);
	hs_hook_check_programs(cfg);
	hs_dead_rules(cfg);
	/* outside CI mode; `run` resolves it again once it knows */
	hs_settings_resolve_failure(&cfg->settings, false);
	return 0;
}

void hs_sources_free(struct hs_sources *src)
{
	free(src->files);
	free(src->file_dialects);
	memset(src, 0, sizeof(*src));
}
