/* Probe for fexecve; see exec_execve.c. */
#define PROBE_EXEC(prog, argv) fexecve(open(prog, O_RDONLY), argv, environ)
#include "exec_execve.c"
