/* Opens that modify a file, at the caller's descriptor limit: the
 * kernel fails them EMFILE before it touches the file; the floor, which
 * makes an allowed open itself and then installs the descriptor, once
 * truncated the file all the same (session 38's attack run). Built
 * static (tests/security/floor_open_emulated.sh).
 *
 *   emfile_static    one line: each open's result, the file's size */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	struct rlimit r = { 32, 32 };
	int fds[64], n = 0, fd, a, ea, b, eb;
	struct stat sb;

	fd = open("important.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "precious data\n", 14) != 14)
		return 2;
	close(fd);
	if (setrlimit(RLIMIT_NOFILE, &r) != 0)
		return 2;
	while (n < 64 && (fd = open("/dev/null", O_RDONLY)) >= 0)
		fds[n++] = fd;
	a = open("important.txt", O_WRONLY | O_TRUNC);
	ea = errno;
	b = open("important.txt", O_RDONLY | O_TRUNC);
	eb = errno;
	while (n > 0)
		close(fds[--n]);
	if (stat("important.txt", &sb) != 0)
		return 2;
	printf("wronly %s, rdonly %s, size %ld\n", a < 0 ? strerror(ea) : "ok",
	       b < 0 ? strerror(eb) : "ok", (long)sb.st_size);
	return 0;
}
