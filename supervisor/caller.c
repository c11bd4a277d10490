/* Who asks about an exec, read from /proc while it waits for the answer:
 * the program that runs (its argv[0] may name another) and the agent
 * that starts it (whose own shells are its own only then); see caller.h. */
#include "caller.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/plainstr.h"

/* The command text of an exec: for a program whose argv[0] names
 * another program than the one that runs (`exec -a nohup rm …`), the
 * program that runs, so a hook reads what runs -- but a multi-call
 * binary (busybox) runs the applet its argv[0] names, so that stays. */
char *hs_caller_command_text(const struct hs_msg *req,
			     struct hs_command_why *why)
{
	size_t n = 0;
	char **v, *text;

	/* a multi-call binary runs the program argv[0] names */
	static const char *const multi[] = { "busybox", "toybox", "coreutils",
					     NULL };
	bool multicall = false;

	for (size_t k = 0; req->exe && multi[k]; k++)
		multicall |= strcmp(hs_base(req->exe), multi[k]) == 0;
	if (!req->exe || multicall || hs_command_shell_index(req->argv) >= 0 ||
	    strcmp(hs_base(req->exe), hs_base(req->argv[0])) == 0)
		return hs_command_explain_as(req->argv, req->exe, NULL, why);
	while (req->argv[n])
		n++;
	if (!(v = malloc((n + 1) * sizeof(*v))))
		return NULL;
	memcpy(v, req->argv, (n + 1) * sizeof(*v));
	v[0] = (char *)req->exe;
	text = hs_command_explain(v, NULL, why);
	free(v);
	return text;
}

/* The names process pid runs as into names[*n…]: its executable's
 * basename and its command line's first two words'. Returns its parent's
 * pid (0 when unknown). */
static long names_of(long pid, char exe[PATH_MAX], char cmd[4096],
		     char *names[], size_t *n)
{
	char path[64];
	struct hs_proc_stat st;
	ssize_t r;
	size_t len = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	if ((r = readlink(path, exe, PATH_MAX - 1)) > 0) {
		exe[r] = '\0';
		names[(*n)++] = (char *)hs_base(exe);
	}
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		r = read(fd, cmd, 4095);
		close(fd);
		len = r > 0 ? (size_t)r : 0;
	}
	cmd[len] = '\0';
	for (size_t at = 0, w = 0; at < len && w < 2; at += strlen(cmd + at) + 1, w++)
		names[(*n)++] = (char *)hs_base(cmd + at);
	return hs_proc_stat(pid, &st) == 0 ? st.ppid : 0;
}

/* Which of the agents' own shells argv is, if that agent started it: the
 * caller, or its parent when the caller is the new image judging itself
 * (a static agent's child, shim/init.c), runs as one of the profile's
 * processes. Read from /proc while the caller waits for us. */
const char *hs_caller_agent_internal(const struct hs_msg *req)
{
	char exe[2][PATH_MAX], cmd[2][4096], *names[8] = { NULL };
	size_t n = 0;
	long ppid;

	if (req->pid <= 0)
		return NULL;
	/* `hookshim test` decides in this process: no agent to ask, the
	 * call is taken as any agent's */
	if (req->pid == (long)getpid())
		return hs_command_agent_internal(req->argv);
	/* the /proc reads only for a shell some profile calls its own: a
	 * tool call (nearly every one) matches none */
	if (!hs_command_agent_internal(req->argv))
		return NULL;
	ppid = names_of(req->pid, exe[0], cmd[0], names, &n);
	if (ppid > 1)
		names_of(ppid, exe[1], cmd[1], names, &n);
	names[n] = NULL;
	return hs_command_agent_internal_of(req->argv, names);
}
