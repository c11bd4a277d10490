/* Hook selection. */
#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/glob.h"
#include "../config/dialect.h"
#include "netdest.h"
#include "payload.h"

static bool tool_event(const struct hs_hook *h)
{
	return h->kind == HS_KIND_PRE || h->kind == HS_KIND_POST;
}

static const struct hs_dialect_ops *ops_of(const struct hs_hook *h)
{
	return hs_dialect_ops(h->dialect);
}

/* A matcher_on_request dialect (memoh) picks the matcher's target by what
 * the request carries: the tool name for tool events, the command or path
 * for workspace events, the event name otherwise. */
static const char *request_target(const struct hs_hook *h,
				  const struct hs_event *ev)
{
	if (h->ops == HS_OP_EXEC)
		return ev->command;
	if (h->ops == HS_OP_WRITE)
		return ev->path;
	if (tool_event(h))
		return hs_tool_name(&ops_of(h)->tools, ev);
	return h->event_name;
}

/* Does h name the fetch tool itself -- a matcher that lets WebFetch
 * through but not every name (a catch-all), or a WebFetch(...) rule? A
 * connection fires only such hooks (docs/network.md): a catch-all hook
 * written before connections were calls does not start judging them. */
static bool names_net(const struct hs_hook *h)
{
	const char *net = ops_of(h)->tools.net;

	if (h->has_rule && h->rule.tool)
		return strcmp(h->rule.tool, net) == 0 ||
		       strcmp(h->rule.tool, "WebFetch") == 0;
	return hs_matcher_match(&h->matcher, net) &&
	       !hs_matcher_match(&h->matcher, "hookshim-no-such-tool");
}

bool hs_matcher_could_match(const struct hs_hook *h, const struct hs_event *ev)
{
	const struct hs_tool_names *tools = &ops_of(h)->tools;

	if (ev->op == HS_OP_NET && tool_event(h))
		return names_net(h);

	if (ops_of(h)->matcher_on_request) {
		if (h->ops == HS_OP_EXEC || h->ops == HS_OP_WRITE)
			return true; /* an argument, known only later */
		return hs_matcher_match(&h->matcher, request_target(h, ev));
	}
	if (!tool_event(h))
		return true;
	if (ev->op == HS_OP_WRITE) {
		/* A write's tool name depends on the file (Claude's Write or
		 * Edit): either may fire. */
		return hs_matcher_match(&h->matcher, tools->write) ||
		       hs_matcher_match(&h->matcher, tools->modify);
	}
	return hs_matcher_match(&h->matcher, hs_tool_name(tools, ev));
}

static bool same_tool_family(const char *rule_tool, const char *tool)
{
	static const char *const edits[] = { "Edit", "Write", "MultiEdit",
					     "NotebookEdit", NULL };
	bool a = false, b = false;

	if (strcmp(rule_tool, tool) == 0)
		return true;
	/* Claude Code: Edit rules cover every built-in tool that edits. */
	for (const char *const *e = edits; *e; e++) {
		a |= strcmp(*e, rule_tool) == 0;
		b |= strcmp(*e, tool) == 0;
	}
	return a && b;
}

/* Bash(pattern): "*" matches anything; the legacy "prefix:*" form is a
 * prefix match; a trailing " *" also accepts the bare command. */
static bool command_matches(const char *pattern, const char *cmd)
{
	size_t n = strlen(pattern);

	if (n >= 2 && strcmp(pattern + n - 2, ":*") == 0)
		return strncmp(cmd, pattern, n - 2) == 0;
	if (hs_glob_match(pattern, cmd, false))
		return true;
	if (n >= 2 && strcmp(pattern + n - 2, " *") == 0)
		return strlen(cmd) == n - 2 && strncmp(cmd, pattern, n - 2) == 0;
	return false;
}

/* path's name through the other form of the root (physical <-> logical)
 * into buf; false when it is under neither. */
static bool other_form(const char *path, const char *root, const char *alias,
		       char *buf, size_t cap)
{
	const char *from = NULL, *to = NULL;
	size_t n;

	if (!root || !alias)
		return false;
	if (strncmp(path, root, (n = strlen(root))) == 0 &&
	    (path[n] == '/' || !path[n]))
		from = root, to = alias;
	else if (strncmp(path, alias, (n = strlen(alias))) == 0 &&
		 (path[n] == '/' || !path[n]))
		from = alias, to = root;
	return from && (size_t)snprintf(buf, cap, "%s%s", to,
					path + strlen(from)) < cap;
}

/* Edit(pattern): gitignore-style. "//abs" is absolute, "~/x" is under
 * HOME, "/x" and "x/y" are relative to the project root, and a pattern
 * without '/' matches the file's name at any depth. A path under the
 * root's logical name (config/model.h) is matched as under the root; an
 * absolute pattern naming either form matches both. */
