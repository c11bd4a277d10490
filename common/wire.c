/* TLV encoding for the shim <-> supervisor wire; see wire.h.
 * Async-signal-safe throughout. */
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "plainstr.h"

/* send(MSG_NOSIGNAL): a peer that went away must give EPIPE, not a SIGPIPE
 * that kills the agent (or the supervisor). Plain write for non-sockets. */
static int write_all(int fd, const void *data, size_t n)
{
	const unsigned char *p = data;
	int sock = 1;

	while (n > 0) {
		ssize_t r = sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOTSOCK && sock) {
				sock = 0;
				continue;
			}
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int hs_write_full(int fd, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n > 0) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void wire_flush(struct hs_wire *w)
{
	if (!w->failed && w->len && write_all(w->fd, w->buf, w->len) < 0)
		w->failed = 1;
	w->len = 0;
}

static void wire_bytes(struct hs_wire *w, const void *data, size_t n)
{
	if (w->failed)
		return;
	if (n > sizeof(w->buf) - w->len) {
		wire_flush(w);
		if (n > sizeof(w->buf)) {
			if (!w->failed && write_all(w->fd, data, n) < 0)
				w->failed = 1;
			return;
		}
	}
	memcpy(w->buf + w->len, data, n);
	w->len += n;
}

void hs_wire_init(struct hs_wire *w, int fd)
{
	w->fd = fd;
	w->failed = 0;
	w->len = 0;
}

void hs_wire_put(struct hs_wire *w, int tag, const void *data, size_t len)
{
	unsigned char hdr[5];
	uint32_t n = (uint32_t)len;

	hdr[0] = (unsigned char)tag;
	hdr[1] = (unsigned char)(n & 0xff);
	hdr[2] = (unsigned char)((n >> 8) & 0xff);
	hdr[3] = (unsigned char)((n >> 16) & 0xff);
	hdr[4] = (unsigned char)((n >> 24) & 0xff);
	wire_bytes(w, hdr, sizeof(hdr));
	if (len)
		wire_bytes(w, data, len);
}

void hs_wire_puts(struct hs_wire *w, int tag, const char *s)
{
	hs_wire_put(w, tag, s, s ? strlen(s) : 0);
}

void hs_wire_putnum(struct hs_wire *w, int tag, long v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	hs_wire_put(w, tag, p, (size_t)(tmp + sizeof(tmp) - p));
}

int hs_wire_finish(struct hs_wire *w)
{
	hs_wire_put(w, HS_F_END, NULL, 0);
	wire_flush(w);
	return w->failed ? -1 : 0;
}

int hs_wire_read_exact(int fd, void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int hs_wire_read_header(int fd, int *tag, uint32_t *len)
{
	unsigned char hdr[5];

	if (hs_wire_read_exact(fd, hdr, sizeof(hdr)) < 0)
		return -1;
	*tag = hdr[0];
	*len = (uint32_t)hdr[1] | (uint32_t)hdr[2] << 8 |
	       (uint32_t)hdr[3] << 16 | (uint32_t)hdr[4] << 24;
	return 0;
}

int hs_wire_read_body(int fd, uint32_t len, char *buf, size_t cap)
{
	size_t keep = len < cap ? len : (cap ? cap - 1 : 0);
	size_t rest = len - keep;
	char sink[256];

	if (keep && hs_wire_read_exact(fd, buf, keep) < 0)
		return -1;
	if (cap)
		buf[keep] = '\0';
	while (rest > 0) {
		size_t n = rest < sizeof(sink) ? rest : sizeof(sink);

		if (hs_wire_read_exact(fd, sink, n) < 0)
			return -1;
		rest -= n;
	}
	return 0;
}

int hs_wire_addr(const char *name, struct sockaddr_un *sa, unsigned *len)
{
	size_t n;

	if (name[0] == '@')
		name++;
	n = strlen(name);
	if (n == 0 || n + 1 > sizeof(sa->sun_path))
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, name, n);
	*len = (unsigned)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	return 0;
}

int hs_wire_peer_is_ours(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return 0;
	return cr.uid == geteuid() || cr.uid == getuid();
}

long hs_wire_peer_pid(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -1;
	if (cr.uid != geteuid() && cr.uid != getuid())
		return -1;
	return cr.pid > 0 ? (long)cr.pid : -1;
}

int hs_proc_stat_fd(int statfd, struct hs_proc_stat *st)
{
	char buf[1024];
	size_t n = 0;
	const char *p, *end;
	unsigned long v = 0;
	int field = 2; /* the field the last ')' ends: comm */

	if (statfd < 0)
		return -1;
	while (n < sizeof(buf) - 1) {
		ssize_t r = read(statfd, buf + n, sizeof(buf) - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	end = buf + n;
	/* comm may hold spaces and ')': fields count from the last ')' */
	for (p = end; p > buf && p[-1] != ')'; p--)
		;
	if (p == buf || end - p < 3 || p[0] != ' ')
		return -1;
	st->state = p[1];
	st->ppid = -1;
	st->start = -1;
	st->start_code = st->start_brk = st->arg_start = st->env_start = 0;
	/* one space before each field; 4: ppid, 22: starttime, 26:
	 * startcode, 47: start_brk, 48: arg_start, 50: env_start */
	for (; p < end && field < 50; p++) {
		if (*p != ' ')
			continue;
		field++;
		if (field != 4 && field != 22 && field != 26 && field != 47 &&
		    field != 48 && field != 50)
			continue;
		if (p + 1 >= end || p[1] < '0' || p[1] > '9')
			break;
		for (v = 0; p + 1 < end && p[1] >= '0' && p[1] <= '9'; p++)
			v = v * 10 + (unsigned long)(p[1] - '0');
		if (field == 4)
			st->ppid = (long)v;
		else if (field == 22)
			st->start = (long)v;
		else if (field == 26)
			st->start_code = v;
		else if (field == 47)
			st->start_brk = v;
		else if (field == 48)
			st->arg_start = v;
		else
			st->env_start = v;
	}
	return st->ppid < 0 || st->start < 0 ? -1 : 0;
}

int hs_proc_stat(long pid, struct hs_proc_stat *st)
{
	char path[40];
	int fd, r;

	hs_proc_stat_path(path, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	r = hs_proc_stat_fd(fd, st);
	if (fd >= 0)
		close(fd);
	return r;
}

long hs_proc_start_time_fd(int statfd)
{
	struct hs_proc_stat st;

	return hs_proc_stat_fd(statfd, &st) < 0 ? -1 : st.start;
}

void hs_proc_stat_path(char *buf, long pid)
{
	char tmp[24];
	size_t n = 0, at;

	hs_copy(buf, "/proc/", 6);
	at = 6;
	do {
		tmp[n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0 && n < sizeof(tmp));
	while (n)
		buf[at++] = tmp[--n];
	hs_copy(buf + at, "/stat", 6);
}

bool hs_wire_supervisor_matches(long peer, int statfd, long pid, long start)
{
	return pid > 0 && start > 0 && peer == pid &&
	       hs_proc_start_time_fd(statfd) == start;
}

/* ---------------------------------------------------- the request table */

#define HS_AUX_STR(s, m) 0
#define HS_AUX_BYTES(s, m) offsetof(s, m##_len)
#define HS_AUX_ARGV(s, m) offsetof(s, m##_count)
#define HS_AUX_TRI(s, m) 0
#define HS_AUX_NUM(s, m) 0
#define HS_AUX_OPTNUM(s, m) offsetof(s, has_##m)
#define HS_DESC_(name, tag, kind, member)                                  \
	{ tag, HS_KIND_##kind, offsetof(struct hs_msg, member),            \
	  HS_AUX_##kind(struct hs_msg, member) },

const struct hs_field_desc hs_request_fields[] = {
	HS_REQUEST_FIELDS(HS_DESC_)
};
const unsigned hs_request_nfields =
	sizeof(hs_request_fields) / sizeof(hs_request_fields[0]);

const struct hs_field_desc *hs_request_field(int tag)
{
	for (unsigned i = 0; i < hs_request_nfields; i++)
		if (hs_request_fields[i].tag == tag)
			return &hs_request_fields[i];
	return NULL;
}

void hs_wire_put_msg(struct hs_wire *w, const struct hs_msg *m)
{
	const char *base = (const char *)m;

	for (unsigned i = 0; i < hs_request_nfields; i++) {
		const struct hs_field_desc *d = &hs_request_fields[i];
		const void *at = base + d->off;

		switch (d->kind) {
		case HS_KIND_STR:
			if (*(const char *const *)at)
				hs_wire_puts(w, d->tag, *(const char *const *)at);
			break;
		case HS_KIND_BYTES:
			if (*(const char *const *)at)
				hs_wire_put(w, d->tag, *(const char *const *)at,
					    *(const size_t *)(base + d->aux));
			break;
		case HS_KIND_ARGV:
			for (char *const *a = *(char *const *const *)at; a && *a;
			     a++)
				hs_wire_puts(w, d->tag, *a);
			break;
		case HS_KIND_TRI:
			if (*(const int *)at >= 0)
				hs_wire_puts(w, d->tag,
					     *(const int *)at ? "1" : "0");
			break;
		case HS_KIND_NUM:
			if (*(const long *)at)
				hs_wire_putnum(w, d->tag, *(const long *)at);
			break;
		case HS_KIND_OPTNUM:
			if (*(const bool *)(base + d->aux))
				hs_wire_putnum(w, d->tag, *(const long *)at);
			break;
		}
	}
}

bool hs_flags_next(const char **s, char *key, long *val)
{
	const char *p = *s;

	while (p && *p) {
		const char *end = p;
		long v = 0;
		bool ok;

		while (*end && *end != ',')
			end++;
		ok = end - p > 2 && p[1] == '=';
		for (const char *d = p + 2; ok && d < end; d++) {
			if (*d < '0' || *d > '9' || v > (LONG_MAX - 9) / 10)
				ok = false;
			else
				v = v * 10 + (*d - '0');
		}
		*key = p[0];
		*val = v;
		p = *end ? end + 1 : NULL;
		if (ok) {
			*s = p;
			return true;
		}
	}
	*s = p;
	return false;
}
