/* The floor's BPF program: which syscalls reach the supervisor.
 *
 * Everything a hook cannot care about is ALLOWed inside the kernel, at the
 * cost of a few BPF instructions: reads (an open without write-class
 * flags) unless a Read hook exists (HS_FLOOR_READS: then they are
 * notified too, but O_PATH and O_DIRECTORY opens, which read no file's
 * content, are not), and every syscall that is not a write or an exec. A
 * config without Read hooks gets the very program it got before read
 * notifications existed, instruction for instruction. A write-class
 * call carrying the session's cookie in args[5] is ALLOWed too: it is the
 * shim's own forwarding of a call it has decided already (docs/floor.md,
 * "Exactly once"); every notified syscall takes at most five arguments, so
 * args[5] is free in all of them.
 *
 * x86-64 only. The other ABIs a 64-bit process can reach (i386 through
 * int 0x80, x32 through __X32_SYSCALL_BIT) would name different syscalls
 * by the same numbers: they are refused with ENOSYS rather than read
 * wrong. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "floor.h"
#include "floor_int.h"

#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif
#define WRITE_FLAGS HS_FLOOR_WRITE_FLAGS

/* Syscalls that change the file system: notified unless cookied.
 * open/openat are tested on their flags first; openat2 keeps its flags in
 * a struct BPF cannot read, so it is always notified. */
static const int writes[] = {
	SYS_creat, SYS_openat2, SYS_rename, SYS_renameat, SYS_renameat2,
	SYS_link, SYS_linkat, SYS_symlink, SYS_symlinkat, SYS_unlink,
	SYS_unlinkat, SYS_rmdir, SYS_mkdir, SYS_mkdirat, SYS_truncate,
	SYS_mknod, SYS_mknodat,
	/* a unix socket bound to a path makes its inode there (the family
	 * and name are in memory BPF cannot read: every bind, rare) */
	SYS_bind,
};
static const int execs[] = { SYS_execve, SYS_execveat };
/* A protected file's mode, owner or attributes (an ACL): rare calls, a
 * round trip each, and only in a session with protected files. */
static const int attrs[] = {
	SYS_chmod, SYS_fchmod, SYS_fchmodat, SYS_fchmodat2, SYS_chown,
	SYS_fchown, SYS_lchown, SYS_fchownat, SYS_setxattr, SYS_lsetxattr,
	SYS_fsetxattr, SYS_removexattr, SYS_lremovexattr, SYS_fremovexattr,
};

/* Calls that reach into another process (floor_reach.c): notified in
 * every session with a floor, cookie or not, so that nothing of the
 * session can trace, write into, limit or signal the supervisor and its
 * hooks. The signal calls are notified only for a signal that can harm:
 * 0 (a look), SIGCHLD, SIGCONT, SIGURG (Go's preemption, every few ms)
 * and SIGWINCH stay in the kernel. */
static const int reach[] = {
	SYS_process_vm_readv, SYS_process_vm_writev, SYS_pidfd_getfd,
	SYS_perf_event_open,
};
/* ptrace only to attach (PTRACE_ATTACH, PTRACE_SEIZE: every other request
 * needs a tracee attached already, so strace and gdb pay nothing more);
 * prlimit64 only of another process (args[0] != 0: getrlimit and
 * setrlimit pass 0) -- and, where core files are refused (no_core), a
 * process's own RLIMIT_CORE by prlimit64 or setrlimit. */
#define PTRACE_ATTACH_REQ 16
#define PTRACE_SEIZE_REQ 0x4206
static const int signal1[] = { /* the signal in args[1] */
	SYS_kill, SYS_tkill, SYS_rt_sigqueueinfo, SYS_pidfd_send_signal,
};
static const int signal2[] = { SYS_tgkill, SYS_rt_tgsigqueueinfo };
static const unsigned harmless_signals[] = { 0, SIGCHLD, SIGCONT, SIGURG,
					     SIGWINCH };

/* Read-only opens that cannot be a Read: no content is read. */
#define NOREAD_FLAGS (O_PATH | O_DIRECTORY)

