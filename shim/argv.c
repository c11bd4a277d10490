/* Recognising a shell given a command string: how agents run tool calls.
 *
 * sh, bash, dash, zsh, ksh and ash all take "-c STR"; the c may sit in an
 * option cluster ("-lc", "-ec", "-xc") and other options may come first
 * ("-o pipefail", "--norc"). The command string is the first operand after
 * the options. Anything after "--" or the first operand without -c is a
 * script file, not a command string. */
#include "exec.h"

#include <string.h>

/* bash long options that take a value. */
static bool long_takes_value(const char *opt)
{
	return strcmp(opt, "--rcfile") == 0 || strcmp(opt, "--init-file") == 0;
}

int hs_shell_command(const char *exe, char *const argv[])
{
	bool is_shell = false, has_c = false;
	int i;

	if (!argv || !argv[0])
		return -1;
	if (exe && hs_is_shell_name(hs_basename(exe)))
		is_shell = true;
	if (hs_is_shell_name(hs_basename(argv[0])))
		is_shell = true;
	if (!is_shell)
		return -1;
	for (i = 1; argv[i]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
			i++;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (long_takes_value(a) && argv[i + 1])
				i++;
			continue;
		}
		if ((a[0] != '-' && a[0] != '+') || !a[1])
			break;
		/* an option cluster; o/O take the next argument as a value */
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'c' && a[0] == '-')
				has_c = true;
			if ((*p == 'o' || *p == 'O') && argv[i + 1]) {
				i++;
				break;
			}
		}
	}
	return has_c && argv[i] ? i : -1;
}
