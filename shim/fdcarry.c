/* Write descriptors handed across exec; see fdcarry.h. */
#include "fdcarry.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../common/plainstr.h"
#include "envfix.h"
#include "fdtrack.h"
#include "../common/wire.h"
#include "state.h"

/* A few full-length paths; a record that does not fit loses its post
 * rather than risk the stack of a small thread. */
#define CARRY_MAX 16384

/* Appends to buf while it fits; counts regardless, so a NULL buf
 * measures. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->buf && o->len + n < o->cap)
		memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void put_num(struct out *o, unsigned long v)
{
	char num[24];

	put(o, num, strlen(hs_utoa(v, num)));
}

/* "N:bytes" */
static void put_field(struct out *o, const char *s, size_t cap)
{
	size_t n = strnlen(s, cap - 1); /* a torn copy is still bounded */

	put_num(o, n);
	put(o, ":", 1);
	put(o, s, n);
}

/* Whether fd is open and stays open across exec. */
static bool survives(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl >= 0 && !(fl & FD_CLOEXEC);
}

static size_t build(char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };
	struct hs_fdt_info info;
	int fds[HS_FDT_LANES], n, pos = 0;
	size_t head;

	if (!hs_fdt_active())
		return 0;
	put(&o, HS_ENV_FDS "=", sizeof(HS_ENV_FDS));
	put_num(&o, (unsigned long)hs_getpid());
	head = o.len;
	while (hs_fdt_next(&pos, fds, &n, &info)) {
		size_t mark = o.len;
		char sep = '/';

		for (int i = 0; i < n; i++) {
			if (!survives(fds[i]))
				continue;
			put(&o, &sep, 1);
			put_num(&o, (unsigned long)fds[i]);
			sep = ',';
		}
		if (sep == '/')
			continue; /* every copy closes at exec */
		put(&o, ":", 1);
		put_num(&o, info.flags);
		put(&o, ":", 1);
		put_field(&o, info.op, sizeof(info.op));
		put_field(&o, info.id, sizeof(info.id));
		put_field(&o, info.path, sizeof(info.path));
		if (o.len + 1 > cap)
			o.len = mark; /* does not fit: this one is lost */
	}
	if (o.len == head)
		return 0;
	if (o.buf)
		o.buf[o.len] = '\0';
	return o.len + 1;
}

size_t hs_fdc_size(void)
{
	return build(NULL, CARRY_MAX);
}

char *hs_fdc_build(char *buf, size_t cap)
{
	return build(buf, cap) ? buf : NULL;
}

/* --- the new image ----------------------------------------------------- */

/* A decimal at *p, advancing it; -1 if there is none. */
static long get_num(const char **p)
{
	long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && v < 1L << 40)
		v = v * 10 + (*s++ - '0');
	*p = s;
	return v;
}

/* "N:bytes" at *p into dst (cap bytes, NUL-terminated); false if it is
 * malformed or does not fit. */
static bool get_field(const char **p, char *dst, size_t cap)
{
	long n = get_num(p);

	if (n < 0 || (size_t)n >= cap || **p != ':' || strnlen(*p + 1, (size_t)n) < (size_t)n)
		return false;
	memcpy(dst, *p + 1, (size_t)n);
	dst[n] = '\0';
	*p += 1 + n;
	return true;
}

/* Tracks one record "/FD[,FD...]:op id path" at *p. */
static bool take_record(const char **p)
{
	struct hs_fdt_info info, stale;
	int fds[HS_FDT_LANES], n = 0, first = -1;
	long flags;

	if (**p != '/')
		return false;
	do {
		long fd;

		++*p;
		fd = get_num(p);
		if (fd < 0 || fd > 0xffff || n == HS_FDT_LANES)
			return false;
		fds[n++] = (int)fd;
	} while (**p == ',');
	if (**p != ':')
		return false;
	++*p;
	if ((flags = get_num(p)) < 0 || **p != ':')
		return false;
	++*p;
	if (!get_field(p, info.op, sizeof(info.op)) ||
	    !get_field(p, info.id, sizeof(info.id)) ||
	    !get_field(p, info.path, sizeof(info.path)))
		return false;
	for (int i = 0; i < n; i++) {
		if (fcntl(fds[i], F_GETFD) < 0)
			continue; /* closed by a constructor before ours */
		if (first < 0) {
			first = fds[i];
			hs_fdt_add(first, info.path, info.op, info.id,
				   (unsigned)flags, &stale);
		} else {
			hs_fdt_dup(first, fds[i]);
		}
	}
	return true;
}

static void take(const char *v)
{
	const char *p = v;

	if (get_num(&p) != (long)hs_getpid())
		return; /* handed to someone else, passed on by a raw exec */
	while (*p && take_record(&p))
		;
}

HS_START_PATH
void hs_fdc_inherit(void)
{
	const char *v = hs_environ_take(HS_ENV_FDS "=");

	/* an inert process (a hook, the hookshim binary) fires nothing */
	if (v && hs_state()->active)
		take(v);
}
