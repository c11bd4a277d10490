/* engine/env_code.c: which environment entries carry code into the
 * programs that read them. What the agents set (measured, env_code.c's
 * head) must be inert; each way to code must not be. */
#include <string.h>

#include "engine/env_code.h"
#include "check.h"

static void entry(const char *name, bool want, const char *e)
{
	CHECK(name, hs_env_code(e, strlen(e)) == want);
}

static void name(const char *what, bool want, const char *n)
{
	CHECK(what, hs_env_code_name(n, strlen(n)) == want);
}

int main(void)
{
	/* what agents set for their commands */
	entry("Codex's PAGER=cat", false, "PAGER=cat");
	entry("Claude Code's GIT_EDITOR=true", false, "GIT_EDITOR=true");
	entry("Gemini CLI's GIT_CONFIG_GLOBAL=/dev/null", false,
	      "GIT_CONFIG_GLOBAL=/dev/null");
	entry("less -R", false, "PAGER=less -R");
	/* ways to code */
	entry("BASH_ENV", true, "BASH_ENV=/tmp/x");
	entry("LD_PRELOAD", true, "LD_PRELOAD=/tmp/x.so");
	entry("NODE_OPTIONS --require", true, "NODE_OPTIONS=--require /tmp/x.js");
	entry("NODE_OPTIONS heap size alone", false,
	      "NODE_OPTIONS=--max-old-space-size=4096");
	entry("a pager that runs a command", true, "PAGER=sh -c 'rm -rf x'");
	entry("less -k reads a key file", true, "PAGER=less -k /tmp/k");
	entry("GIT_SSH_COMMAND", true, "GIT_SSH_COMMAND=rm -rf x");
	entry("SHELL not a system shell", true, "SHELL=/tmp/sh");
	entry("SHELL /bin/bash", false, "SHELL=/bin/bash");
	/* git's exec path: the system's one is what git gives its children */
	entry("GIT_EXEC_PATH the system's", false,
	      "GIT_EXEC_PATH=/usr/lib/git-core");
	entry("GIT_EXEC_PATH elsewhere", true, "GIT_EXEC_PATH=/tmp/git-core");
	/* `git -c` settings as git gives them to its children */
	entry("GIT_CONFIG_PARAMETERS of a user name", false,
	      "GIT_CONFIG_PARAMETERS='user.name'='A B'");
	entry("... of two inert ones", false,
	      "GIT_CONFIG_PARAMETERS='user.name'='x' 'color.ui'='auto'");
	entry("... in the old form", false,
	      "GIT_CONFIG_PARAMETERS='user.email=a@b'");
	entry("... with a quote in the value", false,
	      "GIT_CONFIG_PARAMETERS='user.name'='O'\\''Brien'");
	entry("... of core.fsmonitor", true,
	      "GIT_CONFIG_PARAMETERS='core.fsmonitor'='rm -rf x'");
	entry("... of core.fsmonitor after an inert one", true,
	      "GIT_CONFIG_PARAMETERS='user.name'='x' 'core.fsmonitor'='y'");
	entry("... in the old form, of an alias", true,
	      "GIT_CONFIG_PARAMETERS='alias.x=!rm -rf y'");
	entry("... not quoted as git quotes", true,
	      "GIT_CONFIG_PARAMETERS=core.fsmonitor=y");
	entry("... a quote left open", true,
	      "GIT_CONFIG_PARAMETERS='user.name'='x");
	/* names that carry code with some value (the text rules) */
	name("PAGER may", true, "PAGER");
	name("GIT_CONFIG_VALUE_0 may", true, "GIT_CONFIG_VALUE_0");
	name("PERL5OPT may", true, "PERL5OPT");
	name("PATH is not among them", false, "PATH");
	name("a name of the command's own", false, "msg");
	name("an empty name", false, "");
	CHECK_DONE();
}
