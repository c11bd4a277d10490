/* The supervisor and its hooks out of the session's reach; see
 * floor_int.h and docs/floor.md ("Out of reach").
 *
 * `hookshim run` makes itself non-dumpable (cli/run.c), which is enough
 * against an unprivileged agent: ptrace, process_vm_writev, pidfd_getfd
 * and /proc/PID/mem need ptrace access to a non-dumpable process, that
 * is CAP_SYS_PTRACE. Not against root, and not for the hooks, which are
 * dumpable again after their exec. So the floor is told of the calls that
 * reach into another process (floor_bpf.c) and refuses, with EPERM,
 * those whose target is the supervisor or a hook (a process it runs for
 * a decision, or one in that hook's process group, or below it):
 *   - ptrace attaching (PTRACE_ATTACH, PTRACE_SEIZE: no other request
 *     reaches a process not traced already), process_vm_readv/writev,
 *     pidfd_getfd (made by the supervisor itself, floor_getfd.c: the
 *     number of a pidfd can be flipped after a look), perf_event_open
 *     of it (and in enforce mode any by a process that is not a
 *     command's), prlimit64 setting another process's limit;
 *   - kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
 *     pidfd_send_signal with a signal that is not harmless (0, SIGCHLD,
 *     SIGCONT, SIGURG and SIGWINCH are let through in the kernel);
 *   - a signal to a process group: to a hook's, always; to the
 *     supervisor's (the agent shares it, for the terminal) only when the
 *     signal would stop or kill the supervisor: one it neither catches
 *     nor ignores (SIGKILL, SIGSTOP, SIGTTIN, ...; `kill 0` with SIGTERM
 *     still ends the session as it always did);
 *   - kill(-1, sig): it reaches every process of the user, the supervisor
 *     and its hooks among them;
 *   - a descriptor's owner (fcntl F_SETOWN, F_SETOWN_EX, ioctl FIOSETOWN,
 *     SIOCSPGRP) that is either, or its process group: its I/O would
 *     signal it with what F_SETSIG picks, SIGSTOP too;
 *   - an open for writing of /proc/<pid>/... of either (mem, above all),
 *     by its name or through a symlink (floor_reach_proc.c, on the
 *     helpers here that say who is whose).
 * Signals among the session's own processes go on. A caller in a pid
 * namespace of its own cannot name us: its calls go on too.
 *
 * In enforce mode a judged command's process is out of reach too, for
 * the agent's own processes (and a hand-off's, into a command:
 * floor_lineage.c). What runs in a command is nested -- its execs are no
 * tool calls, its reads no Reads, its writes no agent's under
 * writes.agent_only -- on the word of the hook that judged its text; one
 * attached to (ptrace), written into or read (process_vm_*,
 * /proc/<pid>/mem, sampled by perf_event_open), or whose descriptors are
 * taken (pidfd_getfd, /proc/<pid>/fd/N) by such a process would run
 * what no hook saw, or give it what its hook let the command alone
 * have. Refused, EPERM, with why. A command reaching into another (a
 * debugger a tool call runs, strace -p) goes on: it runs nothing its own
 * hook did not let it run.
 * A process reached into while its exec is judged loses the grant of
 * its next image (floor_lineage.c: a tracer from before an exec could
 * have the new image run anything, and let go).
 *
 * What is not closed: a process whose pid the session knows can still be
 * slowed (setpriority, sched_setaffinity, ioprio_set, process_madvise);
 * the pid in a call continued in the kernel is the one we looked at, but
 * pidfd_send_signal's descriptor number can be pointed elsewhere by
 * another thread between our look and the kernel's (the floor's usual
 * race, docs/floor.md). */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/wire.h"
#include "../config/model.h"
#include "../engine/runner.h"

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1u << 2)
#endif
#define PTRACE_TRACEME_REQ 0
#define PERF_FLAG_PID_CGROUP_ (1u << 2) /* linux/perf_event.h's */

