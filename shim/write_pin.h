/* With writes.follow_symlinks, a write is made on what its judged name
 * was resolved to, not by the name again (issue 15, row 9).
 *
 * Judging resolves the name component by component (common/pathresolve.h)
 * and then, before, the real call walked the name a second time: a
 * symlink on the way flipped in between (another process looping
 * `l -> harmless`, `l -> secrets`) sent a write the hook never saw into
 * the denied directory. Now the resolution keeps what its walk ended on
 * (t->pin) and the call is made there:
 *   - an existing file: its judged physical name opened with openat2's
 *     RESOLVE_NO_SYMLINKS (no symlink can be on that walk), and when that
 *     fails for any reason (openat2 missing or refused by a seccomp
 *     policy, a symlink put on the way: ELOOP, the file renamed or
 *     deleted...), the O_PATH descriptor the name was read from reopened
 *     through /proc/self/fd/N with the caller's flags (less O_EXCL and
 *     O_NOFOLLOW, which pin the directory instead): the judged inode, and
 *     the kernel's own answer about it (truncate: that link);
 *   - a name to create, or one whose last component is not followed
 *     (O_NOFOLLOW, O_CREAT|O_EXCL, mkdir, unlink, rmdir, remove, mknod,
 *     symlink, rename's two names): the judged directory's descriptor,
 *     and the single last component named there -- opened with O_NOFOLLOW
 *     added, so a symlink put there since fails ELOOP, never followed:
 *     what openat2's RESOLVE_NO_SYMLINKS would say of the whole name, on
 *     every kernel and under every seccomp policy (no openat2, no
 *     fallback). Such an ELOOP the caller did not ask for is judged again
 *     (HS_WPIN_AGAIN), a few rounds at most, then the call fails with
 *     ELOOP: an unjudged file is never opened. The other calls never
 *     follow their last component anyway.
 * link() is made with linkat between its two pinned directories; one
 * that follows its source (AT_SYMLINK_FOLLOW) or names it by descriptor
 * goes by its names (a pinned source file would need AT_EMPTY_PATH,
 * which wants CAP_DAC_READ_SEARCH).
 * Staged writes publish by the judged name (write_stage.h).
 * Cost: the resolution reads the name from that descriptor anyway, so an
 * open or truncate no hook matches makes as many syscalls as before (the
 * openat2 replaces the open by name, the descriptor's close moves after
 * it; the reopen through /proc alone cost ~2.5 us more an open).
 * unlink, rename, mknod and symlink were named lexically before --
 * a symlinked directory on the way went unresolved, so `rm l/k` with
 * l -> secrets was judged as l/k -- and now pay their directory's
 * resolution: three syscalls a name.
 * Under the floor the call carries the cookie (floor_calls.h), as any
 * call the shim decided. Async-signal-safe but for the stream of fopen. */
#ifndef HOOKSHIM_SHIM_WRITE_PIN_H
#define HOOKSHIM_SHIM_WRITE_PIN_H

#include <stdbool.h>
#include <stdio.h>

#include "write.h"

/* The name changed under the call: judge it again. */
#define HS_WPIN_AGAIN (-2)
/* Rounds of judging a call may lose to a symlink flipping under it. */
#define HS_WPIN_ROUNDS 3

static inline bool hs_wpinned(const struct hs_wticket *t)
{
	return t->pin.fd >= 0;
}

/* c made on t->pin (closed): the descriptor (opens), 0 (the others), or
 * -1 and errno; HS_WPIN_AGAIN when `retry` and the name was
 * swapped for a symlink since it was judged (else that is ELOOP). errno
 * is the caller's on success. */
int hs_wpin_call(const struct hs_wcall *c, struct hs_wticket *t, bool retry);

/* Closes whatever t holds pinned (errno kept). */
void hs_wunpin(struct hs_wticket *t);

/* fopen's stream on descriptor fd (c->fmode), or NULL and errno (fd
 * closed); NULL for fd < 0. */
FILE *hs_wpin_fdopen(int fd, const struct hs_wcall *c);

#endif
