/* PostToolUse for writes only the floor saw (floor_post.c, docs/floor.md
 * "PostToolUse"). A call the floor lets continue is not seen again: the
 * kernel sends no notice when it returns, nor at the close of the file
 * it opened. So, before the call continues, the supervisor asks the file
 * system to tell it (inotify on the directory of the name written) and
 * fires the shim's post event when it does: at the last close of a file
 * opened for writing, or when the name was created, moved in or
 * deleted. A call that failed is seen as over without that notice
 * (/proc/<tid>/syscall) and fires the shim's post-failure. Posts run on
 * threads of their own: neither the notification receiver nor the
 * inotify reader ever waits for a hook. */
#ifndef HOOKSHIM_SUPERVISOR_FLOOR_POST_H
#define HOOKSHIM_SUPERVISOR_FLOOR_POST_H

#include <stdbool.h>
#include <stdint.h>

#include "floor_int.h"

struct hs_session;
struct hs_fpost;

/* The inotify descriptor and its reader thread; NULL when inotify is not
 * available (then no post fires for floor-seen writes, as before). */
struct hs_fpost *hs_fpost_start(struct hs_session *s);

/* Before c continues (c->post.want): waits for its end. Returns a ticket
 * for hs_fpost_cancel, 0 when nothing could be arranged. Cheap (one
 * inotify_add_watch, no hook): the receiver calls it. */
uint64_t hs_fpost_expect(struct hs_fpost *p, const struct hs_fl_call *c);

/* The call did not continue after all (the caller was interrupted before
 * the answer reached it): forget it. */
void hs_fpost_cancel(struct hs_fpost *p, uint64_t ticket);

/* What the file system has told so far is handled, and the posts it
 * started are done, or grace_ms passed: called when the agent exited,
 * so its last writes' posts come before SessionEnd. */
void hs_fpost_settle(struct hs_fpost *p, int grace_ms);

/* Stops the reader; posts still running get grace_ms. False when some
 * are still running (p is then left to exit()). Calls still waited for
 * (files left open by processes the agent left behind) fire nothing. */
bool hs_fpost_stop(struct hs_fpost *p, int grace_ms);

#endif
