/* What the floor keeps of a caller task between its notifications: its
 * thread group, its HOOKSHIM_ROLE and its thread group's name (comm).
 * They were read from /proc for every notification -- a static tar's 5,000 files cost 10,000 renderings of
 * /proc/<tid>/status and as many reads of a whole environment, about a
 * third of the supervisor's time (perf, tests/integration/floor_task.sh
 * counts them).
 *
 * An entry holds a descriptor of /proc/<tid>, which stays bound to the
 * pid it was opened for: a hit is believed only while that directory
 * still has a task (one faccessat), so a tid reused by another task
 * misses. What an exec changes (the environment) is not kept across
 * one: the receiver tells every notification (hs_fl_task_seen); an exec
 * marks its thread group's entries, whose role is then read afresh, not
 * kept, until each task's next notification (which comes after its exec
 * has happened or failed). In enforce mode every exec is notified for
 * this (floor_bpf.c). An exec the floor is not told of -- guard mode,
 * where the shim's calls are cookied -- can keep a role read before it
 * only for a process that made an uncookied call before it: a static
 * program or a raw syscall, whose environment is its own word anyway (a
 * role is the caller's claim in guard mode, docs/floor.md "Enforce
 * mode"). A name a process gives itself later (prctl PR_SET_NAME) is not
 * seen until its exec: its name is its own claim too, and counts only in
 * guard mode (floor_event.c, agent_of). */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/wire.h"
#include "floor_int.h"

#define NTASKS 32

struct task {
	pid_t tid, tgid;
	int dirfd; /* /proc/<tid>, O_PATH; -1: a free slot */
	int role;  /* -1 not read, 0 none, 1 role_s holds it */
	bool execing; /* an exec notified since its last other call */
	char role_s[16];
	char comm[16]; /* its thread group's name; "" not read */
	unsigned long used;
};

static struct task tasks[NTASKS] = { [0 ... NTASKS - 1] = { .dirfd = -1 } };
static unsigned long clock_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void drop(struct task *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
	t->tid = t->tgid = 0;
}

/* The live entry of tid, or NULL (a stale one dropped). Locked. */
static struct task *find(pid_t tid)
{
	for (int i = 0; i < NTASKS; i++) {
		struct task *t = &tasks[i];

		if (t->dirfd < 0 || t->tid != tid)
			continue;
		if (faccessat(t->dirfd, "stat", F_OK, 0) != 0) {
			drop(t); /* that task is gone: tid is another's */
			return NULL;
		}
		t->used = ++clock_;
		return t;
	}
	return NULL;
}

/* A new entry for tid (the least recently used slot), its thread group
 * read; NULL when tid has no task. Locked. */
static struct task *add(pid_t tid)
{
	struct task *t = &tasks[0];
	char p[40];
	pid_t tgid;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d", (int)tid);
	if ((fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return NULL;
	snprintf(p, sizeof(p), "/proc/%d/status", (int)tid);
	/* read after the descriptor: if tid was reused between the two,
	 * the entry fails its first check */
	if ((tgid = (pid_t)hs_fl_proc_field(p, "\nTgid:")) <= 0) {
		close(fd);
		return NULL;
	}
	for (int i = 1; i < NTASKS; i++)
		if (tasks[i].dirfd < 0 ||
		    (t->dirfd >= 0 && tasks[i].used < t->used))
			t = &tasks[i];
	drop(t);
	t->tid = tid;
	t->tgid = tgid;
	t->dirfd = fd;
	t->role = -1;
	t->execing = false;
	t->comm[0] = '\0';
	t->used = ++clock_;
	return t;
}

pid_t hs_fl_tgid(pid_t tid)
{
	struct task *t;
	pid_t tgid;

	pthread_mutex_lock(&lock);
	t = find(tid);
	if (!t)
		t = add(tid);
	tgid = t ? t->tgid : -1;
	pthread_mutex_unlock(&lock);
	return tgid;
}

bool hs_fl_role(pid_t tid, char *out, size_t cap)
{
	struct task *t;
	char role[sizeof(t->role_s)];
	bool found;

	pthread_mutex_lock(&lock);
	t = find(tid);
	if (!t)
		t = add(tid);
	if (t && t->role >= 0 && !t->execing) {
		found = t->role > 0;
		snprintf(out, cap, "%s", found ? t->role_s : "");
		pthread_mutex_unlock(&lock);
		return found;
	}
	pthread_mutex_unlock(&lock);
	/* the environment read unlocked: it may be large */
	found = hs_fl_environ(tid, HS_ENV_ROLE, role, sizeof(role));
	if (!found)
		role[0] = '\0';
	pthread_mutex_lock(&lock);
	if (t && t->tid == tid && t->dirfd >= 0 && !t->execing) {
		t->role = found;
		snprintf(t->role_s, sizeof(t->role_s), "%s", role);
	}
	pthread_mutex_unlock(&lock);
	snprintf(out, cap, "%s", role);
	return found;
}

void hs_fl_comm(pid_t tid, char *out, size_t cap)
{
	struct task *t;
	char path[40], comm[sizeof(t->comm)];
	pid_t tgid;
	ssize_t n;

	pthread_mutex_lock(&lock);
	t = find(tid);
	if (!t)
		t = add(tid);
	if (t && t->comm[0] && !t->execing) {
		snprintf(out, cap, "%s", t->comm);
		pthread_mutex_unlock(&lock);
		return;
	}
	tgid = t ? t->tgid : tid;
	pthread_mutex_unlock(&lock);
	/* the thread group's: the title an agent sets (a thread's own may
	 * be a pool's) */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tgid);
	n = hs_fl_read_small(path, comm, sizeof(comm));
	if (n > 0 && comm[n - 1] == '\n')
		comm[--n] = '\0';
	if (n <= 0)
		comm[0] = '\0';
	pthread_mutex_lock(&lock);
	if (t && t->tid == tid && t->dirfd >= 0 && !t->execing)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	pthread_mutex_unlock(&lock);
	snprintf(out, cap, "%s", comm);
}

void hs_fl_task_seen(pid_t tid, int nr)
{
	pid_t tgid = -1;

	if (nr != SYS_execve && nr != SYS_execveat) {
		pthread_mutex_lock(&lock);
		for (int i = 0; i < NTASKS; i++)
			if (tasks[i].dirfd >= 0 && tasks[i].tid == tid &&
			    tasks[i].execing) {
				/* past its exec (or its failure) */
				tasks[i].execing = false;
				tasks[i].role = -1;
				tasks[i].comm[0] = '\0';
			}
		pthread_mutex_unlock(&lock);
		return;
	}
	/* its thread group's leader too: a thread's exec takes its tid */
	tgid = hs_fl_tgid(tid);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < NTASKS; i++)
		if (tasks[i].dirfd >= 0 &&
		    (tasks[i].tid == tid || (tgid > 0 && tasks[i].tgid == tgid))) {
			tasks[i].execing = true;
			tasks[i].role = -1;
			tasks[i].comm[0] = '\0';
		}
	pthread_mutex_unlock(&lock);
}
