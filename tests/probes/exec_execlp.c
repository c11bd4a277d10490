/* Probe for execlp; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) PROBE_L(execlp, prog, argv)
#include "exec_execve.c"
