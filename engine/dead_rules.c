/* Rules that can never fire live; see dead_rules.h. */
#include "dead_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/dialect.h"
#include "event.h"
#include "match.h"
#include "write_filter.h"

/* The tool names a live call of this hook's dialect carries, for the
 * operations the hook takes (an exec, a write or edit, a read). */
static size_t live_names(const struct hs_hook *h, const char *out[5])
{
	const struct hs_tool_names *t = &hs_dialect_ops(h->dialect)->tools;
	const struct {
		const char *name;
		unsigned op;
	} all[] = {
		{ t->exec, HS_OP_EXEC },
		{ t->write, HS_OP_WRITE },
		{ t->modify, HS_OP_WRITE },
		{ t->read, HS_OP_READ },
		{ t->net, HS_OP_NET },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		bool dup = false;

		if (!all[i].name || !(h->ops & all[i].op))
			continue;
		for (size_t k = 0; k < n; k++)
			dup |= strcmp(out[k], all[i].name) == 0;
		if (!dup)
			out[n++] = all[i].name;
	}
	return n;
}

/* One warning at line:col of h's file (or the file alone); `never`: the
 * hook as a whole can never fire. */
#define warn(cfg, h, line, col, never, fmt, ...)                              \
	hs_config_diag_at(cfg, HS_DIAG_WARNING, (h)->source, line, col,       \
			  fmt "%s", __VA_ARGS__,                              \
			  (never) ? " (loaded, never fires)" : "")

/* "a, b and c" of the names, into buf. */
static const char *names_text(const char *const *v, size_t n, char *buf,
			      size_t cap)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s",
					!i ? "" : i + 1 < n ? ", " : " and ",
					v[i]);
	return buf;
}

static bool is_live(const char *name, const char *const *live, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, live[i]) == 0)
			return true;
	return false;
}

/* An exact list's names that no live call carries; true when all are. */
static bool dead_names(const struct hs_hook *h, const char *const *live,
		       size_t n, char *buf, size_t cap)
{
	size_t len = 0, dead = 0, names = 0;

	buf[0] = '\0';
	for (const char *p = h->matcher.pattern; *p;) {
		size_t k;

		while (*p == '|' || *p == ',' || *p == ' ')
			p++;
		k = strcspn(p, "|, ");
		if (!k)
			break;
		names++;
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)k, p);
		if (!is_live(name, live, n) && len < cap) {
			len += (size_t)snprintf(buf + len, cap - len, "%s%s",
						dead++ ? ", " : "", name);
		}
		p += k;
	}
	return names && dead == names;
}

static void check_hook(struct hs_config *cfg, const struct hs_hook *h)
{
	const char *live[5], *through[5];
	char lv[128], dead[256];
	size_t n = live_names(h, live), nt = 0;

	for (size_t i = 0; i < n; i++)
		if (hs_matcher_match(&h->matcher, live[i]))
			through[nt++] = live[i];
	names_text(live, n, lv, sizeof(lv));
	if (!nt) {
		warn(cfg, h, h->match_line, h->match_col, true,
		     "%s matcher \"%s\" "
		     "names no tool call hookshim sees (its calls are %s); "
		     "other tools (WebSearch, Task, MCP tools...) are decided "
		     "inside the agent, not seen from outside", h->event_name,
		     h->matcher.pattern, lv);
		return;
	}
	if (h->matcher.kind == HS_MATCH_EXACT_LIST &&
	    !dead_names(h, live, n, dead, sizeof(dead)) && dead[0])
		warn(cfg, h, h->match_line, h->match_col, false,
		     "%s matcher \"%s\": %s is no tool call hookshim sees "
		     "(its calls are %s), decided inside the agent; the rest "
		     "of the matcher fires", h->event_name, h->matcher.pattern,
		     dead, lv);
	/* connections (docs/network.md): a WebFetch rule matches by
	 * domain:NAME only; one with no pattern takes every connection */
	if (h->has_rule && h->rule.tool &&
	    strcmp(h->rule.tool, hs_dialect_ops(h->dialect)->tools.net) == 0) {
		if (h->rule.pattern && strncmp(h->rule.pattern, "domain:", 7))
			warn(cfg, h, h->if_line, h->if_col, true,
			     "\"if\": %s(%s): a connection is matched by "
			     "domain:NAME only (docs/network.md)",
			     h->rule.tool, h->rule.pattern);
		else if (!h->rule.pattern && h->kind == HS_KIND_PRE)
			warn(cfg, h, h->if_line, h->if_col, false,
			     "\"if\": %s with no domain: every connection the "
			     "session's commands open is judged by %s "
			     "(docs/network.md)", h->rule.tool,
			     hs_hook_is_permission_rule(h) ? "this rule"
							   : "this hook");
	}
	if (hs_write_unwatched(cfg, h, dead, sizeof(dead)))
		warn(cfg, h, h->if_line, h->if_col, true, "\"if\": %s(%s) names "
		     "a place whose writes are never events: %s", h->rule.tool,
		     h->rule.pattern, dead);
	if (h->has_rule) {
		struct hs_rule tool_only = { .tool = h->rule.tool };
		struct hs_event probe = { .kind = h->kind };
		bool fits = false;

		/* with no pattern, the rule's tool family alone (match.c:
		 * Claude's Edit rules cover Write) */
		for (size_t i = 0; i < nt; i++)
			fits |= hs_rule_matches(&tool_only, through[i], &probe);
		if (!fits)
			warn(cfg, h, h->if_line, h->if_col, true,
			     "\"if\": %s(...) "
			     "names a tool none of the calls its matcher \"%s\" "
			     "lets through carries (%s)", h->rule.tool,
			     h->matcher.kind == HS_MATCH_ALL ? "*"
							     : h->matcher.pattern,
			     names_text(through, nt, dead, sizeof(dead)));
	}
}

void hs_dead_rules(struct hs_config *cfg)
{
	for (size_t i = 0; i < cfg->nhooks; i++) {
		const struct hs_hook *h = &cfg->hooks[i];

		if (!h->enabled ||
		    (h->kind != HS_KIND_PRE && h->kind != HS_KIND_POST) ||
		    hs_dialect_ops(h->dialect)->matcher_on_request)
			continue;
		check_hook(cfg, h);
	}
}
