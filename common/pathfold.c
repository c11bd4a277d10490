/* Lexical path folding; see pathfold.h. */
#include "pathfold.h"

#include <stdbool.h>
#include <string.h>

/* Anything to fold: "//", a "." or ".." segment, a trailing '/'? (Or a
 * dot file: a false alarm only costs the full fold.) */
bool hs_path_foldable(const char *p)
{
	for (; *p; p++)
		if (p[0] == '/' && (p[1] == '/' || p[1] == '.' || !p[1]))
			return true;
	return false;
}

/* dotdot: ".." takes the segment before it away; otherwise it is kept. */
static void fold(char *p, bool dotdot)
{
	char *w = p; /* write position; p[0] == '/' */
	const char *r = p;

	if (!hs_path_foldable(p))
		return; /* the usual path, already canonical */
	while (*r) {
		const char *seg;
		size_t n;

		while (*r == '/')
			r++;
		seg = r;
		while (*r && *r != '/')
			r++;
		n = (size_t)(r - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (dotdot && n == 2 && seg[0] == '.' && seg[1] == '.') {
			/* "/.." is "/" */
			while (w > p && *--w != '/')
				;
			continue;
		}
		*w++ = '/';
		memmove(w, seg, n);
		w += n;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}

void hs_path_fold(char *p)
{
	fold(p, true);
}

void hs_path_fold_dots(char *p)
{
	fold(p, false);
}

int hs_path_join_up(const char *dir, const char *tgt, char *out, size_t cap)
{
	size_t d = strlen(dir), t;

	if (d >= cap || dir[0] != '/')
		return -1;
	memcpy(out, dir, d + 1);
	for (;;) {
		while (*tgt == '/')
			tgt++;
		if (tgt[0] == '.' && (tgt[1] == '/' || !tgt[1])) {
			tgt++;
		} else if (tgt[0] == '.' && tgt[1] == '.' &&
			   (tgt[2] == '/' || !tgt[2])) {
			tgt += 2;
			while (d > 0 && out[d - 1] == '/')
				d--; /* (a trailing slash of dir) */
			while (d > 0 && out[d - 1] != '/')
				d--;
			while (d > 1 && out[d - 1] == '/')
				d--;
			if (d == 0)
				d = 1; /* "/.." is "/" */
			out[d] = '\0';
		} else {
			break;
		}
	}
	t = strlen(tgt);
	if (d + 2 + t >= cap)
		return -1;
	if (t) {
		if (out[d - 1] != '/')
			out[d++] = '/';
		memcpy(out + d, tgt, t + 1);
	}
	hs_path_fold_dots(out);
	/* a trailing '/' asks for a directory: the kernel's ENOTDIR or
	 * EISDIR where it is none, kept for whoever opens the name */
	if (t && tgt[t - 1] == '/' && (d = strlen(out)) > 1) {
		out[d] = '/';
		out[d + 1] = '\0';
	}
	return 0;
}
