/* The agent profiles; see agents.h and docs/agents.md. Each entry says
 * where its facts come from (the agent's own source or a captured run),
 * so a new version's change can be checked against it. */
#include "agents.h"

#include <string.h>

#include "unwrap.h"


/* Claude Code at start-up, before any model turn: `bash -c env` (its
 * environment capture), exactly that argv. */
static bool claude_env_capture(char *const argv[], int i)
{
	return i == 2 && strcmp(argv[1], "-c") == 0 &&
	       strcmp(argv[2], "env") == 0 && !argv[3];
}

/* Claude Code's snapshot login shell: `bash -c -l 'SNAPSHOT_FILE=…
 * /shell-snapshots/snapshot-…'`. The -l after -c is Claude Code's own
 * argv shape; agents that run a model's command do not use it. */
static bool claude_snapshot_shell(char *const argv[], int i)
{
	return i == 3 && strcmp(argv[1], "-c") == 0 &&
	       strcmp(argv[2], "-l") == 0 && !argv[4] &&
	       strncmp(argv[3], "SNAPSHOT_FILE=", 14) == 0 &&
	       strstr(argv[3], "/shell-snapshots/snapshot-") != NULL;
}

/* Codex's snapshot creation (core/src/shell_snapshot.rs, run as
 * `SHELL -lc SCRIPT`): a script that prints the marker its reader looks
 * for, defines its helper and dumps functions, options, aliases and
 * exports. Every one of these lines must be there, which a model's
 * command has no reason to contain. */
static bool codex_snapshot_creation(char *const argv[], int i)
{
	static const char *const marks[] = {
		"'# Snapshot file'", "__codex_snapshot_command", "printf '\\0'",
		"# Functions", NULL,
	};
	const char *s = argv[i];

	if (argv[i + 1])
		return false;
	for (size_t k = 0; marks[k]; k++)
		if (!strstr(s, marks[k]))
			return false;
	return true;
}

/* Codex's check of a snapshot it just wrote: `set -e; . "SNAP"`. */
static bool codex_snapshot_check(char *const argv[], int i)
{
	for (const struct hs_agent *a = hs_agents; a->name; a++)
		if (strcmp(a->name, "codex") == 0)
			return !argv[i + 1] && hs_unwrap_snapshot_check(a, argv[i]);
	return false;
}

static const char *const claude_processes[] = { "claude", "claude.exe",
						"cli.js", NULL };
/* 2.0.x (cli.js) and 2.1.x (cli.js, then the native binary): the IDE
 * probe on Linux and the parent walk that looks for an editor; both run
 * through /bin/sh -c by the agent's execSync. Captured in runs of 2.0.0
 * and 2.1.100 (tests/e2e): its shell lookup `which zsh`, `which bash`;
 * 2.0.0 also asks `npm config get prefix` (its install check) and
 * `git rev-parse --show-toplevel` (the project root), all /bin/sh -c
 * while its tool calls are /bin/bash -c. */
