/* HOOKSHIM_WRITE from a config; see write_filter.h and shim/write_scope.h.
 *
 * Hook path filters become absolute globs:
 *   - Claude "if" rules Write(p)/Edit(p) follow match.c's gitignore-style
 *     reading: "//abs" absolute, "~/x" under HOME, "/x" and "x/y" under
 *     the root, a bare name at any depth (as "**" + "/name");
 *   - memoh BeforeFileWrite/AfterFileWrite regex matchers on extra.path
 *     cannot run in the shim (PCRE2 allocates), so the regex's mandatory
 *     literal, if it has one, becomes "**LIT**": a superset the supervisor
 *     then narrows with the real regex. Alternation, inline flags or no
 *     literal: every write in scope;
 *   - anything else that can see a write: every write in scope ("*"). */
#include "write_filter.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../config/agent_profile.h"
#include "../config/dialect.h"
#include "event.h"
#include "match.h"
#include "protect.h"
#include "strbuf.h"

/* A literal path as a glob: metacharacters escaped. */
static void put_lit(struct hs_strbuf *b, const char *s)
{
	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			hs_sb_add(b, "\\", 1);
		hs_sb_add(b, s, 1);
	}
}

/* One line: kind char, glob base (escaped literally) + glob tail. */
static void line(struct hs_strbuf *b, char kind, const char *lit, const char *glob)
{
	hs_sb_add(b, &kind, 1);
	if (lit)
		put_lit(b, lit);
	if (glob)
		hs_sb_adds(b, glob);
	hs_sb_add(b, "\n", 1);
}

/* A Claude Edit/Write rule pattern as an absolute glob (match.c's
 * path_matches, widened where it depends on the event). */
static void rule_glob(struct hs_strbuf *b, char kind, const char *pat,
		      const char *root, const char *alias)
{
	const char *home = getenv("HOME");
	size_t al = alias ? strlen(alias) : 0;
	char *tail;

	if (strncmp(pat, "//", 2) == 0) {
		line(b, kind, NULL, pat + 1);
		/* the shim judges paths through the root's logical name as
		 * under the root: an absolute pattern naming it also names
		 * the physical form */
		if (al && strncmp(pat + 1, alias, al) == 0 &&
		    (pat[1 + al] == '/' || !pat[1 + al]))
			line(b, kind, root, pat + 1 + al);
		return;
	}
	if (strncmp(pat, "~/", 2) == 0) {
		if (asprintf(&tail, "/%s", pat + 2) < 0)
			return;
		line(b, kind, home ? home : "", tail);
		free(tail);
		return;
	}
	if (strncmp(pat, "./", 2) == 0)
		pat += 2;
	if (pat[0] != '/' && !strchr(pat, '/')) {
		/* a bare name matches a file's name anywhere */
		if (asprintf(&tail, "**/%s", pat) < 0)
			return;
		line(b, kind, NULL, tail);
		free(tail);
		return;
	}
	if (asprintf(&tail, "%s%s", pat[0] == '/' ? "" : "/", pat) < 0)
		return;
	line(b, kind, strcmp(root, "/") ? root : "", tail);
	free(tail);
}

/* include/exclude entries: the same reading as rule patterns, and each
 * also covers what is below it ("node_modules" excludes its contents). */
static void scope_globs(struct hs_strbuf *b, char kind, char **list,
			const char *root, const char *alias)
{
	for (; list && *list; list++) {
		char *below;

		rule_glob(b, kind, *list, root, alias);
		if (asprintf(&below, "%s/**", *list) < 0)
			continue;
		rule_glob(b, kind, below, root, alias);
		free(below);
	}
}

static bool edit_tool(const char *t)
{
	static const char *const edits[] = { "Edit", "Write", "MultiEdit",
					     "NotebookEdit", NULL };

	for (const char *const *e = edits; *e; e++)
		if (strcmp(*e, t) == 0)
			return true;
	return false;
}

static bool is_quantifier(char c)
{
	return c == '*' || c == '?' || c == '{';
}

