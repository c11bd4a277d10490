/* The hook's reason for the call just denied on this thread, for the
 * error-message functions (reason.c interposes strerror, strerror_r,
 * __xpg_strerror_r, strerror_l, perror).
 *
 * A denied open can only return an errno, and a program turns it into
 * text with strerror: CPython's OSError, most C tools' messages. So the
 * first such call on the denying thread for that errno, within a few
 * seconds, gets "<errno text> by hookshim: <reason>" instead, and the
 * reason reaches whoever reads the program's error (an agent's model, in
 * a traceback). Once: a later EACCES on the thread reads as usual.
 * Runtimes that keep their own errno table (node's libuv, linked in
 * statically; Bun) never call these: docs/how-it-works.md, the table
 * of what carries the reason to the model. */
#ifndef HOOKSHIM_SHIM_REASON_H
#define HOOKSHIM_SHIM_REASON_H

/* Remembers `reason` (the hook's text, may be "") for the next error
 * message about `err` on this thread. Async-signal-safe. */
void hs_reason_set(int err, const char *reason);

/* Keeps a denial of the agent process ("read of"/"write to", path,
 * reason) for the stderr of its next tool call (reason.c says why). No-op
 * in a tool process. */
void hs_pending_set(const char *what, const char *path, const char *reason);
/* The agent execing a shell with a command string (exe, argv): when a
 * denial waits and the supervisor says this is a tool call, not one of
 * the agent's own shells, writes the waiting denials to fd and forgets
 * them, for the agent and its other children; then the floor writes the
 * ones it decided itself there, by the same rule. Async-signal-safe. */
void hs_pending_offer(const char *exe, char *const argv[], int fd);

#endif