static const struct hs_agent_internal claude_internal[] = {
	{ "Claude Code's environment capture (bash -c env)", NULL, NULL,
	  claude_env_capture },
	{ "Claude Code's shell-snapshot login shell", NULL, NULL,
	  claude_snapshot_shell },
	{ "Claude Code's IDE probe", "/bin/sh",
	  "ps aux | grep -E *code*cursor*windsurf* | grep -v grep", NULL },
	{ "Claude Code's editor parent walk", "/bin/sh",
	  "ps -o command= -p [0-9]*", NULL },
	{ "Claude Code's shell lookup", "/bin/sh", "which zsh", NULL },
	{ "Claude Code's shell lookup", "/bin/sh", "which bash", NULL },
	{ "Claude Code's install check", "/bin/sh", "npm config get prefix",
	  NULL },
	{ "Claude Code's project-root lookup", "/bin/sh",
	  "git rev-parse --show-toplevel", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const codex_processes[] = { "codex", NULL };
static const struct hs_agent_internal codex_internal[] = {
	{ "Codex's shell-snapshot creation", NULL, NULL,
	  codex_snapshot_creation },
	{ "Codex's shell-snapshot check", NULL, NULL, codex_snapshot_check },
	{ NULL, NULL, NULL, NULL },
};

static const char *const gemini_processes[] = { "gemini", NULL };

/* Qwen Code 0.24 (its bundled chunks): commandExists() and the ripgrep lookup
 * run `command -v NAME`; the IDE detection walks its parents with
 * `ps -o ppid=,command= -p PID`. node's exec/execSync: /bin/sh -c. */
static const char *const qwen_processes[] = { "qwen", NULL };
static const struct hs_agent_internal qwen_internal[] = {
	{ "Qwen Code's command lookup", "/bin/sh", "command -v *", NULL },
	{ "Qwen Code's parent-process walk", "/bin/sh",
	  "ps -o ppid=,command= -p [0-9]*", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const char *const pi_processes[] = { "pi", NULL };

const struct hs_agent hs_agents[] = {
	/* Claude Code 2.0.x-2.1.x: buildExecCommand joins
	 * [source SNAP [2>/dev/null || true]] [session env] [shopt/setopt
	 * guard] `eval QUOTED [< /dev/null]` `pwd -P >| CWDFILE` with " && ";
	 * commands its process tools would match ride in
	 * __CLAUDE_CC_COMMAND_TEXT instead. */
	{ .name = "claude-code",
	  .label = "Claude Code",
	  .processes = claude_processes,
	  .shapes = HS_SHAPE_EVAL_CHAIN,
	  .snapshot = "*/shell-snapshots/snapshot-*",
	  .cwd_file = "*/claude-*-cwd",
	  .carry_var = "__CLAUDE_CC_COMMAND_TEXT",
	  .internal = claude_internal },
	/* Codex (core/src/tools/runtimes/mod.rs,
	 * maybe_wrap_shell_lc_with_snapshot): CAPTURES, `if . 'SNAP'
	 * >/dev/null 2>&1; then :; fi`, RESTORES, `exec 'SHELL' -c 'CMD'`;
	 * validation of a new snapshot is `set -e; . "SNAP"`. */
	{ .name = "codex",
	  .label = "Codex",
	  .processes = codex_processes,
	  .shapes = HS_SHAPE_EXEC_SHELL | HS_SHAPE_SOURCE_REST,
	  .snapshot = "*/shell_snapshots/*",
	  .internal = codex_internal },
	/* Gemini CLI 0.61 (ShellToolInvocation.wrapCommandForBackgroundPIDs
	 * and ensurePromptvarsDisabled): the command trimmed, a trailing
	 * backslash given a space. */
	{ .name = "gemini-cli",
	  .label = "Gemini CLI",
	  .processes = gemini_processes,
	  .shapes = HS_SHAPE_SUBSHELL_TRAP,
	  .bg_file = "*/gemini-shell-*/bgpids.tmp",
	  .bg_var = "_bgpids_file",
	  .bg_trap = "jobs -p > \"$_bgpids_file\"",
	  .guard = "shopt -u promptvars nullglob extglob nocaseglob dotglob;",
	  .internal = NULL },
	/* Qwen Code 0.24: the model's command runs verbatim (bash -c). */
	{ .name = "qwen-code",
	  .label = "Qwen Code",
	  .processes = qwen_processes,
	  .internal = qwen_internal },
	/* pi 0.73: the model's command runs verbatim (bash -c), nothing
	 * else. */
	{ .name = "pi", .label = "pi", .processes = pi_processes },
	{ 0 },
};

const struct hs_agent *hs_agent_by_process(const char *exe)
{
	const char *base;

	if (!exe)
		return NULL;
	base = strrchr(exe, '/');
	base = base ? base + 1 : exe;
	for (const struct hs_agent *a = hs_agents; a->name; a++)
		for (size_t k = 0; a->processes && a->processes[k]; k++)
			if (strcmp(base, a->processes[k]) == 0)
				return a;
	return NULL;
}
