/* The internal model every hook dialect is loaded into.
 *
 * A config is an immutable snapshot once loaded: the supervisor shares it
 * between threads without locks, so nothing here may be mutated after
 * hs_config_load() returns.
 */
#ifndef HOOKSHIM_CONFIG_MODEL_H
#define HOOKSHIM_CONFIG_MODEL_H

#include "agent_profile.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "dialect_list.h"
#include "matcher.h"

/* One value per line of dialect_list.h; what differs between dialects is
 * in their rows of the operations table (dialect.h). */
enum hs_dialect {
#define HS_DIALECT_ENUM(id, row) id,
	HS_DIALECTS(HS_DIALECT_ENUM)
#undef HS_DIALECT_ENUM
	HS_NDIALECT
};

/* What happens, whatever a dialect calls it. */
enum hs_kind {
	HS_KIND_NONE,  /* catalog-only: loads, never fires here */
	HS_KIND_PRE,   /* before a tool call; may deny */
	HS_KIND_POST,  /* after a tool call; see post_mask */
	HS_KIND_SESSION_START,
	HS_KIND_SESSION_END,
};

/* Which outcomes a HS_KIND_POST hook fires on. */
#define HS_POST_SUCCESS 1u
#define HS_POST_FAILURE 2u

/* Which intercepted operations a hook may see. */
#define HS_OP_EXEC  1u /* a command launch */
#define HS_OP_WRITE 2u /* a file write */
#define HS_OP_OTHER 4u /* a tool hookshim never sees (WebFetch, Task): never fires */
#define HS_OP_READ  8u /* a file opened for reading (opt-in: engine/dispatch.c) */
#define HS_OP_NET   16u /* an outbound connection (docs/network.md) */
#define HS_OP_ANY   (HS_OP_EXEC | HS_OP_WRITE | HS_OP_OTHER | HS_OP_READ | \
		     HS_OP_NET)

enum hs_on_error { HS_ONERR_IGNORE, HS_ONERR_FAIL, HS_ONERR_BLOCK };

enum hs_action_type { HS_ACTION_COMMAND, HS_ACTION_BUILTIN, HS_ACTION_HTTP };

/* Claude Code's "http" handler (config/http_handler.c, engine/http_hook.c):
 * the payload POSTed to the hook's url (its `command`). */
struct hs_http {
	char **headers;     /* "Name: value template", NULL-terminated */
	char **allowed_env; /* "allowedEnvVars" as written; NULL = none,
			     * narrowed by httpHookAllowedEnvVars when the
			     * config is finished */
	int headers_line;   /* of "headers" in its file; 0 when none */
	int headers_col;
};

/* Claude Code's per-handler "if" in permission-rule syntax: Tool(pattern). */
struct hs_rule {
	char *tool;    /* "Bash", "Write", "Edit", ... */
	char *pattern; /* NULL = any argument */
};

struct hs_hook {
	enum hs_dialect dialect;
	char *event_name; /* as written in the file: payloads echo it */
	enum hs_kind kind;
	unsigned post_mask; /* HS_POST_* for HS_KIND_POST */
	unsigned ops;       /* HS_OP_* this event can carry */
	struct hs_matcher matcher;
	bool has_rule;
	struct hs_rule rule;

	enum hs_action_type action;
	char *command;     /* shell text, built-in name for HS_ACTION_BUILTIN,
			    * the url for HS_ACTION_HTTP */
	struct hs_http *http; /* HS_ACTION_HTTP only */
	const char *shell; /* "/bin/sh" or "/bin/bash"; static storage */
	int timeout_ms;
	enum hs_on_error on_error;
	size_t max_output; /* bytes of stdout/stderr kept per stream */
	char *work_dir;    /* NULL = the session root */
	char **env;        /* extra "K=V", NULL-terminated; may be NULL */
	int nested;        /* -1 = config default, 0/1 = per hook */
	int fail_closed;   /* -1 = the session's rule, 0/1 = "failClosed" */
	int cmd_line, cmd_col; /* of "command" in its file; 0 when unknown */
	bool managed; /* from an administrator's file (HS_FILE_MANAGED) */
	int match_line, match_col; /* of its matcher, the same way */
	int if_line, if_col;       /* of its "if" rule, the same way */
	bool want_content; /* post write payloads carry the file's content */
	int content_given; /* -1 not said; else the handler's "content" */
	/* A pre hook on writes that reads tool_input.content (said with
	 * "content": true, or found in its command or script by
	 * config/content_use.c): writes it can see are staged, and it is
	 * asked when the content is complete (docs/staged-writes.md). */
	bool content_pre;
	/* Its command or script names the read tool as a quoted word
	 * ('Read'): a catch-all matcher then makes reads events
	 * (engine/match.c, hs_hook_names_read; config/content_use.c). */
	bool read_named;

