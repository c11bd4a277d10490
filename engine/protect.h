/* Self-protection: the built-in rule no hook can allow.
 *
 * A session's policy is more than its JSON snapshot: the hook scripts it
 * runs, the config files it read, its --log and --junit files. The agent
 * must not change any of them while the session runs (a rewritten
 * hooks/guard.sh allows everything; a truncated log hides what was
 * denied). So every such file is write-protected for the whole session,
 * by name and by identity (device and inode, recorded at session start,
 * so another name of the same file is protected wherever the decision
 * point can stat it), and the session root and its ancestors cannot be
 * renamed away (nor can a directory holding a protected file).
 *
 * The rule is decided in the supervisor before any hook runs
 * (supervisor/session.c); the write filter (write_filter.c) hands the
 * protected names to the shim and the floor so that writes to them are
 * asked about even when no hook watches writes at all. */
#ifndef HOOKSHIM_ENGINE_PROTECT_H
#define HOOKSHIM_ENGINE_PROTECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../config/model.h"
#include "event.h"

struct hs_protected {
	char *path; /* absolute, folded */
	char *why;  /* "hook script of PreToolUse[Bash]#1", "config file" */
	bool has_id;
	dev_t dev;
	ino_t ino;
	/* HS_PROT_TREE: a directory protected with everything below it (a
	 * hook script's directory, a start-up directory): nothing may be
	 * made, replaced or removed there ('^' lines of the write filter).
	 * HS_PROT_ON_PATH: a program's name in a directory of the hooks'
	 * PATH (handed on as '&' lines: the directories and the names). */
	enum hs_prot_kind { HS_PROT_FILE, HS_PROT_TREE, HS_PROT_ON_PATH } kind;
	nlink_t nlink; /* at session start: more than 1, other names exist
			* (write_filter.c hands its identity on) */
};

struct hs_protect {
	struct hs_protected *v;
	size_t n;
	char *root;
};

/* The protected set of cfg (its sources and hook scripts) plus the
 * session's own files (`log`, `junit`; either may be NULL). NULL on
 * allocation failure. */
struct hs_protect *hs_protect_new(const struct hs_config *cfg,
				  const char *log, const char *junit);
void hs_protect_free(struct hs_protect *p);
/* One more entry (engine/hook_runtime.c): path (absolute or relative to
 * the working directory) of `kind`, protected as `why`; it need not
 * exist yet. */
void hs_protect_put(struct hs_protect *p, const char *path,
		    enum hs_prot_kind kind, const char *why);
/* One more of the session's own files (path absolute or relative to the
 * working directory; NULL ignored), protected as `why`. */
void hs_protect_add(struct hs_protect *p, const char *path, const char *why);

/* The deny reason (malloc'd) when the pre event ev would change a
 * protected file or rename the root away; NULL when the rule has nothing
 * to say. */
char *hs_protect_judge(const struct hs_protect *p, const struct hs_event *ev);

#endif
