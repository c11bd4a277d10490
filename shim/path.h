/* Absolute, normalised paths for write events, built on the caller's
 * stack. Async-signal-safe: no malloc, no locks, no stdio; errno is the
 * caller's business (the interposers save and restore it). */
#ifndef HOOKSHIM_SHIM_PATH_H
#define HOOKSHIM_SHIM_PATH_H

#include <limits.h>
#include <stdbool.h>

/* HS_PATH_TOOLONG (common/proclink.h): a name the kernel takes but no
 * PATH_MAX buffer holds; write_event.c denies a write through one. */
#include "../common/pathresolve.h"
#include "../common/proclink.h"

/* The directory `dirfd` names (AT_FDCWD = the working directory), into
 * buf (PATH_MAX). 0, HS_PATH_TOOLONG, or -1 if the kernel cannot name it
 * (not a directory, another root's). */
int hs_path_dirfd(int dirfd, char *buf);

/* `path` (relative to dirfd when it is relative) as an absolute path in
 * out (PATH_MAX): "//", "." and ".." are folded lexically, so a symlink
 * is never followed, the last component included, and a path through
 * the root's logical name (hs_path_alias) is named under the root. With
 * `follow`, the path is resolved as the kernel will, component by
 * component (common/pathresolve.h), so it names the file actually
 * written. 0; HS_PATH_TOOLONG (see above); -1 when the call fails in
 * the kernel anyway (path PATH_MAX or longer, empty, a dirfd that is no
 * directory). Uses up to 8 KiB of stack, one buffer at a time. */
int hs_path_abs(int dirfd, const char *path, bool follow, char *out);

/* hs_path_abs for a call that follows its last component only when
 * `last` (not unlink, mkdir, O_NOFOLLOW): /dev/stdin, /dev/stdout and
 * /dev/stderr, the system's symlinks to /proc/self/fd/N, are read as the
 * magic links they lead to only then (hs_path_abs: always). */
int hs_path_named(int dirfd, const char *path, bool follow, bool last,
		  char *out);

/* hs_path_abs following symlinks, the last component only when `last`
 * (not for O_NOFOLLOW, O_CREAT|O_EXCL, mkdir), with what the walk ended
 * on held open in *pin (common/pathresolve.h; pin->fd -1 when nothing
 * is): the judged name's own file or directory, for shim/write_pin.c to
 * act on instead of the name. */
int hs_path_pinned(int dirfd, const char *path, bool last, char *out,
		   struct hs_path_pin *pin);

/* The session root's logical name (config/model.h), or NULL; the string
 * must live as long as the process (the filter's arena copy). */
void hs_path_alias(const char *logical);

/* The working directory changed (chdir/fchdir, after the real call);
 * `child`: in a process other than the one the shim loaded in (a fork or
 * vfork child, which may share our memory), so the cached copy is never
 * trusted again there. */
void hs_path_chdir(bool child);

/* The generation of the working directory, which changes with every
 * chdir: a value computed from the directory holds while it is current.
 * False when no such value can be trusted here (see hs_path_chdir). */
bool hs_path_cwd_gen(unsigned *gen);

/* Is `path` `dir` itself or below it (both absolute, folded)? */
bool hs_path_under(const char *path, const char *dir);

/* "/proc/self/fd/N" for our descriptor fd, into link (HS_SELF_FD_CAP
 * bytes); link returned. */
#define HS_SELF_FD_CAP 40
const char *hs_self_fd_name(int fd, char *link);

#endif
