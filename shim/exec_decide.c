/* The scope rules of docs/design-exec.md, shared by every exec path:
 *   - an agent-role process exec'ing a shell with a command string makes a
 *     tool call (top-level event; the child becomes role "tool");
 *   - an agent-role process exec'ing anything else is not a tool call and
 *     its child stays "agent" (launch chains: npx -> node -> claude);
 *     (with tool_calls "every-exec", every exec of the agent is a tool call);
 *   - with no exec hook but read events on, the shell of a tool call
 *     still becomes role "tool" (no event): its reads are not the
 *     agent's;
 *   - a tool-role process' execs are nested events, sent only when nested
 *     execs are enabled for the session;
 *   - hand-offs (docs/agents.md): a tool call whose text runs a string
 *     its hook did not see (the supervisor's answer says so), and a shell
 *     the agent feeds on its stdin, take role "handoff", in
 *     which every program started is a tool call of its own (env, nohup
 *     and the like pass the role on instead), its child "tool" -- or
 *     "handoff" again when it is a shell;
 *   - a command's git: each program it starts that is not git's own is
 *     a tool call of its own, as beneath a hand-off (its settings and
 *     hooks name what it runs);
 *   - a shell fed on a pipe judges each command it reads (stdin_line.h):
 *     while it runs one allowed as seen, its programs are that tool
 *     call's (as role "tool"); one denied, they fail with its reason. */
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../common/plainstr.h"
#include "../common/shellargv.h"
#include "floor_calls.h"
#include "reason.h"
#include "stdin_line.h"
#include "write_scope.h"

HS_CHILD_PATH
bool hs_exec_event(const char *exe, char *const argv[], bool *nested,
		   enum hs_role *child_role)
{
	const struct hs_state *st = hs_state();
	enum hs_role role = st->role;

	/* a shell fed on stdin running a command judged exactly as it read
	 * it (stdin_line.h): what it starts is that tool call's */
	if (role == HS_ROLE_HANDOFF && hs_line_verdict() == HS_LINE_EXACT)
		role = HS_ROLE_TOOL;
	*nested = false;
	*child_role = role;
	/* A shell fed its commands on stdin (a persistent shell on a pipe
	 * or a terminal, `… | sh`, `bash -s`) by the agent or beneath a
	 * hand-off: no command to show yet; every program it starts is
	 * judged (docs/agents.md). Known by the program that runs, not by
	 * argv[0] (`exec -a bash PROG` is PROG). */
	if (role != HS_ROLE_TOOL && hs_shell_name(exe) && hs_system_path(exe) &&
	    hs_shell_reads_stdin(argv)) {
		if (hs_exec_interest(st)) {
			*child_role = HS_ROLE_HANDOFF;
			/* with every exec a tool call, the shell is one too */
			return role == HS_ROLE_AGENT && st->all_execs;
		}
		/* no exec hook: nothing to judge in what it reads, but its
		 * writes and reads are the commands', not the agent's */
		if (st->reads || hs_wscope_beyond())
			*child_role = HS_ROLE_TOOL;
		return false;
	}
	if (role == HS_ROLE_HANDOFF) {
		/* beneath a hand-off: every program is a tool call, but
		 * env, nohup, … only carry it on */
		if (!hs_exec_interest(st))
			return false;
		/* by the program that runs: `exec -a nohup rm` is rm, and
		 * a `nice` outside the system's directories is not nice */
		if (hs_chain_name(exe) && hs_system_path(exe))
			return false;
		/* a program judged beneath a hand-off hands off again, but
		 * git: a shell's environment may carry code (BASH_ENV,
		 * exported functions, PYTHONPATH) that its text does not
		 * show, its program may come on its stdin (`… | python3`),
		 * and what any program runs may come from a file or input
		 * the hand-off's unseen code gave it (common/shellargv.c) */
		*child_role = hs_hands_off_again(exe) ? HS_ROLE_HANDOFF
						      : HS_ROLE_TOOL;
		return true;
	}
	/* git runs what its settings and hooks name (core.fsmonitor in a
	 * `git status`, a hook, an alias's !cmd, core.sshCommand), and ssh
	 * its ProxyCommand, read from files the session may have written: a
	 * program either starts that is not git's own is a tool call of its
	 * own -- the agent's git's as the agent's shells are, a command's
	 * as beneath a hand-off (its children nested, as a tool call's) */
	bool git = role != HS_ROLE_HANDOFF && hs_settings_runner(hs_exe()) &&
		   !hs_git_own(exe);
	/* git's command that is a script runs what its settings name from
	 * a shell of its own: every program it starts judged */
	enum hs_role git_child = git && hs_git_path(exe) ? HS_ROLE_HANDOFF
							 : HS_ROLE_TOOL;

