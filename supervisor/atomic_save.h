/* Atomic saves judged at their temp file.
 *
 * Claude Code's Write and Edit write "x.txt.tmp.PID.HEX" and rename it
 * over "x.txt". Judged at the rename, a denied Write has already put its
 * content on disk, under the temp name, in the very place the policy
 * protects. So the shim and the floor fire the Write of "x.txt" where the
 * temp file is created (the request's temp_create names it): a denial
 * fails that open and nothing reaches the disk. The rename that then
 * publishes the same temp file onto the same name, from the same
 * process (temp_publish), is the same Write: it is answered from the
 * verdict given at the creation, with its tool_use_id (the post pairs
 * with the pre the user saw), and runs no hook -- one PreToolUse per
 * Write, as before.
 *
 * Whichever process renames it (a shell's `mv` is not the process of its
 * redirect): the Write of that name was allowed, and what the temp file
 * holds is no hook's business, or the save would wait for its rename
 * (content hooks, docs/staged-writes.md). A creation answers one rename,
 * within HS_ATOMIC_TTL seconds; anything else (another target, too late,
 * a table full of unfinished saves) is judged at the rename as before:
 * the memory can only spare a second event, never allow a call no hook
 * allowed. */
#ifndef HOOKSHIM_SUPERVISOR_ATOMIC_SAVE_H
#define HOOKSHIM_SUPERVISOR_ATOMIC_SAVE_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "message.h"

#define HS_ATOMIC_SLOTS 64
#define HS_ATOMIC_TTL 120

struct hs_atomic_saves {
	pthread_mutex_t mu;
	struct hs_atomic_save {
		time_t at;      /* CLOCK_MONOTONIC seconds of the verdict */
		char *temp, *final, *id; /* temp NULL: a free slot */
	} slot[HS_ATOMIC_SLOTS];
	unsigned next;      /* the slot a full table reuses */
};

void hs_atomic_init(struct hs_atomic_saves *a);
void hs_atomic_destroy(struct hs_atomic_saves *a);
/* After the pre decision of req: an allowed Write fired at a temp file's
 * creation is remembered. */
void hs_atomic_decided(struct hs_atomic_saves *a, const struct hs_msg *req,
		       const struct hs_answer *ans);
/* Is req the rename that publishes a remembered creation? Then the
 * memory is spent and *id is the pre's tool_use_id (the caller's to
 * free, NULL if it had none). */
bool hs_atomic_published(struct hs_atomic_saves *a, const struct hs_msg *req,
			 char **id);

#endif
