/* The calls the floor refuses (floor/floor_refuse.c), made by a
 * static program (no shim: the floor is its only judge).
 *
 *   call NAME...            each call, in a child of its own, with
 *                           harmless arguments (a missing path, a bad
 *                           descriptor) or a harmless effect (a namespace
 *                           of the child's own); one line each: "NAME ok"
 *                           or "NAME errno=ENAME"
 *   bindwrite SRC DST FILE TEXT  a mount namespace of its own (and a user
 *                           namespace, not as root), SRC bound on DST,
 *                           TEXT appended to DST/FILE
 *   chrootwrite DIR FILE TEXT    chroot DIR, TEXT appended to /FILE
 *   handlewrite FILE TEXT   FILE opened by its handle, TEXT appended
 *   fanowrite FILE TEXT     a fanotify group (FAN_CLASS_NOTIF, each
 *                           event's file opened O_RDWR) watching FILE, FILE
 *                           opened for reading, TEXT appended through the
 *                           event's descriptor: a write with no open for
 *                           writing
 *   acctwrite FILE          process accounting into FILE while a child
 *                           lives and ends (the kernel appends a record)
 *   openwrite PATH [TEXT]   PATH opened for writing, TEXT written
 *   fdwrite PATH TEXT       PATH opened O_PATH and unlinked, then opened
 *                           for writing through /proc/self/fd/N: no name
 *   uffdstall PATH          a userfaultfd page, never served, as the path
 *                           of an open for writing: whoever reads it
 *                           waits; a child keeps the descriptor, ignoring
 *                           SIGTERM, for 30 s
 * Exit status 0 when the last call worked. */
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

#define MISSING "/nonexistent-hookshim"

static const char *ename(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EBADF, "EBADF" },
		{ EINVAL, "EINVAL" }, { EFAULT, "EFAULT" }, { ENODEV, "ENODEV" },
		{ ENOSYS, "ENOSYS" }, { EACCES, "EACCES" }, { ENOEXEC, "ENOEXEC" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTDIR, "ENOTDIR" },
		{ EBUSY, "EBUSY" }, { E2BIG, "E2BIG" }, { EROFS, "EROFS" },
	};
	static char buf[16];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

static void *nothing(void *a)
{
	return a;
}

/* A child made by clone/clone3 with these flags exits at once. */
static long clone_and_wait(long r)
{
	int st;

	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid((pid_t)r, &st, __WALL);
	return r > 0 ? 0 : r;
}

static long clone3_flags(unsigned long long flags)
{
	struct { uint64_t flags, pidfd, child_tid, parent_tid, exit_signal,
		 stack, stack_size, tls; } a = { .flags = flags,
						 .exit_signal = SIGCHLD };

	return clone_and_wait(syscall(SYS_clone3, &a, sizeof(a)));
}

static long setns_self(const char *ns, int type)
{
	char p[64];
	int fd;
	long r;

	snprintf(p, sizeof(p), "/proc/self/ns/%s", ns);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = setns(fd, type);
	close(fd);
	return r;
}

