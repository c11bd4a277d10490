/* What the floor keeps of a caller task between its notifications: its
 * thread group, its HOOKSHIM_ROLE and its thread group's name (comm).
 * They were read from /proc for every notification -- a static tar's
 * 5,000 files cost 10,000 renderings of /proc/<tid>/status and as many
 * reads of a whole environment, about a third of the supervisor's time
 * (perf; tests/integration/floor_task.sh counts them).
 *
 * An entry holds a descriptor of /proc/<tid>, which stays bound to the
 * pid it was opened for: a hit is believed only while that directory
 * still has a task (one faccessat, once per notification on the
 * receiver: now_tid below), so a tid reused by another task
 * misses, and every file is read through that directory, so it is that
 * task's. What an exec changes (the environment, the name) is not kept
 * across one: the receiver tells every notification (hs_fl_task_seen);
 * an exec marks its thread group's entries, its leader's among them,
 * which keep nothing read until the exec is past -- the task that execs
 * calls again, or is gone (a thread's exec takes the leader's tid) --
 * and a read that raced with the mark is not kept either (a generation
 * per entry). In enforce mode every exec is notified for this
 * (floor_bpf.c).
 *
 * An exec the floor is not told of -- guard mode, where the shim's calls
 * are cookied -- can leave a role or a name read before it in place: a
 * process's own earlier uncookied calls, or its children's lookups of
 * their ancestors. Both are the process's own claims (an environment
 * variable, prctl PR_SET_NAME; docs/limits.md "Agents, hand-offs,
 * shells", docs/network.md), so nothing they decide becomes forgeable
 * by keeping them; a name a process gives itself later is likewise not
 * seen until its exec (it counts only in guard mode: floor_event.c,
 * agent_of). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kcmp.h>

#include "../common/wire.h"
#include "floor_int.h"

#define NTASKS 32

struct task {
	pid_t tid, tgid;
	int dirfd;      /* /proc/<tid>, O_PATH; -1: a free slot */
	int role;       /* -1 not read, 0 none, 1 role_s holds it */
	char role_s[16];
	int command;    /* -1 not checked; else floor_lineage.c's kind of
			 * it (enforce mode) */
	char comm[16];  /* a leader's: its thread group's name; "" unread */
	pid_t exec_tid; /* an exec of this thread's group in flight, by it */
	unsigned gen;   /* changes whenever what is kept may go stale */
	unsigned long used;
};

