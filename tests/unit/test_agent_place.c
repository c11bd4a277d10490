/* common/agent_place.c: an agent's own places under its home, by name;
 * and which 'a' globs (the temp
 * directories) stop short of a home kept inside them. */
#include <stdbool.h>
#include <string.h>

#include "common/agent_place.h"
#include "check.h"

static bool place(const char *abs, const char *home, const char *name)
{
	return hs_agent_place(abs, home, name, strlen(name));
}

int main(void)
{
	static const struct {
		const char *abs, *home, *name;
		bool own;
	} rows[] = {
		{ "/home/u/.claude", "/home/u", "claude", true },
		{ "/home/u/.claude/settings.json", "/home/u", "claude", true },
		{ "/home/u/.claude.json", "/home/u", "claude", true },
		{ "/home/u/.claude.json.tmp.12.34", "/home/u", "claude", true },
		{ "/home/u/.config/opencode/opencode.json", "/home/u", "opencode", true },
		{ "/home/u/.local/share/opencode/db", "/home/u", "opencode", true },
		{ "/home/u/.local/state/opencode/locks/x", "/home/u", "opencode", true },
		{ "/home/u/.cache/opencode/bin", "/home/u", "opencode", true },
		{ "/home/u/.config/opencode", "/home/u/", "opencode", true },
		/* another name's, a prefix of a name, a name inside a name */
		{ "/home/u/.claude/x", "/home/u", "codex", false },
		{ "/home/u/.claudex/x", "/home/u", "claude", false },
		{ "/home/u/.clau/x", "/home/u", "claude", false },
		{ "/home/u/.claude./x", "/home/u", "claude", false },
		{ "/home/u/.claude.d/x", "/home/u", "claude", false },
		{ "/home/u/.config/opencodex/x", "/home/u", "opencode", false },
		/* the user's files: not the agent's */
		{ "/home/u/.bashrc", "/home/u", "claude", false },
		{ "/home/u/.ssh/authorized_keys", "/home/u", "ssh", true },
		{ "/home/u/claude/x", "/home/u", "claude", false },
		{ "/home/u/.config/git/config", "/home/u", "claude", false },
		{ "/home/uv/.claude/x", "/home/u", "claude", false },
		{ "/home/u", "/home/u", "claude", false },
		/* names that are no names */
		{ "/home/u/./x", "/home/u", ".", false },
		{ "/home/u/../x", "/home/u", "..", false },
		{ "/home/u/.a/b/c", "/home/u", "a/b", false },
		{ "/home/u/.x", "/home/u", "", false },
		/* no home, a relative one, the root as home */
		{ "/home/u/.claude", NULL, "claude", false },
		{ "/home/u/.claude", "home/u", "claude", false },
		{ "/.claude/x", "/", "claude", true },
		{ "/.config/claude", "/", "claude", true },
	};
	char name[160];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(name, sizeof(name), "place %s (home %s, name %s) is %s",
			 rows[i].abs, rows[i].home ? rows[i].home : "none",
			 rows[i].name, rows[i].own ? "own" : "not own");
		CHECK(name, place(rows[i].abs, rows[i].home, rows[i].name) ==
				    rows[i].own);
	}
	/* a comm is not NUL-terminated at n: only n bytes count */
	CHECK("a name is its first n bytes",
	      hs_agent_place("/home/u/.pi/x", "/home/u", "pixel", 2));

	CHECK("above home: /tmp/** over a home in /tmp",
	      hs_agent_glob_above_home("/tmp/**", "/tmp/t/home"));
	CHECK("above home: the home's own glob",
	      hs_agent_glob_above_home("/tmp/t/home/**", "/tmp/t/home"));
	CHECK("above home: not /tmp/** over /home/u",
	      !hs_agent_glob_above_home("/tmp/**", "/home/u"));
	CHECK("above home: not a sibling's prefix (/tmp/t/ho*)",
	      !hs_agent_glob_above_home("/tmp/t/ho/**", "/tmp/t/home"));
	CHECK("above home: not a place below it",
	      !hs_agent_glob_above_home("/home/u/.cache/**", "/home/u"));
	CHECK_DONE();
}