bool hs_regex_literal(const char *re, char *out, size_t cap)
{
	char run[256], best[256];
	size_t rl = 0, bl = 0;
	int depth = 0;

	if (strchr(re, '|') || strstr(re, "(?") || strstr(re, "\\Q"))
		return false;
	for (const char *p = re; *p;) {
		char c = 0;
		size_t step = 1;
		bool lit = false;

		if (*p == '\\' && p[1]) {
			step = 2;
			/* \d, \w, \b...: classes and anchors, not literals */
			if (!((p[1] >= 'a' && p[1] <= 'z') ||
			      (p[1] >= 'A' && p[1] <= 'Z') ||
			      (p[1] >= '0' && p[1] <= '9'))) {
				c = p[1];
				lit = true;
			}
		} else if (*p == '[') {
			const char *q = p + 1;

			if (*q == '^')
				q++;
			if (*q == ']')
				q++;
			while (*q && *q != ']')
				q += (*q == '\\' && q[1]) ? 2 : 1;
			step = (size_t)(q - p) + (*q ? 1 : 0);
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if (!strchr(".^$*+?{}[]()|", *p)) {
			c = *p;
			lit = depth == 0;
		}
		if (lit && depth == 0 && !is_quantifier(p[step])) {
			if (rl < sizeof(run) - 1)
				run[rl++] = c;
			if (p[step] != '+') {
				p += step;
				continue;
			}
			/* "a+": one 'a' is certain, what follows is not adjacent */
		}
		if (rl > bl) {
			memcpy(best, run, rl);
			bl = rl;
		}
		rl = 0;
		p += step;
		/* skip a quantifier's body "{2,3}" */
		if (*p == '{')
			while (*p && *p != '}')
				p++;
	}
	if (rl > bl) {
		memcpy(best, run, rl);
		bl = rl;
	}
	if (bl < 2 || bl + 1 > cap)
		return false;
	memcpy(out, best, bl);
	out[bl] = '\0';
	return true;
}

/* The path globs of one hook that can see writes, as lines of `kind`. */
static void hook_globs(struct hs_strbuf *b, char kind, const struct hs_hook *h,
		       const char *root, const char *alias)
{
	char lit[256];

	if (hs_dialect_ops(h->dialect)->matcher_on_request &&
	    h->ops == HS_OP_WRITE) {
		if (h->matcher.kind == HS_MATCH_ALL) {
			line(b, kind, NULL, "*");
		} else if (hs_regex_literal(h->matcher.pattern, lit,
					    sizeof(lit))) {
			hs_sb_add(b, &kind, 1);
			hs_sb_adds(b, "**");
			put_lit(b, lit);
			hs_sb_adds(b, "**\n");
		} else {
			line(b, kind, NULL, "*");
		}
		return;
	}
	if (h->has_rule) {
		if (!edit_tool(h->rule.tool))
			return; /* Bash(...) never matches a write */
		if (h->rule.pattern) {
			rule_glob(b, kind, h->rule.pattern, root, alias);
			return;
		}
	}
	line(b, kind, NULL, "*");
}

/* The path globs of one pre hook that can see reads, as '(' lines: its
 * Read(p) rule's, else every read in scope. */
static void read_globs(struct hs_strbuf *b, const struct hs_hook *h,
		       const char *root, const char *alias)
{
	if (h->has_rule && !hs_dialect_ops(h->dialect)->matcher_on_request) {
		if (strcmp(h->rule.tool, hs_dialect_ops(h->dialect)->tools.read))
			return; /* Bash(...), Write(...) never match a read */
		if (h->rule.pattern) {
			rule_glob(b, '(', h->rule.pattern, root, alias);
			return;
		}
	}
	line(b, '(', NULL, "*");
}

/* Does any hook ask for read events (engine/match.c says who does)? */
static bool reads_wanted(const struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->nhooks; i++)
		if (hs_hook_names_read(&cfg->hooks[i]))
			return true;
	return false;
}

/* The pattern of a write hook's "if" rule that names a place by an
 * absolute path ("//etc" and below) or a home path ("~/.ssh" and
 * below), or NULL. */
static const char *outside_rule(const struct hs_hook *h)
{
	const char *p = h->rule.pattern;

	if (!h->enabled || !h->has_rule || !p || !(h->ops & HS_OP_WRITE) ||
	    !edit_tool(h->rule.tool))
		return NULL;
	return strncmp(p, "//", 2) == 0 || strncmp(p, "~/", 2) == 0 ? p : NULL;
}

const char *hs_write_scope_rule(const struct hs_hook *h)
{
	return outside_rule(h);
}


