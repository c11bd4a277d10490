/* The operations table: everything that differs between hook dialects, one
 * row per dialect. Each row is defined in its dialect's one file
 * (dialects/NAME.c: its loader, its payload builder and its decision
 * parser) and listed in dialect_list.h; everything else asks the row of a
 * hook's dialect instead of naming a dialect.
 *
 * The table is declared here, below everything that asks it; the rows
 * are made above both config/ and engine/, from the loader kit
 * (loadkit.h) and the payload and decision kits (engine/payload.h,
 * engine/decide.h). So config/ includes nothing of engine/ or dialects/:
 * it names the rows (dialects.c), the linker joins them. */
#ifndef HOOKSHIM_CONFIG_DIALECT_H
#define HOOKSHIM_CONFIG_DIALECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "model.h"

struct hs_load;
struct hs_event;
struct hs_hook_run;
struct hs_outcome;

/* Where a documented hook file lives. */
enum hs_file_base {
	HS_FILE_HOME,        /* $HOME/path */
	HS_FILE_ROOT,        /* <session root>/path */
	HS_FILE_CONFIG_HOME, /* $XDG_CONFIG_HOME/path, else ~/.config/path */
	HS_FILE_ABSOLUTE,    /* path as written */
	/* $HOOKSHIM_SYSCONFDIR/path, else /etc/path: an administrator's
	 * managed policy (Claude Code's managed-settings.json). A path
	 * ending in "/ *.json" (no space) is every such file of the
	 * directory, in lexical order. */
	HS_FILE_MANAGED,
};

struct hs_file_place {
	enum hs_file_base base;
	const char *path; /* NULL ends a list */
};

/* An event name a dialect fires, and what it means here. */
struct hs_event_def {
	const char *name; /* NULL ends a list */
	enum hs_kind kind;
	unsigned post_mask; /* HS_POST_* */
	unsigned ops;       /* HS_OP_* */
};

/* The tool names a dialect's hooks see for the operations hookshim
 * intercepts. */
struct hs_tool_names {
	const char *exec;
	const char *write;  /* create or overwrite */
	const char *modify; /* in-place change of an existing file */
	const char *read;   /* the agent's own read of a file (opt-in) */
	const char *net;    /* an outbound connection (Claude's WebFetch) */
};

/* What a dialect's environment variable for hook processes holds. */
enum hs_hookenv_value {
	HS_HOOKENV_EVENT,     /* the event name as the file spells it */
	HS_HOOKENV_TOOL,      /* the tool name the hook sees */
	HS_HOOKENV_SESSION,   /* session id, or empty */
	HS_HOOKENV_ROOT,      /* the session root */
	HS_HOOKENV_HOOK_NAME, /* the hook's own name, or empty */
	HS_HOOKENV_BOT_ID,    /* settings.bot_id, or empty */
};

struct hs_hookenv_var {
	const char *name; /* NULL ends a list */
	enum hs_hookenv_value value;
};

/* How the hooks of a dialect that match one event are run and combined. */
enum hs_merge {
	/* All of them, in parallel, identical commands once; the strongest
	 * verdict wins (Claude Code). Runs before the ordered dialects. */
	HS_MERGE_ALL,
	/* One after the other in priority/file order; the decision parser
	 * says when a deny stops the rest. */
	HS_MERGE_ORDERED,
};

typedef int hs_load_fn(struct hs_load *ld, const cJSON *doc);
/* The payload (stdin JSON) for one hook; `tool` is the name its dialect
 * uses for the event. The caller owns the result. */
typedef cJSON *hs_payload_fn(const struct hs_hook *hook,
			     const struct hs_event *ev, const char *tool,
			     const struct hs_settings *settings);
/* Folds what one executed hook said into out. True when no further hook
 * should run; *stop_group when the rest of the hook's group should not
 * (memoh's on_error: fail). */
typedef bool hs_decide_fn(struct hs_hook_run *run, struct hs_outcome *out,
			  bool *stop_group);

struct hs_dialect_ops {
	const char *name;            /* for --dialect, --import and messages */
	const char *const *aliases;  /* other names accepted; may be NULL */

	/* Defaults of every hook the dialect loads. */
	int timeout_ms;
	const char *shell; /* static storage */
	enum hs_on_error on_error;
	bool cwd_from_agent; /* hooks run in the agent's cwd, not the root */

	/* Files. */
	const struct hs_file_place *import_files;  /* --import, in order */
	const struct hs_file_place *default_files; /* no -c nor --import */
	const char *const *path_hints; /* directories naming the dialect */
	/* Tells the dialect from a document's shape; NULL: never by shape. */
	bool (*claims_shape)(const cJSON *doc);
	/* The dialect of a file nothing else claims; tried last. */
	bool fallback;
	hs_load_fn *load;
	/* After --import loaded every import file (their hooks from index
	 * `first` on): what one file of the hierarchy says about the others
	 * (Claude Code's managed settings and disableAllHooks); NULL:
	 * nothing. Files given with -c are not of the hierarchy. */
	void (*after_import)(struct hs_config *cfg, size_t first);

	/* Vocabulary. */
	const struct hs_event_def *events; /* the events that can fire */
	struct hs_tool_names tools;
	/* Matchers of events that carry only one operation (memoh's
	 * workspace and file-write events) see the command or the path, and
	 * those of non-tool events the event name, instead of a tool name. */
	bool matcher_on_request;
	bool priorities; /* hooks carry a priority worth showing */

	/* Running hooks. */
	hs_payload_fn *payload;
	hs_decide_fn *decide;
	enum hs_merge merge;
	const struct hs_hookenv_var *env; /* what hook processes get besides ours */
	/* Its hooks get the config's settings "env" (Claude Code's, which
	 * applies it to its own process and so to everything it starts). */
	bool session_env;
};

/* The row of a dialect (d < HS_NDIALECT). */
const struct hs_dialect_ops *hs_dialect_ops(enum hs_dialect d);

/* The dialects in the order they claim files: the table's order with the
 * fallback last. i from 0; NULL past the end. */
const struct hs_dialect_ops *hs_dialect_in_claim_order(size_t i,
							enum hs_dialect *d);

const char *hs_dialect_name(enum hs_dialect d);
/* A dialect by its name or an alias; -1 when unknown. */
int hs_dialect_parse(const char *name, enum hs_dialect *out);
/* "memcode, mnemoai, memoh, claude": the names, for usage messages. */
const char *hs_dialect_names(void);

/* An event name in any dialect's spelling: its kind and ops. Events only
 * the agent can see are found with kind HS_KIND_NONE. -1 when unknown. */
int hs_event_parse(const char *name, enum hs_kind *kind, unsigned *post_mask,
		   unsigned *ops);

/* The operation a tool name in any dialect (or another agent's name for
 * the same operation) stands for; HS_OP_OTHER for anything else. */
unsigned hs_tool_op(const char *tool);

#endif
