/* git's runtime, for a hook that runs git (engine/hook_runtime.c).
 *
 * git runs what its configuration names -- core.fsmonitor, a filter's
 * or textconv's command, an alias, core.hooksPath, include.path -- and
 * its hooks, from files the agent could otherwise write: the system's
 * configuration (GIT_CONFIG_SYSTEM, else /etc/gitconfig; not with
 * GIT_CONFIG_NOSYSTEM), the global one (GIT_CONFIG_GLOBAL, else
 * ~/.gitconfig and $XDG_CONFIG_HOME/git/) and the repository the hook
 * runs in (GIT_DIR, or found from the hook's directory up as git finds
 * it: a .git directory, or a .git file naming one, which is protected
 * too; a linked worktree's main repository too): its config,
 * config.worktree, commondir and gitdir, hooks/, and its submodules'
 * git directories under modules/ alike. A hook's `git status` ran the
 * agent's core.fsmonitor outside the session. A repository or a
 * submodule made during the session is not found. */
#ifndef HOOKSHIM_ENGINE_HOOK_GIT_H
#define HOOKSHIM_ENGINE_HOOK_GIT_H

#include "../config/model.h"
#include "protect.h"

/* Adds those of hook h (home: its HOME or NULL; cwd: its directory;
 * label: "PreToolUse[Bash]#1") to prot. */
void hs_hook_git(const struct hs_config *cfg, const struct hs_hook *h,
		 const char *home, const char *cwd, const char *label,
		 struct hs_protect *prot);

#endif