/* The agents whose state directory, ~/.NAME, is never a tool's write
 * (a '-' line for every process) and whose places are the agent's own
 * (an 'n' line: agent_lines). */
static const char *const state_dirs[] = { "claude", "codex", "memcode",
					  "mnemoai", "gemini", NULL };

/* The literal place a rule or scope entry names, as an absolute path
 * (rule_glob's reading: "//abs", "~/x", "/x" and "x/y" under the root),
 * up to its first wildcard; false for a bare name (any depth). */
static bool literal_place(const char *pat, const char *root, char *out,
			  size_t n)
{
	const char *home = getenv("HOME");
	size_t k;
	int w;

	if (strncmp(pat, "./", 2) == 0)
		pat += 2;
	if (strncmp(pat, "//", 2) == 0)
		w = snprintf(out, n, "%s", pat + 1);
	else if (strncmp(pat, "~/", 2) == 0)
		w = snprintf(out, n, "%s/%s", home ? home : "", pat + 2);
	else if (pat[0] == '/' || strchr(pat, '/'))
		w = snprintf(out, n, "%s%s%s", strcmp(root, "/") ? root : "",
			     pat[0] == '/' ? "" : "/", pat);
	else
		return false;
	if (w < 0 || (size_t)w >= n)
		return false;
	k = strcspn(out, "*?[\\");
	out[k] = '\0';
	while (k > 1 && out[k - 1] == '/')
		out[--k] = '\0';
	return k > 0;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (!path[n] || path[n] == '/');
}

const char *hs_write_unwatched(const struct hs_config *cfg,
			       const struct hs_hook *h, char *why, size_t n)
{
	const char *root = cfg->root ? cfg->root : "/";
	const char *home = getenv("HOME");
	char place[PATH_MAX], ex[PATH_MAX];

	if (!h->has_rule || !h->rule.pattern || !edit_tool(h->rule.tool) ||
	    !literal_place(h->rule.pattern, root, place, sizeof(place)))
		return NULL;
	for (int i = 0; home && home[0] == '/' && state_dirs[i]; i++) {
		snprintf(ex, sizeof(ex), "%s/.%s", home, state_dirs[i]);
		if (under(place, ex)) {
			snprintf(why, n, "~/.%s is an agent's own state, never "
				 "a tool's write", state_dirs[i]);
			return why;
		}
	}
	for (char **e = cfg->settings.write_exclude; e && *e; e++) {
		size_t len = strlen(*e), w = strcspn(*e, "*?[\\");

		/* "P/" "**" with P literal excludes P and all below it (P
		 * relative to the root, as the entry is); any other wildcard
		 * excludes only part of its place */
		if (len > 3 && w == len - 2 && strcmp(*e + w - 1, "/**") == 0) {
			char lit[PATH_MAX];

			snprintf(lit, sizeof(lit), "%s%.*s",
				 memchr(*e, '/', w - 1) ? "" : "/", (int)(w - 1),
				 *e);
			if (literal_place(lit, root, ex, sizeof(ex)) &&
			    under(place, ex)) {
				snprintf(why, n, "writes.exclude has \"%s\"", *e);
				return why;
			}
			continue;
		}
		if (w != len)
			continue;
		/* a bare name: that name at any depth, and what is below */
		if (!strchr(*e, '/') &&
		    snprintf(ex, sizeof(ex), "/%s/", *e) < (int)sizeof(ex)) {
			char with[PATH_MAX + 2];

			snprintf(with, sizeof(with), "%s/", place);
			if (strstr(with, ex)) {
				snprintf(why, n, "writes.exclude has \"%s\"",
					 *e);
				return why;
			}
			continue;
		}
		if (!literal_place(*e, root, ex, sizeof(ex)))
			continue;
		if (under(place, ex)) {
			snprintf(why, n, "writes.exclude has \"%s\"", *e);
			return why;
		}
	}
	return NULL;
}

/* "=NAME": the root's logical name (config/model.h), a literal path. */
static void alias_line(struct hs_strbuf *b, const struct hs_config *cfg)
{
	if (!cfg->root_alias || strlen(cfg->root_alias) >= 1024 ||
	    strchr(cfg->root_alias, '\n'))
		return;
	hs_sb_adds(b, "=");
	hs_sb_adds(b, cfg->root_alias);
	hs_sb_adds(b, "\n");
}

