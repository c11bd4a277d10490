/* The script files a hook's command runs, as the runner will find them:
 * for self-protection (engine/protect.h), which must know which files
 * make up the policy.
 *
 * The command is parsed with the engine's shell parser (shparse.h); of
 * every simple command, the program word (when it names a path) and, for
 * an interpreter (sh, bash, python3, node, perl, ...), its script operand
 * are taken. Words are expanded the way the hook's shell will: quotes,
 * backslashes, a leading ~, and $NAME / ${NAME} from the variables the
 * runner sets (the hook's own env, the dialect's CLAUDE_PROJECT_DIR and
 * the like) and the supervisor's environment. A word whose value cannot
 * be known (a command substitution, a glob, ${x:-y}, a variable only the
 * event fills) is skipped. Relative paths are taken from the directory
 * the hook runs in (its work_dir, else the session root). Only files that
 * exist are returned. */
#ifndef HOOKSHIM_ENGINE_HOOK_SCRIPTS_H
#define HOOKSHIM_ENGINE_HOOK_SCRIPTS_H

#include <stddef.h>

#include "../config/model.h"

/* Calls fn(path, arg) for each script file of h (absolute, folded; the
 * string is only valid during the call). */
void hs_hook_scripts(const struct hs_config *cfg, const struct hs_hook *h,
		     void (*fn)(const char *path, void *arg), void *arg);

/* What a walk of a hook's command reports (any may be NULL): each
 * script file, as hs_hook_scripts; each simple command's program word,
 * expanded (a bare name like "jq", or a path), before its script; each
 * python that runs no script file of its own. */
struct hs_hook_visit {
	void (*script)(const char *path, void *arg);
	void (*program)(const char *word, void *arg);
	/* python given its code inline or on stdin (-c, -m, -, none):
	 * its working directory, not a script's, heads its module path */
	void (*python_inline)(const char *prog, void *arg);
	/* a shell that reads start-up files of its own: a login one
	 * (HS_HOOK_LOGIN: -l, --login), an interactive one
	 * (HS_HOOK_INTERACTIVE: -i), one given --rcfile/--init-file rcfile
	 * (else NULL) */
	void (*shell_start)(unsigned how, const char *rcfile, void *arg);
};
#define HS_HOOK_LOGIN 1u
#define HS_HOOK_INTERACTIVE 2u

/* Is prog (a path or a name) python's: python, python3, python3.11? */
bool hs_hook_python_name(const char *prog);

/* Walks shell text `text` (NULL: the hook's command) as the hook's shell
 * would run it, with the hook's variables and directory. */
void hs_hook_walk(const struct hs_config *cfg, const struct hs_hook *h,
		  const char *text, const struct hs_hook_visit *v, void *arg);

/* A hook whose command starts with a program named by its path (the
 * usual "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh) that does not exist or
 * is not executable, and an http hook where libcurl cannot be loaded,
 * fail each time they are asked: one error each, at the
 * command's file:line:col, so `check` and `run` say so before any call
 * (and CI mode, which refuses to start on an error, fails closed). */
void hs_hook_check_programs(struct hs_config *cfg);

/* A variable as the hook's environment will have it (its own env, the
 * settings "env", the dialect's variables, the supervisor's), or NULL. */
const char *hs_hook_var(const struct hs_config *cfg, const struct hs_hook *h,
			const char *name);

/* One shell word's text as the shell would expand it, or NULL when it
 * cannot be known without running anything; malloc'd. `var` looks a name
 * up (NULL: unknown). Exposed for tests. */
char *hs_hook_word_value(const char *text, size_t n,
			 const char *(*var)(const char *name, void *arg),
			 void *arg);

#endif