	char *name;   /* memoh hook name; may be NULL */
	char *source; /* the file it came from */
	int priority; /* higher first (memoh); 0 elsewhere */
	int group;    /* memoh: actions of one hook share a group */
	int order;    /* position across all files, for stable ties */
	bool enabled;
};

/* hookshim's own settings, from the top-level "hookshim" object. */
struct hs_settings {
	int deny_exit;      /* exit status of a denied command; 126 */
	int deny_errno;     /* errno of a denied call in strict mode / writes */
	bool strict;        /* exec/spawn return deny_errno instead */
	bool deny_on_loss;  /* on_supervisor_loss "deny": fail closed */
	int ask_default;    /* HS_DENY or HS_ALLOW when nobody can be asked */
	bool nested_exec;   /* commands started inside a command fire hooks */
	bool all_execs;     /* every exec by the agent is a tool call, not
			     * only shells with a command string (CI: make
			     * runs simple recipe lines without a shell) */
	bool agent_writes_only; /* narrow write events to the agent's own */
	char **write_include;   /* globs; NULL = the session root */
	char **write_exclude;
	bool agent_anywhere;    /* the agent's own writes are events outside
				 * the scope too (writes.agent_anywhere,
				 * default on): common/agent_place.h */
	char **agent_state;     /* writes.agent_state: more places of the
				 * agent's own state (globs) */
	bool follow_symlinks;  /* writes.follow_symlinks: judged by the file a
				* symlink leads to (enforce mode's default) */
	bool follow_symlinks_set; /* ... was given */
	bool judge_temp_files; /* temp-looking names a pre glob names fire */
	bool stage_content; /* writes.stage_content: writes a content-reading
			     * pre hook may see are staged (default on) */
	bool quiet_denials; /* don't echo write denials to a TTY stderr */
	bool notices;       /* a line on the terminal when a hook denies,
			     * fails, times out or adds context */
	char **wrap_tools;  /* tools to put behind PATH wrappers */
	char **net_exclude; /* connections that are no events: "HOST[:PORT]"
			     * globs (docs/network.md) */
	bool net_agent;     /* network_agent: the agent's own connections
			     * are events too */
	int net_keep;       /* network_cache: seconds a destination's
			     * decision is kept; -1 the session (true), 0
			     * never (false) */
	int net_deny_errno; /* network_deny_errno: a denied connection's
			     * error (ECONNREFUSED) */
	int floor;          /* HS_FLOOR_AUTO/REQUIRE/OFF (floor/floor.h) */
	int mode;           /* HS_MODE_AUTO/GUARD/ENFORCE: the trust model */
	bool enforce;       /* the mode this session runs in, resolved by
			     * hs_settings_resolve_mode() before it starts */
	int hook_failure;   /* "on_hook_failure": HS_FAILURE_AUTO/DENY/ALLOW */
	/* What a pre hook that does not run to a verdict means for its
	 * call, resolved by hs_settings_resolve_failure(): deny, and why
	 * (the words of the reason). A handler's "failClosed" overrides. */
	bool fail_closed;
	const char *fail_closed_why;
	bool io_uring_allow; /* the floor lets io_uring_setup through */
	int floor_opens;    /* HS_FLOOR_OPENS_*: which allowed opens the floor
			     * does itself (floor/floor.h) */
	bool floor_opens_set; /* "floor_opens" was given */
	int floor_userns;   /* HS_FLOOR_USERNS_*: the agent in a user
			     * namespace of its own (floor/floor_userns.c) */
	unsigned floor_allow; /* HS_FA_* bits: calls the floor refuses
			       * unless named ("floor_allow") */
	bool floor_allow_set; /* "floor_allow" was given */
	bool floor_sandbox_mounts; /* mount calls let through in a mount
				    * namespace other than the session's
				    * (hs_settings_floor_defaults) */
	char *bot_id;       /* MEMOH_BOT_ID */
	/* "otlp": every decision exported as an OpenTelemetry log record
	 * (supervisor/otlp.c). Given here, the OTEL_EXPORTER_OTLP_*
	 * environment is not read. */
	bool otlp_set;
	char *otlp_endpoint; /* base URL; "/v1/logs" is appended */
	char **otlp_headers; /* "Name: value", NULL-terminated */
	char *otlp_file;     /* OTLP JSON lines, one request a line */
	bool project_never; /* "project_files": "never": a project's own
			     * hook files never load, trusted or not */
	bool strict_config; /* `run` refuses to start on any config error
			     * (CI: --ci and CI=true imply it) */
};

