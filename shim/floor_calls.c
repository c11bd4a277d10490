/* The libc functions that open internally, redone with cookied syscalls;
 * see floor_calls.h. */
#include "floor_calls.h"

#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "../common/wire.h"
#include "write.h"

int hs_floor_ask_exec(const char *exe, char *const argv[], enum hs_role role)
{
	static const char tool_role[] = HS_ENV_ROLE "=tool";
	static const char agent_role[] = HS_ENV_ROLE "=agent";
	static const char handoff_role[] = HS_ENV_ROLE "=handoff";
	/* read by the floor, never written */
	const char *envp[2] = { role == HS_ROLE_TOOL	  ? tool_role
				: role == HS_ROLE_HANDOFF ? handoff_role
							  : agent_role,
				NULL };
	long r = hs_raw_call6(SYS_execveat, AT_FDCWD, (long)exe, (long)argv,
			      (long)envp, HS_FLOOR_ASK_FLAGS,
			      (long)HS_FLOOR_ASK(hs_st.cookie));

	if (r == 0 || r == HS_FLOOR_ASK_DENIED || r == HS_FLOOR_ASK_HANDOFF)
		return (int)r;
	if (r > 0) /* not the floor's answer: nobody judged it */
		errno = EINVAL;
	return -1;
}

HS_CHILD_PATH
void hs_floor_take(int fd, const char *exe, char *const argv[])
{
	int saved = errno;

	/* no envp: the floor reads our argv and nothing else */
	(void)hs_raw_call6(SYS_execveat, fd, (long)exe, (long)argv, 0,
			   HS_FLOOR_TAKE_FLAGS,
			   (long)HS_FLOOR_ASK(hs_st.cookie));
	errno = saved;
}

FILE *hs_ck_fopen(const char *path, const char *mode)
{
	int fl = hs_fmode_open_flags(mode), fd;
	FILE *f;

	fd = (int)hs_ck_call(SYS_openat, AT_FDCWD, (long)path, fl, 0666, 0);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

/* glibc's letters for mkstemp names. */
static const char letters[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* The six X's before `suffixlen` bytes, or NULL (EINVAL). */
static char *xs(char *tmpl, int suffixlen)
{
	size_t n = strlen(tmpl);

	if (suffixlen < 0 || n < 6 + (size_t)suffixlen) {
		errno = EINVAL;
		return NULL;
	}
	tmpl += n - (size_t)suffixlen - 6;
	if (strncmp(tmpl, "XXXXXX", 6) != 0) {
		errno = EINVAL;
		return NULL;
	}
	return tmpl;
}

static void fill(char *x)
{
	unsigned char r[6];

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned long v = (unsigned long)x ^ (unsigned long)getpid();
		unsigned lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		v ^= (unsigned long)hi << 32 | lo;
		for (int i = 0; i < 6; i++, v >>= 8)
			r[i] = (unsigned char)v;
	}
	for (int i = 0; i < 6; i++)
		x[i] = letters[r[i] % (sizeof(letters) - 1)];
}

/* glibc tries 62**3 names; a few hundred collisions in a row mean
 * something else is wrong. */
#define TRIES 1000

int hs_ck_mkostemps(char *tmpl, int suffixlen, int flags)
{
	char *x = xs(tmpl, suffixlen);

	if (!x)
		return -1;
	for (int i = 0; i < TRIES; i++) {
		int fd;

		fill(x);
		fd = (int)hs_ck_call(SYS_openat, AT_FDCWD, (long)tmpl,
				     (flags & ~O_ACCMODE) | O_RDWR | O_CREAT |
					     O_EXCL,
				     0600, 0);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

char *hs_ck_mkdtemp(char *tmpl)
{
	char *x = xs(tmpl, 0);

	if (!x)
		return NULL;
	for (int i = 0; i < TRIES; i++) {
		fill(x);
		if (hs_ck_call(SYS_mkdirat, AT_FDCWD, (long)tmpl, 0700, 0, 0) == 0)
			return tmpl;
		if (errno != EEXIST)
			return NULL;
	}
	return NULL;
}

/* glibc's remove: unlink, and rmdir for a directory. */
int hs_ck_remove(const char *path)
{
	if (hs_ck_call(SYS_unlinkat, AT_FDCWD, (long)path, 0, 0, 0) == 0)
		return 0;
	if (errno != EISDIR)
		return -1;
	return (int)hs_ck_call(SYS_unlinkat, AT_FDCWD, (long)path,
			       AT_REMOVEDIR, 0, 0);
}
