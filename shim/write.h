/* Internal interface between the write interposers (write.c: the table of
 * libc entry points) and the policy that turns one call into events
 * (write_event.c). All async-signal-safe. */
#ifndef HOOKSHIM_SHIM_WRITE_H
#define HOOKSHIM_SHIM_WRITE_H

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "../common/pathresolve.h"

/* What a call does to the file system, whatever its libc shape. */
enum hs_wkind {
	HS_WK_OPEN,    /* path opened with flags (fopen: flags from mode) */
	HS_WK_REOPEN,  /* freopen: an open, never staged */
	HS_WK_TRUNC,   /* truncate(path) */
	HS_WK_RENAME,  /* path -> path2; flags: renameat2's */
	HS_WK_LINK,    /* new name path2 for path; flags: linkat's */
	HS_WK_SYMLINK, /* path2 made a symlink with text path */
	HS_WK_UNLINK,  /* flags: AT_REMOVEDIR for rmdir */
	HS_WK_REMOVE,  /* unlink or rmdir, whichever path is */
	HS_WK_MKDIR,
	HS_WK_MKNOD,   /* mknod/mkfifo family; flags: the mode (file type) */
	HS_WK_BIND,    /* a unix socket (dirfd2) bound to path: a mknod of a
			* socket to the rules (common/sunpath.h) */
	HS_WK_MKTEMP,  /* mkstemp family and mkdtemp: path is the template */
	/* The mode, the owner, an extended attribute (an ACL) of path:
	 * judged for protected files only (chmod -x of a hook script makes
	 * it fail, and so allow), no hook event for other files. flags:
	 * AT_SYMLINK_NOFOLLOW; AT_EMPTY_PATH with "" for the descriptor
	 * dirfd itself (fchmod, fchown, fsetxattr). */
	HS_WK_CHMOD,
	HS_WK_CHOWN,
	HS_WK_XATTR,
};

struct hs_wcall {
	enum hs_wkind kind;
	int dirfd;
	const char *path;
	int dirfd2;
	const char *path2;
	int flags;
	mode_t mode;   /* opens that create (a staged write's file too), mkdir */
	const char *fmode; /* fopen's mode: the stream of a pinned open */
	off_t len;     /* truncate's length; mknod's device */
	/* an open that creates without O_EXCL, returning a descriptor, in
	 * guard mode: it may be made O_EXCL first (write.c), so the look for
	 * a protected file it follows its name to waits for its EEXIST */
	bool excl_first;
};

/* One call in flight: what begin decided, what end needs. Lives on the
 * slow path's stack only. */
struct hs_wticket {
	unsigned want;     /* HS_W_PRE|HS_W_POST left to do */
	bool event;        /* a pre was asked (its post must follow) */
	const char *op;    /* static string */
	const char *post_path;     /* path of the post event */
	const char *post_new_path;
	const char *extra_op; /* a second pre: a rename's target, a link's
			       * source, an exchange's other name
			       * (common/write_rule.h) */
	const char *extra_path, *extra_new; /* its path and new_path */
	char id[64];
	char path[PATH_MAX];
	char path2[PATH_MAX];
	int saved_errno;
	bool exists;       /* opens: the target is there, as in sb */
	struct stat sb;
	int sfd;           /* a staged write's file (hs_wbegin returned 2) */
	const char *content_file; /* a rename's source, for content hooks */
	/* an atomic save's temp file (supervisor/atomic_save.h): the open
	 * creating it fires the Write of the name it will be published
	 * under (post_path), its rename is that Write's publish */
	const char *temp_create, *temp_publish;
	const char *unnamed; /* a path of the call with no name (path.h) */
	/* With follow_symlinks, what the judged name stood on when it was
	 * resolved (opens, truncate, mkdir): the call is made on it
	 * (write_pin.h), not on the name again. */
	struct hs_path_pin pin;
	struct hs_path_pin pin2; /* a rename's target directory, a link's
				  * source directory */
	bool follow;   /* named as follow_symlinks walks (hs_wclassify) */
	bool to_floor; /* an open of another process's /proc entry: made
			* without the cookie, for the floor to judge
			* (floor/floor_reach.c) */
	bool excl_skipped; /* that look was left for the EEXIST
			    * (hs_wcall.excl_first) */
	unsigned prot; /* HS_WR_PROT_*: a name of the call is protected by
			* its identity (a protected file it follows its
			* name to, a protected tree it is in): a pre,
			* whatever the name's scope (write_event.c) */
};

