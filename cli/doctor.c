/* `hookshim doctor [AGENT...]`: what this host lets hookshim enforce, and
 * why not where it cannot — one row per piece, with the fix for each
 * missing one. Exit 0 when everything hookshim uses is there, 1 when a
 * piece is missing (the table says which).
 *
 * Every probe is behavioural (try it, in a throwaway child where it
 * changes the process), because what a kernel, a container runtime or a
 * security module allows shows only by trying. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../config/model.h"
#include "../supervisor/agent.h"
#include "../floor/floor.h"
#include "cli.h"

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

/* The agents hookshim has profiles for, by the names they install. */
static const char *const default_agents[] = {
	"claude", "codex", "gemini", "qwen", "pi", "opencode", "aider", NULL
};

static int missing; /* rows whose piece is missing */

static void row(bool ok, const char *what, const char *status,
		const char *fix)
{
	printf("  %s %-26s %s\n", ok ? "ok " : "-- ", what, status);
	if (!ok && fix && fix[0])
		printf("      %-26s fix: %s\n", "", fix);
	if (!ok)
		missing++;
}

/* ---- the preload library ---- */

static bool is_elf_so(const char *path)
{
	Elf64_Ehdr h;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = read(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 && h.e_type == ET_DYN;
	close(fd);
	return ok;
}

static void check_preload(void)
{
	char bin[PATH_MAX], buf[PATH_MAX + 64];
	char *lib;

	if (!realpath("/proc/self/exe", bin)) {
		row(false, "preload library", "cannot find the hookshim binary",
		    "");
		return;
	}
	lib = hs_agent_find_lib(bin);
	if (lib && is_elf_so(lib)) {
		snprintf(buf, sizeof(buf), "%s", lib);
		row(true, "preload library", buf, NULL);
	} else {
		row(false, "preload library", lib ? "not a shared object" :
						    "not found",
		    "make install (it goes to PREFIX/lib next to PREFIX/bin), "
		    "or HOOKSHIM_LIB=/path/libhookshim.so");
	}
	free(lib);
}

/* ---- agent binaries ---- */

/* "dynamic", "static", "script (INTERP)" or NULL when unreadable. */
static const char *kind_of(const char *path, char *buf, size_t cap)
{
	unsigned char head[256];
	Elf64_Ehdr *h = (Elf64_Ehdr *)head;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	bool interp = false;

	if (fd < 0)
		return NULL;
	n = read(fd, head, sizeof(head));
	if (n > 2 && head[0] == '#' && head[1] == '!') {
		size_t i = 2, j;

		while (i < (size_t)n && head[i] == ' ')
			i++;
		for (j = i; j < (size_t)n && head[j] != '\n'; j++)
			;
		close(fd);
		snprintf(buf, cap, "script (%.*s)", (int)(j - i),
			 (const char *)head + i);
		return buf;
	}
	if (n < (ssize_t)sizeof(*h) || memcmp(head, ELFMAG, SELFMAG) != 0) {
		close(fd);
		return "not ELF";
	}
	for (int i = 0; i < h->e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph),
			  (off_t)(h->e_phoff + (Elf64_Off)i * h->e_phentsize)) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type == PT_INTERP)
			interp = true;
	}
	close(fd);
	return interp ? "dynamic (the shim enters it)"
		      : "static (only the floor sees its own calls)";
}

/* What execvp would run for name, symlinks resolved; NULL if nothing. */
static char *which(const char *name)
{
	char cand[PATH_MAX];

	return hs_agent_find_exe(name, cand, NULL) == 0 ? realpath(cand, NULL)
						  : NULL;
}

static void check_agents(char **names, bool given)
{
	char buf[PATH_MAX + 128], kind[160];
	int found = 0;

	for (char **n = names; *n; n++) {
		char *p = which(*n);
		const char *k = p ? kind_of(p, kind, sizeof(kind)) : NULL;

		if (!p) {
			if (given)
				row(false, *n, "not found on PATH",
				    "install it, or put it on PATH");
			continue;
		}
		found++;
		snprintf(buf, sizeof(buf), "%s: %s", p, k ? k : "unreadable");
		/* A static agent lacks nothing by itself: the floor row says
		 * whether its own calls are seen. */
		row(true, *n, buf, NULL);
		free(p);
	}
	if (!found && !given)
		printf("      none of %s on PATH (name yours: hookshim doctor "
		       "AGENT...)\n", "claude, codex, gemini, qwen, pi, "
				       "opencode, aider");
}

/* ---- kernel features ---- */

static bool floor_ok; /* check_floor: the trust model rows need it */

