/* A read-only, shared mapping of FILE, and then its name under
 * /proc/<pid>/map_files/ opened for writing (tests/security/magic_links.sh):
 * map_files_static FILE self|pid|upper|trunc. Root may open a mapping's
 * file so whatever descriptor mapped it; the name must be judged as the
 * file it reaches. Raw calls, static: the floor's case. Prints
 * "WHICH=0" when the write (or truncate) was made, else "WHICH=errno". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char name[128];
	const char *how = argc > 2 ? argv[2] : "self";
	long pid = syscall(SYS_getpid), fd, r;
	void *m;

	if (argc < 3)
		return 2;
	fd = syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY);
	m = fd < 0 ? MAP_FAILED
		   : mmap(NULL, 4096, PROT_READ, MAP_SHARED, (int)fd, 0);
	if (m == MAP_FAILED) {
		printf("%s=map%d\n", how, errno);
		return 1;
	}
	if (!strcmp(how, "pid"))
		snprintf(name, sizeof(name), "/proc/%ld/map_files/%lx-%lx",
			 pid, (unsigned long)m, (unsigned long)m + 4096);
	else if (!strcmp(how, "upper")) /* the kernel takes either case */
		snprintf(name, sizeof(name), "/proc/self/map_files/%lX-%lX",
			 (unsigned long)m, (unsigned long)m + 4096);
	else
		snprintf(name, sizeof(name), "/proc/self/map_files/%lx-%lx",
			 (unsigned long)m, (unsigned long)m + 4096);
	if (!strcmp(how, "trunc")) {
		r = syscall(SYS_truncate, name, 0);
	} else {
		r = syscall(SYS_openat, AT_FDCWD, name, O_WRONLY | O_APPEND);
		if (r >= 0)
			r = syscall(SYS_write, r, "P\n", 2) == 2 ? 0 : -1;
	}
	printf("%s=%d\n", how, r == 0 ? 0 : errno);
	return 0;
}