/* A tiny assembler: jumps name labels, resolved at the end. */
enum { L_NEXT = 0, L_OPEN1, L_OPEN2, L_FLAGS, L_READ, L_PTRACE, L_PRLIMIT,
       L_CORE1, L_RLIMIT, L_CORENR,
       L_SIG1, L_SIG2, L_SIGNO, L_COOKIE, L_NOTIFY, L_ALLOW, L_ENOSYS,
       L_NSARG0, L_SETNS, L_UFFD, L_PRCTL, L_NORAND, L_SENDTO, L_FCNTL,
       L_IOCTL, L_ONOTIFY, L_OALLOW, L_COUNT };

struct asm_ins {
	struct sock_filter f;
	int jt, jf; /* labels */
};

struct prog {
	struct asm_ins ins[256];
	int n;
	int at[L_COUNT]; /* label -> instruction index */
};

static void op(struct prog *p, unsigned short code, unsigned k, int jt,
	       int jf)
{
	if (p->n >= (int)(sizeof(p->ins) / sizeof(p->ins[0]))) {
		p->n++; /* too long: hs_floor_bpf fails */
		return;
	}
	p->ins[p->n++] = (struct asm_ins){ .f = { code, 0, 0, k }, .jt = jt,
					   .jf = jf };
}

static void label(struct prog *p, int l)
{
	p->at[l] = p->n;
}

static void load(struct prog *p, size_t off)
{
	op(p, BPF_LD | BPF_W | BPF_ABS, (unsigned)off, 0, 0);
}

static void ret(struct prog *p, unsigned v)
{
	op(p, BPF_RET | BPF_K, v, 0, 0);
}

static unsigned jump(const struct prog *p, int from, int l)
{
	int to = l == L_NEXT ? from + 1 : p->at[l];

	return (unsigned)(to - from - 1);
}

#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HI(i) (ARG_LO(i) + 4)

/* The namespaces a call may not enter or make (floor_refuse.c): a
 * cgroup namespace too, whose writes to cgroup.procs a supervisor's open
 * of the file could not make the caller's (floor_procfs.c), and a PID
 * namespace, whose first process takes the orphans made in it
 * (floor_orphans.c). With them a clone's CLONE_PARENT, whose child is its
 * caller's parent's, not known by its parent for what its caller was
 * (floor_lineage.c; an unshare with it fails in the kernel anyway). */
#define NS_FLAGS \
	(CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWCGROUP | CLONE_NEWPID)
#define UFFD_IOC_NEW 0xaa00u /* USERFAULTFD_IOC_NEW: _IO(0xAA, 0) */

/* The refused calls of the groups not allowed: notified without the
 * cookie test (the shim never makes them), each by its own test. */
static void refused_calls(struct prog *p, unsigned allow)
{
	static const int to[] = { [HS_RC_ALWAYS] = L_NOTIFY,
				  [HS_RC_NS_ARG0] = L_NSARG0,
				  [HS_RC_SETNS] = L_SETNS,
				  [HS_RC_IOCTL_UFFD] = L_UFFD,
				  [HS_RC_PRCTL_MM] = L_PRCTL,
				  [HS_RC_NORANDOM] = L_NORAND,
				  [HS_RC_ENOSYS] = L_ENOSYS };

	for (size_t i = 0; i < hs_fl_nrcalls; i++)
		if (!(allow & (1u << hs_fl_rcalls[i].group)))
			op(p, BPF_JMP | BPF_K | BPF_JEQ,
			   (unsigned)hs_fl_rcalls[i].nr,
			   to[hs_fl_rcalls[i].test], L_NEXT);
}

