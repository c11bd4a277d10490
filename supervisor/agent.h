/* The agent process `hookshim run` starts: the session's environment for
 * it, the PATH wrappers, its start and its end. */
#ifndef HOOKSHIM_SUPERVISOR_AGENT_H
#define HOOKSHIM_SUPERVISOR_AGENT_H

#include <signal.h>
#include <sys/types.h>

struct hs_config;

/* What the agent's environment carries of the session (common/wire.h). */
struct hs_agent_env {
	const char *sock, *session, *root, *bin, *lib, *flags, *wrap_dir;
	const char *write; /* HOOKSHIM_WRITE (engine/write_filter.c) */
	/* Its settings "env" is the agent's too, over environ's values, as
	 * Claude Code applies it to itself and its Bash tool; may be NULL. */
	const struct hs_config *cfg;
};

/* environ, minus every HOOKSHIM_* (an outer session's, or values the user
 * left around), plus the settings "env", plus this session's; NULL when out of memory. The shim
 * treats the agent (a child of the hookshim binary) as decided. */
char **hs_agent_environ(const struct hs_agent_env *se);

/* HOOKSHIM_LIB if set (empty: run without the shim), else
 * <bindir>/../lib/libhookshim.so. NULL (with a warning) when missing. */
char *hs_agent_find_lib(const char *bin);

/* Keyboard signals ignored (the agent owns the terminal), SIGTERM and
 * SIGHUP passed on to the agent; the old dispositions kept for it. */
#define HS_AGENT_NIGNORED 3
#define HS_AGENT_NPASSED 2
struct hs_agent_signals {
	struct sigaction old_ignored[HS_AGENT_NIGNORED];
	struct sigaction old_passed[HS_AGENT_NPASSED];
	sigset_t mask;
};
void hs_agent_take_signals(struct hs_agent_signals *ss);
/* Calls fn(arg) once, on a thread of its own, when SIGTERM or SIGHUP
 * reaches us (after passing it on): for what a signal handler may not do,
 * such as killing the hooks still running. 0, or -1. */
int hs_agent_on_terminate(void (*fn)(void *), void *arg);

/* The session's orphans (enforce mode: floor/floor_orphans.c) and every
 * process under them, killed: a session terminated leaves nothing. */
void hs_agent_kill_orphans(void);
/* SIGTERM or SIGHUP, when one was passed on to the agent; else 0. */
int hs_agent_passed_signal(void);

/* Starts the agent. Its pid, or -1 with *code set (127/126). With a
 * floor plan that is on, under the floor (floor/floor_spawn.c). */
struct hs_floor_plan;
pid_t hs_agent_start(char **cmd, char **envp,
		     const struct hs_agent_signals *ss,
		     const struct hs_floor_plan *fp, int *code);

/* execvp's search: a name with a '/' as it is, else the first executable
 * regular file on PATH ("/usr/bin:/bin" when unset), into out (PATH_MAX),
 * passing over the file skip is (when not NULL: the PATH wrapper skips
 * itself). 0, ENOENT, or EACCES when only non-executable files of that
 * name are there. */
struct stat;
int hs_agent_find_exe(const char *name, char *out, const struct stat *skip);

/* Waits for the agent, mirroring its job-control stops; its wait status. */
int hs_agent_wait(pid_t pid);

#endif
