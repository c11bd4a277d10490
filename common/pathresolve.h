/* Resolving a path the way the kernel will, shared by the shim
 * (writes.follow_symlinks) and the floor, so both judge the file a write
 * actually reaches.
 *
 * The kernel walks a path component by component: a symlink is replaced
 * by its target and the walk goes on from there, so "l/../f" with l ->
 * secrets/sub names secrets/f, not ./f. Folding ".." before resolving
 * (hs_path_fold) gets that wrong, so the path is handed to the kernel
 * unfolded: the part that exists is opened with O_PATH and named through
 * /proc/self/fd; a last component that does not exist is read as a
 * symlink (O_CREAT through a dangling symlink creates its target) and
 * followed by hand, up to the kernel's 40 links.
 *
 * Raw syscalls only (O_PATH opens are no write: no interposer, no
 * notification); async-signal-safe. */
#ifndef HOOKSHIM_COMMON_PATHRESOLVE_H
#define HOOKSHIM_COMMON_PATHRESOLVE_H

#include <stdbool.h>

/* p: absolute (PATH_MAX), "..", "." and "//" allowed. Rewritten to the
 * physical name of what it reaches (folded); `last`: follow a symlink in
 * the last component too (false for O_NOFOLLOW, O_CREAT|O_EXCL). When a
 * directory on the way does not exist, p is folded lexically: the call
 * itself will fail. */
void hs_path_resolve(char *p, bool last);

/* What the resolution stood on, kept open for the caller to act on
 * (the shim's judged opens: shim/write_pin.c), so that no symlink
 * flipped after the check can send the call elsewhere. fd: -1 (none:
 * the walk ended in a fold, a loop, a name with no plain last
 * component), an O_PATH descriptor of the file p names (`dir` false),
 * or one of p's directory, p's last component being a plain name there
 * that is no symlink, or not followed (`dir` true). O_CLOEXEC; the
 * caller closes it. */
struct hs_path_pin {
	int fd;
	bool dir;
};

/* hs_path_resolve, pinning what it found when pin is not NULL. */
void hs_path_resolve_pin(char *p, bool last, struct hs_path_pin *pin);

/* hs_path_resolve(p, true) for a p whose own walk (an O_PATH open of it,
 * following) a caller has just seen fail: the same name, without that
 * walk again. */
void hs_path_resolve_missing(char *p);

#endif
