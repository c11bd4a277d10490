/* Probe for execv; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) execv(prog, argv)
#include "exec_execve.c"