/* fcntl's and ioctl's commands that set a descriptor's owner */
static const char *owner_call(const struct seccomp_notif *n)
{
	unsigned cmd = (unsigned)n->data.args[1];

	if (n->data.nr == SYS_fcntl)
		return cmd == F_SETOWN	   ? "fcntl F_SETOWN"
		       : cmd == F_SETOWN_EX ? "fcntl F_SETOWN_EX"
					    : NULL;
	return cmd == FIOSETOWN	  ? "ioctl FIOSETOWN"
	       : cmd == SIOCSPGRP ? "ioctl SIOCSPGRP"
	       : cmd == TIOCSTI	  ? "ioctl TIOCSTI"
				  : NULL;
}

const char *hs_fl_reach_call(const struct seccomp_notif *n)
{
	switch (n->data.nr) {
	case SYS_fcntl:
	case SYS_ioctl: return owner_call(n);
	case SYS_ptrace: return "ptrace";
	case SYS_process_vm_readv: return "process_vm_readv";
	case SYS_process_vm_writev: return "process_vm_writev";
	case SYS_pidfd_getfd: return "pidfd_getfd";
	case SYS_prlimit64: return "prlimit64";
	case SYS_kill: return "kill";
	case SYS_tkill: return "tkill";
	case SYS_tgkill: return "tgkill";
	case SYS_rt_sigqueueinfo: return "rt_sigqueueinfo";
	case SYS_rt_tgsigqueueinfo: return "rt_tgsigqueueinfo";
	case SYS_pidfd_send_signal: return "pidfd_send_signal";
	case SYS_perf_event_open: return "perf_event_open";
	default: return NULL;
	}
}

/* A process's parent and process group, from /proc/<pid>/stat (after the
 * name in parentheses, which may hold anything: the last ')'). */
static int stat_of(pid_t pid, pid_t *ppid, pid_t *pgid)
{
	char p[40], buf[1024], *q;
	long pp, pg;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	if (hs_fl_read_small(p, buf, sizeof(buf)) <= 0)
		return -1;
	if (!(q = strrchr(buf, ')')) ||
	    sscanf(q + 1, " %*c %ld %ld", &pp, &pg) != 2)
		return -1;
	*ppid = (pid_t)pp;
	*pgid = (pid_t)pg;
	return 0;
}

/* Walks up from thread group pid, through at most depth parents: 2 at
 * the supervisor, 1 at a hook's process (where hooks: a hook's
 * descendants keep its process group or, moved out of it, descend from
 * it while their parents live), 0 at the top or where a parent cannot be
 * read. */
static int walk_up(pid_t pid, int depth, bool hooks)
{
	pid_t self = getpid(), pp, pg;

	for (int d = 0; pid > 1 && d < depth; d++) {
		if (pid == self)
			return 2;
		if (stat_of(pid, &pp, &pg) < 0)
			return 0;
		if (hooks && hs_run_is_hook(pid, pg))
			return 1;
		pid = pp;
	}
	return 0;
}

/* Is thread group pid the supervisor (2), a hook or below one (1), or
 * neither (0)? */
int hs_fl_reach_ours(pid_t pid)
{
	if (pid == getpid())
		return 2;
	if (!hs_run_any()) /* no hook: nothing else to look for */
		return 0;
	return walk_up(pid, 64, true) == 1;
}

/* Does thread group pid descend from the supervisor -- the agent's, a
 * command's, an orphan of the session -- rather than run outside it? */
static bool in_session(pid_t pid)
{
	return walk_up(pid, 256, false) == 2;
}

/* Would sig stop or end the supervisor (a process-group signal that
 * reaches it)? One it catches or ignores would not. */
