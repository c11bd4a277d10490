/* reach_static_command MODE ...: a static program (no shim can load in
 * it) that reaches into a judged command's process it started:
 * tests/security/enforce_reach.sh. Its child execs `bash -c 'sleep 2;
 * true'` with a raw syscall -- a tool call, judged -- and, once that
 * shell waits for its sleep, this program:
 *
 *   inject TEXT   attaches to the shell (PTRACE_SEIZE), stops it, and
 *                 has it exec `/bin/bash -c TEXT` in place of its wait:
 *                 the shell is a command's, so what it execs is nested,
 *                 not judged, unless the attach is refused
 *   reach CALL    makes one call into the shell and says "CALL: ok" or
 *                 "CALL: <why not>": ptrace (PTRACE_SEIZE), readv and
 *                 writev (process_vm_*: a byte of its arguments, written
 *                 as it was), mem and memr (/proc/PID/mem opened to
 *                 write, to read), fd (/proc/PID/fd/0 opened to write),
 *                 getfd (pidfd_getfd of its stdout); fdat, fdcwd,
 *                 fdup, fdslash, fddot, fdtask, fdlink, fddir: fd by
 *                 other spellings (relative to a descriptor of
 *                 /proc/PID, from it as the working directory, up from
 *                 /proc/self, with "//", with "./..", by task/PID, a
 *                 symlink to it, a symlink to /proc/PID); fdr: its
 *                 fd/0 opened to read alone; fdro and
 *                 fdpath: its fd/0 opened to read, or O_PATH, then that
 *                 descriptor reopened to write (/proc/self/fd/N); perf
 *                 (perf_event_open of its CPU time), perfall (of every
 *                 process's on CPU 0)
 *   race N        N pidfd_getfd of descriptor 9 by the number of a pidfd
 *                 of its own, while a second thread dup2s a pidfd of the
 *                 shell over that number and back: "race: got K of the
 *                 shell's" (its 9 is /dev/zero, ours /dev/null) -- a
 *                 look at the number that the kernel's take of it came
 *                 after
 *   racesup N     the same for the supervisor's seccomp listener, by a
 *                 pidfd of this program's parent (root: "race: got K of
 *                 the supervisor's")
 *
 * Or it holds the child from before its exec, and lets go after it:
 *
 *   traceme TEXT  the child asks to be traced (PTRACE_TRACEME) before
 *   seize TEXT    its exec, or this program attaches to it then
 *                 (PTRACE_SEIZE, PTRACE_O_TRACEEXEC); at the exec's stop
 *                 it has the new image exec `/bin/bash -c TEXT` at once,
 *                 and detaches first: a tracer gone by the time the
 *                 grant of that image is settled (the child's exec
 *                 claims a command's role, HOOKSHIM_ROLE=tool, as a
 *                 tool call's shell would once its shim ran)
 *
 * For reach, the shell's stdin is a pipe whose writing end it holds
 * itself, this program not. Exits with the child's status (inject,
 * traceme, seize) or 0. x86_64 only. */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static int read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* Until c is bash (its exec made: judged and allowed) waiting for a
 * child of its own (in wait4: /proc/PID/syscall's first number). */
static int wait_shell(pid_t c)
{
	char p[64], b[256];

	for (int i = 0; i < 1000; i++) {
		snprintf(p, sizeof(p), "/proc/%d/comm", (int)c);
		if (read_file(p, b, sizeof(b)) > 0 &&
		    strcmp(b, "bash\n") == 0) {
			snprintf(p, sizeof(p), "/proc/%d/syscall", (int)c);
			if (read_file(p, b, sizeof(b)) > 0 &&
			    strncmp(b, "61 ", 3) == 0) {
				nap(100);
				return 0;
			}
		}
		nap(20);
	}
	fprintf(stderr, "reach_static_command: the shell never waited\n");
	return -1;
}

/* The place of c's arguments (/proc/PID/stat field 48). */
static unsigned long arg_start(pid_t c)
{
	char p[64], b[2048], *q, *t;
	int i = 3;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)c);
	if (read_file(p, b, sizeof(b)) <= 0 || !(q = strrchr(b, ')')))
		return 0;
	for (t = strtok(q + 2, " "); t; t = strtok(NULL, " "))
		if (i++ == 48)
			return strtoul(t, NULL, 10);
	return 0;
}

static int say(const char *call, int ok)
{
	if (ok)
		fprintf(stderr, "%s: ok\n", call);
	else
		fprintf(stderr, "%s: %s\n", call, strerror(errno));
	return 0;
}

