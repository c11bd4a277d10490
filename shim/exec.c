/* The execve family.
 *
 * Every variant funnels into exec_common(): check that the target exists
 * and is executable (a failing exec must fire no event and return the real
 * errno), decide once, then call the real exec with the repaired
 * environment. Nothing here allocates or locks: this runs in vfork
 * children (Bun, glibc's posix_spawn users) and between fork and exec of
 * threaded parents. The PATH search of execvp* is done by hand on the
 * stack, like musl, so that one command fires one event however many
 * PATH entries it takes to find it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "envfix.h"
#include "exec.h"
#include "fdcarry.h"
#include "fdtrack.h"
#include "floor_calls.h"
#include "path.h"
#include "real.h"

extern char **environ;

/* One exec call: a path (dirfd/flags for execveat) or an fd (fexecve). */
struct exec_call {
	enum { EC_PATH, EC_AT, EC_FD } kind;
	int dirfd;
	const char *path;
	int flags;
	char *const *argv;
	char *const *envp;
	/* execvp*: the decision is made for the first candidate found and
	 * reused by any retry (ENOEXEC script fallback) */
	struct hs_decision *d;
	bool decided;
};

/* execve, decided: under the syscall floor it carries the cookie, so the
 * kernel does not ask the supervisor again (floor_calls.h). */
HS_CHILD_PATH
static int decided_execve(const char *path, char *const argv[],
			  char *const envp[])
{
	if (hs_ck_on())
		return (int)hs_ck_call(SYS_execve, (long)path, (long)argv,
				       (long)envp, 0, 0);
	return HS_REAL(execve)(path, argv, envp);
}

HS_CHILD_PATH
static int real_exec(const struct exec_call *c, const char *path,
		     char *const argv[], char *const envp[])
{
	if (c->kind == EC_PATH || path != c->path)
		return decided_execve(path, argv, envp);
	if (hs_ck_on())
		return (int)hs_ck_call(SYS_execveat, c->dirfd,
				       (long)(c->kind == EC_FD ? "" : path),
				       (long)argv, (long)envp,
				       c->kind == EC_FD ? AT_EMPTY_PATH
							: c->flags);
	if (c->kind == EC_FD)
		return HS_REAL(fexecve)(c->dirfd, argv, envp);
	if (hs_real(HS_R_execveat))
		return HS_REAL(execveat)(c->dirfd, path, argv, envp, c->flags);
	return (int)HS_REAL(syscall)(SYS_execveat, c->dirfd, path, argv, envp,
				     c->flags);
}

/* The executable's path for the event (and for `__exec`): fd-based execs
 * name it through /proc/self/fd. */
static const char *exe_path(const struct exec_call *c, char *buf)
{
	char link[HS_SELF_FD_CAP];
	ssize_t n;

	if (c->kind == EC_PATH || (c->path[0] == '/'))
		return c->path;
	if (c->kind == EC_AT && c->dirfd == AT_FDCWD)
		return c->path;
	n = readlink(hs_self_fd_name(c->dirfd, link), buf, PATH_MAX - 1);
	if (n <= 0)
		return c->path;
	buf[n] = '\0';
	if (c->kind == EC_AT && c->path[0]) {
		size_t k = strlen(c->path);

		if ((size_t)n + k + 2 > PATH_MAX)
			return c->path;
		buf[n] = '/';
		memcpy(buf + n + 1, c->path, k + 1);
	}
	return buf;
}

static bool target_ok(const struct exec_call *c)
{
	switch (c->kind) {
	case EC_PATH:
		return hs_executable(AT_FDCWD, c->path, 0);
	case EC_AT:
		return hs_executable(c->dirfd, c->path,
				     c->flags & AT_EMPTY_PATH);
	default:
		return hs_executable(c->dirfd, "", AT_EMPTY_PATH);
	}
}

/* A denied exec: the command behaves like one that failed. In a
 * fork/vfork child or a shell (about to be replaced anyway) that is exit
 * status deny_exit with the reason on stderr; a long-running process (the
 * agent itself) gets an errno instead, as does everyone in strict mode. */
static int deny_exec(const struct hs_decision *d)
{
	const struct hs_state *st = &hs_st;

	if (!st->strict && (hs_getpid() != st->pid || hs_exe_is_shell())) {
		hs_print_reason(d);
		/* our own _exit, as the program's would be: a shell's
		 * redirect (`cmd > f`) still reports its write (write.c) */
		_exit(d->rep.deny_exit);
	}
	if (!st->strict)
		hs_print_reason(d);
	errno = d->rep.deny_errno;
	return -1;
}