static bool hurts_supervisor(int sig)
{
	struct sigaction sa;

	/* the floor's own stop nudge: caught, but it interrupts the
	 * receiver (floor.c) */
	if (sig == SIGKILL || sig == SIGSTOP || sig == HS_FL_STOP_SIGNAL)
		return true;
	if (sig <= 0 || sig > SIGRTMAX || sigaction(sig, NULL, &sa) < 0)
		return false;
	if (sa.sa_handler != SIG_DFL)
		return false;
	return sig != SIGCHLD && sig != SIGCONT && sig != SIGURG &&
	       sig != SIGWINCH;
}

bool hs_fl_reach_own_pidns(pid_t tid)
{
	char p[40], a[64], b[64];
	ssize_t n, m;

	snprintf(p, sizeof(p), "/proc/%d/ns/pid", (int)tid);
	n = readlink(p, a, sizeof(a) - 1);
	m = readlink("/proc/self/ns/pid", b, sizeof(b) - 1);
	/* unreadable: judge by the numbers, the safer side */
	return n <= 0 || m <= 0 || (n == m && memcmp(a, b, (size_t)n) == 0);
}

/* The pid a descriptor of the caller's is a pidfd of, from its fdinfo
 * ("Pid:", in our namespace: our /proc), or -1. */
static pid_t pidfd_target(pid_t tid, int fd)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/%d/fdinfo/%d", (int)tid, fd);
	return (pid_t)hs_fl_proc_field(p, "\nPid:");
}

/* pidfd calls name their target in our namespace (our /proc's fdinfo) */
static bool is_pidfd(const char *call)
{
	return strncmp(call, "pidfd_", 6) == 0;
}

const char *hs_fl_reach_who(int o)
{
	return o == 2 ? "the hookshim supervisor" : "a hook of the session";
}

/* The thread group of thread tid, looked up only where it may be ours:
 * a thread of the supervisor, or anything while a hook runs. */
static pid_t group_of(pid_t tid)
{
	char p[48];

	if (tid == getpid() || hs_run_any())
		return tid == getpid() ? tid : hs_fl_tgid(tid);
	snprintf(p, sizeof(p), "/proc/self/task/%d", (int)tid);
	return access(p, F_OK) == 0 ? getpid() : 0;
}

/* A call into one process by caller tid, named by any of its threads
 * (kill, prlimit64, a pidfd's PIDFD_THREAD: the kernel takes a thread's
 * id for its process; one of the supervisor's receivers named so once
 * reached it -- `kill -USR2` ended the session); sig is the signal, -1
 * for none. Most targets are not ours, and cost no more than a look at
 * our own task list while no hook runs. */
static int one(pid_t tid, pid_t target, const char *call, int sig, char *why,
	       size_t cap)
{
	pid_t tgid = group_of(target);
	int o = tgid > 0 ? hs_fl_reach_ours(tgid) : 0;

	/* a caller in a pid namespace of its own named someone else */
	if (!o || (!is_pidfd(call) && !hs_fl_reach_own_pidns(tid)))
		return 0;
	if (sig >= 0)
		snprintf(why, cap, "%s of signal %d to %s (pid %d) refused: the "
			 "session cannot reach what decides its calls", call,
			 sig, hs_fl_reach_who(o), (int)tgid);
	else
		snprintf(why, cap, "%s of %s (pid %d) refused: the session "
			 "cannot reach what decides its calls", call,
			 hs_fl_reach_who(o), (int)tgid);
	return EPERM;
}

/* What a process of the session is, for reaching into: 0 the agent's
 * (or unknown), 1 a command's, 2 a hand-off's (floor_lineage.c). A
 * target the lineage does not know but that claims a command's role --
 * no record made of it, for want of memory -- counts as it claims:
 * refusing more, never less. */
static int kind_of(pid_t tgid, bool target)
{
	char role[16];
	int kind = hs_fl_lineage_kind(tgid);

	if (kind || !target)
		return kind;
	hs_fl_lineage_reached(tgid); /* a grant pending drops */
	if (!hs_fl_role_claimed(tgid, role, sizeof(role)))
		return 0;
	return strcmp(role, "tool") == 0 ? 1 : strcmp(role, "handoff") == 0 ? 2 : 0;
}

