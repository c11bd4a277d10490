/* hookshim trust: record the project's hook files as trusted, as they
 * are now (config/trust.h), list the records, or forget one. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/dialect.h"
#include "../config/load.h"
#include "../config/trust.h"
#include "cli.h"

const char hs_usage_trust[] =
		"usage: hookshim trust [--root DIR] [FILE...]\n"
		"       hookshim trust --list\n"
		"       hookshim trust --forget FILE...\n\n"
		"Hook files that come with a project (<root>/.hookshim/hooks.json,\n"
		".memcode/hooks.json, and under --import claude the project's\n"
		".claude/settings.json and settings.local.json) run their commands\n"
		"on this machine; they load only once trusted, as they are now.\n"
		"Without FILE: every such file of the root (default: the working\n"
		"directory). Any change to a file needs trust again.\n";

static int usage(FILE *f)
{
	fputs(hs_usage_trust, f);
	return f == stderr ? 64 : 0;
}

/* What a file will run, so the user sees what they trust. */
static void show_hooks(const char *root, const char *path)
{
	struct hs_config cfg;

	hs_config_init(&cfg, root);
	hs_config_load_file(&cfg, path, -1, false);
	for (size_t i = 0; i < cfg.nhooks; i++) {
		const struct hs_hook *h = &cfg.hooks[i];
		size_t n = strcspn(h->command, "\n");

		printf("    %s: %.*s%s\n", h->event_name, (int)(n > 70 ? 70 : n),
		       h->command, n > 70 ? "..." : "");
	}
	if (!cfg.nhooks)
		printf("    (no hooks)\n");
	hs_config_free(&cfg);
}

static int trust_one(const char *root, const char *path, bool forget)
{
	char hex[HS_TRUST_HEX] = "", err[PATH_MAX + 128];

	if (hs_trust_set(path, forget, hex, err, sizeof(err)) < 0) {
		fprintf(stderr, "hookshim: trust: %s\n", err);
		return 1;
	}
	if (forget) {
		printf("forgot %s\n", path);
		return 0;
	}
	printf("trusted %s (sha256 %.16s...)\n", path, hex);
	show_hooks(root, path);
	return 0;
}

/* Every place under the root a dialect reads a hook file from. */
static int trust_project(const char *root)
{
	const struct hs_dialect_ops *ops;
	int rc = 0, found = 0;

	for (size_t i = 0; (ops = hs_dialect_in_claim_order(i, NULL)); i++) {
		const struct hs_file_place *lists[] = { ops->default_files,
							ops->import_files };

		for (size_t l = 0; l < 2; l++)
			for (const struct hs_file_place *f = lists[l];
			     f && f->path; f++) {
				char path[PATH_MAX];
				int n;

				if (f->base != HS_FILE_ROOT)
					continue;
				n = snprintf(path, sizeof(path), "%s/%s", root,
					     f->path);
				if (n < 0 || (size_t)n >= sizeof(path) ||
				    access(path, F_OK) < 0)
					continue;
				found++;
				rc |= trust_one(root, path, false);
			}
	}
	if (!found)
		printf("no project hook files under %s\n", root);
	return rc;
}

static void list_one(const char *path, enum hs_trust_state st, void *arg)
{
	static const char *const state[] = {
		[HS_TRUST_OK] = "trusted",
		[HS_TRUST_NEVER] = "not trusted",
		[HS_TRUST_CHANGED] = "changed since trusted",
		[HS_TRUST_UNREADABLE] = "missing or unreadable",
	};

	(void)arg;
	printf("  %-22s %s\n", state[st], path);
}

static int list(void)
{
	char file[PATH_MAX];

	if (hs_trust_records(file, sizeof(file)) < 0 ||
	    access(file, F_OK) < 0) {
		printf("no trusted files\n");
		return 0;
	}
	printf("trust records: %s\n", file);
	return hs_trust_each(list_one, NULL) < 0 ? 1 : 0;
}

int cmd_trust(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "list", no_argument, NULL, 'l' },
		{ "forget", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root_opt = NULL;
	char root[PATH_MAX];
	bool forget = false, do_list = false;
	int c, rc = 0;

	while ((c = hs_cli_getopt(argc, argv, "h", opts, "trust",
				  hs_usage_trust)) != -1) {
		switch (c) {
		case 'r':
			root_opt = optarg;
			break;
		case 'l':
			do_list = true;
			break;
		case 'f':
			forget = true;
			break;
		case 'h':
			return usage(stdout);
		default: /* said by hs_cli_getopt */
			return 64;
		}
	}
	if (do_list)
		return list();
	if (root_opt ? !realpath(root_opt, root) : !getcwd(root, sizeof(root))) {
		perror(root_opt ? root_opt : "getcwd");
		return 1;
	}
	if (optind == argc) {
		if (forget)
			return usage(stderr);
		return trust_project(root);
	}
	for (int i = optind; i < argc; i++)
		rc |= trust_one(root, argv[i], forget);
	return rc;
}
