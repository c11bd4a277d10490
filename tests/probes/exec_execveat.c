/* Probe for execveat; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) \
	execveat(open(dirname(strdup(prog)), O_PATH | O_DIRECTORY), \
		 basename(strdup(prog)), argv, environ, 0)
#include "exec_execve.c"
