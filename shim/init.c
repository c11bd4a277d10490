/* Load-time work: cache the session, resolve libc, and decide for
 * ourselves when the parent could not.
 *
 * A dynamic process whose HOOKSHIM_CHECKED marker does not name it
 * ("exec:<our pid>" or "spawn:<our parent's pid>") was started by a parent
 * that bypassed libc — a static Go or Rust binary, a raw
 * syscall(SYS_execve) — so no shim saw the exec. It applies the same rules
 * to its own command line and inherited role before main runs: a denied
 * command exits like a failed one; an allowed tool call takes role "tool"
 * for everything it starts. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "boot.h"
#include "envfix.h"
#include "exec.h"
#include "../common/wire.h"
#include "real.h"
#include "write_scope.h"

extern char **environ;

static bool marker_is_ours(const char *m)
{
	if (!m)
		return false;
	if (hs_starts(m, "exec:"))
		return hs_atol(m + 5) == (long)hs_st.pid; /* pid at load: this image */
	if (hs_starts(m, "spawn:"))
		return hs_atol(m + 6) == (long)getppid();
	return false;
}

char **hs_read_cmdline(char **bufp)
{
	size_t cap = 4096, len = 0, n = 0;
	char *buf = malloc(cap), **argv;
	int fd = HS_REAL(open)("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!buf || fd < 0)
		goto fail;
	while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)r;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
	}
	HS_REAL(close)(fd);
	fd = -1;
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\0';
	if (len && buf[len - 1] != '\0')
		n++;
	argv = malloc((n + 1) * sizeof(*argv));
	if (!argv)
		goto fail;
	n = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		argv[n++] = buf + i;
	argv[n] = NULL;
	*bufp = buf;
	return argv;
fail:
	if (fd >= 0)
		HS_REAL(close)(fd);
	free(buf);
	return NULL;
}

/* HOOKSHIM_ROLE=tool (or handoff) for children a raw parent-style exec
 * would start (libc-made children get it from envfix anyway). Reuses the
 * slot of an existing role or stale marker; else a new array. */
static void env_set_role(enum hs_role r)
{
	/* allocated, never freed: bash writes into environ's strings (it
	 * splits NAME=VALUE in place), and the shim's written data must
	 * stay within one page (shim/layout.ld) */
	char *role = strdup(r == HS_ROLE_HANDOFF ? HS_ENV_ROLE "=handoff"
						 : HS_ENV_ROLE "=tool");
	static const char *const slot[] = { HS_ENV_ROLE "=", HS_ENV_CHECKED "=" };
	size_t n = 0;
	char **nenv;

	if (!role)
		return;
	for (size_t k = 0; k < 2; k++) {
		for (char **ep = environ; ep && *ep; ep++) {
			if (strncmp(*ep, slot[k], strlen(slot[k])) == 0) {
				*ep = role;
				if (k == 1)
					(void)hs_environ_take(HS_ENV_CHECKED "=");
				return;
			}
		}
	}
	while (environ && environ[n])
		n++;
	nenv = malloc((n + 2) * sizeof(*nenv));
	if (!nenv)
		return;
	if (n)
		memcpy(nenv, environ, n * sizeof(*nenv));
	nenv[n] = role;
	nenv[n + 1] = NULL;
	environ = nenv; /* never freed: environ may point here for good */
}

/* No shim saw this process start: it judges its own command line. Kept
 * apart from self_check (cold, not inlined), so that the processes whose
 * parent did check (nearly all) touch neither its text nor its stack
 * frame. */
static __attribute__((noinline, cold)) void judge_self(void)
{
	const struct hs_state *st = hs_state();
	struct hs_decision d;
	char *buf = NULL, **argv = hs_read_cmdline(&buf);

	if (!argv)
		return;
	hs_exec_decide(hs_exe(), argv, &d);
	if (d.event && d.deny) {
		hs_print_reason(&d);
		HS_REAL(_exit)(d.rep.deny_exit);
	}
	/* In enforce mode the floor reads a process's role from its initial
	 * environment, which this one began without: a role of its own set
	 * here would reach the programs it execs, but not its fork children
	 * or an exec in place (a shell's last command, its $(...)), whose
	 * `sh -c` the floor would take for tool calls of the agent's. So it
	 * starts again with the role in its initial environment, as it does
	 * under __exec. */
	if ((d.event && (d.post || d.rep.updated[0])) ||
	    (st->enforce && d.child_role != st->role)) {
		/* re-run ourselves under __exec, or as a hook rewrote the
		 * command, or with the role; on failure carry on */
		char marker[32];
		size_t n = hs_argc(argv) + 9;
		char *xargv[n], *uargv[n];
		char *const *av = hs_exec_argv(&d, hs_exe(), argv, uargv);

		hs_marker(marker, "exec", hs_getpid());
		HS_ENV_ON_STACK(env, environ, d.child_role, marker);
		if (env && d.post)
			HS_REAL(execve)(st->bin, hs_post_argv(xargv, &d, hs_exe(), av),
				env);
		else if (env)
			HS_REAL(execve)(hs_exe(), av, env);
		/* the model's command must not run in place of the one the
		 * hook rewrote it to */
		if (av != argv) {
			hs_write_str(2, "hookshim: the rewritten command "
					"(updatedInput) could not be started; "
					"not run\n");
			HS_REAL(_exit)(d.rep.deny_exit);
		}
	}
	if (d.child_role != st->role) {
		hs_st.role = d.child_role;
		hs_st.reads = false; /* a tool call's reads are not the agent's */
		hs_st.reads_slow = hs_st.cookie &&
				   (hs_st.interest & HS_INTEREST_READ_PRE);
		env_set_role(d.child_role);
	}
	free(argv);
	free(buf);
}

static void self_check(void)
{
	const struct hs_state *st = hs_state();

	/* with no exec hook, a shell must still take role "tool" when the
	 * agent's reads or its writes beyond the scope are events
	 * (exec_decide.c): no question is asked for it */
	if (!hs_exec_watched(st) ||
	    !(hs_exec_interest(st) || st->reads || hs_wscope_beyond()))
		return;
	if (marker_is_ours(st->checked)) {
		/* Consumed: should this process later replace itself by a
		 * raw execve, the new image must not take the marker for its
		 * own. Children made through libc get a fresh one. */
		(void)hs_environ_take(HS_ENV_CHECKED "=");
		return;
	}
	judge_self();
}

__attribute__((constructor)) static void hs_init(void)
{
	int saved = errno;

	hs_state_init();
	hs_real_init();
	hs_guard_enter();
	if (hs_boot()) {
		hs_state_reload();
		hs_wscope_reset();
	}
	self_check();
	hs_guard_leave();
	errno = saved;
}
