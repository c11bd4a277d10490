/* git's runtime for a hook that runs git; see hook_git.h. */
#include "hook_git.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/pathfold.h"
#include "hook_scripts.h"

struct git {
	const struct hs_config *cfg;
	const struct hs_hook *h;
	const char *home, *cwd, *label;
	struct hs_protect *p;
	int *repos; /* git directories looked at: at most MAX_REPOS */
};

/* Submodules' git directories looked at, at most: each is a few
 * protected names, looked at by every write (3,000 of them made a
 * session's writes ten times slower) */
#define MAX_REPOS 256

static void protect(const struct git *x, const char *path,
		    enum hs_prot_kind kind, const char *fmt, const char *what)
{
	char why[512];

	snprintf(why, sizeof(why), fmt, what, x->label);
	hs_protect_put(x->p, path, kind, why);
}

static void git_repo(const struct git *x, const char *d, int depth);

/* v, a path git reads, taken from base when relative (as git takes it),
 * tail ("" or "/.git") after it, folded into out (PATH_MAX): out, or
 * NULL when it does not fit. */
static char *from(const char *base, const char *v, const char *tail,
		  char *out)
{
	char big[PATH_MAX * 2 + 16];
	int n = snprintf(big, sizeof(big), "%s%s%s%s", v[0] == '/' ? "" : base,
			 v[0] == '/' ? "" : "/", v, tail);

	if (n < 0 || n >= PATH_MAX)
		return NULL;
	hs_path_fold(big);
	memcpy(out, big, strlen(big) + 1);
	return out;
}


/* A submodule's checkout, whose .git file points at its git directory d
 * (its core.worktree, relative to d): that pointer, which a
 * superproject's git status follows into the submodule (pointed at a
 * repository of the agent's, its core.fsmonitor ran). */
static void checkout(const struct git *x, const char *d)
{
	char p[PATH_MAX], line[PATH_MAX], wt[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/config", d);
	if (!(f = fopen(p, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = line + strspn(line, " \t");

		if (strncmp(v, "worktree", 8) != 0)
			continue;
		v += 8 + strspn(v + 8, " \t");
		if (*v++ != '=')
			continue;
		v += strspn(v, " \t");
		v[strcspn(v, "\r\n")] = '\0';
		if (!v[0])
			continue;
		if (from(d, v, "/.git", wt))
			protect(x, wt, HS_PROT_FILE, "%s, read by %s",
				"a submodule's pointer to its repository");
	}
	fclose(f);
}

/* The submodules' git directories under dir (d/modules, a name with
 * slashes a directory each): each one with a HEAD is a repository a
 * superproject's git status looks into (its core.fsmonitor runs). */
static void modules(const struct git *x, const char *dir, int depth)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *dd;

	if (depth > 6 || !(dd = opendir(dir)))
		return;
	while ((e = readdir(dd))) {
		struct stat sb;

		if (e->d_name[0] == '.' ||
		    snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(p) ||
		    lstat(p, &sb) != 0 || !S_ISDIR(sb.st_mode))
			continue;
		if (strlen(p) + 6 < sizeof(p)) {
			char head[PATH_MAX];

			snprintf(head, sizeof(head), "%s/HEAD", p);
			if (access(head, F_OK) == 0) {
				if (++*x->repos <= MAX_REPOS) {
					git_repo(x, p, depth + 1);
					checkout(x, p);
				}
				continue;
			}
		}
		modules(x, p, depth + 1);
	}
	closedir(dd);
}

/* A repository's git directory d (absolute): its config, a linked
 * worktree's own (config.worktree) and its pointers (commondir, gitdir),
 * whether or not they are there yet, and hooks/; its submodules' (under
 * modules/); for a linked worktree, the main repository's too. */
static void git_repo(const struct git *x, const char *d, int depth)
{
	static const char *const files[] = { "config", "config.worktree",
					     "commondir", "gitdir" };
	char p[PATH_MAX], common[PATH_MAX];
	FILE *f;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", d, files[i]);
		protect(x, p, HS_PROT_FILE, "%s, read by %s",
			"git's configuration");
	}
	snprintf(p, sizeof(p), "%s/hooks", d);
	protect(x, p, HS_PROT_TREE, "%s, run by %s", "git's hooks");
	snprintf(p, sizeof(p), "%s/modules", d);
	modules(x, p, depth);
	snprintf(p, sizeof(p), "%s/commondir", d);
	if (depth || !(f = fopen(p, "r")))
		return;
	if (fgets(common, sizeof(common), f)) {
		common[strcspn(common, "\r\n")] = '\0';
		if (from(d, common, "", p))
			git_repo(x, p, depth + 1);
	}
	fclose(f);
}

/* Is a git boolean variable true ("1", "true", "yes", "on")? */
static bool git_true(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") ||
		     !strcasecmp(v, "yes") || !strcasecmp(v, "on"));
}

