/* Runs a command under a seccomp filter of its own that answers EPERM to
 * one syscall, as a container engine's profile answers a call newer than
 * itself (Docker's, for fchmodat2, before 2024): what the shim does
 * where a syscall it prefers is refused that way.
 *   seccomp_eperm_exec NR CMD [ARG...] */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned nr;

	if (argc < 3) {
		fprintf(stderr, "usage: seccomp_eperm_exec NR CMD [ARG...]\n");
		return 2;
	}
	nr = (unsigned)strtoul(argv[1], NULL, 10);
	{
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64,
				 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
			BPF_STMT(BPF_RET | BPF_K,
				 SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
					   .filter = f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
			perror("seccomp_eperm_exec: seccomp");
			return 126;
		}
	}
	execvp(argv[2], argv + 2);
	perror("seccomp_eperm_exec: exec");
	return 127;
}