static int reach(pid_t c, const char *call)
{
	char p[64], byte = 'b';
	struct iovec l = { &byte, 1 }, r = { NULL, 1 };
	int fd;

	if (strcmp(call, "ptrace") == 0)
		return say(call, ptrace(PTRACE_SEIZE, c, NULL, NULL) == 0);
	r.iov_base = (void *)arg_start(c); /* "bash" */
	if (strcmp(call, "readv") == 0)
		return say(call, process_vm_readv(c, &l, 1, &r, 1, 0) == 1);
	if (strcmp(call, "writev") == 0)
		return say(call, process_vm_writev(c, &l, 1, &r, 1, 0) == 1);
	if (strcmp(call, "mem") == 0 || strcmp(call, "memr") == 0) {
		snprintf(p, sizeof(p), "/proc/%d/mem", (int)c);
		fd = open(p, call[3] ? O_RDONLY : O_RDWR);
		say(call, fd >= 0);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (strcmp(call, "fd") == 0) {
		snprintf(p, sizeof(p), "/proc/%d/fd/0", (int)c);
		fd = open(p, O_WRONLY);
		say(call, fd >= 0);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* the same descriptor named other ways: relative to a descriptor
	 * of the command's /proc directory, from it as the working
	 * directory, with an empty component, through "task/<tid>" */
	if (strncmp(call, "fd", 2) == 0 && call[2]) {
		int d = -1;

		snprintf(p, sizeof(p), "/proc/%d", (int)c);
		if (strcmp(call, "fdat") == 0 &&
		    (d = open(p, O_PATH | O_DIRECTORY)) >= 0) {
			fd = openat(d, "fd/0", O_WRONLY);
		} else if (strcmp(call, "fdcwd") == 0 && chdir(p) == 0) {
			fd = open("fd/0", O_WRONLY);
		} else if (strcmp(call, "fdup") == 0 && chdir("/proc/self") == 0) {
			snprintf(p, sizeof(p), "../%d/fd/0", (int)c);
			fd = open(p, O_WRONLY);
		} else if (strcmp(call, "fdslash") == 0) {
			snprintf(p, sizeof(p), "/proc/%d//fd/0", (int)c);
			fd = open(p, O_WRONLY);
		} else if (strcmp(call, "fddot") == 0) {
			snprintf(p, sizeof(p), "/proc/%d/./fd/../fd/0", (int)c);
			fd = open(p, O_WRONLY);
		} else if (strcmp(call, "fdtask") == 0) {
			snprintf(p, sizeof(p), "/proc/%d/task/%d/fd/0", (int)c,
				 (int)c);
			fd = open(p, O_WRONLY);
		} else if (strcmp(call, "fdr") == 0) {
			/* to read alone: its script's bytes read away
			 * before the command reads them */
			snprintf(p, sizeof(p), "/proc/%d/fd/0", (int)c);
			fd = open(p, O_RDONLY);
		} else if (strcmp(call, "fdro") == 0 ||
			   strcmp(call, "fdpath") == 0) {
			/* opened to read or by name (not notified without
			 * a Read hook), then its own descriptor reopened
			 * for writing: the pipe's writing end */
			char self[48];

			snprintf(p, sizeof(p), "/proc/%d/fd/0", (int)c);
			d = open(p, call[2] == 'r' ? O_RDONLY : O_PATH);
			snprintf(self, sizeof(self), "/proc/self/fd/%d", d);
			fd = d < 0 ? -1 : open(self, O_WRONLY);
		} else if (strcmp(call, "fdlink") == 0) {
			snprintf(p, sizeof(p), "/proc/%d/fd/0", (int)c);
			unlink("reach-l");
			fd = symlink(p, "reach-l") == 0
				     ? open("reach-l", O_WRONLY) : -1;
			unlink("reach-l");
		} else if (strcmp(call, "fddir") == 0) {
			unlink("reach-d");
			fd = symlink(p, "reach-d") == 0
				     ? open("reach-d/fd/0", O_WRONLY) : -1;
			unlink("reach-d");
		} else {
			fprintf(stderr, "reach_static_command: no call %s\n",
				call);
			return 2;
		}
		say(call, fd >= 0);
		if (fd >= 0)
			close(fd);
		if (d >= 0)
			close(d);
		return 0;
	}
	/* a counter of its CPU time (perf: a process's events, which may
	 * sample its stack; perfall: every process's on CPU 0) */
	if (strcmp(call, "perf") == 0 || strcmp(call, "perfall") == 0) {
		struct perf_event_attr pa;

		memset(&pa, 0, sizeof(pa));
		pa.type = PERF_TYPE_SOFTWARE;
		pa.size = sizeof(pa);
		pa.config = PERF_COUNT_SW_TASK_CLOCK;
		pa.disabled = 1;
		pa.exclude_kernel = 1;
		pa.exclude_hv = 1;
		fd = call[4] ? (int)syscall(SYS_perf_event_open, &pa, -1, 0, -1, 0)
			     : (int)syscall(SYS_perf_event_open, &pa, c, -1, -1, 0);
		say(call, fd >= 0);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (strcmp(call, "getfd") == 0) {
		int pfd = (int)syscall(SYS_pidfd_open, c, 0);

		fd = pfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pfd, 1, 0);
		say(call, fd >= 0);
		if (fd >= 0)
			close(fd);
		if (pfd >= 0)
			close(pfd);
		return 0;
	}
	fprintf(stderr, "reach_static_command: no call %s\n", call);
	return 2;
}

static int race_num, race_ours, race_its;
static volatile int race_done;

static void *flipper(void *arg)
{
	(void)arg;
	while (!race_done) {
		dup2(race_its, race_num);
		dup2(race_ours, race_num);
	}
	return NULL;
}

/* The number of pid's descriptor whose link is `what`, or -1. */
static int fd_named(pid_t pid, const char *what)
{
	char p[64], l[128];
	ssize_t k;

	for (int fd = 0; fd < 1024; fd++) {
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", (int)pid, fd);
		if ((k = readlink(p, l, sizeof(l) - 1)) > 0) {
			l[k] = '\0';
			if (strcmp(l, what) == 0)
				return fd;
		}
	}
	return -1;
}

/* n takes of a descriptor by race_num, flipped meanwhile (above): of
 * the shell c's 9 (/dev/zero), or with sup, of the process this
 * program's parent is (the supervisor), its seccomp listener. Ours by
 * that number is /dev/null. */
static int race(pid_t c, int n, int sup)
{
	char p[48], l[128];
	pthread_t t;
	int got = 0, fd, num = 9;
	pid_t whose = sup ? getppid() : c;
	ssize_t k;

	if (sup && (num = fd_named(whose, "anon_inode:seccomp notify")) < 0)
		return say("race: no listener", 0), -1;
	if (dup2(open("/dev/null", O_RDONLY), num) != num ||
	    (race_ours = (int)syscall(SYS_pidfd_open, getpid(), 0)) < 0 ||
	    (race_its = (int)syscall(SYS_pidfd_open, whose, 0)) < 0 ||
	    (race_num = dup(race_ours)) < 0)
		return say("race", 0), -1;
	if (pthread_create(&t, NULL, flipper, NULL) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		fd = (int)syscall(SYS_pidfd_getfd, race_num, num, 0);
		if (fd < 0)
			continue;
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		if ((k = readlink(p, l, sizeof(l) - 1)) > 0) {
			l[k] = '\0';
			got += strcmp(l, "/dev/null") != 0;
		}
		close(fd);
	}
	race_done = 1;
	pthread_join(t, NULL);
	fprintf(stderr, "race: got %d of the %s's\n", got,
		sup ? "supervisor" : "shell");
	return 0;
}

/* c, attached and stopped, made to exec /bin/bash -c text and let go:
 * the strings on its stack, below the red zone; its instruction pointer
 * on a syscall instruction -- the one it stopped after (in a call,
 * after_call), or two bytes written where it stands (at an exec's stop,
 * the new image's first instruction). */
static int exec_in(pid_t c, const char *text, int after_call)
{
	struct user_regs_struct g;
	unsigned long at, sp, w;
	const char *strs[3] = { "/bin/bash", "-c", text };
	unsigned long addr[3];
	char buf[4096];
	size_t n = 0;

	if (ptrace(PTRACE_GETREGS, c, NULL, &g) != 0)
		return say("getregs", 0), -1;
	if (after_call)
		g.rip -= 2;
	errno = 0;
	w = (unsigned long)ptrace(PTRACE_PEEKTEXT, c, (void *)g.rip, NULL);
	if (errno)
		return say("peek", 0), -1;
	if (after_call && (w & 0xffff) != 0x050f) {
		fprintf(stderr, "reach_static_command: not stopped after a "
				"syscall instruction\n");
		return -1;
	}
	if (!after_call &&
	    ptrace(PTRACE_POKETEXT, c, (void *)g.rip,
		   (void *)((w & ~0xfffful) | 0x050f)) != 0)
		return say("poketext", 0), -1;
	sp = (g.rsp - 8192) & ~15ul;
	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < 3; i++) {
		size_t k = strlen(strs[i]) + 1;

		if (n + k + 32 > sizeof(buf))
			return -1;
		addr[i] = sp + n;
		memcpy(buf + n, strs[i], k);
		n += k;
	}
	n = (n + 7) & ~7ul;
	at = sp + n; /* argv */
	memcpy(buf + n, addr, sizeof(addr));
	n += sizeof(addr) + 8; /* and its NULL */
	for (size_t i = 0; i < n; i += 8) {
		memcpy(&w, buf + i, 8);
		if (ptrace(PTRACE_POKEDATA, c, (void *)(sp + i), (void *)w))
			return say("poke", 0), -1;
	}
	g.rax = SYS_execve;
	g.orig_rax = (unsigned long)-1;
	g.rdi = addr[0];
	g.rsi = at;
	g.rdx = 0;
	if (ptrace(PTRACE_SETREGS, c, NULL, &g) != 0 ||
	    ptrace(PTRACE_DETACH, c, NULL, NULL) != 0)
		return say("setregs", 0), -1;
	fprintf(stderr, "inject: ok\n");
	return 0;
}

/* Attaches to c, waiting in its shell, stops it and has it exec text. */
static int inject(pid_t c, const char *text)
{
	int st;

	if (ptrace(PTRACE_SEIZE, c, NULL, NULL) != 0)
		return say("ptrace", 0), -1;
	if (ptrace(PTRACE_INTERRUPT, c, NULL, NULL) != 0 ||
	    waitpid(c, &st, __WALL) != c || !WIFSTOPPED(st))
		return say("stop", 0), -1;
	return exec_in(c, text, 1);
}

/* c traced from before its exec (traceme: it asked; else seized now):
 * at its exec's stop, made to exec text. */
static int at_exec(pid_t c, const char *text, int traceme)
{
	int st;

	if (!traceme && ptrace(PTRACE_SEIZE, c, NULL,
			       (void *)(long)PTRACE_O_TRACEEXEC) != 0)
		return say("ptrace", 0), -1;
	for (;;) {
		if (waitpid(c, &st, __WALL) != c)
			return say("wait", 0), -1;
		if (!WIFSTOPPED(st)) {
			fprintf(stderr, "reach_static_command: no exec\n");
			return -1;
		}
		if (traceme && WSTOPSIG(st) == SIGTRAP)
			return exec_in(c, text, 0);
		/* the exec's event stop is inside the call, whose return
		 * would overwrite what is set now: one step out first */
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			if (ptrace(PTRACE_SINGLESTEP, c, NULL, NULL) != 0 ||
			    waitpid(c, &st, __WALL) != c || !WIFSTOPPED(st))
				return say("step", 0), -1;
			return exec_in(c, text, 0);
		}
		/* another stop (a signal): passed on */
		ptrace(PTRACE_CONT, c, NULL,
		       (void *)(long)WSTOPSIG(st));
	}
}

