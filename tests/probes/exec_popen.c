/* Probe for popen; see exec_execve.c. */
#define PROBE_POPEN 1
#include "exec_execve.c"
