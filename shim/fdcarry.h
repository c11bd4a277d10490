/* Write descriptors handed across exec.
 *
 * `cmd > f` with an external cmd: the shell's fork child opens f (and
 * tracks it for the post at close), then execs cmd. The new image has an
 * empty table, so no post would ever fire. The exec therefore passes the
 * tracked descriptors that survive it (not FD_CLOEXEC) in HOOKSHIM_FDS,
 * and the new image's constructor tracks them again with the same
 * tool_use_id, path and operation: its close or exit fires the one post.
 *
 *   HOOKSHIM_FDS=PID{/FD[,FD...]:FLAGS:N:OPN:IDN:PATH}...
 *
 * PID is the exec'ing process (exec keeps it): a process with another pid
 * (a child of a static target that passed its environ on) ignores the
 * variable. Op, id and path are length-prefixed, so a path may hold any
 * byte but NUL. FLAGS are fdtrack.h's HS_FDT_*: a staged write's file
 * (write_stage.h) is published by the new image's close or exit. The
 * constructor removes the variable from environ and envfix drops it from
 * every child's environment: it is read once. A record is a claim, not a
 * permission: the supervisor publishes on the content hooks' word only a
 * staged write whose open it allowed (supervisor/staged.h). */
#ifndef HOOKSHIM_SHIM_FDCARRY_H
#define HOOKSHIM_SHIM_FDCARRY_H

#include <stddef.h>

/* Bytes the variable needs (with its NUL) for this process's tracked
 * descriptors, or 0 when there is none to hand over. Bounded, since the
 * caller puts it on the stack. AS-safe: an exec may run in a vfork child. */
size_t hs_fdc_size(void);

/* "HOOKSHIM_FDS=..." into buf (cap from hs_fdc_size); NULL when nothing
 * fits (the table may have changed since). AS-safe. */
char *hs_fdc_build(char *buf, size_t cap);

/* The constructor's part: takes HOOKSHIM_FDS out of environ, in place,
 * and tracks what it names when it was meant for this process. */
void hs_fdc_inherit(void);

#endif