static struct task tasks[NTASKS] = { [0 ... NTASKS - 1] = { .dirfd = -1 } };
static unsigned long clock_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The receiver's caller of the moment (hs_fl_task_seen) and the entry
 * found live for it during this notification: the caller is stopped in
 * its call until answered, so one check per notification does (it was
 * one per question, three or four). Other threads (a decision's) check
 * every time: their caller may have gone since. */
static __thread pid_t now_tid;
static __thread int now_slot = -1;
static __thread unsigned now_gen;

static void drop(struct task *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
	t->tid = t->tgid = t->exec_tid = 0;
	t->gen++;
}

/* The live entry of tid, or NULL (a stale one dropped). Locked. */
static struct task *find(pid_t tid)
{
	for (int i = 0; i < NTASKS; i++) {
		struct task *t = &tasks[i];

		if (t->dirfd < 0 || t->tid != tid)
			continue;
		if (!(tid == now_tid && i == now_slot && t->gen == now_gen) &&
		    faccessat(t->dirfd, "stat", F_OK, 0) != 0) {
			drop(t); /* that task is gone: tid is another's */
			return NULL;
		}
		if (tid == now_tid) {
			now_slot = i;
			now_gen = t->gen;
		}
		t->used = ++clock_;
		return t;
	}
	return NULL;
}

/* tid's entry, made when there is none (in the least recently used slot
 * no exec is in flight for, if any); NULL when tid has no task. Locked. */
static struct task *get(pid_t tid)
{
	struct task *t = find(tid), *v = NULL;
	char p[40], st[1024], *g;
	pid_t tgid;
	int fd;

	if (t)
		return t;
	snprintf(p, sizeof(p), "/proc/%d", (int)tid);
	if (hs_fl_scarce_now(HS_FL_SCARCE_TASK)) { /* the test suite's */
		errno = EMFILE;
		return NULL;
	}
	if ((fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return NULL;
	/* A leader (most callers): tgkill finds tid in the thread group of
	 * that number only if it leads it, and the task the directory holds
	 * still living says tid was still its number -- without rendering
	 * its status, 10 us of a fresh process's exec. Anything else (a
	 * thread, EPERM for another's credentials) reads the status. */
	if (syscall(SYS_tgkill, tid, tid, 0) == 0 &&
	    faccessat(fd, "stat", F_OK, 0) == 0) {
		tgid = tid;
	} else if (hs_fl_read_small_at(fd, "status", st, sizeof(st)) <= 0 ||
		   !(g = strstr(st, "\nTgid:")) ||
		   (tgid = (pid_t)atoi(g + 6)) <= 0) {
		close(fd);
		return NULL;
	}
	for (int pass = 0; pass < 2 && !v; pass++)
		for (int i = 0; i < NTASKS; i++) {
			struct task *c = &tasks[i];

			if (c->dirfd >= 0 && pass == 0 && c->exec_tid)
				continue; /* its mark must stay */
			if (c->dirfd < 0) {
				v = c;
				break;
			}
			if (!v || c->used < v->used)
				v = c;
		}
	drop(v);
	v->tid = tid;
	v->tgid = tgid;
	v->dirfd = fd;
	v->role = v->command = -1;
	v->comm[0] = '\0';
	v->used = ++clock_;
	if (tid == now_tid) { /* just opened: live for this notification */
		now_slot = (int)(v - tasks);
		now_gen = v->gen;
	}
	/* an exec of its group in flight: marked like the others */
	for (int i = 0; i < NTASKS; i++)
		if (tasks[i].dirfd >= 0 && tasks[i].exec_tid &&
		    tasks[i].tgid == tgid) {
			v->exec_tid = tasks[i].exec_tid;
			break;
		}
	return v;
}

pid_t hs_fl_tgid(pid_t tid)
{
	struct task *t;
	pid_t tgid;

	pthread_mutex_lock(&lock);
	tgid = (t = get(tid)) ? t->tgid : -1;
	pthread_mutex_unlock(&lock);
	return tgid;
}

int hs_fl_thread_fd(pid_t tid, int fd, bool exact)
{
	int pfd = (int)syscall(SYS_pidfd_open, tid, O_EXCL /* PIDFD_THREAD */);
	int r = -1, e;

	/* (our own EMFILE, ENFILE, ENOMEM, here or opening its /proc/<tid>
	 * for its group: kept, for the caller to fail closed) */
	if (pfd < 0 && !hs_fl_scarce(-errno)) {
		pid_t tgid = hs_fl_tgid(tid);

		if (tgid <= 0) {
			if (!hs_fl_scarce(-errno))
				errno = ESRCH;
			return -1;
		}
		/* (kcmp: the thread's descriptor table its leader's) */
		if (exact && tgid != tid &&
		    syscall(SYS_kcmp, tgid, tid, KCMP_FILES, 0, 0) != 0) {
			errno = ESRCH;
			return -1;
		}
		pfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	}
	if (pfd < 0)
		return -1;
	r = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);
	e = errno;
	close(pfd);
	errno = e;
	return r;
}

/* A copy of t's directory and its generation, to read unlocked; -1 when
 * what is read must not be kept (an exec in flight) or t is gone. */
static int snapshot(struct task *t, unsigned *gen, bool *keep)
{
	*gen = t->gen;
	*keep = !t->exec_tid;
	return fcntl(t->dirfd, F_DUPFD_CLOEXEC, 0);
}

/* Still the same entry, nothing changed since the snapshot. Locked. */
static bool unchanged(const struct task *t, pid_t tid, unsigned gen)
{
	return t->dirfd >= 0 && t->tid == tid && t->gen == gen && !t->exec_tid;
}

bool hs_fl_role_claimed(pid_t tid, char *out, size_t cap)
{
	struct task *t;
	char role[sizeof(t->role_s)];
	unsigned gen;
	bool keep;
	int fd, r;

	pthread_mutex_lock(&lock);
	t = get(tid);
	if (t && t->role >= 0 && !t->exec_tid) {
		snprintf(out, cap, "%s", t->role ? t->role_s : "");
		r = t->role;
		pthread_mutex_unlock(&lock);
		return r > 0;
	}
	fd = t ? snapshot(t, &gen, &keep) : -1;
	pthread_mutex_unlock(&lock);
	if (fd < 0) /* no entry: as it always was, by the pid */
		return hs_fl_environ(tid, HS_ENV_ROLE, out, cap);
	/* the environment read unlocked: it may be large */
	r = hs_fl_environ_at(fd, "environ", HS_ENV_ROLE, role, sizeof(role));
	if (r <= 0)
		role[0] = '\0';
	close(fd);
	pthread_mutex_lock(&lock);
	if (keep && r >= 0 && unchanged(t, tid, gen)) {
		t->role = r;
		t->command = -1;
		snprintf(t->role_s, sizeof(t->role_s), "%s", role);
	}
	pthread_mutex_unlock(&lock);
	snprintf(out, cap, "%s", role);
	return r > 0;
}

bool hs_fl_role(pid_t tid, char *out, size_t cap)
{
	return hs_fl_role_known(tid, -1, out, cap);
}

bool hs_fl_role_known(pid_t tid, int known, char *out, size_t cap)
{
	struct task *t;
	unsigned gen = 0;
	pid_t tgid = 0;
	int kind = known;
	bool claimed = hs_fl_role_claimed(tid, out, cap);

	/* enforce mode: "tool" only where the floor saw it made one, and
	 * "handoff" wherever it saw one made, whatever is claimed
	 * (floor_lineage.c); kept with the role, until the exec */
	if (!hs_fl_lineage_on() ||
	    (claimed && strcmp(out, "handoff") == 0) ||
	    !((claimed && strcmp(out, "tool") == 0) ||
	      hs_fl_lineage_handoffs()))
		return claimed;
	pthread_mutex_lock(&lock);
	if ((t = find(tid)) && known < 0 && t->role >= 0 && !t->exec_tid) {
		kind = t->command;
		gen = t->gen;
		tgid = t->tgid;
	}
	pthread_mutex_unlock(&lock);
	if (kind < 0) {
		kind = hs_fl_lineage_kind(tgid ? tgid : hs_fl_tgid(tid));
		pthread_mutex_lock(&lock);
		if (t && unchanged(t, tid, gen))
			t->command = kind;
		pthread_mutex_unlock(&lock);
	} else if (kind == 1 && hs_fl_handoff_dirty()) {
		kind = 2; /* a start-up file changed since it was kept */
	}
	{
		char claim[16];

		snprintf(claim, sizeof(claim), "%s", claimed ? out : "");
		snprintf(out, cap, "%s", hs_fl_lineage_role(kind, claim));
	}
	return out[0] != '\0';
}

void hs_fl_comm(pid_t tid, char *out, size_t cap)
{
	struct task *t, *l = NULL;
	char comm[sizeof(t->comm)];
	unsigned gen = 0;
	bool keep = false;
	ssize_t n;
	int fd;

	/* the thread group's: the title an agent sets (a thread's own may
	 * be a pool's); kept in its leader's entry */
	pthread_mutex_lock(&lock);
	t = get(tid);
	if (t)
		l = t->tgid == tid ? t : get(t->tgid);
	if (l && l->comm[0] && !l->exec_tid) {
		snprintf(out, cap, "%s", l->comm);
		pthread_mutex_unlock(&lock);
		return;
	}
	fd = l ? snapshot(l, &gen, &keep) : -1;
	pthread_mutex_unlock(&lock);
	n = fd >= 0 ? hs_fl_read_small_at(fd, "comm", comm, sizeof(comm)) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0 && comm[n - 1] == '\n')
		comm[--n] = '\0';
	if (n <= 0)
		comm[0] = '\0';
	pthread_mutex_lock(&lock);
	if (fd >= 0 && keep && n > 0 && unchanged(l, l->tid, gen))
		snprintf(l->comm, sizeof(l->comm), "%s", comm);
	pthread_mutex_unlock(&lock);
	snprintf(out, cap, "%s", comm);
}

/* Is task tid gone (its /proc directory without a task)? Its entry
 * tells; one marked for an exec in flight is never evicted for another
 * (get), so no entry means it was dropped as gone. Locked. */
static bool gone(pid_t tid)
{
	for (int i = 0; i < NTASKS; i++)
		if (tasks[i].dirfd >= 0 && tasks[i].tid == tid)
			return faccessat(tasks[i].dirfd, "stat", F_OK, 0) != 0;
	return true;
}

void hs_fl_task_seen(pid_t tid, int nr)
{
	struct task *t;

	now_tid = tid;
	now_slot = -1;
	pthread_mutex_lock(&lock);
	if (nr != SYS_execve && nr != SYS_execveat) {
		/* A call of a task whose group has an exec in flight: past it
		 * when the task that execs is the one calling (its exec
		 * returned, or it was the leader and is the new image), or
		 * when that task is gone (a thread's exec succeeded: it took
		 * the leader's tid). Until then the leader calling may still
		 * be the old image. */
		for (int i = 0; i < NTASKS; i++) {
			struct task *c = &tasks[i];
			pid_t e = c->exec_tid;

			if (c->dirfd < 0 || c->tid != tid || !e)
				continue;
			if (e == tid || gone(e))
				for (int k = 0; k < NTASKS; k++)
					if (tasks[k].dirfd >= 0 &&
					    tasks[k].exec_tid == e) {
						tasks[k].exec_tid = 0;
						tasks[k].role = -1;
						tasks[k].command = -1;
						tasks[k].comm[0] = '\0';
						tasks[k].gen++;
					}
		}
		pthread_mutex_unlock(&lock);
		return;
	}
	/* An exec: its group's entries, its leader's among them (made if
	 * need be), keep nothing until it is past. */
	if ((t = get(tid))) { /* marked first: the leader's get keeps it */
		t->exec_tid = tid;
		t->gen++;
		if (t->tgid != tid)
			(void)get(t->tgid);
	}
	for (int i = 0; t && i < NTASKS; i++)
		if (tasks[i].dirfd >= 0 && tasks[i].tgid == t->tgid) {
			tasks[i].exec_tid = tid;
			tasks[i].role = -1;
			tasks[i].command = -1;
			tasks[i].comm[0] = '\0';
			tasks[i].gen++;
		}
	if (t) { /* marked, and still live for this notification */
		now_slot = (int)(t - tasks);
		now_gen = t->gen;
	}
	pthread_mutex_unlock(&lock);
}