static long one(const char *n)
{
	struct mount_attr attr = { 0 };
	struct { unsigned bytes; int type; unsigned char h[8]; } fh = { 8, 1, { 0 } };

	if (!strcmp(n, "mount"))
		return mount("none", MISSING, "hookshim-nofs", 0, NULL);
	if (!strcmp(n, "umount2"))
		return umount2(MISSING, 0);
	if (!strcmp(n, "pivot_root"))
		return syscall(SYS_pivot_root, MISSING, MISSING);
	if (!strcmp(n, "open_tree"))
		return syscall(SYS_open_tree, AT_FDCWD, MISSING, 0);
	if (!strcmp(n, "move_mount"))
		return syscall(SYS_move_mount, -1, "", -1, "", 0);
	if (!strcmp(n, "fsopen"))
		return syscall(SYS_fsopen, "hookshim-nofs", 0);
	if (!strcmp(n, "fsconfig"))
		return syscall(SYS_fsconfig, -1, 0, NULL, NULL, 0);
	if (!strcmp(n, "fsmount"))
		return syscall(SYS_fsmount, -1, 0, 0);
	if (!strcmp(n, "fspick"))
		return syscall(SYS_fspick, AT_FDCWD, MISSING, 0);
	if (!strcmp(n, "mount_setattr"))
		return syscall(SYS_mount_setattr, AT_FDCWD, MISSING, 0, &attr,
			       sizeof(attr));
	if (!strcmp(n, "chroot"))
		return chroot(MISSING);
	if (!strcmp(n, "unshare_mnt"))
		return unshare(CLONE_NEWNS);
	if (!strcmp(n, "unshare_user"))
		return unshare(CLONE_NEWUSER);
	if (!strcmp(n, "unshare_cgroup"))
		return unshare(CLONE_NEWCGROUP);
	if (!strcmp(n, "unshare_pid"))
		return geteuid() ? unshare(CLONE_NEWUSER | CLONE_NEWPID)
				 : unshare(CLONE_NEWPID);
	if (!strcmp(n, "unshare_net"))
		return geteuid() ? unshare(CLONE_NEWUSER | CLONE_NEWNET)
				 : unshare(CLONE_NEWNET);
	if (!strcmp(n, "clone_mnt"))
		return clone_and_wait(syscall(SYS_clone, CLONE_NEWNS | SIGCHLD,
					      0, 0, 0, 0));
	if (!strcmp(n, "clone_user"))
		return clone_and_wait(syscall(SYS_clone,
					      CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
	if (!strcmp(n, "clone_cgroup"))
		return clone_and_wait(syscall(SYS_clone,
					      CLONE_NEWCGROUP | SIGCHLD, 0, 0, 0, 0));
	/* a child of our parent's: not ours to wait for */
	if (!strcmp(n, "clone_parent")) {
		long r = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);

		if (r == 0)
			_exit(0);
		return r < 0 ? -1 : 0;
	}
	if (!strcmp(n, "clone_plain"))
		return clone_and_wait(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
	if (!strcmp(n, "clone3_mnt"))
		return clone3_flags(CLONE_NEWNS);
	if (!strcmp(n, "clone3_plain"))
		return clone3_flags(0);
	if (!strcmp(n, "setns_any"))
		return setns_self("mnt", 0);
	if (!strcmp(n, "setns_mnt"))
		return setns_self("mnt", CLONE_NEWNS);
	if (!strcmp(n, "setns_cgroup"))
		return setns_self("cgroup", CLONE_NEWCGROUP);
	if (!strcmp(n, "setns_net"))
		return setns_self("net", CLONE_NEWNET);
	if (!strcmp(n, "open_by_handle_at"))
		return syscall(SYS_open_by_handle_at, -1, &fh, O_RDONLY);
	/* PR_SET_MM_MAP_SIZE: a size asked, nothing moved */
	if (!strcmp(n, "prctl_mm")) {
		unsigned size = 0;

		return prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE, &size, 0, 0);
	}
	if (!strcmp(n, "personality_norand"))
		return personality(ADDR_NO_RANDOMIZE) < 0 ? -1 : 0;
	if (!strcmp(n, "personality_query"))
		return personality(0xffffffff) < 0 ? -1 : 0;
	/* taking the orphans below it, and giving them up */
	if (!strcmp(n, "prctl_subreaper"))
		return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (!strcmp(n, "prctl_subreaper_off"))
		return prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	if (!strcmp(n, "prctl_name"))
		return prctl(PR_SET_NAME, "hookshim-probe", 0, 0, 0);
	if (!strcmp(n, "bpf"))
		return syscall(SYS_bpf, 0xfff, NULL, 0);
	if (!strcmp(n, "fanotify_init")) {
		long fd = syscall(SYS_fanotify_init, FAN_CLASS_NOTIF, O_RDWR);

		if (fd >= 0)
			close((int)fd);
		return fd < 0 ? fd : 0;
	}
	if (!strcmp(n, "init_module"))
		return syscall(SYS_init_module, NULL, 0, "");
	if (!strcmp(n, "finit_module"))
		return syscall(SYS_finit_module, -1, "", 0);
	if (!strcmp(n, "delete_module"))
		return syscall(SYS_delete_module, "hookshim_no_such_module",
			       O_NONBLOCK);
	if (!strcmp(n, "kexec_load"))
		return syscall(SYS_kexec_load, 0, 0, NULL, 0xdead0000ul);
	if (!strcmp(n, "kexec_file_load"))
		return syscall(SYS_kexec_file_load, -1, -1, 0, "", 0);
	if (!strcmp(n, "acct"))
		return syscall(SYS_acct, MISSING);
	if (!strcmp(n, "swapon"))
		return syscall(SYS_swapon, MISSING, 0);
	if (!strcmp(n, "userfaultfd")) {
		long fd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);

		if (fd >= 0)
			close((int)fd);
		return fd < 0 ? fd : 0;
	}
	if (!strcmp(n, "uffd_dev")) {
		int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
		long fd;

		if (dev < 0)
			return -1;
		fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | UFFD_USER_MODE_ONLY);
		close(dev);
		if (fd >= 0)
			close((int)fd);
		return fd < 0 ? fd : 0;
	}
	if (!strcmp(n, "thread")) {
		pthread_t t;
		int e = pthread_create(&t, NULL, nothing, NULL);

		if (e) {
			errno = e;
			return -1;
		}
		return pthread_join(t, NULL) ? -1 : 0;
	}
	errno = ENOSYS;
	fprintf(stderr, "unknown call %s\n", n);
	return -1;
}

