/* posix_spawn, posix_spawnp, system and popen.
 *
 * posix_spawn decides in the parent (the child is glibc's clone(CLONE_VM)
 * helper, where nothing of ours runs) and marks the child
 * "spawn:<our pid>". A denied spawn starts `hookshim __deny EXIT REASON`
 * instead, so the caller gets a child that fails like the command would
 * have. libuv probes each PATH entry with posix_spawn until one is not
 * ENOENT: a target that is not executable goes straight to the real call,
 * so only the candidate that runs fires an event.
 *
 * system() and popen() are re-implemented on top of the same path (as musl
 * does) rather than forwarded: glibc's versions spawn through a hidden
 * __posix_spawn with the unrepaired environ, and the shell they start
 * would then decide again in its constructor. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "envfix.h"
#include "exec.h"
#include "real.h"

extern char **environ;

static int real_spawn(pid_t *pid, const char *path,
		      const posix_spawn_file_actions_t *fa,
		      const posix_spawnattr_t *attr, char *const argv[],
		      char *const envp[])
{
	return HS_REAL(posix_spawn)(pid, path, fa, attr, argv, envp);
}

/* Spawns what `d` says for (path, argv): the command, the command under
 * __exec, or the deny helper. The caller has decided already. */
static int spawn_decided(pid_t *pid, const char *path,
			 const posix_spawn_file_actions_t *fa,
			 const posix_spawnattr_t *attr, char *const argv[],
			 char *const envp[], const struct hs_decision *d)
{
	const struct hs_state *st = &hs_st;
	char marker[32], num[24];

	hs_marker(marker, "spawn", hs_getpid());
	HS_ENV_ON_STACK(env, envp, d->child_role, marker);
	size_t n = hs_argc(argv) + 9;
	char *xargv[n]; /* >= 9: also fits the 5 of __deny */

	if (!env)
		return E2BIG; /* never spawn without the shim */

	if (d->deny) {
		if (st->strict || !st->bin[0])
			return d->rep.deny_errno;
		return real_spawn(pid, st->bin, fa, attr,
				  hs_deny_argv(xargv, num, d), env);
	}
	{
		/* as a hook rewrote the command, if one did */
		char *uargv[hs_argc(argv) + 1];

		argv = hs_exec_argv(d, path, argv, uargv);
		if (d->post)
			return real_spawn(pid, st->bin, fa, attr,
					  hs_post_argv(xargv, d, path, argv), env);
		return real_spawn(pid, path, fa, attr, argv, env);
	}
}

static int spawn_common(pid_t *pid, const char *path,
			const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[],
			char *const envp[])
{
	struct hs_decision d;
	int r;
	HS_ERRNO_SAVE();

	hs_exec_decide(path, argv, &d);
	r = spawn_decided(pid, path, fa, attr, argv, envp, &d);
	HS_ERRNO_RESTORE();
	return r;
}

static bool pass_through(void)
{
	return !hs_exec_watched(hs_state()) || hs_guarded();
}

HS_VIS int posix_spawn(pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[],
		       char *const envp[])
{
	if (pass_through() || !hs_executable(AT_FDCWD, path, 0))
		return real_spawn(pid, path, fa, attr, argv, envp);
	return spawn_common(pid, path, fa, attr, argv, envp);
}

HS_VIS int posix_spawnp(pid_t *pid, const char *file,
			const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[],
			char *const envp[])
{
	char buf[PATH_MAX];
	const char *path;
	int r;

	if (pass_through())
		goto real;
	if (strchr(file, '/'))
		return posix_spawn(pid, file, fa, attr, argv, envp);
	path = hs_path_env();
	while (*file && (r = hs_path_next(&path, file, buf)) >= 0)
		if (r == 0 && hs_executable(AT_FDCWD, buf, 0))
			return spawn_common(pid, buf, fa, attr, argv, envp);
real:
	/* nothing to run: the real call reports the error */
	return HS_REAL(posix_spawnp)(pid, file, fa, attr, argv, envp);
}

/* system(3), the musl way: ignore SIGINT/SIGQUIT and block SIGCHLD in the
 * caller while the shell runs; the child gets the caller's mask and
 * default dispositions back. */
static int run_and_wait(const char *path, char *const argv[],
			const struct hs_decision *d)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oldint, oldquit;
	sigset_t chld, oldmask, def;
	posix_spawnattr_t attr;
	int status = 0x7f00, r;
	pid_t pid;

	sigaction(SIGINT, &ign, &oldint);
	sigaction(SIGQUIT, &ign, &oldquit);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &oldmask);
	sigemptyset(&def);
	if (oldint.sa_handler != SIG_IGN)
		sigaddset(&def, SIGINT);
	if (oldquit.sa_handler != SIG_IGN)
		sigaddset(&def, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &oldmask);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr,
				 POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	r = spawn_decided(&pid, path, NULL, &attr, argv, environ, d);
	posix_spawnattr_destroy(&attr);
	if (r == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGQUIT, &oldquit, NULL);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (r)
		errno = r;
	return status;
}

HS_VIS int system(const char *cmd)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	struct hs_decision d;
	int status;
	HS_ERRNO_SAVE();

	if (pass_through())
		return HS_REAL(system)(cmd);
	if (!cmd) /* is a shell available? without running one */
		return hs_executable(AT_FDCWD, "/bin/sh", 0);
	hs_exec_decide("/bin/sh", argv, &d);
	if (d.deny) {
		if (hs_st.strict) {
			errno = d.rep.deny_errno;
			return -1;
		}
		hs_print_reason(&d);
		HS_ERRNO_RESTORE();
		return (d.rep.deny_exit & 0xff) << 8;
	}
	if (d.event && d.rep.updated[0]) /* a hook rewrote the command */
		argv[2] = d.rep.updated;
	status = run_and_wait("/bin/sh", argv, &d);
	HS_ERRNO_RESTORE();
	return status;
}

