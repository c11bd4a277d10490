/* Probe for execle; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) PROBE_L(execle, prog, argv, environ)
#include "exec_execve.c"