/* "floor_allow": under the floor, calls that change what a path means or
 * go below every path check are refused with EPERM and a reason
 * (floor/floor_refuse.c) unless their group is named here. One
 * line per group: its id and its name in the config. "mount": mount,
 * umount2, pivot_root and the new mount API; "namespaces": unshare and
 * clone with CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWCGROUP or CLONE_NEWPID,
 * setns into such a namespace, clone3; "modules": kernel modules and kexec; "block_devices": a block
 * device opened for writing; "proc_sys": writes under /proc/sys and /sys;
 * "landlock": landlock_restrict_self, whose domain the supervisor cannot
 * see, so that it lets every call of the session go back to the kernel
 * (floor/floor_open.c); "kernel_files": acct and swapon, whose file the
 * kernel itself writes by the name given; "process_image": prctl
 * PR_SET_MM, which moves what /proc shows of a process's image (where its
 * arguments and environment are, its executable) -- unprivileged with
 * PR_SET_MM_MAP -- personality(ADDR_NO_RANDOMIZE), which places an
 * exec's image where the last one was, and prctl PR_SET_CHILD_SUBREAPER,
 * which takes the orphans below the caller: the floor reads them to know
 * what, and whose, a process is; "fanotify": fanotify_init, whose events
 * hand root the file opened with the flags it chose (O_RDWR: a write
 * with no open for writing); "cgroups": a cgroup's file opened for
 * writing -- a process moved (the supervisor, into a cgroup then frozen
 * or killed), a v1 release_agent, which the kernel runs outside the
 * session; "outside_processes": ptrace attaching, process_vm_readv/writev,
 * pidfd_getfd and /proc/<pid>/mem opened for writing of a process that
 * runs outside the session, which then runs or writes what no hook sees
 * (floor/floor_reach.c). */
#define HS_FLOOR_ALLOW_GROUPS(X)             \
	X(MOUNT, "mount")                    \
	X(CHROOT, "chroot")                  \
	X(NAMESPACES, "namespaces")          \
	X(OPEN_BY_HANDLE, "open_by_handle")  \
	X(BPF, "bpf")                        \
	X(MODULES, "modules")                \
	X(USERFAULTFD, "userfaultfd")        \
	X(BLOCK_DEVICES, "block_devices")    \
	X(PROC_SYS, "proc_sys")              \
	X(LANDLOCK, "landlock")              \
	X(KERNEL_FILES, "kernel_files")      \
	X(PROCESS_IMAGE, "process_image")    \
	X(FANOTIFY, "fanotify")              \
	X(CGROUPS, "cgroups")                \
	X(OUTSIDE_PROCESSES, "outside_processes")
