/* The session's transcript: a JSONL file in Claude Code's transcript
 * shape, one entry per tool call the session saw (its tool_use before the
 * hooks run, its tool_result after), so hooks that open `transcript_path`
 * find what they expect. See transcript.c. */
#ifndef HOOKSHIM_SUPERVISOR_TRANSCRIPT_H
#define HOOKSHIM_SUPERVISOR_TRANSCRIPT_H

#include <stdbool.h>

#include "../engine/event.h"

struct hs_transcript;

/* A fresh private directory ($TMPDIR, mode 0700) holding an empty
 * transcript.jsonl (0600); NULL with a message when it cannot be made.
 * `keep_as` (may be NULL): the file its lines are appended to when the
 * session ends (`--log FILE` keeps them in FILE.transcript.jsonl; every
 * line names its session, as the log's do). */
struct hs_transcript *hs_transcript_open(const char *session_id,
					 const char *keep_as);

/* The file's absolute path (what payloads carry as transcript_path). */
const char *hs_transcript_path(const struct hs_transcript *t);
/* Where its lines are kept at the end (--log FILE.transcript.jsonl), or
 * NULL. */
const char *hs_transcript_kept_as(const struct hs_transcript *t);

/* An assistant entry with the call's tool_use {id, name, input} in
 * Claude Code's names, written before the call's hooks run. Safe from
 * many threads. */
void hs_transcript_tool_use(struct hs_transcript *t, const struct hs_event *ev);

/* A user entry with the call's tool_result: its output (a post event), or
 * the hook's reason as an error (`denied`, the call never ran). */
void hs_transcript_tool_result(struct hs_transcript *t,
			       const struct hs_event *ev, const char *denied);

/* Appends what it holds to keep_as, then removes the file and its
 * directory, leaving the rest usable (writes go to the unlinked file):
 * for a session ending with threads still running, which cannot close
 * it under them. Once only. */
void hs_transcript_finish(struct hs_transcript *t);

/* Finishes it (above), closes and frees it. */
void hs_transcript_close(struct hs_transcript *t);

#endif