	if (role == HS_ROLE_AGENT &&
	    (st->all_execs || git || hs_shell_command(exe, argv) >= 0)) {
		/* a tool call: its stderr (the model's tool result) carries
		 * the agent's own denials, if any (reason.h) */
		hs_pending_offer(exe, argv, 2);
		/* With no exec hook there is no event, but when the agent's
		 * reads, or its writes beyond the scope, are events the
		 * shell must still take role "tool", so that they are not
		 * the agent's (read_event.c, write_scope.h). */
		if (hs_exec_interest(st) || st->reads || hs_wscope_beyond())
			*child_role = git_child;
		return hs_exec_interest(st);
	}
	if (!hs_exec_interest(st) || role == HS_ROLE_AGENT)
		return false; /* the agent starting a program: still the agent */
	if (git) {
		*child_role = git_child;
		return true;
	}
	if (!hs_nested_enabled(st))
		return false;
	*nested = true;
	return true;
}

/* The supervisor cannot be asked from here, the agent's sandbox hides it
 * (client.h): the floor judges the exec, as it judges a caller without
 * the shim, and we abide by that. */
static void floor_decides(const char *exe, char *const argv[],
			  struct hs_decision *d)
{
	int saved = errno;

	switch (hs_floor_ask_exec(exe, argv, hs_st.role)) {
	case 0:
		break;
	case HS_FLOOR_ASK_HANDOFF:
		d->rep.handoff = true;
		break;
	case HS_FLOOR_ASK_DENIED:
		d->deny = true;
		d->rep.deny = true;
		d->rep.said = true;
		break;
	default:
		hs_ask_lost(&d->rep, errno == ENOSYS
					     ? "the syscall floor has no "
					       "supervisor either"
					     : "the syscall floor did not "
					       "judge it");
		d->deny = d->rep.deny;
	}
	errno = saved;
}

void hs_exec_decide(const char *exe, char *const argv[],
		    struct hs_decision *d)
{
	const struct hs_state *st = hs_state();
	struct hs_msg req;

	d->deny = d->post = false;
	d->id[0] = '\0';
	d->rep.updated[0] = '\0'; /* hs_ask fills it; nothing else does */
	if (st->role == HS_ROLE_HANDOFF && hs_exec_interest(st) &&
	    hs_line_verdict() == HS_LINE_DENIED) {
		/* a program of a command the shell read on stdin and a hook
		 * denied: it fails as that command's would (stdin_line.c
		 * wrote the reason when it judged the command) */
		d->event = d->deny = true;
		d->nested = false;
		d->child_role = HS_ROLE_TOOL;
		d->rep.deny = d->rep.said = true;
		d->rep.hidden = false;
		d->rep.deny_exit = hs_line_deny_exit();
		d->rep.deny_errno = st->deny_errno;
		d->rep.reason[0] = '\0';
		return;
	}
	d->event = hs_exec_event(exe, argv, &d->nested, &d->child_role);
	if (!d->event)
		return;
	hs_make_id(d->id);
	if (st->interest & HS_INTEREST_EXEC_PRE) {
		req = (struct hs_msg){
			.op = "exec", .phase = "pre", .nested = d->nested,
			/* a tool call of its own from a command's process:
			 * git's (hs_exec_event) */
			.beneath = st->role == HS_ROLE_HANDOFF ||
						   (st->role == HS_ROLE_TOOL &&
						    !d->nested)
					   ? 1
					   : -1,
			.id = d->id, .exe = exe, .argv = argv,
		};
		hs_ask_or_floor(&req, &d->rep);
		d->deny = d->rep.deny;
		/* a tool call whose text hands on a string its hook did not
		 * see: what its shell runs is judged too (the agent's own
		 * shell is no tool call) */
		if (d->rep.handoff && !d->rep.own && !d->nested && !d->deny)
			d->child_role = HS_ROLE_HANDOFF;
		if (d->rep.hidden) {
			/* the agent's sandbox hides the supervisor: the
			 * floor judges it, and says a hand-off as the
			 * supervisor does */
			d->rep.handoff = false;
			floor_decides(exe, argv, d);
			if (d->rep.handoff && !d->nested && !d->deny)
				d->child_role = HS_ROLE_HANDOFF;
		}
		if (d->rep.id[0])
			memcpy(d->id, d->rep.id, sizeof(d->id));
	} else {
		/* post hooks alone: nothing asked; the supervisor drops the
		 * post of one of the agent's own shells (`__exec` reports
		 * from the process that made the exec) */
		d->rep.deny_exit = st->deny_exit;
		d->rep.deny_errno = st->deny_errno;
		d->rep.hidden = d->rep.said = d->rep.own = false;
		d->rep.reason[0] = '\0';
	}
	/* hidden from the supervisor, `__exec` could not ask it either; the
	 * agent's own shell is no tool call */
	d->post = !d->deny && (st->interest & HS_INTEREST_EXEC_POST) &&
		  st->bin[0] && !d->rep.hidden && !d->rep.own;
}