/* The real exec, handing our write descriptors that survive it to the
 * new image (fdcarry.h): its close or exit fires their posts. */
HS_CHILD_PATH
static int exec_carrying(const struct exec_call *c, char **env, size_t nslots)
{
	int err;
	size_t n;

	if (!hs_fdt_active()) /* nothing tracked: the common case */
		return real_exec(c, c->path, c->argv, env);
	err = errno; /* fcntl must not show through */
	n = hs_fdc_size();
	{
		char buf[n ? n : 1];

		if (n)
			hs_env_add(env, c->envp, nslots, hs_fdc_build(buf, n));
		errno = err;
		return real_exec(c, c->path, c->argv, env);
	}
}

/* The real exec with the repaired environment and the "checked" marker.
 * An exec no hook hears about comes straight here: the path of nearly
 * every exec, often in a fork child where each page touched is a page
 * fault, so no access check, no decision buffers, a small frame. */
HS_CHILD_PATH
static int exec_repaired(const struct exec_call *c, enum hs_role role)
{
	char marker[32];

	hs_marker(marker, "exec", hs_getpid());
	{
		HS_ENV_ON_STACK(env, c->envp, role, marker);

		if (!env) {
			/* fail closed: never exec without the shim */
			errno = E2BIG;
			return -1;
		}
		return exec_carrying(c, env, env_n_);
	}
}

/* An allowed exec as decided: straight, or under __exec for its post
 * hooks. */
static int exec_allowed(const struct exec_call *c, const struct hs_decision *d,
			const char *exe, const struct hs_state *st)
{
	char marker[32];

	/* __exec needs a path it can exec itself; an fd-only executable
	 * (memfd) runs without post hooks. */
	if (!d->post || exe[0] != '/' || !hs_executable(AT_FDCWD, exe, 0))
		return exec_repaired(c, d->child_role);
	hs_marker(marker, "exec", hs_getpid());
	{
		HS_ENV_ON_STACK(env, c->envp, d->child_role, marker);
		size_t n = hs_argc(c->argv) + 9;
		char *pargv[n];

		if (!env) {
			errno = E2BIG;
			return -1;
		}
		return decided_execve(st->bin,
				      hs_post_argv(pargv, d, exe, c->argv), env);
	}
}

/* An exec that fires an event: a failing one must not (so the target is
 * checked first, keeping the real errno), then one decision, reused by
 * execvp's retries. Kept out of line: its buffers are large. */
static __attribute__((noinline)) int exec_judged(struct exec_call *c)
{
	const struct hs_state *st = hs_state();
	struct hs_decision local, *d;
	char exebuf[PATH_MAX];
	const char *exe;
	HS_ERRNO_SAVE();

	if (!target_ok(c))
		return real_exec(c, c->path, c->argv, c->envp);
	/* hs_exec_decide fills it before any read */
	d = c->d ? c->d : &local; // cppcheck-suppress uninitvar
	exe = exe_path(c, exebuf);
	if (!c->decided) {
		hs_exec_decide(exe, c->argv, d);
		c->decided = true;
	}
	if (d->deny)
		return deny_exec(d);
	{
		/* the command a hook rewrote the call to, if one did: a
		 * copy of the call, so an execvp retry starts from its own */
		char *uargv[hs_argc(c->argv) + 1];
		struct exec_call uc = *c;

		uc.argv = hs_exec_argv(d, exe, c->argv, uargv);
		HS_ERRNO_RESTORE();
		return exec_allowed(&uc, d, exe, st);
	}
}

HS_CHILD_PATH
static int exec_common(struct exec_call *c)
{
	const struct hs_state *st = hs_state();
	enum hs_role role;
	bool nested;

	if (!hs_exec_watched(st) || hs_guarded())
		return real_exec(c, c->path, c->argv, c->envp);
	/* fd-based execs need their path resolved to be judged */
	if (!c->decided && c->kind == EC_PATH &&
	    !hs_exec_event(c->path, c->argv, &nested, &role))
		return exec_repaired(c, role);
	return exec_judged(c);
}

HS_CHILD_PATH
static int exec_path(const char *path, char *const argv[],
		     char *const envp[])
{
	struct exec_call c = { .kind = EC_PATH, .dirfd = AT_FDCWD,
			       .path = path, .argv = argv, .envp = envp };

	return exec_common(&c);
}