/* A line "<kind>TEXT" once. */
static void line_once(struct hs_strbuf *b, char kind, const char *text,
		      size_t n)
{
	for (const char *l = b->s; l && *l;) {
		const char *e = strchr(l, '\n');

		if (!e)
			break;
		if (l[0] == kind && (size_t)(e - l - 1) == n &&
		    strncmp(l + 1, text, n) == 0)
			return;
		l = e ? e + 1 : NULL;
	}
	hs_sb_addc(b, kind);
	hs_sb_add(b, text, n);
	hs_sb_addc(b, '\n');
}

/* An identity line's text ("@" left out): "DEV:INO" and tail -- "/" a
 * tree's directory, "+" a file with other links, "/NAME" a name in that
 * directory (shim/write_scope.c, floor/floor_scope.c read them). Its
 * length, or 0 when it does not fit cap. */
static size_t id_text(char *out, size_t cap, dev_t dev, ino_t ino,
		      const char *tail)
{
	int n = snprintf(out, cap, "%llu:%llu%s", (unsigned long long)dev,
			 (unsigned long long)ino, tail);

	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* The hooks' runtime (engine/hook_runtime.h): '^DIR' for a protected
 * tree; a program's names on the PATH as '&/DIR' (each directory) and
 * '&NAME' (each name), every name in every directory: a superset, a few
 * lines for what would be directories times names. */
/* The directories of a protected tree, by identity ("@DEV:INO/" lines):
 * a name that reaches one through a symlinked directory made before the
 * session is still inside the tree (a new directory cannot be made in it
 * during the session). Depth first, symlinks not followed, at most
 * *left directories in all. */
static void tree_dirs(struct hs_strbuf *b, const char *dir, int depth,
		      int *left)
{
	char sub[PATH_MAX], id[64];
	struct dirent *d;
	struct stat sb;
	DIR *dp;

	if (*left <= 0 || depth > 16 || lstat(dir, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode))
		return;
	(*left)--;
	hs_sb_addc(b, '@');
	hs_sb_add(b, id, id_text(id, sizeof(id), sb.st_dev, sb.st_ino, "/"));
	hs_sb_addc(b, '\n');
	if (!(dp = opendir(dir)))
		return;
	while ((d = readdir(dp)) && *left > 0) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 ||
		    (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name) >=
			    (int)sizeof(sub))
			continue;
		tree_dirs(b, sub, depth + 1, left);
	}
	closedir(dp);
}

static void runtime_lines(struct hs_strbuf *b, const struct hs_protect *p)
{
	int left = 1024;

	for (size_t i = 0; p && i < p->n; i++) {
		const char *path = p->v[i].path, *slash = strrchr(path, '/');

		if (p->v[i].kind == HS_PROT_TREE) {
			line_once(b, '^', path, strlen(path));
			tree_dirs(b, path, 0, &left);
		} else if (p->v[i].kind == HS_PROT_ON_PATH && slash &&
			   slash[1]) {
			struct stat sb;
			char id[64];

			line_once(b, '&', path,
				  slash == path ? 1 : (size_t)(slash - path));
			line_once(b, '&', slash + 1, strlen(slash + 1));
			/* the file it is, by identity: a write through a
			 * symlink to it (the PATH's own name for it, one made
			 * during the session) or through a hard link it had
			 * at session start (/usr/bin/perl5.36.0 of perl) is
			 * one to it (session 38's attack run) */
			if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
				line_once(b, '@', id,
					  id_text(id, sizeof(id), sb.st_dev,
						  sb.st_ino,
						  sb.st_nlink > 1 ? "+" : ""));
		}
	}
}

/* Each protected name, the session root, and every directory above
 * them, by the identity of the directory it is in: "@DEV:INO/NAME". In
 * guard mode the shim reads names as written; one reached through a
 * symlinked directory of the agent's (`ln -s $HOME hh; echo > hh/.jq`,
 * `ln -s .. a; mv a/proj a/old`) is asked about by these, and judged as
 * the name it reaches (engine/protect.c). Not for the floor, which
 * follows the names itself. */
