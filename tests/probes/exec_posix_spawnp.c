/* Probe for posix_spawnp; see exec_execve.c. */
#define PROBE_SPAWN posix_spawnp
#include "exec_execve.c"