static void refused_tests(struct prog *p)
{
	unsigned short jmp = BPF_JMP | BPF_K;

	label(p, L_NSARG0); /* clone, unshare: the flags are args[0] */
	load(p, ARG_LO(0));
	op(p, jmp | BPF_JSET, NS_FLAGS | CLONE_PARENT, L_NOTIFY, L_ALLOW);
	label(p, L_SETNS); /* 0 is "whatever the descriptor is" */
	load(p, ARG_LO(1));
	op(p, jmp | BPF_JEQ, 0, L_NOTIFY, L_NEXT);
	op(p, jmp | BPF_JSET, NS_FLAGS, L_NOTIFY, L_ALLOW);
	label(p, L_UFFD); /* the kernel takes the command as 32 bits */
	load(p, ARG_LO(1));
	op(p, jmp | BPF_JEQ, UFFD_IOC_NEW, L_NOTIFY, L_IOCTL);
	label(p, L_PRCTL); /* the option, an int */
	load(p, ARG_LO(0));
	op(p, jmp | BPF_JEQ, PR_SET_MM, L_NOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, PR_SET_CHILD_SUBREAPER, L_NEXT, L_ALLOW);
	/* taking orphans: any bit of the value; giving them up, 0 */
	load(p, ARG_LO(1));
	op(p, jmp | BPF_JEQ, 0, L_NEXT, L_NOTIFY);
	load(p, ARG_HI(1));
	op(p, jmp | BPF_JEQ, 0, L_ALLOW, L_NOTIFY);
	label(p, L_NORAND); /* 0xffffffff asks, sets nothing */
	load(p, ARG_LO(0));
	op(p, jmp | BPF_JEQ, 0xffffffffu, L_ALLOW, L_NEXT);
	op(p, jmp | BPF_JSET, ADDR_NO_RANDOMIZE, L_NOTIFY, L_ALLOW);
}

