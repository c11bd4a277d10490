/* A hook's runtime beyond its script files, for self-protection
 * (engine/protect.h): what else decides what the hook does, and that the
 * agent could otherwise change during the session.
 *
 * Resolved once, at session start, from the hook's command (and, for a
 * shell script, the script's text) with the engine's shell parser
 * (hook_scripts.h):
 *   - the directory of each script named by a path ("$CLAUDE_PROJECT_DIR/
 *     .claude/hooks/guard.py", "./hooks/x.sh"), with everything below it:
 *     a python hook's sibling modules (and a new json.py shadowing the
 *     standard library, since the script's directory comes first on
 *     sys.path), its __pycache__, a shell hook's sourced helpers. Not
 *     when that directory is the session root or above it, HOME or above
 *     it, a temp or system directory, or on the hooks' PATH: there the
 *     script file alone is protected;
 *   - the start-up files of the interpreters the hooks run: python's user
 *     site directory (a usercustomize.py or .pth there runs in every
 *     python), jq's ~/.jq (file or directory), the files BASH_ENV and ENV
 *     name for shell hooks, the -r/--require/--import files of
 *     NODE_OPTIONS for node ones;
 *   - for each program a hook runs by bare name (jq, grep, python3, the
 *     interpreter of a "#!/usr/bin/env python3" script): the file it
 *     resolves to on the hooks' PATH, and the same name in every PATH
 *     directory before that one (a new /usr/local/bin/jq would run
 *     instead of /usr/bin/jq).
 * Missing paths are protected too: their creation is what is denied. */
#ifndef HOOKSHIM_ENGINE_HOOK_RUNTIME_H
#define HOOKSHIM_ENGINE_HOOK_RUNTIME_H

#include "../config/model.h"
#include "protect.h"

/* Adds the runtime of hook h (label: "PreToolUse[Bash]#1") to p. */
void hs_hook_runtime(const struct hs_config *cfg, const struct hs_hook *h,
		     const char *label, struct hs_protect *p);

/* Does h's command run python only with its code inline or on stdin
 * (`python3 -c '...'`, `-m`, `-`)? Then its working directory, the
 * session root the agent writes, heads its module path (a json.py made
 * there ran in the hook): it runs with PYTHONSAFEPATH=1 unless its
 * environment says otherwise (dispatch.c). Not where a python of the
 * command runs a script, whose own directory must stay on its path. */
bool hs_hook_python_inline(const struct hs_config *cfg,
			   const struct hs_hook *h);

#endif