char *const *hs_exec_argv(const struct hs_decision *d, const char *exe,
			  char *const argv[], char **out)
{
	int at;
	size_t n;

	if (d->deny || !d->event || !d->rep.updated[0] ||
	    (at = hs_shell_command(exe, argv)) < 0)
		return argv;
	for (n = 0; argv[n]; n++)
		out[n] = argv[n];
	out[n] = NULL;
	out[at] = (char *)d->rep.updated;
	return out;
}

void hs_print_reason(const struct hs_decision *d)
{
	const char *r = d->rep.reason;
	size_t n = strlen(r);

	if (d->rep.said) /* the floor wrote it already */
		return;
	if (!n)
		r = "hookshim: command denied by a hook", n = strlen(r);
	hs_write_str(2, r);
	if (r[n - 1] != '\n')
		hs_write_str(2, "\n");
}

bool hs_executable(int dirfd, const char *path, int flags)
{
	if (!path)
		return false;
	return faccessat(dirfd, path, X_OK, AT_EACCESS | flags) == 0;
}

size_t hs_argc(char *const argv[])
{
	size_t n = 0;

	while (argv && argv[n])
		n++;
	return n;
}

char **hs_post_argv(char **out, const struct hs_decision *d, const char *exe,
		    char *const argv[])
{
	const struct hs_state *st = &hs_st;
	size_t n = 0;

	out[n++] = (char *)st->bin;
	out[n++] = "__exec";
	out[n++] = "--id";
	out[n++] = (char *)d->id;
	if (d->nested)
		out[n++] = "--nested";
	out[n++] = "--";
	out[n++] = (char *)exe;
	for (size_t i = 0; argv && argv[i]; i++)
		out[n++] = argv[i];
	out[n] = NULL;
	return out;
}

char **hs_deny_argv(char **out, char *numbuf, const struct hs_decision *d)
{
	out[0] = (char *)hs_st.bin;
	out[1] = "__deny";
	out[2] = hs_utoa((unsigned long)d->rep.deny_exit, numbuf);
	out[3] = (char *)(d->rep.reason[0] ? d->rep.reason
					   : "hookshim: command denied by a hook");
	if (d->rep.said) /* the floor wrote it already */
		out[3] = NULL;
	out[4] = NULL;
	return out;
}

const char *hs_path_env(void)
{
	const char *p = getenv("PATH");

	return p ? p : "/bin:/usr/bin";
}

int hs_path_next(const char **path, const char *file, char *buf)
{
	const char *p = *path;
	size_t dl, fl = strlen(file);

	if (!p)
		return -1;
	dl = strcspn(p, ":");
	*path = p[dl] ? p + dl + 1 : NULL;
	if (dl + fl + 2 > PATH_MAX)
		return 1; /* skipped, as glibc does (ENAMETOOLONG) */
	/* an empty element is the current directory */
	memcpy(buf, p, dl);
	if (dl)
		buf[dl++] = '/';
	memcpy(buf + dl, file, fl + 1);
	return 0;
}