int hs_floor_bpf(struct hs_floor_plan *pl, bool io_uring_allow,
		 unsigned allow)
{
	struct prog *p = calloc(1, sizeof(*p));
	unsigned short jmp = BPF_JMP | BPF_K;

	if (!p)
		return -1;
	load(p, offsetof(struct seccomp_data, arch));
	op(p, jmp | BPF_JEQ, AUDIT_ARCH_X86_64, L_NEXT, L_ENOSYS);
	load(p, offsetof(struct seccomp_data, nr));
	op(p, jmp | BPF_JSET, __X32_SYSCALL_BIT, L_ENOSYS, L_NEXT);
	/* Without io_uring, programs fall back to plain syscalls, which are
	 * seen (libuv, liburing users with a fallback). A ring made outside
	 * the session and handed in (inherited: hs_floor_spawn closes those;
	 * by SCM_RIGHTS) is refused its submissions and registrations too:
	 * its operations would run in the kernel, unseen. */
	if (!io_uring_allow) {
		op(p, jmp | BPF_JEQ, SYS_io_uring_setup, L_ENOSYS, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_io_uring_enter, L_ENOSYS, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_io_uring_register, L_ENOSYS, L_NEXT);
	}
	/* first, so that every fcntl pays a few instructions, not the
	 * chain (it left the kernel's cache of calls always allowed when
	 * its owner commands were notified) */
	op(p, jmp | BPF_JEQ, SYS_fcntl, L_FCNTL, L_NEXT);
	refused_calls(p, allow);
	if (pl->what & (HS_FLOOR_WRITES | HS_FLOOR_READS)) {
		op(p, jmp | BPF_JEQ, SYS_open, L_OPEN1, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_openat, L_OPEN2, L_NEXT);
	}
	if (pl->what & HS_FLOOR_WRITES) {
		for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++)
			op(p, jmp | BPF_JEQ, (unsigned)writes[i], L_COOKIE,
			   L_NEXT);
	} else if (pl->what & HS_FLOOR_READS) { /* its flags are in a struct */
		op(p, jmp | BPF_JEQ, SYS_openat2, L_COOKIE, L_NEXT);
	}
	/* A process entering a Landlock domain: opens (reads too, in
	 * enforce mode) done by the supervisor would escape it
	 * (floor_open.c), so the floor must know. Rare, and never the
	 * shim's. */
	if (pl->what & (HS_FLOOR_WRITES | HS_FLOOR_READS))
		op(p, jmp | BPF_JEQ, SYS_landlock_restrict_self, L_NOTIFY,
		   L_NEXT);
	/* Execs also with write or Read hooks alone: an agent hands the
	 * reasons of the writes and reads the floor denied to its next tool
	 * call there (floor_pending.c), one without the shim at that exec,
	 * one with it by a question before it. The shim's own execs carry
	 * the cookie. */
	/* And in enforce mode always: the floor keeps a caller's role
	 * between its calls and must see the exec that changes it
	 * (floor_task.c). */
	if ((pl->what & (HS_FLOOR_EXECS | HS_FLOOR_WRITES | HS_FLOOR_READS)) ||
	    (pl->enforce && pl->what))
		for (size_t i = 0; i < sizeof(execs) / sizeof(execs[0]); i++)
			op(p, jmp | BPF_JEQ, (unsigned)execs[i], L_COOKIE,
			   L_NEXT);
	/* connect, sendmsg and sendmmsg take at most four arguments: args[5]
	 * is free for the cookie. sendto takes six: notified only with a
	 * destination (args[4]; send(2) passes none), and the shim sends
	 * its allowed ones as sendmsg. A sendmsg's destination is in a
	 * struct BPF cannot read: notified unless cookied. */
	if (pl->what & HS_FLOOR_NET) {
		op(p, jmp | BPF_JEQ, SYS_connect, L_COOKIE, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_sendmsg, L_COOKIE, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_sendmmsg, L_COOKIE, L_NEXT);
		op(p, jmp | BPF_JEQ, SYS_sendto, L_SENDTO, L_NEXT);
	}
	if (pl->what & HS_FLOOR_ATTRS)
		for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
			op(p, jmp | BPF_JEQ, (unsigned)attrs[i], L_COOKIE,
			   L_NEXT);
	for (size_t i = 0; i < sizeof(reach) / sizeof(reach[0]); i++)
		op(p, jmp | BPF_JEQ, (unsigned)reach[i], L_NOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, SYS_ptrace, L_PTRACE, L_NEXT);
	op(p, jmp | BPF_JEQ, SYS_prlimit64, L_PRLIMIT, L_NEXT);
	if (pl->no_core)
		op(p, jmp | BPF_JEQ, SYS_setrlimit, L_RLIMIT, L_NEXT);
	for (size_t i = 0; i < sizeof(signal1) / sizeof(signal1[0]); i++)
		op(p, jmp | BPF_JEQ, (unsigned)signal1[i], L_SIG1, L_NEXT);
	for (size_t i = 0; i < sizeof(signal2) / sizeof(signal2[0]); i++)
		op(p, jmp | BPF_JEQ, (unsigned)signal2[i], L_SIG2, L_NEXT);
	op(p, jmp | BPF_JEQ, SYS_ioctl, L_IOCTL, L_NEXT);
	ret(p, SECCOMP_RET_ALLOW);
	label(p, L_PTRACE);
	load(p, ARG_LO(0));
	op(p, jmp | BPF_JEQ, PTRACE_ATTACH_REQ, L_NOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, PTRACE_SEIZE_REQ, L_NOTIFY, L_ALLOW);
	label(p, L_PRLIMIT);
	load(p, ARG_LO(0));
	op(p, jmp | BPF_JEQ, 0, pl->no_core ? L_CORE1 : L_ALLOW, L_NOTIFY);
	if (pl->no_core) {
		/* a process's own RLIMIT_CORE, set or read (floor_refuse.c:
		 * its raising, by a caller that could, is refused) */
		label(p, L_CORE1); /* prlimit64's resource: args[1] */
		load(p, ARG_LO(1));
		op(p, jmp | BPF_JEQ, 0, L_CORENR, L_CORENR); /* over the next */
		label(p, L_RLIMIT); /* setrlimit's: args[0] */
		load(p, ARG_LO(0));
		label(p, L_CORENR);
		op(p, jmp | BPF_JEQ, RLIMIT_CORE, L_NOTIFY, L_ALLOW);
	}
	label(p, L_SIG1);
	load(p, ARG_LO(1));
	op(p, jmp | BPF_JEQ, 0, L_SIGNO, L_SIGNO); /* over the next load */
	label(p, L_SIG2);
	load(p, ARG_LO(2));
	label(p, L_SIGNO);
	for (size_t i = 0; i < sizeof(harmless_signals) /
				   sizeof(harmless_signals[0]); i++)
		op(p, jmp | BPF_JEQ, harmless_signals[i], L_ALLOW, L_NEXT);
	op(p, jmp | BPF_JEQ, 0, L_NOTIFY, L_NOTIFY); /* always */
	if (!(pl->what & HS_FLOOR_READS)) {
		label(p, L_OPEN1);
		load(p, ARG_LO(1));
		op(p, jmp | BPF_JSET, WRITE_FLAGS, L_COOKIE, L_ALLOW);
		label(p, L_OPEN2);
		load(p, ARG_LO(2));
		op(p, jmp | BPF_JSET, WRITE_FLAGS, L_COOKIE, L_ALLOW);
	} else {
		/* a write-class open is notified only when writes are; a read
		 * unless it reads no content */
		label(p, L_OPEN1);
		load(p, ARG_LO(1));
		op(p, jmp | BPF_JEQ, 0, L_FLAGS, L_FLAGS); /* over the next load */
		label(p, L_OPEN2);
		load(p, ARG_LO(2));
		label(p, L_FLAGS);
		op(p, jmp | BPF_JSET, WRITE_FLAGS,
		   pl->what & HS_FLOOR_WRITES ? L_COOKIE : L_ALLOW, L_READ);
		label(p, L_READ);
		op(p, jmp | BPF_JSET, NOREAD_FLAGS, L_ALLOW, L_COOKIE);
	}
	refused_tests(p);
	label(p, L_SENDTO);
	load(p, ARG_LO(4));
	op(p, jmp | BPF_JEQ, 0, L_NEXT, L_NOTIFY);
	load(p, ARG_HI(4));
	op(p, jmp | BPF_JEQ, 0, L_ALLOW, L_NOTIFY);
	label(p, L_COOKIE);
	/* enforce mode: no value a caller presents lets it past (tickets.h:
	 * the supervisor matches the shim's calls to their decisions) */
	if (!pl->enforce) {
		load(p, ARG_LO(5));
		op(p, jmp | BPF_JEQ, (unsigned)(pl->cookie & 0xffffffffu),
		   L_NEXT, L_NOTIFY);
		load(p, ARG_HI(5));
		op(p, jmp | BPF_JEQ, (unsigned)(pl->cookie >> 32), L_ALLOW,
		   L_NOTIFY);
	}
	label(p, L_NOTIFY);
	ret(p, SECCOMP_RET_USER_NOTIF);
	label(p, L_ALLOW);
	ret(p, SECCOMP_RET_ALLOW);
	label(p, L_ENOSYS);
	ret(p, SECCOMP_RET_ERRNO | ENOSYS);
	/* a descriptor's owner, whom its I/O signals (F_SETSIG: any, SIGSTOP
	 * too) go to: set only where floor_reach.c lets it (the command an
	 * int, both calls' cmd). Past the end, with returns of their own:
	 * every jump reaches 255 instructions at most */
	label(p, L_FCNTL);
	load(p, ARG_LO(1));
	op(p, jmp | BPF_JEQ, F_SETOWN, L_ONOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, F_SETOWN_EX, L_ONOTIFY, L_OALLOW);
	label(p, L_IOCTL);
	load(p, ARG_LO(1));
	/* and a character pushed into a terminal's input (floor_reach.c) */
	op(p, jmp | BPF_JEQ, TIOCSTI, L_ONOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, FIOSETOWN, L_ONOTIFY, L_NEXT);
	op(p, jmp | BPF_JEQ, SIOCSPGRP, L_ONOTIFY, L_OALLOW);
	label(p, L_ONOTIFY);
	ret(p, SECCOMP_RET_USER_NOTIF);
	label(p, L_OALLOW);
	ret(p, SECCOMP_RET_ALLOW);

	pl->code = p->n <= (int)(sizeof(p->ins) / sizeof(p->ins[0]))
			   ? calloc((size_t)p->n, sizeof(*pl->code))
			   : NULL;
	if (!pl->code) {
		free(p);
		return -1;
	}
	for (int i = 0; i < p->n; i++) {
		pl->code[i] = p->ins[i].f;
		if (BPF_CLASS(p->ins[i].f.code) == BPF_JMP) {
			/* every jump is forward; a conditional one reaches
			 * 255 instructions at most */
			unsigned jt = jump(p, i, p->ins[i].jt),
				 jf = jump(p, i, p->ins[i].jf);

			if (jt > 255 || jf > 255) {
				free(pl->code);
				pl->code = NULL;
				free(p);
				return -1;
			}
			pl->code[i].jt = (unsigned char)jt;
			pl->code[i].jf = (unsigned char)jf;
		}
	}
	pl->len = (unsigned short)p->n;
	free(p);
	return 0;
}
