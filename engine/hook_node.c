/* node's runtime for a hook whose script node runs; see hook_node.h. */
#include "hook_node.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Node's own modules, which a bare require() takes before any
 * node_modules/ (its module.builtinModules, node 20). */
static const char *const builtins[] = {
	"assert", "async_hooks", "buffer", "child_process", "cluster",
	"console", "constants", "crypto", "dgram", "diagnostics_channel",
	"dns", "domain", "events", "fs", "http", "http2", "https",
	"inspector", "module", "net", "os", "path", "perf_hooks", "process",
	"punycode", "querystring", "readline", "repl", "stream",
	"string_decoder", "sys", "timers", "tls", "trace_events", "tty",
	"url", "util", "v8", "vm", "wasi", "worker_threads", "zlib", NULL
};

/* Packages named, at most: each is a few names per directory above */
#define MAX_PKGS 32
#define MAX_TEXT (256 * 1024)

struct node {
	const char *label;
	struct hs_protect *p;
};

static void protect(const struct node *x, const char *path,
		    enum hs_prot_kind kind, const char *what)
{
	char why[512];

	snprintf(why, sizeof(why), "%s, loaded by %s", what, x->label);
	hs_protect_put(x->p, path, kind, why);
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool hs_hook_node_script(const char *script)
{
	char line[256];
	FILE *f;
	bool node;

	if (ends(script, ".js") || ends(script, ".mjs") || ends(script, ".cjs"))
		return true;
	if (!(f = fopen(script, "r")))
		return false;
	node = fgets(line, sizeof(line), f) && strncmp(line, "#!", 2) == 0 &&
	       strstr(line, "node");
	fclose(f);
	return node;
}

/* dir's parent, in place; false at "/". */
static bool up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (!slash || (slash == dir && !dir[1]))
		return false;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return true;
}

/* The module type's package.json files (a .js or extensionless script:
 * .mjs and .cjs say their own). */
static void module_type(const struct node *x, const char *dir0)
{
	char dir[PATH_MAX], p[PATH_MAX + 16];
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s", dir0);
	do {
		snprintf(p, sizeof(p), "%s/package.json",
			 strcmp(dir, "/") ? dir : "");
		protect(x, p, HS_PROT_FILE,
			"the package.json that gives a node hook script its "
			"module type");
		if (stat(p, &sb) == 0)
			return;
	} while (up(dir));
}

/* A package's node_modules names from dir0 up to where it is: the one
 * found protected whole, those nearer by name (each form in each
 * node_modules/ directory: the write filter says them as directories
 * times names, a few lines however deep the script is). */
static void package(const struct node *x, const char *dir0, const char *pkg,
		    const char *home)
{
	static const char *const forms[] = { "", ".js", ".json", ".node",
					     NULL };
	char dir[PATH_MAX], p[PATH_MAX + 300];
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s", dir0);
	do {
		const char *d = strcmp(dir, "/") ? dir : "";

		snprintf(p, sizeof(p), "%s/node_modules/%s", d, pkg);
		if (stat(p, &sb) == 0) {
			protect(x, p, HS_PROT_TREE,
				"a package a node hook script loads");
			return;
		}
		for (int i = 0; forms[i]; i++) {
			snprintf(p, sizeof(p), "%s/node_modules/%s%s", d, pkg,
				 forms[i]);
			protect(x, p, HS_PROT_ON_PATH,
				"a name that would shadow a package a node "
				"hook script loads");
		}
	} while (up(dir));
	for (int i = 0; home && i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s/%s", home,
			 i ? ".node_libraries" : ".node_modules", pkg);
		protect(x, p, HS_PROT_TREE, "a package a node hook script loads");
	}
}

/* The package a specifier names ("@scope/name/sub" -> "@scope/name",
 * "name/sub" -> "name"), into out; false for a relative or absolute
 * one, node's own, or a name that is no plain one. */
static bool package_of(const char *spec, size_t n, char *out, size_t cap)
{
	size_t k = 0, slashes = spec[0] == '@' ? 2 : 1;

	if (!n || spec[0] == '.' || spec[0] == '/' ||
	    (n > 5 && strncmp(spec, "node:", 5) == 0))
		return false;
	for (; k < n && k + 1 < cap; k++) {
		char c = spec[k];

		if (c == '/' && --slashes == 0)
			break;
		if (!(c == '@' || c == '-' || c == '_' || c == '.' || c == '/' ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	if (k + 1 >= cap || (spec[0] == '@' && !memchr(spec, '/', k)))
		return false;
	memcpy(out, spec, k);
	out[k] = '\0';
	for (int i = 0; builtins[i]; i++)
		if (strcmp(out, builtins[i]) == 0)
			return false;
	return strcmp(out, "..") != 0;
}

/* The quoted string right after position s (spaces, one '(' allowed):
 * its start and length. */
static bool quoted_after(const char *s, const char **start, size_t *n)
{
	const char *e;
	char q;

	while (*s == ' ' || *s == '\t' || *s == '(')
		s++;
	if (*s != '"' && *s != '\'' && *s != '`')
		return false;
	q = *s++;
	if (!(e = strchr(s, q)) || memchr(s, '\n', (size_t)(e - s)))
		return false;
	*start = s;
	*n = (size_t)(e - s);
	return true;
}

/* The bare specifiers the text names: require("x"), import("x"),
 * import ... from "x", import "x", export ... from "x". */
static size_t specifiers(const char *text, char pkgs[][PATH_MAX / 16],
			 size_t cap)
{
	static const char *const words[] = { "require", "import", "from",
					     NULL };
	size_t np = 0;

	for (int w = 0; words[w]; w++) {
		size_t wl = strlen(words[w]);

		for (const char *s = text; (s = strstr(s, words[w])); s += wl) {
			const char *q;
			char pkg[PATH_MAX / 16];
			size_t n, i;

			if ((s > text && (s[-1] == '_' || s[-1] == '.' ||
					  (s[-1] >= 'a' && s[-1] <= 'z') ||
					  (s[-1] >= 'A' && s[-1] <= 'Z'))) ||
			    !quoted_after(s + wl, &q, &n) ||
			    !package_of(q, n, pkg, sizeof(pkg)))
				continue;
			for (i = 0; i < np && strcmp(pkgs[i], pkg); i++)
				;
			if (i == np && np < cap)
				memcpy(pkgs[np++], pkg, strlen(pkg) + 1);
		}
	}
	return np;
}

void hs_hook_node(const char *script, const char *home, const char *label,
		  struct hs_protect *prot)
{
	const struct node x = { label, prot };
	char dir[PATH_MAX], (*pkgs)[PATH_MAX / 16];
	char *text, *slash;
	size_t n, np;
	FILE *f;

	if (script[0] != '/' ||
	    snprintf(dir, sizeof(dir), "%s", script) >= (int)sizeof(dir) ||
	    !(slash = strrchr(dir, '/')))
		return;
	*slash = '\0';
	if (!dir[0])
		memcpy(dir, "/", 2);
	if (!ends(script, ".mjs") && !ends(script, ".cjs"))
		module_type(&x, dir);
	if (!(f = fopen(script, "r")))
		return;
	text = malloc(MAX_TEXT + 1);
	pkgs = malloc(MAX_PKGS * sizeof(*pkgs));
	if (text && pkgs) {
		n = fread(text, 1, MAX_TEXT, f);
		text[n] = '\0';
		np = memchr(text, '\0', n) ? 0 : specifiers(text, pkgs, MAX_PKGS);
		for (size_t i = 0; i < np; i++)
			package(&x, dir, pkgs[i], home);
	}
	free(text);
	free(pkgs);
	fclose(f);
}
