/* Kernel "magic links" in a path: /proc/self/cwd/..., /proc/<pid>/root/...,
 * /proc/thread-self/fd/N/..., /proc/<pid>/task/<tid>/cwd, /dev/fd/N/...
 * They are not user symlinks (writes.follow_symlinks has no say over
 * them): the kernel resolves them to whatever the process's working
 * directory, root or descriptor is, so a path through one names that
 * file, and the shim and the floor judge it by that name.
 *
 * Shared by the shim (shim/path.c, where "self" is the calling process)
 * and the floor (supervisor/floor_path.c, where it is the stopped caller).
 * Lexical only; async-signal-safe. */
#ifndef HOOKSHIM_COMMON_PROCLINK_H
#define HOOKSHIM_COMMON_PROCLINK_H

#include <stdbool.h>
#include <stddef.h>

struct hs_proclink {
	bool self;        /* self, thread-self or /dev/fd: the caller */
	long pid;         /* the process named, when !self */
	const char *what; /* "cwd", "root", "fd/N" or "exe" in the path */
	size_t what_len;
	size_t end;       /* the link is p[0, end); the rest follows */
};

/* Does the absolute, folded path p start with a magic link? */
bool hs_proclink(const char *p, struct hs_proclink *l);

#endif
