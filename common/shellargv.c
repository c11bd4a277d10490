/* See shellargv.h. */
#include "shellargv.h"

/* No libc string calls: this runs in a fork child (plainstr.h). */
#include "plainstr.h"

/* The shim asks this for every exec, often in a fork child: no libc
 * (plainstr.h). */
HS_CHILD_PATH
bool hs_shell_name(const char *path)
{
	/* not pointers: see envfix.c's table */
	static const char shells[][5] = { "sh", "bash", "dash",
					  "zsh", "ksh", "ash" };
	const char *name;

	if (!path)
		return false;
	name = hs_base(path);
	if (name[0] == '-')
		name++;
	for (size_t i = 0; i < sizeof(shells) / sizeof(shells[0]); i++)
		if (hs_same(name, shells[i]))
			return true;
	return false;
}

HS_CHILD_PATH
bool hs_interp_name(const char *path, bool *stdin_program)
{
	/* not pointers: see envfix.c's table. Those that read their
	 * program from stdin when given none come first. */
	static const char names[][9] = {
		"python", "python2", "python3", "pypy", "pypy3", "perl",
		"ruby", "node", "nodejs", "php", "lua", "luajit", "tclsh",
		"wish", "expect", "julia", "Rscript", "bun",
		/* the rest: a program always in their words */
		"awk", "gawk", "mawk", "nawk", "sed", "gsed", "make", "gmake",
		"deno", "pwsh", "R" };
	const size_t first_rest = 18;
	const char *name;

	if (!path)
		return false;
	name = hs_base(path);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = hs_len(names[i]);
		const char *v = name + n;

		if (!hs_same_n(name, names[i], n))
			continue;
		/* a version: python3.12, perl5.36, lua5.4 */
		while ((*v >= '0' && *v <= '9') || *v == '.')
			v++;
		if (*v)
			continue;
		if (stdin_program)
			*stdin_program = i < first_rest;
		return true;
	}
	return false;
}

HS_CHILD_PATH
bool hs_git_path(const char *path)
{
	static const char dirs[][24] = { "/usr/lib/git-core/",
					 "/usr/libexec/git-core/" };

	if (!path)
		return false;
	/* git, and its programs a remote runs (git-upload-pack,
	 * git-receive-pack, git-shell) or its helpers (git-lfs) */
	if (hs_system_path(path) && (hs_same(hs_base(path), "git") ||
				     hs_same_n(hs_base(path), "git-", 4)))
		return true;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = hs_len(dirs[i]);

		/* directly in it: no ".." out of it */
		if (hs_starts(path, dirs[i]) && hs_base(path) == path + n &&
		    path[n] && path[n] != '.')
			return true;
	}
	return false;
}

HS_CHILD_PATH
bool hs_hands_off_again(const char *path)
{
	/* every program but git: a list of those that run others -- shells,
	 * interpreters, env and the like, what runs the commands it reads
	 * (ed, gdb, vim), flock, script, find -exec, strace, setpriv,
	 * run-parts, ... under any name (vim.basic, rbash) -- was never
	 * whole, and one not on it ran what a file said as a command's,
	 * nested. git has its rule: what it starts that is not its own is
	 * judged (hs_settings_runner), its own, not */
	return path && !hs_git_path(path);
}

HS_CHILD_PATH
bool hs_settings_runner(const char *path)
{
	return hs_git_path(path) ||
	       (hs_system_path(path) && hs_same(hs_base(path), "ssh"));
}

HS_CHILD_PATH
bool hs_git_own(const char *path)
{
	/* not pointers: see envfix.c's table */
	static const char runs_settings[][24] = {
		"git-web--browse", "git-mergetool", "git-mergetool--lib",
		"git-difftool--helper", "git-instaweb", "git-add--interactive" };
	const char *name;

	if (!hs_git_path(path))
		return false;
	name = hs_base(path);
	for (size_t i = 0; i < sizeof(runs_settings) / sizeof(runs_settings[0]);
	     i++)
		if (hs_same(name, runs_settings[i]))
			return false;
	return true;
}

/* Long options of bash that take a separate argument. */
HS_CHILD_PATH
static bool long_opt_takes_arg(const char *a)
{
	return hs_same(a, "--rcfile") || hs_same(a, "--init-file");
}

/* A shell's options, as the shell reads them: whether -c and -s are
 * among them; returns the index of the first operand (argv[i] NULL when
 * there is none). */
HS_CHILD_PATH
static int scan_options(char *const argv[], bool *has_c, bool *has_s)
{
	int i;

	*has_c = *has_s = false;
	for (i = 1; argv[i]; i++) {
		const char *a = argv[i];

		if (hs_same(a, "--") || hs_same(a, "-")) {
			i++;
			break;
		}
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break;
		if (a[0] == '-' && a[1] == '-') {
			if (long_opt_takes_arg(a) && argv[i + 1])
				i++;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'c' && a[0] == '-')
				*has_c = true;
			else if (*p == 's' && a[0] == '-')
				*has_s = true;
			else if ((*p == 'o' || *p == 'O') && argv[i + 1])
				i++; /* -o pipefail, -O extglob */
		}
	}
	return i;
}

HS_CHILD_PATH
int hs_shell_operand(char *const argv[])
{
	bool has_c, has_s;
	int i;

	if (!argv || !argv[0])
		return -1;
	i = scan_options(argv, &has_c, &has_s);
	if (!has_c || !argv[i])
		return -1;
	return i;
}

HS_CHILD_PATH
bool hs_shell_reads_stdin(char *const argv[])
{
	bool has_c, has_s;
	int i;

	/* whether it is a shell is the caller's to say, by the program
	 * that runs (`exec -a foo bash` is bash) */
	if (!argv || !argv[0])
		return false;
	i = scan_options(argv, &has_c, &has_s);
	/* a script that is a stream (/dev/stdin, /dev/fd/N, /proc/…/fd/N)
	 * is read as it comes, like stdin */
	return !has_c && (has_s || !argv[i] || hs_same_n(argv[i], "/dev/", 5) ||
			  hs_same_n(argv[i], "/proc/", 6));
}

/* The system's directories, where a program is what its name says: one
 * table for the shim's and the floor's looks (hs_system_path here,
 * floor_exec.c's shadowing rule). Not pointers: see envfix.c's table. */
static const char system_dirs[][16] = { "/usr/local/bin/", "/usr/bin/",
					"/bin/", "/usr/sbin/", "/sbin/" };

/* The i-th system directory (with its last '/'), or NULL past the end. */
HS_CHILD_PATH
const char *hs_system_dir(size_t i)
{
	return i < sizeof(system_dirs) / sizeof(system_dirs[0]) ?
		       system_dirs[i] :
		       NULL;
}

/* Is path in a system directory? A `nice` or `bash` made elsewhere (a
 * symlink to python) is not taken at its name. */
HS_CHILD_PATH
bool hs_system_path(const char *path)
{
	const char *dir;

	if (!path)
		return false;
	for (size_t i = 0; (dir = hs_system_dir(i)); i++)
		if (hs_starts(path, dir) && hs_base(path) == path + hs_len(dir))
			return true;
	return false;
}

HS_CHILD_PATH
bool hs_chain_name(const char *path)
{
	/* not pointers: see envfix.c's table */
	static const char chains[][8] = { "env", "nohup", "nice", "setsid",
					  "timeout", "stdbuf", "ionice",
					  "chrt", "taskset", "xargs", "time" };
	const char *name;

	if (!path)
		return false;
	name = hs_base(path);
	for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
		if (hs_same(name, chains[i]))
			return true;
	return false;
}