/* Enforce mode: caller tid reaching into process target with call (not
 * a signal), or by opening path (a file of its /proc/<pid>: named by us,
 * our_name, or by the caller, in its pid namespace): refused when the
 * target is a judged command's and the caller is not a command's itself,
 * the target a hand-off's and the caller the agent's (above), or the
 * target the agent's and the caller a hand-off's (ptrace of the agent's
 * shell, its registers set to an execve of `rm`: the agent's program). A
 * pending grant of a target the agent's process reaches into is
 * dropped: a tracer attached before the exec could have it make
 * another. */
int hs_fl_reach_command(pid_t tid, pid_t target, const char *call,
			const char *path, bool our_name, char *why,
			size_t cap)
{
	pid_t tgid, own;
	int kind, mine;

	if (!hs_fl_lineage_on() || target <= 0 ||
	    (!our_name && !is_pidfd(call) && !hs_fl_reach_own_pidns(tid)))
		return 0;
	errno = 0;
	if ((tgid = hs_fl_tgid(target)) <= 0 || (own = hs_fl_tgid(tid)) <= 0) {
		/* not looked at for want of descriptors or memory: refused
		 * (a target or caller gone is the kernel's to say) */
		if (!hs_fl_scarce(-errno))
			return 0;
		snprintf(why, cap, "%s refused: the supervisor could not look "
			 "at its target for want of descriptors or memory "
			 "(enforce mode)", path ? path : call);
		return EPERM;
	}
	/* a command's reaches anything -- but the agent's where its own
	 * nested execs are judged (its code run there would be no event);
	 * the agent's, another of its own; a hand-off's, another
	 * hand-off's -- not the agent's (whose programs are no events: its
	 * code run there, unjudged) */
	if (own == tgid)
		return 0;
	if ((mine = kind_of(own, false)) == 1 && !hs_fl_lineage_nested_on())
		return 0;
	if (((kind = kind_of(tgid, true)) && mine == 1) || kind == mine)
		return 0;
	/* a debugger on a process outside the session (strace -p of one
	 * the user started elsewhere), a command's or a hand-off's: not the
	 * agent's (which may reach it itself) */
	if (!kind && !in_session(tgid))
		return 0;
	if (!kind && path)
		snprintf(why, cap, "opening %s refused: pid %d is the agent's, "
			 "whose programs are not judged, which a %s may not "
			 "reach into (enforce mode%s)", path, (int)tgid,
			 mine == 1 ? "command" : "hand-off",
			 mine == 1 ? ", nested execs judged" : "");
	else if (!kind)
		snprintf(why, cap, "%s of pid %d refused: it is the agent's, "
			 "whose programs are not judged, which a %s may not "
			 "reach into (enforce mode%s)", call, (int)tgid,
			 mine == 1 ? "command" : "hand-off",
			 mine == 1 ? ", nested execs judged" : "");
	else if (path)
		snprintf(why, cap, "opening %s refused: pid %d runs a judged "
			 "%s, which no process of the session but a "
			 "command's may reach into (enforce mode)", path,
			 (int)tgid, kind == 2 ? "hand-off" : "command");
	else
		snprintf(why, cap, "%s of pid %d refused: it runs a judged %s, "
			 "which no process of the session but a command's "
			 "may reach into (enforce mode)", call, (int)tgid,
			 kind == 2 ? "hand-off" : "command");
	return EPERM;
}

/* "floor_allow": ["outside_processes"] (hs_fl_reach_start). */
static bool outside_allowed;

/* Did process pid start after the supervisor did? Guard mode leaves the
 * session's orphans to init: a server one tool call started in the
 * background, reparented so, is still the session's to debug (`strace
 * -p` in a later call); a process outside it that started before the
 * session -- the shell that started `hookshim run` -- is not. */