int main(int argc, char **argv, char **envp)
{
	char *av[] = { "bash", "-c", "sleep 2; true", NULL };
	const char *m = argc == 3 ? argv[1] : "";
	int traceme = strcmp(m, "traceme") == 0;
	int early = traceme || strcmp(m, "seize") == 0;
	pid_t c;
	int st, r, script[2] = { -1, -1 };

	if (!early && strcmp(m, "inject") != 0 && strcmp(m, "reach") != 0 &&
	    strcmp(m, "race") != 0 && strcmp(m, "racesup") != 0) {
		fprintf(stderr, "usage: reach_static_command inject TEXT | "
				"reach CALL | race[sup] N | traceme TEXT | "
				"seize TEXT\n");
		return 2;
	}
	if ((c = fork()) == 0) {
		/* the shell's stdin a pipe (a script's way in), whose
		 * writing end it holds itself (as 9), this program not */
		if (m[0] == 'r' && m[1] == 'e' && pipe(script) == 0) {
			dup2(script[0], 0);
			dup2(script[1], 9);
			close(script[0]);
			close(script[1]);
		}
		/* the image to be granted says it is a command's, as a tool
		 * call's shell would once its shim ran */
		if (early) {
			int k = 0;
			char **e;

			while (envp[k])
				k++;
			if (!(e = calloc((size_t)k + 2, sizeof(*e))))
				_exit(1);
			e[0] = "HOOKSHIM_ROLE=tool";
			memcpy(e + 1, envp, (size_t)k * sizeof(*e));
			envp = e;
		}
		if (m[1] == 'a') /* race: its 9 is not ours */
			dup2(open("/dev/zero", O_RDONLY), 9);
		if (traceme)
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		else if (early)
			nap(200); /* attached to first */
		syscall(SYS_execve, "/bin/bash", av, envp);
		_exit(127);
	}
	if (c < 0 || (!early && wait_shell(c) != 0))
		return 1;
	r = early		? at_exec(c, argv[2], traceme)
	    : m[0] == 'i' ? inject(c, argv[2])
	    : m[1] == 'a' ? race(c, atoi(argv[2]), m[4] == 's')
			  : reach(c, argv[2]);
	if (r != 0 || m[0] == 'r')
		kill(c, SIGKILL);
	while (waitpid(c, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (r)
		return r < 0 ? 1 : r;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
