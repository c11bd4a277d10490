/* A dynamic program (the shim is loaded in it) that writes through raw
 * syscalls, past every interposer: what Bun does. Each argument PATH is
 * created with syscall(SYS_openat) (or, "2:PATH", SYS_openat2); with
 * "c:PATH" the syscall carries the cookie read from HOOKSHIM_FLAGS, as a
 * process that digs it out of its environment could. Prints "PATH: ok"
 * or "PATH: <errno>". */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long cookie(void)
{
	const char *f = getenv("HOOKSHIM_FLAGS"), *c;

	c = f ? strstr(f, "c=") : NULL;
	return c ? strtol(c + 2, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *p = argv[i];
		long fd;

		if (!strncmp(p, "2:", 2)) {
			struct open_how how = { .flags = O_WRONLY | O_CREAT | O_TRUNC, .mode = 0644 };

			p += 2;
			fd = syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof(how));
		} else if (!strncmp(p, "c:", 2)) {
			p += 2;
			fd = syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_CREAT | O_TRUNC, 0644, 0, cookie());
		} else {
			fd = syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		}
		if (fd >= 0) {
			if (write((int)fd, "raw\n", 4) != 4)
				return 1;
			close((int)fd);
		}
		printf("%s: %s\n", p, fd >= 0 ? "ok" : errno == EACCES ? "EACCES" : strerror(errno));
	}
	return 0;
}