static bool since_us(pid_t pid)
{
	static long ours; /* every thread stores the same */
	long o = __atomic_load_n(&ours, __ATOMIC_RELAXED);
	struct hs_proc_stat st;

	if (!o && hs_proc_stat((long)getpid(), &st) == 0)
		__atomic_store_n(&ours, o = st.start, __ATOMIC_RELAXED);
	return o && hs_proc_stat((long)pid, &st) == 0 && st.start > o;
}

void hs_fl_reach_start(unsigned allow)
{
	outside_allowed = allow & HS_FA(OUTSIDE_PROCESSES);
}

/* Caller tid reaching into process target -- attaching to it, its
 * memory read or written, a descriptor of it taken, its /proc/<pid>/mem
 * opened for writing (path) -- where target runs outside the session:
 * refused, in both modes, unless "outside_processes" is allowed. Root
 * attached to the shell that started `hookshim run` and had it run
 * `rm -rf` and write secrets/, no hook asked (session 38's attack run);
 * a user, any of its own processes where Yama does not stop it. */
int hs_fl_reach_outside(pid_t tid, pid_t target, const char *call,
			const char *path, char *why, size_t cap)
{
	pid_t tgid;

	if (outside_allowed || target <= 0 || !hs_fl_reach_own_pidns(tid) ||
	    (tgid = hs_fl_tgid(target)) <= 0 || in_session(tgid) ||
	    (!hs_fl_lineage_on() && since_us(tgid)))
		return 0; /* (gone: the kernel's to say) */
	snprintf(why, cap, "%s%s of pid %d refused: it runs outside the "
		 "session, where what it is made to run or write no hook "
		 "sees (allow with \"hookshim\": {\"floor_allow\": "
		 "[\"%s\"]})", path ? "opening " : call, path ? path : "",
		 (int)tgid,
		 hs_floor_allow_name(HS_FA_BIT_OUTSIDE_PROCESSES));
	return EPERM;
}

int hs_fl_reach_into(pid_t tid, pid_t target, const char *call, char *why,
		     size_t cap)
{
	int r = one(tid, target, call, -1, why, cap);

	if (!r)
		r = hs_fl_reach_outside(tid, target, call, NULL, why, cap);
	return r ? r
		 : hs_fl_reach_command(tid, target, call, NULL, false, why,
				       cap);
}

/* A signal to process group pgid by caller tid. */
static int group(pid_t tid, pid_t pgid, const char *call, int sig, char *why,
		 size_t cap)
{
	if ((hs_run_is_hook(-1, pgid) ||
	     (pgid == getpgrp() && hurts_supervisor(sig))) &&
	    !is_pidfd(call) && !hs_fl_reach_own_pidns(tid))
		return 0;
	if (hs_run_is_hook(-1, pgid)) {
		snprintf(why, cap, "%s of signal %d to the process group of a "
			 "hook (%d) refused: the session cannot reach what "
			 "decides its calls", call, sig, (int)pgid);
		return EPERM;
	}
	if (pgid == getpgrp() && hurts_supervisor(sig)) {
		snprintf(why, cap, "%s of signal %d to process group %d "
			 "refused: it holds the hookshim supervisor, which it "
			 "would stop or end", call, sig, (int)pgid);
		return EPERM;
	}
	return 0;
}

/* Is thread group tgid a command's -- or, once a start-up file changed
 * and every command is taken for a hand-off (floor_handoff.c), a
 * hand-off's, which may then be a command's? */
bool hs_fl_reach_command_or_dirty(pid_t tgid)
{
	int kind = kind_of(tgid, false);

	return kind == 1 || (kind == 2 && hs_fl_handoff_dirty());
}

