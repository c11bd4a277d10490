/* The reasons of writes and reads the floor denied in an agent, handed to
 * the agent's next tool call (see floor_int.h).
 *
 * A static agent (Codex: musl, raw syscalls) tells its model only its own
 * words about a denied write ("Failed to write file …"): the errno, let
 * alone the hook's reason, never reaches the model, and the floor's
 * message goes to the agent's stderr, the user's terminal. A dynamic agent
 * keeps its denials in its shim and the shell of the model's next command
 * prints them (shim/reason.c); an agent without a shim has nothing to keep
 * them in, so the supervisor keeps them here and writes them to the
 * stderr of that shell while its execve waits, before it starts -- the
 * same line the shim writes, once.
 *
 * Whose denials: an agent-role process (HOOKSHIM_ROLE not "tool" in its
 * initial environment) without this session's shim. The one that takes
 * them: an exec that is a tool call (hs_command_tool_call, the rule of
 * the shim's "classify" phase) by the same agent. "The same agent" is the
 * topmost process of the chain of shimless agent-role ancestors, up to
 * the supervisor: the denied process itself, when the supervisor started
 * it, and for the exec its fork child; it also joins a helper the agent
 * runs for its patches (Codex's `--codex-run-as-fs-helper` inside its
 * bubblewrap) to the agent whose next command takes its denials. A
 * process is named by its pid and its start time (/proc/PID/stat), which
 * a recycled pid does not share.
 *
 * An agent WITH the shim (Claude Code 2.1.332: Bun's file I/O is raw
 * syscalls, so the floor, not its shim, denies its Read and Write tools)
 * keeps the denials its shim made (shim/reason.c); the ones the floor
 * made are kept here, for the denied thread group itself (an agent-role
 * process with this session's shim, whichever thread was denied), and
 * the shim asks for them by a question (common/wire.h
 * HS_FLOOR_TAKE_FLAGS) at the shell exec of each command: from the
 * agent's fork child (the parent's are taken) or the agent itself. Its
 * execs carry the cookie and are never notified otherwise.
 *
 * Everything here runs where the floor reads its callers anyway: the
 * denial on the worker that decided it, the exec on the receiver, which
 * reads /proc only while some denial waits (one atomic load otherwise),
 * and never writes: the text goes to the caller's stderr from the worker
 * that a DECIDE starts (floor.c), which a full pipe can stall, not the
 * receiver. */
#include "floor_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../engine/command.h"
#include "../engine/dispatch.h"

#define MAX_AGENTS 32
#define MAX_DEPTH 32
#define TEXT_CAP 4096

struct ident {
	pid_t pid;
	unsigned long long start; /* /proc/PID/stat field 22 */
};

struct agent {
	struct ident who; /* 0 pid: a free slot */
	size_t len;
	char text[TEXT_CAP];
};

struct hs_fl_pending {
	pthread_mutex_t mu;
	int waiting; /* agents with text; read unlocked on the fast path */
	struct agent a[MAX_AGENTS];
};

struct hs_fl_pending *hs_fl_pending_new(void)
{
	struct hs_fl_pending *p = calloc(1, sizeof(*p));

	if (p)
		pthread_mutex_init(&p->mu, NULL);
	return p;
}

void hs_fl_pending_free(struct hs_fl_pending *p)
{
	if (!p)
		return;
	pthread_mutex_destroy(&p->mu);
	free(p);
}

/* pid's parent and start time; false when it is gone. */
static bool stat_of(pid_t pid, pid_t *ppid, struct ident *id)
{
	struct hs_proc_stat st;

	if (hs_proc_stat(pid, &st) < 0)
		return false;
	*ppid = (pid_t)st.ppid;
	id->pid = pid;
	id->start = (unsigned long long)st.start;
	return true;
}

/* Is pid an agent-role process (not a tool call's, not pid 1 nor ours)?
 * *shim: it has this session's shim. */
static bool agent_role(const struct hs_floor_ctx *x, pid_t pid, bool *shim)
{
	char role[16];

	if (pid <= 1 || pid == getpid())
		return false;
	if (hs_fl_role(pid, role, sizeof(role)) &&
	    strcmp(role, "tool") == 0)
		return false;
	*shim = hs_fl_has_shim(pid, pid, x->cookie);
	return true;
}