static int append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (text && write(fd, text, strlen(text)) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int report(const char *what, long r)
{
	if (r < 0)
		printf("%s errno=%s\n", what, ename(errno));
	else
		printf("%s ok\n", what);
	fflush(stdout);
	return r < 0;
}

static int bindwrite(char **a)
{
	char p[4096];

	if (report("unshare", unshare(CLONE_NEWNS | (geteuid() ? CLONE_NEWUSER : 0))))
		return 1;
	if (report("private", mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) ||
	    report("bind", mount(a[0], a[1], NULL, MS_BIND, NULL)))
		return 1;
	snprintf(p, sizeof(p), "%s/%s", a[1], a[2]);
	return report("append", append(p, a[3]));
}

static int chrootwrite(char **a)
{
	char p[4096];

	if (report("chroot", chroot(a[0])) || report("chdir", chdir("/")))
		return 1;
	snprintf(p, sizeof(p), "/%s", a[1]);
	return report("append", append(p, a[2]));
}

static int handlewrite(char **a)
{
	struct file_handle *h = malloc(sizeof(*h) + MAX_HANDLE_SZ);
	int mnt, mount_id, fd;

	h->handle_bytes = MAX_HANDLE_SZ;
	if (report("name_to_handle_at",
		   name_to_handle_at(AT_FDCWD, a[0], h, &mount_id, 0)))
		return 1;
	mnt = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = (int)syscall(SYS_open_by_handle_at, mnt, h,
			  O_WRONLY | O_APPEND | O_CLOEXEC);
	if (report("open_by_handle_at", fd))
		return 1;
	return report("append", write(fd, a[1], strlen(a[1])) < 0 ? -1 : close(fd));
}

static int fanowrite(char **a)
{
	long fan = syscall(SYS_fanotify_init, FAN_CLASS_NOTIF, O_RDWR);
	struct fanotify_event_metadata *m;
	char buf[4096];
	ssize_t n;
	int r;

	if (report("fanotify_init", fan) ||
	    report("fanotify_mark", fanotify_mark((int)fan, FAN_MARK_ADD,
						  FAN_OPEN, AT_FDCWD, a[0])))
		return 1;
	if (report("open", r = open(a[0], O_RDONLY | O_CLOEXEC)))
		return 1;
	close(r);
	n = read((int)fan, buf, sizeof(buf));
	for (m = (void *)buf; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n))
		if (m->fd >= 0)
			return report("append",
				      pwrite(m->fd, a[1], strlen(a[1]),
					     lseek(m->fd, 0, SEEK_END)) < 0
					      ? -1
					      : 0);
	return report("event", -1);
}

/* process accounting into FILE for one child's life: the kernel appends
 * that child's record */
static int acctwrite(char **a)
{
	pid_t c;

	if (report("acct", syscall(SYS_acct, a[0])))
		return 1;
	if ((c = fork()) == 0)
		_exit(0);
	if (c > 0)
		waitpid(c, NULL, 0);
	return report("acct_off", syscall(SYS_acct, NULL));
}

static int openwrite(int argc, char **a)
{
	int fd = open(a[0], O_WRONLY | O_CLOEXEC);

	if (report("open", fd))
		return 1;
	if (argc > 1 && report("write", write(fd, a[1], strlen(a[1])) < 0 ? -1 : 0))
		return 1;
	return close(fd);
}

static int fdwrite(char **a)
{
	int o = open(a[0], O_PATH | O_CLOEXEC), fd;
	char p[64];

	if (report("open_path", o) || report("unlink", unlink(a[0])))
		return 1;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", o);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (report("open", fd))
		return 1;
	return report("write", write(fd, a[1], strlen(a[1])) < 0 ? -1 : close(fd));
}

static int uffdstall(char **a)
{
	long uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = 4096 },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	if (report("userfaultfd", uffd) ||
	    report("api", ioctl((int)uffd, UFFDIO_API, &api)) ||
	    report("register", ioctl((int)uffd, UFFDIO_REGISTER, &reg)))
		return 1;
	pid_t holder = fork();

	if (holder == 0) { /* keeps the descriptor, and so the wait */
		signal(SIGTERM, SIG_IGN);
		sleep(30);
		_exit(0);
	}
	(void)a;
	printf("holder %d\nstalling\n", (int)holder);
	fflush(stdout);
	/* the page is never served: whoever reads the path waits on it */
	return report("open", syscall(SYS_openat, AT_FDCWD, page,
				      O_WRONLY | O_CREAT, 0644));
}

int main(int argc, char **argv)
{
	int bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "call")) {
		/* each in a child of its own: a namespace made by one must
		 * not change what the next can do */
		for (int i = 2; i < argc; i++) {
			pid_t pid = fork();
			int st;

			if (pid == 0)
				_exit(report(argv[i], one(argv[i])));
			bad = pid < 0 || waitpid(pid, &st, 0) < 0 ||
			      !WIFEXITED(st) || WEXITSTATUS(st) != 0;
		}
		return bad;
	}
	if (argc == 6 && !strcmp(argv[1], "bindwrite"))
		return bindwrite(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "chrootwrite"))
		return chrootwrite(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "handlewrite"))
		return handlewrite(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "fanowrite"))
		return fanowrite(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "acctwrite"))
		return acctwrite(argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "openwrite"))
		return openwrite(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "fdwrite"))
		return fdwrite(argv + 2);
	if (argc == 3 && !strcmp(argv[1], "uffdstall"))
		return uffdstall(argv + 2);
	fprintf(stderr, "usage: see the comment at the top\n");
	return 2;
}