/* perf_event_open(attr, pid, cpu, group_fd, flags): a process's events
 * (pid > 0) sample its user stack and registers -- the supervisor's and
 * its hooks' refused in both modes. In enforce mode a process of the
 * session that is not a command's opens none: its own events with
 * `inherit` follow its children into the tool calls it starts, one on a
 * child survives that child's exec into a command (and attr, in its
 * memory, is read again by the kernel: no look at it holds), and every
 * process's on a CPU (pid -1) or in a cgroup would sample judged
 * commands and the supervisor alike. A command's own (perf run by a tool
 * call) go on. */
static int perf(pid_t tid, const __u64 *a, char *why, size_t cap)
{
	pid_t pid = (pid_t)a[1], own;
	bool cgroup = (unsigned)a[4] & PERF_FLAG_PID_CGROUP_;
	int r;

	if (!cgroup && pid > 0 &&
	    (r = one(tid, pid, "perf_event_open", -1, why, cap)))
		return r;
	if (!hs_fl_lineage_on())
		return 0;
	errno = 0;
	if ((own = hs_fl_tgid(tid)) <= 0)
		return hs_fl_scarce(-errno) ? EPERM : 0; /* gone: the kernel's */
	if (hs_fl_reach_command_or_dirty(own))
		return 0;
	snprintf(why, cap, "perf_event_open refused: a process of the session "
		 "that is not a judged command's opens no performance events "
		 "(enforce mode): they would sample judged commands -- its "
		 "children's after their exec, or every process on a CPU");
	return EPERM;
}

/* An owner we could not read from the caller: an unmapped address is
 * the kernel's EFAULT to say; one we may not read at all (a process
 * that made itself non-dumpable, where we are not root) is refused --
 * it could name anyone. */
static int unread(const char *call, char *why, size_t cap)
{
	if (errno == EFAULT)
		return 0;
	snprintf(why, cap, "%s refused: the supervisor could not read the "
		 "owner it names", call);
	return EPERM;
}

/* A descriptor's owner set by caller tid (fcntl F_SETOWN, F_SETOWN_EX,
 * ioctl FIOSETOWN, SIOCSPGRP): its I/O then signals the owner with any
 * signal the caller picks (F_SETSIG), SIGSTOP too, which the kernel
 * checks only as kill(2) would for the same user -- the supervisor,
 * stopped so, answered no call of the session and no SIGTERM. An owner
 * that is the supervisor or a hook, or their process group, is refused
 * as a stopping signal to it would be. A pid or a process group, as
 * each call names it: F_SETOWN's in its argument, the others' read from
 * the caller (where another thread can change it before the kernel
 * reads it again: the floor's usual race). */
static int owner(pid_t tid, const struct seccomp_notif *n, char *why,
		 size_t cap)
{
	const char *call = owner_call(n);
	struct f_owner_ex ex = { F_OWNER_PID, 0 };
	int v;

	if (n->data.nr == SYS_fcntl && (unsigned)n->data.args[1] == F_SETOWN) {
		v = (int)n->data.args[2];
		ex.type = v < 0 ? F_OWNER_PGRP : F_OWNER_PID;
		ex.pid = v < 0 ? -v : v;
	} else if (n->data.nr == SYS_fcntl) {
		if (hs_fl_read(tid, n->data.args[2], &ex, sizeof(ex)) != 0)
			return unread(call, why, cap);
	} else if (hs_fl_read(tid, n->data.args[2], &v, sizeof(v)) == 0) {
		ex.type = v < 0 ? F_OWNER_PGRP : F_OWNER_PID;
		ex.pid = v < 0 ? -v : v;
	} else {
		return unread(call, why, cap);
	}
	if (ex.pid <= 0)
		return 0;
	if (ex.type == F_OWNER_PGRP)
		return group(tid, ex.pid, call, SIGSTOP, why, cap);
	return one(tid, ex.pid, call, -1, why, cap);
}