static void name_ids(struct hs_strbuf *b, const char *path)
{
	char a[PATH_MAX], line[PATH_MAX + 64];
	struct stat sb;
	char *slash;
	size_t n;

	if (!path || path[0] != '/' ||
	    snprintf(a, sizeof(a), "%s", path) >= (int)sizeof(a))
		return;
	while ((slash = strrchr(a, '/')) && slash[1]) {
		*slash = '\0';
		if (stat(a[0] ? a : "/", &sb) == 0 && !strchr(slash + 1, '\n')) {
			*slash = '/'; /* its tail: "/NAME" */
			n = id_text(line, sizeof(line), sb.st_dev, sb.st_ino,
				    slash);
			*slash = '\0';
			if (n)
				line_once(b, '@', line, n);
		}
		if (slash == a)
			break;
	}
}

/* The name lines, last, where they fit -- never at the cost of the
 * hooks' lines (the filter's budget is decided without them). Where
 * they do not all fit, each name is said by its letters alone ("@", an
 * asterisk, "/NAME": a call whose last component is NAME, in any
 * directory, is asked about and judged by the supervisor), as many as
 * fit, in their order: the session root's first. */
static void put_names(struct hs_strbuf *b, const char *names)
{
	struct hs_strbuf any = { 0 };
	const char *l, *e, *slash;

	if (!names)
		return;
	if (b->len + strlen(names) <= HS_WRITE_FILTER_MAX) {
		hs_sb_adds(b, names);
		return;
	}
	for (l = names; *l; l = e + 1) {
		char line[PATH_MAX + 8];
		int n;

		if (!(e = strchr(l, '\n')))
			break;
		if (!(slash = memchr(l, '/', (size_t)(e - l))))
			continue;
		n = snprintf(line, sizeof(line), "*%.*s", (int)(e - slash),
			     slash);
		if (n > 0 && (size_t)n < sizeof(line))
			line_once(&any, '@', line, (size_t)n);
	}
	for (l = any.s; l && *l; l = e + 1) {
		if (!(e = strchr(l, '\n')) ||
		    b->len + (size_t)(e + 1 - l) > HS_WRITE_FILTER_MAX)
			break;
		hs_sb_add(b, l, (size_t)(e + 1 - l));
	}
	hs_sb_free(&any);
}

/* The agent's own writes outside the scope (common/agent_place.h,
 * writes.agent_anywhere): "A*" makes them events anywhere, but in the
 * places 'a' lines name -- the temp directories, the XDG cache and state
 * trees, Python's bytecode caches, writes.agent_state -- and the places
 * of the agents 'n' lines name (the program `run` starts, every
 * profile's process names, the dialects' own agents, npm) under the home
 * directory the '~' line gives; in guard mode ("oc") the writing
 * program's own name counts too (a process sets its own: not believed in
 * enforce mode). At most AGENT_BUDGET bytes: writes.agent_state entries
 * that do not fit are left out (their writes are then judged: more
 * events, never fewer), so that the rest of the filter keeps its room. */
#define AGENT_BUDGET 1400

/* p with its trailing slashes off (not "/"), into out; false when it is
 * not an absolute path that fits, or holds a newline. */
static bool clean_dir(const char *p, char *out, size_t cap)
{
	size_t n;

	if (!p || p[0] != '/' || strchr(p, '\n') || (n = strlen(p)) >= cap ||
	    n >= 1024)
		return false;
	memcpy(out, p, n + 1);
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	return true;
}

static bool plain_name(const char *p)
{
	return p && p[0] && !strchr(p, '/') && !strchr(p, '\n') &&
	       strlen(p) < 256;
}

