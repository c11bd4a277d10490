/* writes.follow_symlinks through the shim: a dynamic program (its libc
 * calls are the shim's) writing through a symlinked directory L that
 * another process flips between a harmless directory and a denied one
 * (tests/security/follow_race.sh). Prints "KIND: N opened".
 *   KIND:L:N   N writes of "x" to L/x, each a fresh call of KIND:
 *     open      open(O_WRONLY|O_CREAT|O_APPEND) + write + close
 *     openat    openat(AT_FDCWD, ...) the same
 *     fopen     fopen("a") + fputc + fclose
 *     creat     creat + write + close (each one truncates)
 *     truncate  truncate(L/x, 1) (a file there already)
 *     fopen-w   fopen("w") + fputc + fclose
 *     unlink    unlink(L/x)
 *     rename    a file "src" made in the working directory, renamed to
 *               L/x
 *     link      a hard link L/x to "src" (made once), then unlink(L/x)
 *               when it was made */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_close(int fd)
{
	int ok = fd >= 0 && write(fd, "x", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

static int one(const char *kind, const char *p)
{
	FILE *f;

	if (!strcmp(kind, "open"))
		return write_close(open(p, O_WRONLY | O_CREAT | O_APPEND, 0644));
	if (!strcmp(kind, "openat"))
		return write_close(openat(AT_FDCWD, p,
					  O_WRONLY | O_CREAT | O_APPEND, 0644));
	if (!strcmp(kind, "creat"))
		return write_close(creat(p, 0644));
	if (!strcmp(kind, "truncate"))
		return truncate(p, 1) == 0;
	if (!strcmp(kind, "unlink"))
		return unlink(p) == 0;
	if (!strcmp(kind, "rename")) {
		int fd = open("src", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || write(fd, "r", 1) != 1 || close(fd) < 0)
			exit(2);
		return rename("src", p) == 0;
	}
	if (!strcmp(kind, "link")) {
		int fd = open("src", O_WRONLY | O_CREAT, 0644);

		if (fd < 0 || close(fd) < 0)
			exit(2);
		if (link("src", p) != 0)
			return 0;
		unlink(p); /* judged too: denied where the link must not be */
		return 1;
	}
	if (!strcmp(kind, "fopen") || !strcmp(kind, "fopen-w")) {
		f = fopen(p, kind[5] ? "w" : "a");
		if (!f)
			return 0;
		fputc('x', f);
		return fclose(f) == 0;
	}
	fprintf(stderr, "unknown kind %s\n", kind);
	exit(2);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *kind = argv[i], *l = strchr(kind, ':'), *n, p[4096];
		int ok = 0;

		if (!l || !(n = strchr(l + 1, ':'))) {
			fprintf(stderr, "usage: KIND:L:N\n");
			return 2;
		}
		*l++ = '\0';
		*n++ = '\0';
		snprintf(p, sizeof(p), "%s/x", l);
		for (int k = 0, max = atoi(n); k < max; k++)
			ok += one(kind, p);
		printf("%s: %d opened\n", kind, ok);
		fflush(stdout);
	}
	return 0;
}