int hs_fl_reach(const struct seccomp_notif *n, char *why, size_t cap)
{
	pid_t tid = (pid_t)n->pid, pp, pg;
	const __u64 *a = n->data.args;
	long pid;

	why[0] = '\0';
	switch (n->data.nr) {
	case SYS_ioctl:
		/* a character pushed into a terminal's input: read by its
		 * reader, the shell that started `hookshim run` too, which
		 * runs it outside the session once the session ends
		 * (session 38's review: `touch PWNED` typed so ran) */
		if ((unsigned)a[1] == TIOCSTI && !outside_allowed) {
			snprintf(why, cap, "ioctl TIOCSTI refused: it types "
				 "into a terminal whose reader may run outside "
				 "the session, what no hook sees (allow with "
				 "\"hookshim\": {\"floor_allow\": [\"%s\"]})",
				 hs_floor_allow_name(
					 HS_FA_BIT_OUTSIDE_PROCESSES));
			return EPERM;
		}
		if ((unsigned)a[1] == TIOCSTI)
			return 0;
		/* fall through */
	case SYS_fcntl:
		return owner(tid, n, why, cap);
	/* (pidfd_getfd: made by the supervisor, floor_getfd.c) */
	case SYS_pidfd_send_signal: {
		pid_t t = pidfd_target(tid, (int)a[0]);

		if (t <= 0)
			return 0;
		if ((unsigned)a[3] & PIDFD_SIGNAL_PROCESS_GROUP)
			return stat_of(t, &pp, &pg) == 0
				       ? group(tid, pg, "pidfd_send_signal",
					       (int)a[1], why, cap)
				       : 0;
		return one(tid, t, "pidfd_send_signal", (int)a[1], why,
			   cap);
	}
	case SYS_ptrace:
		if ((long)a[0] == PTRACE_TRACEME_REQ)
			return 0;
		return hs_fl_reach_into(tid, (pid_t)a[1], "ptrace", why, cap);
	case SYS_process_vm_readv:
		return hs_fl_reach_into(tid, (pid_t)a[0], "process_vm_readv", why, cap);
	case SYS_process_vm_writev:
		return hs_fl_reach_into(tid, (pid_t)a[0], "process_vm_writev", why, cap);
	case SYS_perf_event_open:
		return perf(tid, a, why, cap);
	case SYS_prlimit64:
		if ((pid_t)a[0] == 0 || !a[2]) /* its own, or only a look */
			return 0;
		return one(tid, (pid_t)a[0], "prlimit64", -1, why, cap);
	case SYS_tkill:
		return one(tid, (pid_t)a[0], "tkill", (int)a[1], why, cap);
	case SYS_tgkill:
		return one(tid, (pid_t)a[0], "tgkill", (int)a[2], why,
			   cap);
	case SYS_rt_sigqueueinfo:
		return one(tid, (pid_t)a[0], "rt_sigqueueinfo",
			   (int)a[1], why, cap);
	case SYS_rt_tgsigqueueinfo:
		return one(tid, (pid_t)a[0], "rt_tgsigqueueinfo",
			   (int)a[2], why, cap);
	case SYS_kill:
		pid = (long)(int)a[0];
		if (pid > 0)
			return one(tid, (pid_t)pid, "kill", (int)a[1],
				   why, cap);
		if (pid == -1) {
			if (!hs_fl_reach_own_pidns(tid))
				return 0;
			snprintf(why, cap, "kill of signal %d to every process "
				 "(-1) refused: it would reach the hookshim "
				 "supervisor and its hooks", (int)a[1]);
			return EPERM;
		}
		if (pid == 0) /* the caller's own group: read only if it
			       * could matter */
			return (hs_run_any() || hurts_supervisor((int)a[1])) &&
					       stat_of(tid, &pp, &pg) == 0
				       ? group(tid, pg, "kill", (int)a[1], why,
					       cap)
				       : 0;
		return group(tid, (pid_t)-pid, "kill", (int)a[1], why, cap);
	}
	return 0;
}
