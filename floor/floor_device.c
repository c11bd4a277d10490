/* Devices the supervisor opens for the caller (floor_open.c), so that
 * no name the caller swaps reaches the kernel's walk through them --
 * at once, as the opener's own terminal, or on a thread that waits as
 * the caller's open would (floor_fifo.c) -- and the one it leaves to the
 * kernel: a terminal a session leader would take as its own. */
#include "floor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* tid's session (field 6 of /proc/<tid>/stat) and controlling terminal
 * (7, tty_nr: 0 for none): 0, or -errno where unreadable (-ESRCH where
 * read but not understood). */
static int tty_of(pid_t tid, long *session, unsigned long *tty)
{
	char p[48], buf[512], *e;

	if (hs_fl_scarce_now(HS_FL_SCARCE_CTTY))
		return -EMFILE;
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)tid);
	errno = 0; /* (an empty read sets none) */
	if (hs_fl_read_small(p, buf, sizeof(buf)) <= 0)
		return errno ? -errno : -ESRCH;
	return (e = strrchr(buf, ')')) &&
			       sscanf(e + 1, " %*c %*d %*d %ld %lu", session,
				      tty) == 2
		       ? 0
		       : -ESRCH;
}

/* Could tid's open of a terminal make it tid's controlling terminal (a
 * session leader without one, the open without O_NOCTTY)? Ours never
 * would (O_NOCTTY): such an open is the kernel's. True when unsure --
 * unless we could not look for want of our own descriptors or memory:
 * *scarce is that error then (hs_fl_ours: enforce mode fails the call). */
static bool may_take_tty(pid_t tid, long *scarce)
{
	long session;
	unsigned long tty;
	pid_t tgid;
	int e;

	errno = 0; /* (hs_fl_tgid's own open of /proc/<tid> may fail) */
	if ((tgid = hs_fl_tgid(tid)) <= 0) {
		if (hs_fl_scarce(-errno))
			*scarce = -errno;
		return true;
	}
	if ((e = tty_of(tid, &session, &tty)) < 0) {
		if (hs_fl_scarce(e))
			*scarce = e;
		return true;
	}
	return session == tgid && tty == 0;
}

/* Is the character device rdev a terminal (its class, in /sys)? False
 * when unsure: opened by us then, with O_NOCTTY (a session leader takes
 * no terminal by it), never a name left to the kernel's walk. */
static bool is_tty(dev_t rdev)
{
	char p[64], to[PATH_MAX];
	ssize_t n;

	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/subsystem", major(rdev),
		 minor(rdev));
	if ((n = readlink(p, to, sizeof(to) - 1)) <= 0)
		return false;
	to[n] = '\0';
	return strcmp(strrchr(to, '/') ? strrchr(to, '/') + 1 : to, "tty") == 0;
}

/* Besides files and directories, what the supervisor may open for the
 * caller, so that no swapped name reaches the kernel through them (a
 * decoy /dev/null, /dev/net/tun): the memory devices (major 1:
 * /dev/null, zero, full, random, urandom, ...), /dev/ptmx and a pty's
 * terminal at once; a fifo (floor_fifo.c); /dev/tty, the opener's own
 * terminal, as that terminal (hs_fl_ctty_open); every other device on a
 * thread of ours that waits as the caller's open would (a serial line's
 * for its carrier, a tape's), our O_NOCTTY on it. The kernel's alone: a
 * terminal its opener, a session leader without one, could take as its
 * controlling terminal (no open of ours gives it that). 0: ours to open;
 * HS_FL_KERNEL; HS_FL_ENXIO; HS_FL_CTTY; HS_FL_DEVICE; or, where we could
 * not look for want of our own descriptors or memory, hs_fl_ours' answer
 * (-ENFILE, -ENOMEM in enforce mode). */
long hs_fl_special(const struct stat *sb, uint64_t fl, pid_t tid)
{
	unsigned maj = major(sb->st_rdev), min = minor(sb->st_rdev);
	long scarce = 0;

	if (S_ISSOCK(sb->st_mode))
		return HS_FL_ENXIO;
	if (S_ISCHR(sb->st_mode)) {
		bool pty = maj >= 136 && maj <= 143; /* Unix98 pty terminals */

		if (maj == 1 || (maj == 5 && min == 2))
			return 0;
		if (maj == 5 && min == 0)
			return HS_FL_CTTY;
		if (!(fl & O_NOCTTY) && (pty || is_tty(sb->st_rdev)) &&
		    may_take_tty(tid, &scarce))
			return scarce ? hs_fl_ours(scarce) : HS_FL_KERNEL;
		return pty ? 0 : HS_FL_DEVICE;
	}
	if (S_ISFIFO(sb->st_mode))
		return 0;
	if (S_ISBLK(sb->st_mode))
		return HS_FL_DEVICE;
	/* a file of no kind (an eventfd's, an epoll's: anon inodes), by
	 * a descriptor's name: no reopen opens one */
	if (!(sb->st_mode & S_IFMT))
		return HS_FL_ENXIO;
	return HS_FL_KERNEL;
}

/* /dev/tty: the caller's controlling terminal (tty_nr in its
 * /proc/<tid>/stat), opened by us as the pty it is (/dev/pts/N, checked
 * to be that device); none is ENXIO, as the kernel answers. Another kind
 * of terminal (a virtual console, a serial line), or a pty we may not
 * open by its own name (another user's: /dev/tty itself is open to all),
 * is the kernel's. (A pty of another devpts instance, mounted elsewhere
 * in this mount namespace, has the same numbers: our /dev/pts/N is then
 * another pty, which the caller, of our identity, could open itself.)
 * fd, -errno, HS_FL_ENXIO or HS_FL_KERNEL. */
long hs_fl_ctty_open(pid_t tid, uint64_t fl)
{
	char p[48];
	unsigned long tty;
	unsigned maj, min;
	struct stat sb;
	long fd, r, session;

	if ((r = tty_of(tid, &session, &tty)) < 0)
		return hs_fl_ours_or(r, HS_FL_KERNEL);
	if (tty == 0) /* (not -ENXIO: that is our O_NONBLOCK's, refused()) */
		return HS_FL_ENXIO;
	maj = (tty >> 8) & 0xfff;
	min = (tty & 0xff) | ((tty >> 12) & 0xfff00);
	if (maj != 136) /* UNIX98_PTY_SLAVE_MAJOR: a pty's N is its minor */
		return HS_FL_KERNEL;
	snprintf(p, sizeof(p), "/dev/pts/%u", min);
	fd = hs_fl_openat2(AT_FDCWD, p, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0,
			   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	if (fd < 0)
		return hs_fl_ours_or(fd, HS_FL_KERNEL);
	if (fstat((int)fd, &sb) != 0 || !S_ISCHR(sb.st_mode) ||
	    sb.st_rdev != makedev(maj, min)) {
		close((int)fd);
		return HS_FL_KERNEL;
	}
	snprintf(p, sizeof(p), "/proc/self/fd/%ld", fd);
	r = hs_fl_openat2(AT_FDCWD, p, hs_fl_our_flags(fl & ~(uint64_t)(O_CREAT |
								   O_EXCL |
								   O_NOFOLLOW)),
			  0, 0);
	close((int)fd);
	/* (our own EMFILE on the reopen: hs_fl_ours, as every open's) */
	return r == -EACCES || r == -EPERM ? HS_FL_KERNEL : hs_fl_ours(r);
}
