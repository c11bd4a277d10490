/* The errno names the uring probes print (uring_write.c, uring_inherit.c):
 * their lines are compared by name in tests/integration/floor_uring.sh. */
#ifndef HOOKSHIM_PROBES_URING_ERRNAME_H
#define HOOKSHIM_PROBES_URING_ERRNAME_H

#include <errno.h>
#include <string.h>

static inline const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOSYS: return "ENOSYS";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	default: return strerror(e);
	}
}

#endif