enum {
#define HS_FA_BIT_(id, name) HS_FA_BIT_##id,
	HS_FLOOR_ALLOW_GROUPS(HS_FA_BIT_)
#undef HS_FA_BIT_
	HS_FA_COUNT
};
#define HS_FA(id) (1u << HS_FA_BIT_##id)
#define HS_FA_ALL ((1u << HS_FA_COUNT) - 1)
/* The config name of group bit i (0 <= i < HS_FA_COUNT). */
const char *hs_floor_allow_name(int i);

/* The trust model (README, "Guard and enforce"). GUARD: the session's
 * processes are assumed not to attack hookshim itself, so a process that
 * carries the shim decides its own calls (the fast path). ENFORCE: nothing
 * the session can set, write or present takes part in a decision; the
 * floor decides every call it is given. AUTO: enforce in CI mode, with
 * "strict" and with "floor": "require", guard otherwise. */
enum { HS_MODE_AUTO = 0, HS_MODE_GUARD = 1, HS_MODE_ENFORCE = 2 };

/* How bad a diagnostic is (docs/configuration.md). */
enum hs_diag_level {
	/* Harmless: everything loads and fires as written, or as the
	 * dialect documents (an event only the agent sees, a capped
	 * timeout, a file switched off by its own "enabled"). */
	HS_DIAG_WARNING,
	/* A hook does not fire as written (it is skipped, or runs with a
	 * default instead of the value given) or a setting is not applied. */
	HS_DIAG_ERROR,
	/* The whole file could not be used. */
	HS_DIAG_FATAL,
};

struct hs_diag {
	char *text;  /* "file:line:col: message" */
	int line, col; /* of the value it is about; 0 when none */
	bool error;  /* HS_DIAG_ERROR or worse */
	bool fatal;  /* HS_DIAG_FATAL: the file could not be used */
};

/* One variable of a Claude Code settings file's "env" object: Claude Code
 * puts it into its own environment, so its hooks and the commands of its
 * Bash tool see it (config/session_env.c). */
struct hs_session_var {
	char *name, *value;
	char *source; /* the file that set it last */
};
struct hs_protect;

struct hs_config {
	struct hs_hook *hooks;
	size_t nhooks;
	/* the agent profiles users and administrators added, with the
	 * built-ins they did not replace; empty: the built-ins alone
	 * (config/agent_profiles.c) */
	struct hs_agent_set agents;
	struct hs_settings settings;
	struct hs_diag *diags;
	size_t ndiags;
	char **sources; /* files read, in order */
	size_t nsources;
	char *root;
	/* Settings "env" of every Claude-dialect file, merged: a later file
	 * sets a name again over an earlier one (user, project, local). */
	struct hs_session_var *env;
	size_t nenv;
	/* The same directory as the shell names it when that differs (a
	 * session started from a symlinked directory: $PWD is /w/plink, the
	 * root /w/proj); NULL otherwise. Paths written through it are judged
	 * as under the root. */
	char *root_alias;
	/* The name of the program a session starts (`hookshim run -- CMD`'s
	 * basename), whose places are the agent's own (common/agent_place.h);
	 * NULL when none is known. */
	char *agent_name;
	/* The files self-protection covers (engine/protect.h): set by
	 * whoever starts a session from this config, before it is shared,
	 * and freed by them; NULL outside a session. */
	const struct hs_protect *protect;
	/* --trust-project: the project's hook files load without a trust
	 * record (config/trust.h), for this run only. */
	bool trust_project;
	/* What Claude Code's settings say of the other files of their
	 * hierarchy (dialects/claude.c, applied after --import):
	 * allowManagedHooksOnly / allowManagedPermissionRulesOnly in a
	 * managed file, disableAllHooks in a managed or another file. */
	struct {
		bool hooks_only, rules_only, off_managed, off_others;
		char *why_hooks, *why_rules; /* the files that said it */
	} claude;
	/* The administrator's layer: <sysconfdir>/hookshim/managed.json
	 * and managed.d/ *.json, loaded first and always
	 * (hs_config_load_managed). Its hooks are marked managed; what its
	 * "hookshim" object sets is locked: a later file that sets it again
	 * is said and ignored (config/settings.c). */
	struct {
		bool loading;   /* hs_config_load_managed is reading them */
		size_t nfiles;  /* managed files loaded */
		size_t errors;  /* error diagnostics in them: `run` refuses
				 * to start rather than drop any of it */
		bool hooks_only; /* allowManagedHooksOnly in one of them */
		bool rules_only; /* allowManagedPermissionRulesOnly */
		bool all_off;    /* disableAllHooks in one of them */
		char *why_hooks_only; /* the file that said it */
		struct hs_lock {
			char *key;  /* "mode", "writes.exclude", ... */
			char *file; /* the managed file that set it */
		} *locks;
		size_t nlocks;
	} managed;
	/* allowedHttpHookUrls and httpHookAllowedEnvVars, merged over
	 * every file that says them (Claude Code merges the arrays across
	 * settings sources); applied to the http hooks when the config is
	 * finished (config/http_handler.c). An administrator's hooks answer
	 * to the managed files' lists alone (http_managed): no other file's
	 * list drops them or strips their headers. */
	struct hs_http_lists {
		char **urls, **env;
		size_t nurls, nenv;
		bool urls_set, env_set; /* said somewhere (else: no limit) */
	} http, http_managed;
};

