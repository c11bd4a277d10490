/* Trust for the hook files a project brings (issue 24): a cloned
 * repository's .hookshim/hooks.json or .claude/settings.json runs its
 * commands on the user's machine, so such a file loads only once the user
 * has trusted it, as it is now. `hookshim trust` records the file's
 * resolved path and the SHA-256 of its content; any change needs trust
 * again. The records are one line each, "<sha256> <path>", in
 * $XDG_STATE_HOME/hookshim/trusted (else ~/.local/state/hookshim/trusted),
 * a file self-protection covers during a session (engine/protect.c), so
 * an agent cannot trust what it wrote for the next session. */
#ifndef HOOKSHIM_CONFIG_TRUST_H
#define HOOKSHIM_CONFIG_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#define HS_TRUST_HEX 65 /* a SHA-256 in hex, and its NUL */

/* The records' file, into buf; -1 when no directory is known. */
int hs_trust_records(char *buf, size_t n);

/* The SHA-256 of the file at `path`, in hex; -1 (errno) if unreadable. */
int hs_trust_digest(const char *path, char hex[HS_TRUST_HEX]);

enum hs_trust_state {
	HS_TRUST_OK,      /* trusted as it is */
	HS_TRUST_NEVER,   /* no record for it */
	HS_TRUST_CHANGED, /* a record, for other content */
	HS_TRUST_UNREADABLE,
};

/* What the records say of the file at `path` now. */
enum hs_trust_state hs_trust_check(const char *path);

/* fn(path, what the record says of the file now) for every record, in
 * the records' order: the number of records, or -1 when they cannot be
 * read (none yet: 0). */
int hs_trust_each(void (*fn)(const char *path, enum hs_trust_state st,
			     void *arg),
		  void *arg);

/* Records `path` as trusted with its content now (hex gets its digest),
 * or with `forget` removes its record; the records' file is rewritten
 * atomically. 0, or -1 with a message in err. */
int hs_trust_set(const char *path, bool forget, char hex[HS_TRUST_HEX],
		 char *err, size_t errlen);

#endif