/* glibc's execvp runs a file without #! that the kernel refuses
 * (ENOEXEC) with /bin/sh, as POSIX asks. */
static int exec_script(struct exec_call *c, const char *path)
{
	size_t n = hs_argc(c->argv);
	char *sargv[n + 2];
	struct exec_call s = *c;

	sargv[0] = "/bin/sh";
	sargv[1] = (char *)path;
	for (size_t i = 1; i <= n; i++)
		sargv[i + 1] = c->argv[i];
	if (n == 0)
		sargv[2] = NULL;
	s.kind = EC_PATH;
	s.path = "/bin/sh";
	s.argv = sargv;
	return exec_common(&s);
}

HS_CHILD_PATH
static int exec_search(const char *file, char *const argv[],
		       char *const envp[])
{
	struct hs_decision d;
	struct exec_call c = { .kind = EC_PATH, .dirfd = AT_FDCWD,
			       .argv = argv, .envp = envp, .d = &d };
	char buf[PATH_MAX];
	const char *path;
	bool eacces = false;
	int r;

	if (!file || !*file) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/')) {
		c.path = file;
		if (exec_common(&c) < 0 && errno == ENOEXEC)
			exec_script(&c, file);
		return -1;
	}
	path = hs_path_env();
	while ((r = hs_path_next(&path, file, buf)) >= 0) {
		if (r)
			continue;
		c.path = buf;
		exec_common(&c);
		if (c.decided && d.deny)
			return -1;
		switch (errno) {
		case ENOEXEC:
			exec_script(&c, buf);
			return -1;
		case EACCES:
			eacces = true;
			/* fallthrough */
		case ENOENT:
		case ESTALE:
		case ENOTDIR:
		case ENODEV:
		case ETIMEDOUT:
			continue;
		default:
			return -1;
		}
	}
	errno = eacces ? EACCES : ENOENT;
	return -1;
}

HS_CHILD_PATH
HS_VIS int execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_path(path, argv, envp);
}

HS_CHILD_PATH
HS_VIS int execv(const char *path, char *const argv[])
{
	return exec_path(path, argv, environ);
}

HS_CHILD_PATH
HS_VIS int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_search(file, argv, envp);
}

HS_CHILD_PATH
HS_VIS int execvp(const char *file, char *const argv[])
{
	return exec_search(file, argv, environ);
}

HS_VIS int execveat(int dirfd, const char *path, char *const argv[],
		    char *const envp[], int flags)
{
	struct exec_call c = { .kind = EC_AT, .dirfd = dirfd, .path = path,
			       .flags = flags, .argv = argv, .envp = envp };

	return exec_common(&c);
}

HS_VIS int fexecve(int fd, char *const argv[], char *const envp[])
{
	struct exec_call c = { .kind = EC_FD, .dirfd = fd, .path = "",
			       .argv = argv, .envp = envp };

	return exec_common(&c);
}

/* execl*: collect the variadic arguments into an argv on the stack. */
#define VA_ARGV(argv, arg0, last, envp_out)                                  \
	size_t argv##_n = 1;                                                 \
	va_list argv##_ap;                                                   \
	va_start(argv##_ap, last);                                           \
	while (va_arg(argv##_ap, char *))                                    \
		argv##_n++;                                                  \
	va_end(argv##_ap);                                                   \
	char *argv[argv##_n + 1];                                            \
	va_start(argv##_ap, last);                                           \
	argv[0] = (char *)(arg0);                                            \
	for (size_t i_ = 1; i_ <= argv##_n; i_++)                            \
		argv[i_] = va_arg(argv##_ap, char *);                        \
	envp_out;                                                            \
	va_end(argv##_ap)

HS_VIS int execl(const char *path, const char *arg, ...)
{
	VA_ARGV(argv, arg, arg, (void)0);
	return exec_path(path, argv, environ);
}

HS_VIS int execlp(const char *file, const char *arg, ...)
{
	VA_ARGV(argv, arg, arg, (void)0);
	return exec_search(file, argv, environ);
}

HS_VIS int execle(const char *path, const char *arg, ...)
{
	char *const *envp;

	VA_ARGV(argv, arg, arg, envp = va_arg(argv_ap, char *const *));
	return exec_path(path, argv, envp);
}
