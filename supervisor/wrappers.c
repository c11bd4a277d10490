/* PATH tool wrappers' directories; see wrappers.h. */
#include "wrappers.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char buf[PATH_MAX];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, dir, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static bool valid_tool_name(const char *t)
{
	return t[0] && !strchr(t, '/') && strcmp(t, ".") != 0 &&
	       strcmp(t, "..") != 0;
}

/* DIR/TOOL -> self; an existing symlink is replaced, anything else is
 * left alone (it is not ours to delete). */
static int link_tool(const char *dir, const char *tool, const char *self)
{
	char path[PATH_MAX], cur[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!valid_tool_name(tool)) {
		fprintf(stderr, "hookshim: wrap: bad tool name '%s'\n", tool);
		return -1;
	}
	if (snprintf(path, sizeof(path), "%s/%s", dir, tool) >=
	    (int)sizeof(path))
		return -1;
	if (lstat(path, &st) == 0) {
		if (!S_ISLNK(st.st_mode)) {
			fprintf(stderr, "hookshim: wrap: %s exists and is not "
					"a symlink\n", path);
			return -1;
		}
		n = readlink(path, cur, sizeof(cur) - 1);
		if (n > 0 && (cur[n] = '\0', strcmp(cur, self) == 0))
			return 0;
		unlink(path);
	}
	if (symlink(self, path) < 0) {
		fprintf(stderr, "hookshim: wrap: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

int hs_wrap_create(const char *dir, char *const tools[], size_t ntools)
{
	char self[PATH_MAX];

	if (!realpath("/proc/self/exe", self)) {
		perror("hookshim: /proc/self/exe");
		return -1;
	}
	if (make_dirs(dir) < 0) {
		fprintf(stderr, "hookshim: wrap: %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < ntools; i++)
		if (link_tool(dir, tools[i], self) < 0)
			return -1;
	return 0;
}

char *hs_wrap_dir_make(char *const *tools)
{
	const char *tmp = getenv("TMPDIR");
	size_t n = 0;
	char *dir;

	while (tools[n])
		n++;
	if (asprintf(&dir, "%s/hookshim-wrap-XXXXXX",
		     tmp && tmp[0] ? tmp : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir) || hs_wrap_create(dir, tools, n) < 0) {
		fprintf(stderr, "hookshim: wrapper dir %s: %s\n", dir,
			strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

void hs_wrap_dir_remove(char *dir, char *const *tools)
{
	char path[PATH_MAX];

	if (!dir)
		return;
	for (size_t i = 0; tools && tools[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tools[i]);
		unlink(path);
	}
	rmdir(dir);
	free(dir);
}