static void agent_lines(struct hs_strbuf *b, const struct hs_config *cfg,
			const char *home_env)
{
	static const char *const temps[] = { "/tmp", "/var/tmp", "/dev/shm" };
	const struct hs_agent_set *set = hs_agents();
	const char *root = cfg->root ? cfg->root : "/";
	char home[1024], tmpdir[1024];
	struct hs_strbuf a = { 0 }, extra = { 0 };

	hs_sb_adds(&a, "A*\n");
	if (!cfg->settings.enforce)
		hs_sb_adds(&a, "oc\n");
	for (size_t i = 0; i < sizeof(temps) / sizeof(temps[0]); i++)
		line(&a, 'a', temps[i], "/**");
	if (clean_dir(getenv("TMPDIR"), tmpdir, sizeof(tmpdir)) &&
	    strcmp(tmpdir, "/") != 0)
		line(&a, 'a', tmpdir, "/**");
	/* the bytecode an interpreter caches beside what it imports */
	line(&a, 'a', NULL, "/**/__pycache__/**");
	if (clean_dir(home_env, home, sizeof(home)) && strcmp(home, "/") != 0) {
		hs_sb_adds(&a, "~"); /* a literal path, not a glob */
		hs_sb_adds(&a, home);
		hs_sb_adds(&a, "\n");
		line(&a, 'a', home, "/.cache/**");
		line(&a, 'a', home, "/.local/state/**");
		/* update notifiers' state (Gemini CLI's, many node CLIs') */
		line(&a, 'a', home, "/.config/configstore/**");
		for (int i = 0; state_dirs[i]; i++)
			line_once(&a, 'n', state_dirs[i], strlen(state_dirs[i]));
		/* npm's cache and logs: an agent started by npx, Claude
		 * Code's update check */
		line_once(&a, 'n', "npm", 3);
		if (plain_name(cfg->agent_name))
			line_once(&a, 'n', cfg->agent_name,
				  strlen(cfg->agent_name));
		for (size_t i = 0; i < set->n; i++)
			for (char **p = set->v[i].processes; p && *p; p++)
				if (plain_name(*p))
					line_once(&a, 'n', *p, strlen(*p));
	}
	scope_globs(&extra, 'a', cfg->settings.agent_state, root,
		    cfg->root_alias);
	if (!a.failed && a.s)
		hs_sb_adds(b, a.s);
	if (!extra.failed && extra.s && a.len + extra.len <= AGENT_BUDGET)
		hs_sb_adds(b, extra.s);
	hs_sb_free(&a);
	hs_sb_free(&extra);
}

/* The 'n' names the filter text gives, as "a, b and c" into out (for
 * `hookshim check`). */
void hs_write_filter_names(const char *filter, char *out, size_t cap)
{
	size_t len = 0, count = 0;

	out[0] = '\0';
	for (const char *l = filter; l && *l && len + 1 < cap;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		if (l[0] == 'n' && n > 1)
			len += (size_t)snprintf(out + len, cap - len, "%s%.*s",
						count++ ? ", " : "",
						(int)(n - 1), l + 1);
		if (!e)
			break;
		l = e + 1;
	}
	if (len >= cap)
		out[cap - 1] = '\0';
}

