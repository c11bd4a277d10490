/* Probe for system; see exec_execve.c. */
#define PROBE_SYSTEM 1
#include "exec_execve.c"
