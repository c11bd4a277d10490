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

/* Is path in a system directory, where a program is what its name
 * says? A `nice` or `bash` made elsewhere (a symlink to python) is not
 * taken at its name. */
HS_CHILD_PATH
bool hs_system_path(const char *path)
{
	static const char dirs[][16] = { "/bin/", "/usr/bin/", "/usr/local/bin/",
					 "/sbin/", "/usr/sbin/" };

	if (!path)
		return false;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = hs_len(dirs[i]);

		if (hs_starts(path, dirs[i]) && hs_base(path) == path + n)
			return true;
	}
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
