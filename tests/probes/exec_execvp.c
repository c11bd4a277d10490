/* Probe for execvp; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) execvp(prog, argv)
#include "exec_execve.c"