void hs_hook_git(const struct hs_config *cfg, const struct hs_hook *h,
		 const char *home, const char *cwd, const char *label,
		 struct hs_protect *prot)
{
	int repos = 0;
	const struct git gx = { cfg, h, home, cwd, label, prot, &repos },
			 *x = &gx;
	const char *v = hs_hook_var(x->cfg, x->h, "GIT_CONFIG_GLOBAL");
	char p[PATH_MAX], d[PATH_MAX], line[PATH_MAX + 16];
	struct stat sb;
	FILE *f;

	/* the system's, which a root agent may write */
	if (!git_true(hs_hook_var(x->cfg, x->h, "GIT_CONFIG_NOSYSTEM"))) {
		const char *sys = hs_hook_var(x->cfg, x->h, "GIT_CONFIG_SYSTEM");

		protect(x, sys && sys[0] ? from(x->cwd, sys, "", p)
					 : "/etc/gitconfig",
			HS_PROT_FILE, "%s, read by %s",
			"git's system configuration");
	}
	if (v && v[0]) {
		protect(x, from(x->cwd, v, "", p), HS_PROT_FILE, "%s, read by %s",
			"git's global configuration");
	} else if (!v && x->home) {
		snprintf(p, sizeof(p), "%s/.gitconfig", x->home);
		protect(x, p, HS_PROT_FILE, "%s, read by %s",
			"git's global configuration");
		if ((v = hs_hook_var(x->cfg, x->h, "XDG_CONFIG_HOME")) &&
		    v[0] == '/')
			snprintf(p, sizeof(p), "%s/git", v);
		else
			snprintf(p, sizeof(p), "%s/.config/git", x->home);
		protect(x, p, HS_PROT_TREE, "%s, read by %s",
			"git's global configuration");
	}
	if ((v = hs_hook_var(x->cfg, x->h, "GIT_DIR")) && v[0]) {
		if (from(x->cwd, v, "", d))
			git_repo(x, d, 0);
		return;
	}
	snprintf(d, sizeof(d), "%s", x->cwd);
	for (;;) {
		if (snprintf(p, sizeof(p), "%s%s.git", d,
			     strcmp(d, "/") ? "/" : "") >= (int)sizeof(p))
			return;
		if (lstat(p, &sb) != 0)
			sb.st_mode = 0;
		if (S_ISDIR(sb.st_mode)) {
			git_repo(x, p, 0);
			return;
		}
		if (S_ISREG(sb.st_mode))
			protect(x, p, HS_PROT_FILE, "%s, read by %s",
				"git's pointer to its repository");
		if (S_ISREG(sb.st_mode) && (f = fopen(p, "r"))) {
			char *g = fgets(line, sizeof(line), f) &&
						  strncmp(line, "gitdir: ", 8) == 0
					  ? line + 8
					  : NULL;

			fclose(f);
			if (!g)
				return;
			g[strcspn(g, "\r\n")] = '\0';
			if (from(d, g, "", p))
				git_repo(x, p, 0);
			return;
		}
		if (!strcmp(d, "/") || !strrchr(d, '/'))
			return;
		if (strrchr(d, '/') == d)
			d[1] = '\0';
		else
			*strrchr(d, '/') = '\0';
	}
}
