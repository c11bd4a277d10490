/* Magic /proc links in a path; see proclink.h. */
#include "proclink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plainstr.h"

int hs_proclink_target(const char *link, char *out)
{
	long n = syscall(SYS_readlinkat, AT_FDCWD, link, out, PATH_MAX - 1);

	if (n < 0 && errno == ENAMETOOLONG)
		return HS_PATH_TOOLONG;
	if (n <= 0 || out[0] != '/')
		return -1;
	if (n >= PATH_MAX - 1)
		return HS_PATH_TOOLONG;
	out[n] = '\0';
	return 0;
}

/* Digits at p: their count (0 when none), the value in *v. */
static size_t digits(const char *p, long *v)
{
	size_t n = 0;

	*v = 0;
	while (p[n] >= '0' && p[n] <= '9' && n < 10)
		*v = *v * 10 + (p[n++] - '0');
	return (p[n] >= '0' && p[n] <= '9') ? 0 : n;
}

/* A map_files/ entry's name at p, "START-END" in hex (the kernel
 * takes either case): its length, 0 when it is not one. */
static size_t range(const char *p)
{
	size_t n = 0, dash = 0;

	for (; n < 34 && ((p[n] >= '0' && p[n] <= '9') ||
			  (p[n] >= 'a' && p[n] <= 'f') ||
			  (p[n] >= 'A' && p[n] <= 'F') || p[n] == '-');
	     n++)
		if (p[n] == '-') {
			if (dash || !n)
				return 0;
			dash = n;
		}
	return dash && dash + 1 < n ? n : 0;
}

/* "cwd", "root", "fd/N", "map_files/START-END" or "exe" at s, ending at
 * a '/' or the end ("exe" names a program: a static busybox runs its
 * applets, `sh` among them, by exec'ing /proc/self/exe; a map_files/
 * entry is the file mapped there, which root may open for writing
 * whatever the mapping's descriptor was). */
static bool link_name(const char *p, const char *s, struct hs_proclink *l)
{
	size_t n = 0;
	long fd;

	if (hs_starts(s, "cwd"))
		n = 3;
	else if (hs_starts(s, "root"))
		n = 4;
	else if (hs_starts(s, "exe"))
		n = 3;
	else if (hs_starts(s, "fd/") && digits(s + 3, &fd))
		n = 3 + digits(s + 3, &fd);
	else if (hs_starts(s, "map_files/") && range(s + 10))
		n = 10 + range(s + 10);
	if (!n || (s[n] != '/' && s[n] != '\0'))
		return false;
	l->what = s;
	l->what_len = n;
	l->end = (size_t)(s + n - p);
	return true;
}

bool hs_proclink(const char *p, struct hs_proclink *l)
{
	const char *s;
	long v;
	size_t n;

	l->self = true;
	l->pid = 0;
	if (hs_starts(p, "/dev/fd/"))
		return link_name(p, p + 5, l);
	if (!hs_starts(p, "/proc/"))
		return false;
	s = p + 6;
	if (hs_starts(s, "self/")) {
		s += 5;
	} else if (hs_starts(s, "thread-self/")) {
		s += 12;
	} else if ((n = digits(s, &v)) && s[n] == '/') {
		l->self = false;
		l->pid = v;
		s += n + 1;
	} else {
		return false;
	}
	/* /proc/PID/task/TID/...: the thread's own cwd and descriptors (a
	 * task has no map_files/ of its own) */
	if (hs_starts(s, "task/") && (n = digits(s + 5, &v)) && s[5 + n] == '/') {
		l->self = false;
		l->pid = v;
		s += 5 + n + 1;
		if (hs_starts(s, "map_files/"))
			return false;
	}
	return link_name(p, s, l);
}

static const char *const stdio_names[3] = { "stdin", "stdout", "stderr" };

int hs_proclink_stdio(char *p, const char *root)
{
	size_t rl = hs_len(root);

	if (!hs_starts(p, "/dev/std"))
		return -1;
	for (int n = 0; n < 3; n++) {
		size_t l = hs_len(stdio_names[n]), rest;
		char link[96], tgt[32];
		long k;

		if (!hs_starts(p + 5, stdio_names[n]) ||
		    (p[5 + l] != '\0' && p[5 + l] != '/'))
			continue;
		if (rl + 5 + l >= sizeof(link))
			return -1;
		hs_copy(link, root, rl);
		hs_copy(link + rl, p, 5 + l);
		link[rl + 5 + l] = '\0';
		k = syscall(SYS_readlinkat, AT_FDCWD, link, tgt,
			    sizeof(tgt) - 1);
		if (k != 15 || !hs_same_n(tgt, "/proc/self/fd/", 14) ||
		    tgt[14] != (char)('0' + n))
			return -1;
		/* "/dev/stdout..." as "/dev/fd/1...": shorter, in place */
		rest = hs_len(p + 5 + l) + 1; /* with its NUL */
		hs_copy(p + 5, "fd/", 3);
		p[8] = (char)('0' + n);
		for (size_t i = 0; i < rest; i++)
			p[9 + i] = p[5 + l + i];
		return n;
	}
	return -1;
}

void hs_proclink_stdio_back(char *p, int n)
{
	size_t l, rest;

	if (n < 0 || n > 2 || !hs_starts(p, "/dev/fd/"))
		return;
	l = hs_len(stdio_names[n]);
	rest = hs_len(p + 9) + 1;
	if (9 + rest + (l - 4) > PATH_MAX)
		return; /* folded since into something else: as it is */
	/* longer again, by what it was shorter */
	for (size_t i = rest; i-- > 0;)
		p[5 + l + i] = p[9 + i];
	hs_copy(p + 5, stdio_names[n], l);
}
