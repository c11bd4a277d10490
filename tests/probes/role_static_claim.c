/* role_static_claim MODE ...: a static program (no shim can load in it)
 * that claims to be a command's -- HOOKSHIM_ROLE=tool in an environment
 * -- without having been made one, then runs a shell command string.
 * tests/security/enforce_role.sh. Every exec is a raw syscall.
 *
 *   envp PROG ARG...   exec PROG with HOOKSHIM_ROLE=tool added to its
 *                      environment (PROG then execs what it likes)
 *   rewrite CMD        a fork child rewrites its own environment block
 *                      (the PAD variable) to claim the role, then execs
 *                      `bash -c CMD`
 *   failed CMD         a fork child first execs `/bin/bash -c true` with
 *                      an environment string longer than the kernel
 *                      takes (the exec is judged, allowed, and fails in
 *                      the kernel: E2BIG), then claims the role as above
 *   failedmm CMD       the same, moving its image's environment's place
 *                      (prctl PR_SET_MM_MAP, unprivileged) after the
 *                      failed exec, as if one had been made; says
 *                      "prctl: ok" or why not, and goes on
 *   argv0 [PROG]       execs PROG (this program by default) as `bash -c
 *                      true` (argv[0] "bash", the program this one, not
 *                      a shell) with the role claimed, then execs `bash
 *                      -c "$RM_CMD"` (from the environment: what the
 *                      hook is shown is `true`); PROG a copy of this one
 *                      by a shell's name takes that name as argv[0]
 *   traced TEXT        a fork child asks to be traced (PTRACE_TRACEME),
 *                      then execs `bash -c TEXT`; this program traces it
 *                      (continuing it at every stop: a tracer that could
 *                      have had it run anything)
 *   envcode FILE       execs `bash -c true` with BASH_ENV=FILE and the
 *                      role claimed in its environment: bash runs FILE
 *                      first, which the hook never sees
 *   sibling CMD        a fork child A forks G, then execs an allowed
 *                      `bash -c 'sleep 1'`; G, A's copy from before that
 *                      exec, claims the role as above
 * Exits with the status of the last child it waited for. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char **env;

static void claim(void)
{
	for (char **e = env; *e; e++)
		if (strncmp(*e, "PAD=", 4) == 0 && strlen(*e) >= 18) {
			memset(*e, 0, strlen(*e));
			memcpy(*e, "HOOKSHIM_ROLE=tool", 18);
			return;
		}
	fprintf(stderr, "role_static_claim: no PAD of 14 or more to claim with\n");
	_exit(2);
}

static void shell(const char *cmd)
{
	char *av[] = { "bash", "-c", (char *)cmd, NULL };

	syscall(SYS_execve, "/bin/bash", av, env);
	fprintf(stderr, "role_static_claim: exec: %s\n", strerror(errno));
	_exit(127);
}

/* The kernel's memory map fields of this process, env_start moved a
 * word on (still inside its environment): PR_SET_MM_MAP. */
static void move_env(void)
{
	struct prctl_mm_map m;
	unsigned long v[53] = { 0 };
	char b[2048], *p, *t;
	FILE *f = fopen("/proc/self/stat", "r");
	int i = 3;

	memset(&m, 0, sizeof(m));
	if (!f || !fgets(b, sizeof(b), f) || !(p = strrchr(b, ')'))) {
		fprintf(stderr, "prctl: no stat\n");
		return;
	}
	fclose(f);
	for (t = strtok(p + 2, " "); t && i < 53; t = strtok(NULL, " "))
		v[i++] = strtoul(t, NULL, 10);
	m.start_code = v[26];
	m.end_code = v[27];
	m.start_stack = v[28];
	m.start_data = v[45];
	m.end_data = v[46];
	m.start_brk = v[47];
	m.brk = (unsigned long)sbrk(0);
	m.arg_start = v[48];
	m.arg_end = v[49];
	m.env_start = v[50] + 8;
	m.env_end = v[51];
	m.exe_fd = (unsigned)-1;
	if (prctl(PR_SET_MM, PR_SET_MM_MAP, &m, sizeof(m), 0) == 0)
		fprintf(stderr, "prctl: ok\n");
	else
		fprintf(stderr, "prctl: %s\n", strerror(errno));
}

