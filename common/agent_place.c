/* See agent_place.h. */
#include "agent_place.h"

#include <string.h>

/* abs past "home" + "/" + sub (sub may be empty), or NULL. */
static const char *past(const char *abs, const char *home, size_t hn,
			const char *sub)
{
	size_t sn = strlen(sub);

	if (strncmp(abs, home, hn) != 0 || abs[hn] != '/')
		return NULL;
	abs += hn + 1;
	if (strncmp(abs, sub, sn) != 0)
		return NULL;
	return abs + sn;
}

/* Does p start with name, followed by its end or a '/'? */
static bool dir_named(const char *p, const char *name, size_t n)
{
	return p && strncmp(p, name, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

bool hs_agent_place(const char *abs, const char *home, const char *name,
		    size_t n)
{
	static const char xdg[][16] = { ".config/", ".local/share/",
					 ".cache/", ".local/state/" };
	size_t hn;
	const char *p;

	if (!abs || !home || home[0] != '/' || !n || memchr(name, '/', n) ||
	    (n == 1 && name[0] == '.') ||
	    (n == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	hn = strlen(home);
	while (hn > 1 && home[hn - 1] == '/')
		hn--;
	if (hn == 1) /* home is "/": the places are "/.NAME"... */
		hn = 0;
	/* HOME/.NAME, below it, and HOME/.NAME.<x> (a file beside it) */
	p = past(abs, home, hn, ".");
	if (p && strncmp(p, name, n) == 0 &&
	    (p[n] == '\0' || p[n] == '/' || (p[n] == '.' && p[n + 1] &&
					     !strchr(p + n + 1, '/'))))
		return true;
	for (size_t i = 0; i < sizeof(xdg) / sizeof(xdg[0]); i++)
		if (dir_named(past(abs, home, hn, xdg[i]), name, n))
			return true;
	return false;
}

bool hs_agent_glob_above_home(const char *glob, const char *home)
{
	size_t n = strcspn(glob, "*?[\\");

	while (n > 0 && glob[n - 1] == '/')
		n--;
	return home && n > 0 && strncmp(home, glob, n) == 0 &&
	       (home[n] == '/' || home[n] == '\0');
}