/* Is pid an agent-role process without this session's shim? */
static bool shimless_agent(const struct hs_floor_ctx *x, pid_t pid)
{
	bool shim;

	return agent_role(x, pid, &shim) && !shim;
}

/* The topmost of the chain of shimless agent-role processes from pid, a
 * shimless agent itself, up: in *root. */
static bool climb(const struct hs_floor_ctx *x, pid_t pid, struct ident *root)
{
	struct ident id;
	pid_t ppid;

	if (!stat_of(pid, &ppid, &id))
		return false;
	*root = id;
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		pid = ppid;
		if (!shimless_agent(x, pid) || !stat_of(pid, &ppid, &id))
			break;
		*root = id;
	}
	return true;
}

/* The agent tgid belongs to (above), in *root; false when tgid is no
 * shimless agent-role process. */
static bool agent_of(const struct hs_floor_ctx *x, pid_t tgid,
		     struct ident *root)
{
	return shimless_agent(x, tgid) && climb(x, tgid, root);
}

static bool same(const struct ident *a, const struct ident *b)
{
	return a->pid == b->pid && a->start == b->start;
}

/* Is the agent still running? */
static bool alive(const struct ident *who)
{
	struct ident now;
	pid_t ppid;

	return stat_of(who->pid, &ppid, &now) && same(&now, who);
}

/* The slot of agent who: its own, else a free one, else one of an agent
 * that is gone, else the first (the oldest denials give way). */
static struct agent *slot_for(struct hs_fl_pending *p, const struct ident *who)
{
	struct agent *free_one = NULL;

	for (int i = 0; i < MAX_AGENTS; i++)
		if (p->a[i].who.pid && same(&p->a[i].who, who))
			return &p->a[i];
	for (int i = 0; i < MAX_AGENTS && !free_one; i++)
		if (!p->a[i].who.pid)
			free_one = &p->a[i];
	for (int i = 0; i < MAX_AGENTS && !free_one; i++)
		if (!alive(&p->a[i].who))
			free_one = &p->a[i];
	if (!free_one)
		free_one = &p->a[0];
	if (free_one->who.pid)
		p->waiting--;
	free_one->who.pid = 0;
	free_one->len = 0;
	return free_one;
}

/* Appends s with control characters as spaces (shim/reason.c's text). */
static void put(char *dst, size_t *n, size_t cap, const char *s)
{
	for (; *s && *n + 1 < cap; s++)
		dst[(*n)++] = (unsigned char)*s < ' ' ? ' ' : *s;
	dst[*n] = '\0';
}

/* Whose denials a denial in tgid is, in *who: a shimless agent's go to
 * its agent (agent_of); an agent with this session's shim keeps its own,
 * the thread group's whichever thread (Bun's worker) was denied, for its
 * shim to ask for. False when tgid is no agent-role process. */
static bool owner_of(const struct hs_floor_ctx *x, pid_t tgid,
		     struct ident *who)
{
	pid_t ppid;
	bool shim;

	if (!agent_role(x, tgid, &shim))
		return false;
	return shim ? stat_of(tgid, &ppid, who) : climb(x, tgid, who);
}