static int wait_for(pid_t p)
{
	int st;

	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv, char **envp)
{
	pid_t a, g;

	env = envp;
	if (argc >= 3 && strcmp(argv[1], "envp") == 0) {
		int n = 0;
		char **e;

		while (envp[n])
			n++;
		if (!(e = calloc((size_t)n + 2, sizeof(*e))))
			return 1;
		e[0] = "HOOKSHIM_ROLE=tool";
		memcpy(e + 1, envp, (size_t)n * sizeof(*e));
		syscall(SYS_execve, argv[2], argv + 2, e);
		perror("role_static_claim: exec");
		return 127;
	}
	if (argc == 3 && strcmp(argv[1], "rewrite") == 0) {
		if ((a = fork()) == 0) {
			claim();
			shell(argv[2]);
		}
		return wait_for(a);
	}
	if (argc == 3 && (strcmp(argv[1], "failed") == 0 ||
			  strcmp(argv[1], "failedmm") == 0)) {
		if ((a = fork()) == 0) {
			char *av[] = { "bash", "-c", "true", NULL };
			size_t n = 0, big = 200 * 1024;
			char **e, *s = malloc(big + 3);

			while (env[n])
				n++;
			if (!s || !(e = calloc(n + 2, sizeof(*e))))
				_exit(1);
			memcpy(e, env, n * sizeof(*e));
			memcpy(s, "X=", 2);
			memset(s + 2, 'x', big);
			s[big + 2] = '\0';
			e[n] = s;
			if (syscall(SYS_execve, "/bin/bash", av, e) == 0 ||
			    errno != E2BIG) {
				fprintf(stderr, "role_static_claim: bash ran or "
						"failed otherwise (%s)\n",
					strerror(errno));
				_exit(3);
			}
			if (argv[1][6] == 'm')
				move_env();
			claim();
			shell(argv[2]);
		}
		return wait_for(a);
	}
	if ((argc == 2 || argc == 3) && strcmp(argv[1], "argv0") == 0) {
		char self[4096];
		ssize_t k = argc == 3 ? (ssize_t)strlen(argv[2])
				      : readlink("/proc/self/exe", self,
						 sizeof(self) - 1);
		const char *name = argc == 3 ? strrchr(argv[2], '/') : NULL;
		char *av[] = { name ? (char *)name + 1 : "bash", "-c", "true",
			       NULL };
		int n = 0;
		char **e;

		while (env[n])
			n++;
		if (k <= 0 || !(e = calloc((size_t)n + 2, sizeof(*e))))
			return 1;
		if (argc == 3)
			snprintf(self, sizeof(self), "%s", argv[2]);
		self[k] = '\0';
		e[0] = "HOOKSHIM_ROLE=tool";
		memcpy(e + 1, env, (size_t)n * sizeof(*e));
		syscall(SYS_execve, self, av, e);
		perror("role_static_claim: exec");
		return 127;
	}
	/* argv0's second image */
	if (argc == 3 && strcmp(argv[1], "-c") == 0 &&
	    strcmp(argv[2], "true") == 0 && getenv("RM_CMD"))
		shell(getenv("RM_CMD"));
	if (argc == 3 && strcmp(argv[1], "envcode") == 0) {
		char *av[] = { "bash", "-c", "true", NULL }, *be;
		int n = 0;
		char **e;

		while (env[n])
			n++;
		if (!(e = calloc((size_t)n + 3, sizeof(*e))) ||
		    !(be = malloc(strlen(argv[2]) + 10)))
			return 1;
		sprintf(be, "BASH_ENV=%s", argv[2]);
		e[0] = "HOOKSHIM_ROLE=tool";
		e[1] = be;
		memcpy(e + 2, env, (size_t)n * sizeof(*e));
		syscall(SYS_execve, "/bin/bash", av, e);
		perror("role_static_claim: exec");
		return 127;
	}
	if (argc == 3 && strcmp(argv[1], "traced") == 0) {
		int st;

		if ((a = fork()) == 0) {
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
			shell(argv[2]);
		}
		for (;;) {
			pid_t w = waitpid(a, &st, 0);

			if (w < 0)
				return 1;
			if (WIFSTOPPED(st)) {
				int sig = WSTOPSIG(st);

				ptrace(PTRACE_CONT, w, NULL,
				       (void *)(long)(sig == SIGTRAP ? 0 : sig));
				continue;
			}
			return WIFEXITED(st) ? WEXITSTATUS(st)
					     : 128 + WTERMSIG(st);
		}
	}
	if (argc == 3 && strcmp(argv[1], "sibling") == 0) {
		if ((a = fork()) == 0) {
			if ((g = fork()) == 0) {
				struct timespec t = { 0, 300 * 1000 * 1000 };

				nanosleep(&t, NULL);
				claim();
				shell(argv[2]);
			}
			shell("sleep 1");
		}
		return wait_for(a);
	}
	fprintf(stderr, "usage: role_static_claim envp PROG ARG... | rewrite "
			"CMD | failed[mm] CMD | argv0 [PROG] | envcode FILE | traced TEXT | "
			"sibling CMD\n");
	return 2;
}
