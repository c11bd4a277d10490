/* A shell the agent feeds its commands on stdin: each command it reads
 * is a tool call, judged before the shell has it (stdin_line.c).
 *
 * The verdict on the command being run is the state the shell's execs
 * follow until it reads the next one (exec_decide.c); fork children
 * carry their command's verdict with them. */
#ifndef HOOKSHIM_SHIM_STDIN_LINE_H
#define HOOKSHIM_SHIM_STDIN_LINE_H

#include <stdbool.h>

enum hs_line_verdict {
	HS_LINE_NONE,    /* no command read: every program is judged */
	HS_LINE_EXACT,   /* allowed as the hook saw it: its programs are
			  * that tool call's, as in a `bash -c` one's */
	HS_LINE_HANDOFF, /* allowed, but it runs what the hook did not see
			  * (or it was judged only in part): every
			  * program is judged */
	HS_LINE_DENIED,  /* denied: every program fails with the reason */
};

/* This process's verdict (HS_LINE_NONE outside such a shell). */
enum hs_line_verdict hs_line_verdict(void);

/* For HS_LINE_DENIED: the exit status a denied program reports (the
 * reason was written when the command was judged). */
int hs_line_deny_exit(void);

#endif