void hs_config_init(struct hs_config *cfg, const char *root);
/* The managed file that locks hookshim setting `key` ("mode",
 * "writes.exclude"), or NULL. */
const char *hs_config_locked(const struct hs_config *cfg, const char *key);
void hs_config_free(struct hs_config *cfg);
enum { HS_FAILURE_AUTO, HS_FAILURE_DENY, HS_FAILURE_ALLOW };
/* Resolves fail_closed: "on_hook_failure" when set, else deny in
 * enforce mode, CI mode and with "strict" (what users of a policy in CI
 * expect), allow otherwise (the dialects' own rule: a broken hook is a
 * non-blocking error). */
void hs_settings_resolve_failure(struct hs_settings *s, bool ci);
/* The mode a session with these settings asks for: "mode" when set,
 * else enforce in CI mode, with "strict" or "floor": "require". *explicit
 * says "mode" (or --enforce) chose it: then a missing floor refuses the
 * session rather than falling back to guard. */
bool hs_settings_want_enforce(const struct hs_settings *s, bool ci,
			      bool *explicit_mode);
/* "floor_allow" unset: in guard mode agents' own sandboxes work
 * (bubblewrap, Codex's workspace-write, unshare -r): new mount and user
 * namespaces are let through, and mounts inside such a namespace (never
 * in the session's own); in enforce mode nothing. "floor_opens" unset:
 * in enforce mode every notified open is done by the supervisor ("all":
 * no name the kernel reads again decides anything), in guard mode the
 * judged ones. Call once s->enforce is known. */
void hs_settings_floor_defaults(struct hs_settings *s);
void hs_config_diag(struct hs_config *cfg, enum hs_diag_level level,
		    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same about file `src` at line:col ("src:line:col: message"; the
 * file alone when line is 0), the position kept for sorting. */
void hs_config_diag_at(struct hs_config *cfg, enum hs_diag_level level,
		       const char *src, int line, int col, const char *fmt,
		       ...) __attribute__((format(printf, 6, 7)));
void hs_config_vdiag_at(struct hs_config *cfg, enum hs_diag_level level,
			const char *src, int line, int col, const char *fmt,
			va_list ap) __attribute__((format(printf, 6, 0)));
struct hs_hook *hs_config_add_hook(struct hs_config *cfg);
/* Is h one of Claude Code's "permissions" rules, loaded as a built-in
 * hook (dialects/claude.c), rather than a hook a file wrote? */
bool hs_hook_is_permission_rule(const struct hs_hook *h);
/* Frees what a hook owns (not the hook itself, which lives in an array). */
void hs_hook_free(struct hs_hook *h);
bool hs_config_has_fatal(const struct hs_config *cfg);
/* How many diagnostics are errors (fatal ones included) and warnings. */
void hs_config_diag_counts(const struct hs_config *cfg, size_t *errors,
			   size_t *warnings);

#endif
