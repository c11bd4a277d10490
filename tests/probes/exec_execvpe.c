/* Probe for execvpe; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) execvpe(prog, argv, environ)
#include "exec_execve.c"
