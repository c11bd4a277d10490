/* Probe for execl; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) PROBE_L(execl, prog, argv)
#include "exec_execve.c"