static bool path_matches(const char *pattern, const char *path,
			 const char *root, const char *alias)
{
	char buf[4096], phys[4096];
	const char *rel;
	size_t rl = root ? strlen(root) : 0;

	if (strncmp(pattern, "//", 2) == 0)
		return hs_glob_match(pattern + 1, path, true) ||
		       (other_form(path, root, alias, buf, sizeof(buf)) &&
			hs_glob_match(pattern + 1, buf, true));
	if (alias && rl && !(strncmp(path, root, rl) == 0 && path[rl] == '/') &&
	    other_form(path, root, alias, phys, sizeof(phys)))
		path = phys;
	rel = path;
	if (strncmp(pattern, "~/", 2) == 0) {
		const char *home = getenv("HOME");

		snprintf(buf, sizeof(buf), "%s/%s", home ? home : "",
			 pattern + 2);
		return hs_glob_match(buf, path, true);
	}
	if (rl && strncmp(path, root, rl) == 0 && path[rl] == '/')
		rel = path + rl + 1;
	else if (rl == 1 && root[0] == '/' && path[0] == '/')
		rel = path + 1;
	if (pattern[0] == '/')
		return hs_glob_match(pattern + 1, rel, true);
	if (strncmp(pattern, "./", 2) == 0)
		pattern += 2;
	if (!strchr(pattern, '/')) {
		const char *base = strrchr(rel, '/');

		return hs_glob_match(pattern, base ? base + 1 : rel, true) ||
		       hs_glob_match(pattern, rel, true);
	}
	return hs_glob_match(pattern, rel, true);
}

/* WebFetch(domain:NAME): Claude Code's rule for its WebFetch tool, here
 * for a connection (docs/network.md): NAME a glob ("*.example.com")
 * matched without case against the host the process resolved, or its
 * address ("domain:127.0.0.1"). Any other form names nothing. */
static bool net_matches(const char *pattern, const struct hs_event *ev)
{
	return strncmp(pattern, "domain:", 7) == 0 &&
	       hs_netdest_names(pattern + 7, strlen(pattern + 7), ev);
}

bool hs_rule_matches(const struct hs_rule *rule, const char *tool,
		     const struct hs_event *ev)
{
	const char *arg;

	if (!same_tool_family(rule->tool, tool))
		return false;
	if (!rule->pattern)
		return true;
	if (ev->op == HS_OP_EXEC) {
		arg = ev->command;
		return arg && command_matches(rule->pattern, arg);
	}
	if (ev->op == HS_OP_WRITE || ev->op == HS_OP_READ) {
		arg = ev->path;
		return arg && path_matches(rule->pattern, arg, ev->root,
					    ev->root_alias);
	}
	if (ev->op == HS_OP_NET)
		return net_matches(rule->pattern, ev);
	return false;
}

/* An agent's "edit" is the whole content of an existing file replaced
 * (an O_TRUNC open, an atomic save): from outside, Claude's Edit and its
 * Write over an existing file are the same calls. The event is named
 * Edit, and a hook matching only Write fires for it too, so that no
 * policy written for either tool loses a call it would have judged. */
static bool replaces_whole(const struct hs_event *ev)
{
	return ev->op == HS_OP_WRITE && ev->operation &&
	       strcmp(ev->operation, "edit") == 0;
}

bool hs_hook_matches(const struct hs_hook *h, const struct hs_event *ev)
{
	const char *tool;

	if (h->kind != ev->kind || h->kind == HS_KIND_NONE)
		return false;
	if (!tool_event(h))
		return true;
	if (h->kind == HS_KIND_POST &&
	    !(h->post_mask & (ev->failed ? HS_POST_FAILURE : HS_POST_SUCCESS)))
		return false;
	if (!(h->ops & ev->op))
		return false;
	if (ev->op == HS_OP_NET && !names_net(h))
		return false;
	if (ops_of(h)->matcher_on_request)
		return hs_matcher_match(&h->matcher, request_target(h, ev));
	tool = hs_tool_name(&ops_of(h)->tools, ev);
	if (!hs_matcher_match(&h->matcher, tool) &&
	    !(replaces_whole(ev) &&
	      hs_matcher_match(&h->matcher, ops_of(h)->tools.write)))
		return false;
	return !h->has_rule || hs_rule_matches(&h->rule, tool, ev);
}

bool hs_hook_names_read(const struct hs_hook *h)
{
	struct hs_event probe = { .op = HS_OP_READ };

	/* Reads are opt-in: a catch-all matcher ("*", "", ".*": one that
	 * takes a name no tool has) fires on them once some hook names the
	 * read tool, but does not make them events by itself, so a config
	 * without Read hooks pays nothing. An "if" rule Read(...) names it. */
	bool catch_all = h->matcher.kind == HS_MATCH_ALL ||
			 hs_matcher_match(&h->matcher, "hookshim-no-such-tool");

	if (!h->enabled || h->kind != HS_KIND_PRE || !(h->ops & HS_OP_READ) ||
	    !hs_matcher_could_match(h, &probe))
		return false;
	if (h->has_rule)
		return strcmp(h->rule.tool, ops_of(h)->tools.read) == 0;
	return !catch_all || h->read_named;
}