static void check_floor(void)
{
	struct hs_config cfg;
	struct hs_floor_plan fp;
	char buf[320];

	hs_config_init(&cfg, "/");
	cfg.settings.floor = HS_FLOOR_REQUIRE; /* probe, whatever the hooks */
	cfg.settings.enforce = true; /* and the user namespace, as enforce */
	if (hs_floor_plan(&fp, &cfg) < 0) {
		row(false, "seccomp floor", "out of memory", "");
	} else if (fp.on) {
		floor_ok = true;
		snprintf(buf, sizeof(buf), "user notification works%s%s",
			 fp.flags & (1UL << 5) ? ", killable waits" : "",
			 fp.sync_wakeup ? ", synchronous wake-up" : "");
		row(true, "seccomp floor", buf, NULL);
		/* floor/floor_userns.c: wanted only when not root (root
		 * reads every process anyway). Not a missing piece: enforce
		 * mode runs without it, with the limit it says. */
		if (fp.userns)
			row(true, "agent user namespace",
			    "available: in enforce mode the supervisor reads "
			    "every session process, non-dumpable ones too",
			    NULL);
		else if (fp.userns_why[0])
			printf("  %s %-26s %s\n      %-26s (enforce mode runs "
			       "without it: a process that makes itself "
			       "non-dumpable, or one Yama keeps from us, is "
			       "left to the kernel; unprivileged user "
			       "namespaces: kernel.unprivileged_userns_clone, "
			       "user.max_user_namespaces, Ubuntu's "
			       "kernel.apparmor_restrict_unprivileged_userns)"
			       "\n",
			       "   ", "agent user namespace", fp.userns_why, "");
	} else {
		snprintf(buf, sizeof(buf), "unavailable: %s", fp.why);
		row(false, "seccomp floor", buf,
		    "Linux >= 5.9 with seccomp; outside containers that hold "
		    "a listener already (EBUSY) or forbid seccomp; without "
		    "it static binaries and raw syscalls are not decided "
		    "(\"floor\": \"require\" refuses to start)");
	}
	hs_floor_plan_free(&fp);
	hs_config_free(&cfg);
	printf("      %-26s (only under hookshim run: a bare LD_PRELOAD has "
	       "no floor)\n", "");
}

/* The two trust models (README, "Guard and enforce"), and which one a
 * session gets. */
static void check_trust_model(void)
{
	printf("\n trust model\n");
	printf("  %s %-26s %s\n", "   ", "guard (the default)",
	       "the agent's processes are trusted not to attack hookshim");
	printf("      %-26s itself: a script that forges hookshim's "
	       "variables or the floor's\n", "");
	printf("      %-26s cookie can turn a write check off\n", "");
	row(floor_ok, "enforce",
	    floor_ok ? "available: nothing the session sets or presents "
		       "decides"
		     : "not available: it is the seccomp floor deciding "
		       "every call",
	    "the seccomp floor above");
	printf("      %-26s --enforce or \"mode\": \"enforce\"; implied by "
	       "--ci, CI=true,\n", "");
	printf("      %-26s \"strict\" and \"floor\": \"require\"\n", "");
}

static void check_no_new_privs(void)
{
	int now = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	pid_t pid = fork();
	int st = 0;

	if (pid == 0)
		_exit(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : 1);
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		row(true, "no_new_privs", now == 1 ? "settable (already set "
						     "here)"
						   : "settable",
		    NULL);
	else
		row(false, "no_new_privs", "refused",
		    "the floor needs it; check the container's seccomp and "
		    "LSM policy");
}

static void check_io_uring(void)
{
	struct io_uring_params p;
	long fd;
	char buf[160];

	memset(&p, 0, sizeof(p));
	fd = syscall(SYS_io_uring_setup, 1, &p);
	if (fd >= 0) {
		close((int)fd);
		row(true, "io_uring", "available to programs: the floor "
				      "refuses io_uring_setup (ENOSYS) so "
				      "they fall back to plain calls",
		    NULL);
	} else {
		snprintf(buf, sizeof(buf), "not available (%s): nothing can "
					   "bypass the floor through it",
			 strerror(errno));
		row(true, "io_uring", buf, NULL);
	}
}

static void check_landlock(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);
	char buf[160];

	if (abi > 0)
		snprintf(buf, sizeof(buf), "ABI %ld (not used by hookshim yet)",
			 abi);
	else
		snprintf(buf, sizeof(buf), "unavailable (%s; not used by "
					   "hookshim yet)", strerror(errno));
	/* Informational: hookshim does not depend on it. */
	printf("  %s %-26s %s\n", "   ", "Landlock", buf);
}

static void check_ptrace_scope(void)
{
	char v[8] = "";
	int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, v, sizeof(v) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0)
		v[n] = '\0';
	/* The supervisor reads its session's memory (paths of notified
	 * calls) with process_vm_readv: a descendant, which scope 1 allows,
	 * but scope 2 and 3 refuse to anyone but root. */
	if (n <= 0 || v[0] == '0' || v[0] == '1' || getuid() == 0)
		row(true, "reading the agent's memory",
		    n > 0 ? "allowed (yama ptrace_scope permits it)"
			  : "allowed (no yama)",
		    NULL);
	else
		row(false, "reading the agent's memory",
		    "yama ptrace_scope refuses it",
		    "sysctl kernel.yama.ptrace_scope=1, or run as root");
}

const char hs_usage_doctor[] =
	"usage: hookshim doctor [AGENT...]\n"
	"What this host lets hookshim enforce -- the shim, the agents on PATH\n"
	"(or the named ones), the kernel's seccomp floor, no_new_privs,\n"
	"io_uring, ptrace scope, Landlock, the trust model -- and the fix for\n"
	"what it cannot. Exits 1 when a piece is missing.\n";

int cmd_doctor(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };

	if (hs_cli_getopt(argc, argv, "", opts, "doctor", hs_usage_doctor) !=
	    -1)
		return 64;
	argv += optind - 1; /* the agents named, after argv[0] */
	argc -= optind - 1;
	printf("hookshim doctor: what this host lets hookshim enforce\n\n");
	printf(" the shim\n");
	check_preload();
	printf("\n agents on PATH\n");
	if (argc > 1)
		check_agents(argv + 1, true);
	else
		check_agents((char **)default_agents, false);
	printf("\n the kernel\n");
	check_floor();
	check_no_new_privs();
	check_io_uring();
	check_ptrace_scope();
	check_landlock();
	check_trust_model();
	printf("\n%s\n", missing ? "some pieces are missing: see the fixes "
				   "above"
				 : "everything hookshim uses is here");
	return missing ? 1 : 0;
}
