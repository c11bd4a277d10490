/* Recognising a shell given a command string: how agents run tool calls.
 * The argv rules live in common/shellargv.c, shared with the supervisor;
 * here the executable's own name counts too (`exec -a x bash -c ...`). */
#include "exec.h"

#include "../common/plainstr.h"
#include "../common/shellargv.h"

HS_CHILD_PATH
int hs_shell_command(const char *exe, char *const argv[])
{
	if (!argv || !argv[0])
		return -1;
	if (!hs_shell_name(exe) && !hs_shell_name(argv[0]))
		return -1;
	return hs_shell_operand(argv);
}
