/* Kernel "magic links" in a path: /proc/self/cwd/..., /proc/<pid>/root/...,
 * /proc/thread-self/fd/N/..., /proc/<pid>/task/<tid>/cwd, /dev/fd/N/...,
 * /proc/self/map_files/START-END
 * They are not user symlinks (writes.follow_symlinks has no say over
 * them): the kernel resolves them to whatever the process's working
 * directory, root or descriptor is, so a path through one names that
 * file, and the shim and the floor judge it by that name.
 *
 * Shared by the shim (shim/path.c, where "self" is the calling process)
 * and the floor (floor/floor_path.c, where it is the stopped caller).
 * Lexical only; async-signal-safe. */
#ifndef HOOKSHIM_COMMON_PROCLINK_H
#define HOOKSHIM_COMMON_PROCLINK_H

#include <stdbool.h>
#include <stddef.h>

struct hs_proclink {
	bool self;        /* self, thread-self or /dev/fd: the caller */
	long pid;         /* the process named, when !self */
	const char *what; /* "cwd", "root", "fd/N", "map_files/S-E", "exe" */
	size_t what_len;
	size_t end;       /* the link is p[0, end); the rest follows */
};

/* Longer than any link a path starts with (l.end): the longest,
 * "/proc/<pid>/map_files/<16 hex>-<16 hex>", is 57 bytes, one of
 * "/proc/<pid>/task/<tid>/fd/<n>" at most 48. */
#define HS_PROCLINK_MAX 64

/* Does the absolute, folded path p start with a magic link? */
bool hs_proclink(const char *p, struct hs_proclink *l);

/* The system's names for the standard descriptors: /dev/stdin, /dev/stdout
 * and /dev/stderr are symlinks to /proc/self/fd/0, 1 and 2, so a call that
 * follows one reaches whatever the descriptor is -- a read-only descriptor
 * of a protected file, reopened for writing through its name. When p (an
 * absolute path) is one of them, alone or with more after a '/', and the
 * symlink at root + that name is the standard one (root: "" for our own
 * view, "/proc/<tid>/root" for another process's), p is rewritten in
 * place as "/dev/fd/N" + the rest, a magic link hs_proclink reads: N is
 * returned. -1 otherwise (p unchanged). Only for a call that follows the
 * name's last component: unlink("/dev/stdout") removes the symlink.
 * Async-signal-safe. */
int hs_proclink_stdio(char *p, const char *root);

/* "/dev/fd/N..." made by hs_proclink_stdio back into the name it was
 * (when the descriptor's target has no name of its own: a pipe); p is
 * PATH_MAX bytes. */
void hs_proclink_stdio_back(char *p, int n);

/* A name the kernel takes but no PATH_MAX buffer holds: a relative path
 * that, joined to its directory and folded, is still PATH_MAX or longer,
 * or a directory deeper than PATH_MAX. What it names cannot be judged,
 * so the shim and the floor deny a write through it, never let it
 * through unjudged. */
#define HS_PATH_TOOLONG (-2)

/* The path a /proc link (/proc/<pid>/cwd, .../fd/N) names, into out
 * (PATH_MAX): 0; -1 when it names no path ("pipe:[...]", "anon_inode:",
 * gone); HS_PATH_TOOLONG when the name does not fit (the kernel refuses
 * to print one deeper than a page; one that fills the buffer may have
 * been cut). errno is the caller's to save. */
int hs_proclink_target(const char *link, char *out);

#endif