void hs_fl_pending_denied(const struct hs_floor_ctx *x,
			  const struct hs_fl_call *c, const char *op,
			  const char *path, const char *reason)
{
	struct hs_fl_pending *p = x->pending;
	char line[TEXT_CAP];
	struct ident who;
	struct agent *a;
	size_t n = 0;

	if (!p || !path || !owner_of(x, c->tgid, &who))
		return;
	put(line, &n, sizeof(line) - 1,
	    strcmp(op, "read") == 0 ? "hookshim: the agent's read of "
				    : "hookshim: the agent's write to ");
	put(line, &n, sizeof(line) - 1, path);
	put(line, &n, sizeof(line) - 1, " was denied by a hook: ");
	put(line, &n, sizeof(line) - 1,
	    reason && reason[0] ? reason : "no reason given");
	while (n && line[n - 1] == ' ')
		n--;
	line[n++] = '\n';
	pthread_mutex_lock(&p->mu);
	a = slot_for(p, &who);
	/* the same denial again is said once; when full, the older ones
	 * give way */
	if (!memmem(a->text, a->len, line, n)) {
		if (a->len + n > sizeof(a->text))
			a->len = 0;
		memcpy(a->text + a->len, line, n);
		a->len += n;
	}
	if (!a->who.pid) {
		a->who = who;
		__atomic_add_fetch(&p->waiting, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->mu);
}

/* The text of agent who, taken, or NULL. */
static char *take(struct hs_fl_pending *p, const struct ident *who)
{
	char *text = NULL;

	pthread_mutex_lock(&p->mu);
	for (int i = 0; i < MAX_AGENTS; i++) {
		struct agent *a = &p->a[i];

		if (!a->who.pid || !same(&a->who, who))
			continue;
		text = strndup(a->text, a->len);
		a->who.pid = 0;
		a->len = 0;
		__atomic_sub_fetch(&p->waiting, 1, __ATOMIC_RELEASE);
		break;
	}
	pthread_mutex_unlock(&p->mu);
	return text;
}

static bool nothing_waits(const struct hs_floor_ctx *x)
{
	return !(x->pending &&
		 __atomic_load_n(&x->pending->waiting, __ATOMIC_ACQUIRE));
}

bool hs_fl_take_question(const struct hs_floor_ctx *x,
			 const struct seccomp_notif *n)
{
	return n->data.nr == SYS_execveat &&
	       n->data.args[5] == HS_FLOOR_ASK(x->cookie) &&
	       (int)n->data.args[4] == HS_FLOOR_TAKE_FLAGS;
}

bool hs_fl_exec_idle(const struct hs_floor_ctx *x, const struct seccomp_notif *n)
{
	if (hs_fl_take_question(x, n))
		return nothing_waits(x);
	/* (enforce mode looks at every exec: the one that makes a command's
	 * process, floor_exec.c's grant_unjudged) */
	return !x->exec_hooks && !x->enforce &&
	       (n->data.nr == SYS_execve || n->data.nr == SYS_execveat) &&
	       n->data.args[5] != HS_FLOOR_ASK(x->cookie) && /* a question */
	       nothing_waits(x);
}

/* The shim's question (hs_floor_take): the asking process is the agent
 * itself, or its fork child before the exec (the usual case: Bun forks,
 * the child's exec wrapper asks); the denials of either, if this is a
 * tool call. Whatever the answer, the question goes on to the kernel's
 * EINVAL. */
enum hs_fl_verdict hs_fl_pending_take(const struct hs_floor_ctx *x,
				      struct hs_fl_call *c)
{
	struct hs_fl_pending *p = x->pending;
	struct ident who;
	pid_t tgid, ppid;

	if (nothing_waits(x) || (tgid = hs_fl_tgid((pid_t)c->n.pid)) < 0 ||
	    !hs_fl_exec_argv(c) ||
	    !hs_command_tool_call(c->argv, x->cfg->settings.all_execs) ||
	    !stat_of(tgid, &ppid, &who) || !hs_fl_valid(x->listener, c->n.id))
		return HS_FL_CONTINUE;
	if (!(c->notice = take(p, &who))) {
		struct ident parent;
		pid_t pp;

		if (!stat_of(ppid, &pp, &parent) ||
		    !(c->notice = take(p, &parent)))
			return HS_FL_CONTINUE;
	}
	c->tgid = tgid;
	c->notice_fd = (int)c->n.data.args[0];
	return HS_FL_DECIDE;
}

enum hs_fl_verdict hs_fl_pending_exec(const struct hs_floor_ctx *x,
				      struct hs_fl_call *c,
				      enum hs_fl_verdict v)
{
	struct hs_fl_pending *p = x->pending;
	struct ident who;
	pid_t tgid;

	if (!p || !__atomic_load_n(&p->waiting, __ATOMIC_ACQUIRE) ||
	    (v != HS_FL_CONTINUE && v != HS_FL_DECIDE) || c->nested == 1)
		return v;
	if ((tgid = hs_fl_tgid((pid_t)c->n.pid)) < 0 ||
	    !hs_fl_exec_argv(c) ||
	    !hs_command_tool_call(c->argv, x->cfg->settings.all_execs) ||
	    !agent_of(x, tgid, &who) || !hs_fl_valid(x->listener, c->n.id))
		return v;
	if (!(c->notice = take(p, &who)))
		return v;
	c->tgid = tgid;
	c->notice_fd = 2;
	return HS_FL_DECIDE;
}
