/* common/pathfold.c: the lexical folds, and a relative symlink target
 * joined to its directory (hs_path_join_up), whose leading ".." segments
 * the floor takes lexically to see a descriptor by name in it. */
#include <stdio.h>
#include <string.h>

#include "common/pathfold.h"
#include "check.h"

static const char *fold(const char *p, int dots)
{
	static char b[256];

	snprintf(b, sizeof(b), "%s", p);
	if (dots)
		hs_path_fold_dots(b);
	else
		hs_path_fold(b);
	return b;
}

static const char *up(const char *dir, const char *tgt)
{
	static char b[64];

	return hs_path_join_up(dir, tgt, b, sizeof(b)) == 0 ? b : "(none)";
}

int main(void)
{
	CHECK_STR("fold: .. takes the segment before", "/a/c", fold("/a/b/../c", 0));
	CHECK_STR("fold: /.. is /", "/", fold("/../..", 0));
	CHECK_STR("fold: // . and a trailing /", "/a/b", fold("//a/./b/", 0));
	CHECK_STR("fold_dots: .. stays", "/a/b/../c", fold("/a//b/./../c", 1));

	CHECK_STR("join_up: leading .. from the directory", "/proc/self/fd/1",
		  up("/srv/app", "../../proc/self/fd/1"));
	CHECK_STR("join_up: more .. than the directory has stop at /",
		  "/proc/self/fd/1", up("/srv", "../../../../proc/self/fd/1"));
	CHECK_STR("join_up: . segments", "/srv/app/x", up("/srv/app", "./././x"));
	CHECK_STR("join_up: a .. after a name is the walk's", "/srv/a/../b",
		  up("/srv", "a/../b"));
	CHECK_STR("join_up: .. then . then ..", "/x", up("/a/b", ".././../x"));
	CHECK_STR("join_up: from /", "/dev/stdout", up("/", "../dev/stdout"));
	CHECK_STR("join_up: only ..", "/a", up("/a/b", ".."));
	CHECK_STR("join_up: only .. from /", "/", up("/", "../.."));
	CHECK_STR("join_up: a directory with a trailing slash", "/a/x",
		  up("/a/b/", "../x"));
	CHECK_STR("join_up: // in the target folded, a trailing / kept", "/a/b/c/",
		  up("/a", "b//c/"));
	CHECK_STR("join_up: a descriptor by name with a trailing /",
		  "/proc/self/fd/1/", up("/srv/app", "../../proc/self/fd/1/"));
	CHECK_STR("join_up: only .. with a trailing /", "/a", up("/a/b", "../"));
	CHECK_STR("join_up: .. named .. only whole", "/a/..x", up("/a", "..x"));
	CHECK_STR("join_up: a relative directory is refused", "(none)",
		  up("a/b", "../x"));
	CHECK_STR("join_up: too long for out", "(none)",
		  up("/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		     "bbbbbbbbbbbbbbbbbbbbbbbbb"));
	CHECK_DONE();
}
