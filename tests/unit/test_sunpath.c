/* common/sunpath.h: the name a bind of a unix socket makes, read from
 * its address as the kernel reads it, for the shim and the floor alike. */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/sunpath.h"
#include "check.h"

#define HEAD offsetof(struct sockaddr_un, sun_path)

static char out[HS_SUN_CAP];

/* the name of a unix address whose sun_path holds p (len bytes of the
 * address in all) */
static const char *name_of(const char *p, size_t len)
{
	struct sockaddr_storage ss;
	struct sockaddr_un *u = (struct sockaddr_un *)&ss;

	memset(&ss, 'Z', sizeof(ss)); /* no NUL past what is written */
	u->sun_family = AF_UNIX;
	memcpy(u->sun_path, p, strlen(p) + 1);
	return hs_sun_path(&ss, len, out) ? out : "(none)";
}

int main(void)
{
	struct sockaddr_un u = { .sun_family = AF_UNIX };
	struct sockaddr_in in = { .sin_family = AF_INET };
	char full[sizeof(u.sun_path) + 1];

	CHECK_STR("a name, its NUL counted", "run/x.sock",
		  name_of("run/x.sock", HEAD + 11));
	CHECK_STR("a name, the address ending before its NUL",
		  "run/x.sock", name_of("run/x.sock", HEAD + 10));
	CHECK_STR("a name ends at the address's end (the kernel's NUL)",
		  "run/x", name_of("run/x.sock", HEAD + 5));
	CHECK_STR("a name ends at its first NUL, whatever the length",
		  "/tmp/s", name_of("/tmp/s", sizeof(u)));
	CHECK_STR("an abstract name (a NUL first): none", "(none)",
		  name_of("", HEAD + 6));
	CHECK_STR("an autobind (the family alone): none", "(none)",
		  name_of("x", HEAD));
	CHECK_STR("longer than struct sockaddr_un (EINVAL): none", "(none)",
		  name_of("x", sizeof(u) + 1));
	CHECK("another family: none",
	      hs_sun_path(&in, sizeof(in), out) == 0 && out[0] == '\0');
	CHECK("no address: none", hs_sun_path(NULL, sizeof(u), out) == 0);

	/* all of sun_path, no NUL in it: the whole of it */
	memset(u.sun_path, 'a', sizeof(u.sun_path));
	memset(full, 'a', sizeof(full) - 1);
	full[sizeof(full) - 1] = '\0';
	CHECK("sun_path full, no NUL: all 108 bytes",
	      hs_sun_path(&u, sizeof(u), out) == sizeof(u.sun_path) &&
		      strcmp(out, full) == 0);
	CHECK_DONE();
}
