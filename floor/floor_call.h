/* One notified file-system call's arguments, decoded whatever its
 * number (floor_decode.c), for floor_event.c to classify. */
#ifndef HOOKSHIM_SUPERVISOR_FLOOR_CALL_H
#define HOOKSHIM_SUPERVISOR_FLOOR_CALL_H

#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "../common/sunpath.h"
#include "floor_int.h"

/* What a syscall does, whatever its number. */
enum kind { K_OPEN, K_TRUNC, K_RENAME, K_LINK, K_SYMLINK, K_UNLINK,
	    K_MKDIR, K_MKNOD, K_ATTR, K_BIND, K_NONE };

struct call {
	enum kind kind;
	int dirfd, dirfd2;
	uint64_t p1, p2; /* path addresses in the caller */
	uint64_t flags;
	unsigned mode;     /* mkdir's, mknod's */
	uint64_t arg;      /* truncate's length, mknod's device */
	const char *attr; /* K_ATTR: "chmod", "chown" or "setxattr" */
	/* a bind: its address as read, and the name it makes (K_MKNOD of
	 * a socket), or none (K_BIND: nothing on disk, nothing to judge) */
	bool bind;
	int sockfd;
	int sa_err;          /* the call's answer before any name: the
			      * descriptor's (EBADF, ENOTSOCK), ours
			      * (ENFILE, ENOMEM), the address's (EFAULT;
			      * EPERM: not ours to read, the kernel's) */
	unsigned salen;
	unsigned char sa[HS_FL_SA_CAP];
	char sun[HS_SUN_CAP];
	struct open_how how; /* an open's, as the kernel takes it */
	bool how_whole;      /* all of it read (openat2 of today's size, or a
			      * larger one whose tail is zero) */
	int how_err;         /* an openat2's struct we could not read: EFAULT */
	int how_tail_err;    /* its larger tail: not zero E2BIG, unread EFAULT
			      * (answered in enforce mode alone) */
	char path[PATH_MAX + 1], path2[PATH_MAX + 1]; /* as passed (the
						       * kernel's limit:
						       * PATH_MAX with the
						       * NUL) */
	const char *unnamed; /* path or path2, too long to name */
	/* names already built, one per path and way: the refusal, reach
	 * and classifying steps ask for the same ones (name_of) */
	struct named {
		const char *path;
		int follow; /* hs_fl_abs's */
		int r;
		char abs[PATH_MAX];
	} named[3];
	int nnamed;
	/* the directory its relative names start from, read once for all
	 * of them (hs_fl_dir_of: dir_r its result; dir_of the dirfd read,
	 * when dir_read) */
	bool dir_read;
	int dir_of, dir_r;
	char dir[PATH_MAX];
};

/* src into dst (cap bytes), cut to fit */
static inline void copy_cut(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* c's syscall into k (its paths not read yet: p1, p2 are addresses);
 * openat2's struct is read from the caller (lfd: the listener, to check
 * it is still the one read). K_NONE: nothing of ours. */
enum kind hs_fl_decode(struct hs_fl_call *c, struct call *k, pid_t tid,
		       int lfd);

/* c->open of the open k, as read (e < 0: reading its path failed with
 * -e, answered so). In enforce mode the floor makes the call itself
 * (floor_open.c), and answers what it cannot make; c->pop of the path
 * call k likewise, in enforce mode alone (floor_pathop.c). */
void hs_fl_open_call(struct hs_fl_call *c, const struct call *k, int e,
		     bool enforce);
void hs_fl_path_call(struct hs_fl_call *c, const struct call *k, int e);

#endif
