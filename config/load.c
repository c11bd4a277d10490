/* Finding hook files, telling their dialect and handing them to its
 * loader; all three from the dialect's row of the operations table. */
#include "load.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dialect.h"
#include "http_handler.h"
#include "jsonfile.h"
#include "content_use.h"
#include "loadkit.h"
#include "trust.h"

static bool path_dialect_hint(const char *path, int *dialect)
{
	const struct hs_dialect_ops *ops;
	enum hs_dialect d;

	for (size_t i = 0; (ops = hs_dialect_in_claim_order(i, &d)); i++) {
		for (const char *const *h = ops->path_hints; h && *h; h++) {
			if (strstr(path, *h)) {
				*dialect = (int)d;
				return true;
			}
		}
	}
	return false;
}

static int shape_dialect(const cJSON *doc)
{
	const struct hs_dialect_ops *ops;
	enum hs_dialect d, fallback = 0;

	for (size_t i = 0; (ops = hs_dialect_in_claim_order(i, &d)); i++) {
		if (ops->claims_shape && ops->claims_shape(doc))
			return (int)d;
		if (ops->fallback)
			fallback = d;
	}
	return (int)fallback;
}

/* A file's diagnostics in the order of the text, as a compiler's would
 * be: loaders check a level's fields before descending, not line by
 * line. Stable, so messages about one value keep their order. */
static void sort_diags(struct hs_config *cfg, size_t from)
{
	for (size_t i = from + 1; i < cfg->ndiags; i++) {
		struct hs_diag d = cfg->diags[i];
		size_t j = i;

		while (j > from && (cfg->diags[j - 1].line > d.line ||
				    (cfg->diags[j - 1].line == d.line &&
				     cfg->diags[j - 1].col > d.col))) {
			cfg->diags[j] = cfg->diags[j - 1];
			j--;
		}
		cfg->diags[j] = d;
	}
}

static int load_file(struct hs_config *cfg, const char *path, int dialect,
		     bool optional, bool managed);

int hs_config_load_file(struct hs_config *cfg, const char *path, int dialect,
			bool optional)
{
	return load_file(cfg, path, dialect, optional, false);
}

static int load_file(struct hs_config *cfg, const char *path, int dialect,
		     bool optional, bool managed)
{
	char err[1024];
	int missing = 0;
	struct hs_jsonpos pos;
	cJSON *doc = hs_json_read_file(path, err, sizeof(err), &missing, &pos);
	struct hs_load ld = { .cfg = cfg, .src = path, .pos = &pos,
			      .managed = managed };
	char **srcs;
	size_t first = cfg->ndiags;
	int rc;

	if (!doc) {
		if (missing && optional)
			return 0;
		hs_config_diag(cfg, HS_DIAG_FATAL, "%s", err);
		return -1;
	}
	srcs = realloc(cfg->sources, (cfg->nsources + 1) * sizeof(*srcs));
	if (srcs) {
		cfg->sources = srcs;
		cfg->sources[cfg->nsources++] = strdup(path);
	}
	if (dialect < 0 && !path_dialect_hint(path, &dialect))
		dialect = shape_dialect(doc);
	if (!cJSON_IsObject(doc)) {
		hs_load_diag(&ld, HS_DIAG_FATAL, doc, "top level must be a JSON "
			     "object");
		rc = -1;
	} else {
		ld.dialect = (enum hs_dialect)dialect;
		ld.ops = hs_dialect_ops(ld.dialect);
		rc = ld.ops->load(&ld, doc);
	}
	sort_diags(cfg, first);
	hs_jsonpos_free(&pos);
	cJSON_Delete(doc);
	return rc;
}

static char *place_path(const struct hs_config *cfg,
			const struct hs_file_place *f)
{
	const char *base = NULL, *sub = "";
	char *p = NULL;

	switch (f->base) {
	case HS_FILE_ABSOLUTE:
		return strdup(f->path);
	case HS_FILE_MANAGED:
		base = getenv("HOOKSHIM_SYSCONFDIR");
		if (!base || base[0] != '/')
			base = "/etc";
		break;
	case HS_FILE_ROOT:
		base = cfg->root;
		break;
	case HS_FILE_CONFIG_HOME:
		base = getenv("XDG_CONFIG_HOME");
		if (base && *base)
			break;
		sub = ".config/";
		/* fall through */
	case HS_FILE_HOME:
		base = getenv("HOME");
		if (!base || !*base)
			base = "/";
		break;
	}
	if (asprintf(&p, "%s/%s%s", base, sub, f->path) < 0)
		return NULL;
	return p;
}

/* Whether a hook file that came with the project (a place under the
 * root) may load: none under "project_files": "never" (a managed
 * policy's way to keep repositories' hooks out), else one the user has
 * trusted as it is now, or any under --trust-project. An untrusted one
 * is an error, so CI mode and strict_config refuse to start, and a plain
 * run starts without it and says so. A missing file is nothing to
 * trust. */