/* open(2) flags that make an open a write. */
#define HS_WFLAGS (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)

/* An open that does not follow its last component: O_NOFOLLOW, and
 * O_CREAT|O_EXCL (which fails EEXIST on a symlink). */
static inline bool hs_open_nofollow(int fl)
{
	return (fl & O_NOFOLLOW) || (fl & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
}

/* open(2) flags for an fopen mode, or 0 for a read-only one. */
static inline int hs_fmode_flags(const char *m)
{
	int fl = 0;

	if (!m)
		return 0;
	switch (m[0]) {
	case 'w': fl = O_WRONLY | O_CREAT | O_TRUNC; break;
	case 'a': fl = O_WRONLY | O_CREAT | O_APPEND; break;
	case 'r': break;
	default: return 0;
	}
	/* the rest up to ",ccs=" may hold '+' and 'x' */
	for (const char *p = m + 1; *p && *p != ','; p++) {
		if (*p == '+')
			fl = (fl & ~O_WRONLY) | O_RDWR;
		else if (*p == 'x')
			fl |= O_EXCL;
	}
	return fl;
}

/* open(2) flags for an fopen mode as glibc opens it: hs_fmode_flags plus
 * O_CLOEXEC for 'e' ('m', 'c' and ",ccs=" change nothing the open does). */
static inline int hs_fmode_open_flags(const char *m)
{
	int fl = hs_fmode_flags(m);

	for (const char *p = m + 1; *p && *p != ','; p++)
		if (*p == 'e')
			fl |= O_CLOEXEC;
	return fl;
}

/* Decides the pre event. 1: go ahead with the real call; 0: nothing to
 * do, call the real function and return (no end); -1: denied, errno set,
 * return failure; 2: staged (write_stage.h): the call's result is t->sfd
 * (hs_wstaged_file for a FILE *), the real call is not made; 3: the
 * supervisor is hidden from us (client.h, hs_ask_or_floor): make the call
 * without the cookie, so that the syscall floor judges it, and return
 * (no end). With 0 or 1, t->pin may hold what the call is to be made
 * on (write_pin.h). */
int hs_wbegin(const struct hs_wcall *c, struct hs_wticket *t);
/* "hookshim: WHAT PATH denied: REASON" on stderr (the path escaped, so a
 * name cannot forge lines), unless quiet and stderr is a terminal. */
void hs_say_denied(const char *what, const char *path, const char *reason);

/* After the real call: `ok` its success, `fd` the descriptor it returned
 * (opens) or -1. Fires or schedules the post. errno preserved. */
void hs_wend(const struct hs_wcall *c, struct hs_wticket *t, bool ok, int fd);

/* close(2)-like: `fd` is about to go. Returns true when the caller must
 * call hs_wclosed() with the real call's result. */
struct hs_fdt_info;
bool hs_wclosing(int fd, struct hs_fdt_info *info);
void hs_wclosed(const struct hs_fdt_info *info, bool ok, int err);
/* Between the two, while fd is still open: a staged write is asked about
 * with its content and published or discarded. 0, or the errno the
 * close must report (info gets HS_FDT_DENIED on a deny). */
int hs_wpublish(int fd, struct hs_fdt_info *info);
/* fopen's result for a staged write: a stream on t->sfd (NULL, and the
 * staging undone, when none can be made). */
FILE *hs_wstaged_file(struct hs_wticket *t);

/* A mkstemp-made name, to recognise its publishing rename. */
void hs_wtemp_remember(const char *abs);

#endif
