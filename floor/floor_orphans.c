/* The session's orphans, in enforce mode.
 *
 * A process whose parent ends is given to the nearest ancestor that takes
 * orphans (prctl PR_SET_CHILD_SUBREAPER), else to init. floor_lineage.c
 * knows a command's or a hand-off's process by its parent while that
 * parent lives; one whose parent had ended before it was first looked at
 * had lost that, and was taken for the agent's, whose programs are no
 * events: a hand-off's python (its code unseen) that forks and ends, its
 * child rewriting its role away and then exec'ing `rm`, ran it unjudged.
 *
 * So in enforce mode `hookshim run` takes the session's orphans, before
 * the agent starts (hs_floor_take_orphans). A process whose parent is the
 * supervisor and that is not the agent came from somewhere below the
 * agent, not known where, and is taken for a hand-off's
 * (hs_fl_orphan): every program it starts a tool call of its own -- more
 * judging, never less. A daemon a command starts (a dev server left
 * running, gpg-agent) is judged so too. Nothing in the session may take
 * orphans itself (floor_refuse.c, "process_image") or make a PID
 * namespace, whose first process takes those in it ("namespaces").
 *
 * Orphans are ours to reap: at each tick of the floor's watchdog that
 * finds a child of ours ended (floor.c), every child that is neither the
 * agent nor one we started (engine/child.h: a hook) is reaped if it has
 * ended -- a hook's own orphan too (never under the floor, never looked
 * up). A session that ends at a SIGTERM or SIGHUP kills them and what
 * is under them (hs_floor_orphans: supervisor/agent.c, with the agent's
 * tree at its grace's end, and cli/run.c once the agent has ended). */
#include "floor.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/child.h"
#include "floor_int.h"

static bool taken;  /* we take the session's orphans */
static pid_t agent; /* hookshim run's own child, no orphan */

bool hs_floor_take_orphans(void)
{
	taken = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
	return taken;
}

void hs_floor_orphans_agent(pid_t pid)
{
	__atomic_store_n(&agent, pid, __ATOMIC_RELEASE);
}

bool hs_fl_orphan(pid_t tgid, long ppid)
{
	pid_t a = __atomic_load_n(&agent, __ATOMIC_ACQUIRE);

	return taken && ppid == (long)getpid() && a > 0 && tgid != a;
}

static void reap_one(pid_t pid, void *unused)
{
	siginfo_t si;

	(void)unused;
	if (pid == __atomic_load_n(&agent, __ATOMIC_ACQUIRE))
		return;
	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG) < 0 &&
	       errno == EINTR)
		;
}

void hs_fl_orphans_reap(void)
{
	siginfo_t si;

	if (!taken)
		return;
	/* a child of ours has ended (a hook's, the agent's or an
	 * orphan's): a look, then, and not before */
	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid == 0)
		return;
	hs_child_others(reap_one, NULL);
}

struct list {
	pid_t *out;
	size_t n, cap;
};

static void list_one(pid_t pid, void *arg)
{
	struct list *l = arg;

	if (pid != __atomic_load_n(&agent, __ATOMIC_ACQUIRE) && l->n < l->cap)
		l->out[l->n++] = pid;
}

size_t hs_floor_orphans(pid_t *out, size_t cap)
{
	struct list l = { out, 0, cap };

	if (taken)
		hs_child_others(list_one, &l);
	return l.n;
}
