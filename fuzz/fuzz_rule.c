/* Claude Code's per-handler "if" rule: the parser (config/rule.c) and
 * the matcher it feeds (engine/match.c: Bash(...) patterns against a
 * command, Edit(...)/Write(...) gitignore-style patterns against a path
 * under the session root, both over common/glob.c).
 *
 * Input: a flags byte (bit 0: a write, else an exec; bit 1: the tool
 * name the event has is the rule's own, else the flag's default; bit 2: no
 * root), then NUL-separated: the rule text, the command or path, the
 * root, $HOME (for "~/" patterns). */
#include <stdlib.h>

#include "config/loadkit.h"
#include "engine/match.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	struct hs_rule rule;
	struct hs_event ev = { .kind = HS_KIND_PRE };
	uint8_t flags;
	const char *text, *arg, *root, *home;

	fz_init(&f, data, size);
	flags = fz_byte(&f);
	text = fz_str(&f);
	arg = fz_str(&f);
	root = fz_str(&f);
	home = fz_str(&f);
	if (!text) {
		fz_free(&f);
		return 0;
	}
	/* One value for the whole run is enough: path_matches reads it. */
	if (home)
		setenv("HOME", home, 1);
	if (hs_rule_parse(text, &rule) == 0) {
		const char *tool = rule.tool;

		ev.op = flags & 1 ? HS_OP_WRITE : HS_OP_EXEC;
		if (!(flags & 2))
			tool = flags & 1 ? "Write" : "Bash";
		if (ev.op == HS_OP_EXEC)
			ev.command = arg ? arg : "";
		else
			ev.path = arg ? arg : "/";
		ev.root = flags & 4 ? NULL : (root ? root : "/");
		(void)hs_rule_matches(&rule, tool, &ev);
		free(rule.tool);
		free(rule.pattern);
	}
	fz_free(&f);
	return 0;
}