static bool trusted(struct hs_config *cfg, const char *path)
{
	const char *why, *lock;

	if (access(path, F_OK) < 0)
		return true;
	if (cfg->settings.project_never) {
		/* said as a warning: the policy's own word, not a mistake */
		lock = hs_config_locked(cfg, "project_files");
		hs_config_diag(cfg, HS_DIAG_WARNING, "%s: not loaded: a "
			       "project's own hook files are off (project_files: "
			       "never%s%s)", path, lock ? ", " : "",
			       lock ? lock : "");
		return false;
	}
	if (cfg->trust_project)
		return true;
	switch (hs_trust_check(path)) {
	case HS_TRUST_OK:
		return true;
	case HS_TRUST_CHANGED:
		why = "changed since you trusted it";
		break;
	case HS_TRUST_UNREADABLE:
		why = "could not be read to check it is trusted";
		break;
	default:
		why = "came with the project and is not trusted yet";
		break;
	}
	hs_config_diag(cfg, HS_DIAG_ERROR, "%s: %s: not loaded (read it, "
		       "then `hookshim trust %s`, or --trust-project for one "
		       "run)", path, why, path);
	return false;
}

/* A managed file speaks for the administrator: root's, and writable by
 * no one else (whatever $HOOKSHIM_SYSCONFDIR says), or it is not loaded.
 * A missing file is nothing. */
static bool administrators(struct hs_config *cfg, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) < 0 && errno == ENOENT)
		return true;
	if (stat(path, &sb) < 0) {
		/* there, but not to be read: never as if it were not */
		hs_config_diag(cfg, HS_DIAG_ERROR, "%s: %s: a managed settings "
			       "file that cannot be read", path, strerror(errno));
		return false;
	}
	if (sb.st_uid == 0 && !(sb.st_mode & (S_IWGRP | S_IWOTH)))
		return true;
	hs_config_diag(cfg, HS_DIAG_ERROR, "%s: a managed settings file must "
		       "be root's and writable by no one else: not loaded",
		       path);
	return false;
}

static int json_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       strcmp(d->d_name + n - 5, ".json") == 0;
}

/* "DIR/ *.json" (no space): every .json file of DIR, in lexical order, as
 * Claude Code reads managed-settings.d; a missing DIR is nothing. */
static int load_dir(struct hs_config *cfg, char *pattern,
		    enum hs_dialect dialect, bool managed)
{
	struct dirent **names;
	char *slash = strrchr(pattern, '/');
	int n, rc = 0;

	*slash = '\0';
	n = scandir(pattern, &names, json_file, alphasort);
	if (n < 0 && errno != ENOENT && errno != ENOTDIR) {
		hs_config_diag(cfg, HS_DIAG_ERROR, "%s: %s: a managed settings "
			       "directory that cannot be read", pattern,
			       strerror(errno));
		rc = -1;
	}
	for (int i = 0; i < n; i++) {
		char *path = NULL;

		if (asprintf(&path, "%s/%s", pattern, names[i]->d_name) >= 0 &&
		    ((managed && !administrators(cfg, path)) ||
		     load_file(cfg, path, (int)dialect, true, managed) < 0))
			rc = -1;
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	*slash = '/';
	return rc;
}

/* Every file of a list that exists, in order; -1 if one was unusable. */
static int load_places(struct hs_config *cfg, const struct hs_file_place *f,
		       enum hs_dialect dialect)
{
	int rc = 0;