char *hs_write_filter(const struct hs_config *cfg)
{
	const struct hs_settings *s = &cfg->settings;
	const char *root = cfg->root ? cfg->root : "/";
	const char *home = getenv("HOME");
	struct hs_strbuf b = { 0 };
	struct hs_strbuf hooks = { 0 }, prot = { 0 }, names = { 0 };
	struct hs_event probe = { .op = HS_OP_WRITE };
	struct hs_event rprobe = { .op = HS_OP_READ };
	bool reads = reads_wanted(cfg);
	bool staged = false;

	hs_sb_adds(&b, "hsw1\n");
	if (s->agent_writes_only)
		hs_sb_adds(&b, "oa\n");
	if (s->follow_symlinks)
		hs_sb_adds(&b, "of\n");
	if (s->judge_temp_files)
		hs_sb_adds(&b, "ot\n");
	if (s->quiet_denials)
		hs_sb_adds(&b, "oq\n");
	alias_line(&b, cfg);
	if (s->write_include && s->write_include[0])
		scope_globs(&b, '+', s->write_include, root, cfg->root_alias);
	else
		line(&b, '+', strcmp(root, "/") ? root : "", "/**");
	/* A hook's path filter that names a place outside the root makes
	 * that place watched (issue 24): an "if" rule's absolute or home
	 * pattern (a Write rule on ~/.ssh and below) adds its own glob to
	 * the scope. */
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const char *pat = outside_rule(&cfg->hooks[i]);

		if (pat)
			rule_glob(&b, '+', pat, root, cfg->root_alias);
	}
	scope_globs(&b, '-', s->write_exclude, root, cfg->root_alias);
	for (int i = 0; home && home[0] == '/' && state_dirs[i]; i++) {
		char *tail;

		if (asprintf(&tail, "/.%s/**", state_dirs[i]) < 0)
			continue;
		line(&b, '-', home, tail);
		free(tail);
	}
	if (s->agent_anywhere)
		agent_lines(&b, cfg, home);
	if (b.failed || b.len > HS_WRITE_FILTER_MAX / 2) {
		/* Too long for the shim: back to the root, every hook. */
		hs_sb_free(&b);
		hs_sb_adds(&b, "hsw1\n");
		alias_line(&b, cfg);
		line(&b, '+', strcmp(root, "/") ? root : "", "/**");
		if (s->agent_anywhere)
			agent_lines(&b, cfg, home);
	}
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];

		if (!h->enabled || !(h->ops & HS_OP_WRITE) ||
		    (h->kind != HS_KIND_PRE && h->kind != HS_KIND_POST) ||
		    !hs_matcher_could_match(h, &probe))
			continue;
		/* '%': a pre hook that reads the content: its writes are
		 * staged (config/content_use.c) */
		staged |= h->content_pre;
		hook_globs(&hooks, h->kind == HS_KIND_POST ? '>'
				   : h->content_pre      ? '%'
							 : '<',
			   h, root, cfg->root_alias);
	}
	for (size_t i = 0; reads && i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];

		if (h->enabled && h->kind == HS_KIND_PRE &&
		    (h->ops & HS_OP_READ) && hs_matcher_could_match(h, &rprobe))
			read_globs(&hooks, h, root, cfg->root_alias);
	}
	/* Self-protection's names, literally: never widened away, since a
	 * protected file may lie outside the scope (a ~/.claude settings
	 * file, a --log in /tmp). */
	for (size_t i = 0; cfg->protect && i < cfg->protect->n; i++) {
		const struct hs_protected *e = &cfg->protect->v[i];
		char id[64];


		if (e->kind != HS_PROT_FILE)
			continue; /* runtime_lines */
		hs_sb_addc(&prot, '!');
		hs_sb_adds(&prot, e->path);
		hs_sb_addc(&prot, '\n');
		/* Its identity, for a write that reaches it by another
		 * name: a symlink followed (one made before the session, or a
		 * directory above it; no new one can be made during it), and
		 * "+" when it had other hard links at session start (a link
		 * of a protected file made during it is judged at its
		 * source), which may be anywhere. */
		if (e->has_id) {
			hs_sb_addc(&prot, '@');
			hs_sb_add(&prot, id,
				  id_text(id, sizeof(id), e->dev, e->ino,
					  e->nlink > 1 ? "+" : ""));
			hs_sb_addc(&prot, '\n');
		}
	}
	runtime_lines(&prot, cfg->protect);
	/* the root's first, the PATH's programs' last */
	name_ids(&names, cfg->root);
	for (int onpath = 0; onpath < 2; onpath++)
		for (size_t i = 0; cfg->protect && i < cfg->protect->n; i++)
			if ((cfg->protect->v[i].kind == HS_PROT_ON_PATH) ==
			    onpath)
				name_ids(&names, cfg->protect->v[i].path);
	if (hooks.failed ||
	    b.len + hooks.len + prot.len > HS_WRITE_FILTER_MAX) {
		hs_sb_free(&hooks);
		hs_sb_adds(&hooks, "<*\n>*\n");
		if (staged)
			hs_sb_adds(&hooks, "%*\n");
		if (reads)
			hs_sb_adds(&hooks, "(*\n");
	}
	if (hooks.s)
		hs_sb_adds(&b, hooks.s);
	if (prot.s && b.len + prot.len <= HS_WRITE_FILTER_MAX) {
		hs_sb_adds(&b, prot.s);
	} else if (prot.s) {
		/* as many whole lines as fit, the policy's own files first
		 * (the runtime's come last); the supervisor still judges
		 * every write that reaches it by the whole set */
		const char *end = prot.s;

		for (const char *l = prot.s; *l;) {
			const char *e = strchr(l, '\n');

			if (!e || b.len + (size_t)(e + 1 - prot.s) >
					  HS_WRITE_FILTER_MAX)
				break;
			end = l = e + 1;
		}
		hs_sb_add(&b, prot.s, (size_t)(end - prot.s));
	}
	put_names(&b, names.s);
	hs_sb_free(&hooks);
	hs_sb_free(&prot);
	hs_sb_free(&names);
	return hs_sb_take(&b);
}
