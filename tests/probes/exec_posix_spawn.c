/* Probe for posix_spawn; see exec_execve.c. */
#define PROBE_SPAWN posix_spawn
#include "exec_execve.c"