	for (; f && f->path; f++) {
		char *path = place_path(cfg, f);
		size_t n = path ? strlen(path) : 0;
		bool managed = f->base == HS_FILE_MANAGED;

		if (!path) {
			rc = -1;
			continue;
		}
		if (n > 7 && strcmp(path + n - 7, "/*.json") == 0)
			rc |= load_dir(cfg, path, dialect, managed);
		else if (managed && !administrators(cfg, path))
			rc = -1;
		else if (f->base == HS_FILE_ROOT && !trusted(cfg, path))
			rc = -1;
		else if (load_file(cfg, path, (int)dialect, true, managed) < 0)
			rc = -1;
		free(path);
	}
	return rc;
}

int hs_config_import(struct hs_config *cfg, enum hs_dialect dialect)
{
	const struct hs_dialect_ops *ops;
	int rc;

	if ((unsigned)dialect >= HS_NDIALECT)
		return -1;
	size_t first = cfg->nhooks;

	ops = hs_dialect_ops(dialect);
	/* what a -c file said is not the hierarchy's */
	free(cfg->claude.why_hooks);
	free(cfg->claude.why_rules);
	memset(&cfg->claude, 0, sizeof(cfg->claude));
	rc = load_places(cfg, ops->import_files, dialect);
	if (ops->after_import)
		ops->after_import(cfg, first);
	return rc;
}

int hs_config_load_default(struct hs_config *cfg)
{
	int rc = 0;

	for (int d = 0; d < HS_NDIALECT; d++)
		rc |= load_places(cfg, hs_dialect_ops((enum hs_dialect)d)
					       ->default_files,
				  (enum hs_dialect)d);
	return rc ? -1 : 0;
}

/* The managed layer's directory: /etc/hookshim whenever it exists, so
 * no environment steps around an administrator's policy; where it does
 * not, $HOOKSHIM_SYSCONFDIR/hookshim (tests, packagers' staging). */
char *hs_config_managed_dir(void)
{
	const char *alt = getenv("HOOKSHIM_SYSCONFDIR");
	struct stat sb;
	char *d = NULL;

	if (lstat("/etc/hookshim", &sb) == 0 || !alt || alt[0] != '/')
		return strdup("/etc/hookshim");
	if (asprintf(&d, "%s/hookshim", alt) < 0)
		return NULL;
	return d;
}

int hs_config_load_managed(struct hs_config *cfg)
{
	size_t files = cfg->nsources, diags = cfg->ndiags;
	char *dir = hs_config_managed_dir(), *one = NULL, *many = NULL;
	int rc = 0;

	cfg->managed.loading = true;
	if (!dir || asprintf(&one, "%s/managed.json", dir) < 0 ||
	    asprintf(&many, "%s/managed.d/*.json", dir) < 0) {
		hs_config_diag(cfg, HS_DIAG_FATAL, "the managed policy: out of "
			       "memory");
		rc = -1;
	} else {
		if (!administrators(cfg, one) ||
		    load_file(cfg, one, HS_CLAUDE, true, true) < 0)
			rc = -1;
		rc |= load_dir(cfg, many, HS_CLAUDE, true);
	}
	free(dir);
	free(one);
	free(many);
	cfg->managed.loading = false;
	cfg->managed.nfiles = cfg->nsources - files;
	for (size_t i = diags; i < cfg->ndiags; i++)
		cfg->managed.errors += cfg->diags[i].error;
	/* its allowManagedHooksOnly is the layer's, applied when the config
	 * is finished; what Claude Code's own files say starts afresh */
	cfg->managed.hooks_only = cfg->claude.hooks_only;
	cfg->managed.rules_only = cfg->claude.rules_only;
	cfg->managed.all_off = cfg->claude.off_managed;
	cfg->managed.why_hooks_only = cfg->claude.why_hooks;
	cfg->claude.why_hooks = NULL;
	free(cfg->claude.why_rules);
	memset(&cfg->claude, 0, sizeof(cfg->claude));
	return rc;
}

/* The managed layer's Claude Code keys, as Claude Code reads them in its
 * managed settings: allowManagedHooksOnly (the other files' hooks are
 * not loaded), allowManagedPermissionRulesOnly (nor their permission
 * rules), disableAllHooks (no hook at all), each said once. A locked
 * on_hook_failure holds for every hook, whatever another file's handler
 * says with "failClosed". */
static void managed_finish(struct hs_config *cfg)
{
	size_t kept = 0, gone = 0, off = 0;
	const char *locked = hs_config_locked(cfg, "on_hook_failure");
	const char *why = cfg->managed.why_hooks_only;

	for (size_t i = 0; i < cfg->nhooks; i++) {
		struct hs_hook *h = &cfg->hooks[i];
		bool rule = hs_hook_is_permission_rule(h);

		if (cfg->managed.all_off && !rule) {
			hs_hook_free(h);
			off++;
			continue;
		}
		if (!h->managed && (rule ? cfg->managed.rules_only
					 : cfg->managed.hooks_only)) {
			hs_hook_free(h);
			gone++;
			continue;
		}
		if (locked && !h->managed && h->fail_closed >= 0) {
			hs_config_diag_at(cfg, HS_DIAG_WARNING, h->source,
					  h->cmd_line, h->cmd_col, "\"failClosed\": "
					  "%s: on_hook_failure is locked by the "
					  "managed policy (%s): ignored",
					  h->fail_closed ? "true" : "false",
					  locked);
			h->fail_closed = -1;
		}
		cfg->hooks[kept++] = *h;
	}
	cfg->nhooks = kept;
	if (gone)
		hs_config_diag(cfg, HS_DIAG_WARNING, "allowManagedHooksOnly / "
			       "allowManagedPermissionRulesOnly in the managed "
			       "policy%s%s%s: %zu hook(s) or rule(s) of the other "
			       "files not loaded", why ? " (" : "", why ? why : "",
			       why ? ")" : "", gone);
	if (off)
		hs_config_diag(cfg, HS_DIAG_WARNING, "disableAllHooks in the "
			       "managed policy: %zu hook(s) not loaded", off);
}

/* The administrator's hooks first, whatever the others' priorities. */
static int by_priority(const void *a, const void *b)
{
	const struct hs_hook *x = a, *y = b;

	if (x->managed != y->managed)
		return x->managed ? -1 : 1;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->order - y->order;
}

void hs_config_finish(struct hs_config *cfg)
{
	char *dir = hs_config_managed_dir();

	hs_config_load_agents(cfg, dir);
	free(dir);
	managed_finish(cfg);
	hs_http_finish(cfg);
	hs_content_use_mark(cfg);
	if (cfg->nhooks > 1)
		qsort(cfg->hooks, cfg->nhooks, sizeof(cfg->hooks[0]),
		      by_priority);
}