/* popen streams we started, for pclose and for closing them in later
 * popen children (POSIX). popen is not async-signal-safe, so a mutex and
 * malloc are fine; fork handlers keep the mutex usable in a fork child. */
struct popen_ent {
	FILE *f;
	int fd;
	pid_t pid;
	struct popen_ent *next;
};
static struct popen_ent *popen_list;
static pthread_mutex_t popen_lock = PTHREAD_MUTEX_INITIALIZER;

/* The lock is held across fork so a child never inherits the list half
 * edited. The handlers are registered at the first popen: in the other
 * processes (nearly all) a fork child would run them for nothing, and
 * each page of ours it touches is a page fault. */
static bool popen_used HS_HOT, popen_held HS_HOT;

static void popen_prepare(void)
{
	if (__atomic_load_n(&popen_used, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&popen_lock);
		popen_held = true;
	}
}

static void popen_parent(void)
{
	if (popen_held) {
		popen_held = false;
		pthread_mutex_unlock(&popen_lock);
	}
}

/* popen_used, not popen_held: another thread may have taken the lock for
 * its first popen after our prepare handler looked. */
static void popen_child(void)
{
	if (__atomic_load_n(&popen_used, __ATOMIC_ACQUIRE)) {
		popen_held = false;
		pthread_mutex_init(&popen_lock, NULL);
	}
}

static pthread_once_t popen_once = PTHREAD_ONCE_INIT;

static void popen_register(void)
{
	pthread_atfork(popen_prepare, popen_parent, popen_child);
}

static FILE *popen_decided(const char *cmd, const char *mode,
			   const struct hs_decision *d)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	bool reading = mode[0] == 'r', cloexec = strchr(mode, 'e') != NULL;
	posix_spawn_file_actions_t fa;
	struct popen_ent *e;
	int p[2], mine, theirs, target = reading ? 1 : 0, r;
	FILE *f = NULL;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return NULL;
	mine = reading ? p[0] : p[1];
	theirs = reading ? p[1] : p[0];
	e = malloc(sizeof(*e));
	if (!e || posix_spawn_file_actions_init(&fa) != 0) {
		free(e);
		HS_REAL(close)(p[0]);
		HS_REAL(close)(p[1]);
		errno = ENOMEM;
		return NULL;
	}
	pthread_once(&popen_once, popen_register);
	__atomic_store_n(&popen_used, true, __ATOMIC_RELEASE);
	pthread_mutex_lock(&popen_lock);
	for (struct popen_ent *o = popen_list; o; o = o->next)
		posix_spawn_file_actions_addclose(&fa, o->fd);
	/* dup2 onto itself would keep O_CLOEXEC: move it first */
	if (theirs == target) {
		int t = fcntl(theirs, F_DUPFD_CLOEXEC, 3);

		HS_REAL(close)(theirs);
		theirs = t;
	}
	posix_spawn_file_actions_adddup2(&fa, theirs, target);
	r = spawn_decided(&pid, "/bin/sh", &fa, NULL, argv, environ, d);
	posix_spawn_file_actions_destroy(&fa);
	HS_REAL(close)(theirs);
	if (r == 0 && !cloexec)
		fcntl(mine, F_SETFD, 0);
	if (r == 0)
		f = fdopen(mine, reading ? "r" : "w");
	if (f) {
		e->f = f;
		e->fd = mine;
		e->pid = pid;
		e->next = popen_list;
		popen_list = e;
	}
	pthread_mutex_unlock(&popen_lock);
	if (!f) {
		if (r == 0) /* fdopen failed: reap the child */
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		HS_REAL(close)(mine);
		free(e);
		errno = r ? r : errno;
	}
	return f;
}

HS_VIS FILE *popen(const char *cmd, const char *mode)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	struct hs_decision d;
	FILE *f;
	HS_ERRNO_SAVE();

	if (pass_through() || !cmd || !mode ||
	    (mode[0] != 'r' && mode[0] != 'w'))
		return HS_REAL(popen)(cmd, mode);
	hs_exec_decide("/bin/sh", argv, &d);
	if (d.deny && (hs_st.strict || !hs_st.bin[0])) {
		errno = d.rep.deny_errno;
		return NULL;
	}
	f = popen_decided(!d.deny && d.event && d.rep.updated[0]
				  ? d.rep.updated /* a hook rewrote it */
				  : cmd,
			  mode, &d);
	if (f)
		HS_ERRNO_RESTORE();
	return f;
}

HS_VIS int pclose(FILE *f)
{
	struct popen_ent **pp, *e = NULL;
	int status;
	pid_t r;

	if (!__atomic_load_n(&popen_used, __ATOMIC_ACQUIRE)) /* not ours */
		return HS_REAL(pclose)(f);
	pthread_mutex_lock(&popen_lock);
	for (pp = &popen_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->f == f) {
			e = *pp;
			*pp = e->next;
			break;
		}
	}
	pthread_mutex_unlock(&popen_lock);
	if (!e)
		return HS_REAL(pclose)(f);
	/* the program's stream, closed in its place: through our fclose,
	 * which drops what write_scope knew about its descriptor */
	fclose(f);
	while ((r = waitpid(e->pid, &status, 0)) < 0 && errno == EINTR)
		;
	free(e);
	return r < 0 ? -1 : status;
}
