/* node's runtime, for a hook whose script node runs (engine/hook_runtime.c).
 *
 * node resolves what a script loads from the directories above it, the
 * project's among them, which the agent writes as its work:
 *   - a `.js` script's module type from the nearest package.json above
 *     it ("type": "module" made a CommonJS hook fail: a non-blocking
 *     error, its call allowed);
 *   - a bare specifier's package (`require("minimatch")`, `import x from
 *     "x"`) from node_modules/ in its directory and each one above, then
 *     NODE_PATH, ~/.node_modules, ~/.node_libraries: a node_modules/<pkg>
 *     the agent makes nearer than the hook's own shadows it.
 * So every package.json from the script's directory up to the nearest
 * one there (that one too), and for each package its text names, each
 * node_modules/<pkg> (and <pkg>.js, .json, .node) from the script's
 * directory up to where it is found (that one whole), are protected; a
 * package found nowhere, those of the home directory too. Node's own
 * modules (fs, path, node:...) are never looked up. Not covered: a
 * package's own dependencies resolved outside its directory, a
 * specifier the text builds at run time. */
#ifndef HOOKSHIM_ENGINE_HOOK_NODE_H
#define HOOKSHIM_ENGINE_HOOK_NODE_H

#include "protect.h"

/* Is script (a path) one node runs: a .js, .mjs or .cjs file, or one
 * whose "#!" line names node? */
bool hs_hook_node_script(const char *script);

/* Adds those of script (absolute) to prot; home: the hook's HOME or
 * NULL; label: "PreToolUse[Bash]#1". */
void hs_hook_node(const char *script, const char *home, const char *label,
		  struct hs_protect *prot);

#endif
