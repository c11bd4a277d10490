/* Trust records for project hook files; see trust.h. SHA-256 is
 * nettle's (Debian's nettle-dev). */
#include "trust.h"

#include "../common/pathfold.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hs_trust_records(char *buf, size_t n)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int k;

	if (state && state[0] == '/')
		k = snprintf(buf, n, "%s/hookshim/trusted", state);
	else if (home && home[0] == '/')
		k = snprintf(buf, n, "%s/.local/state/hookshim/trusted", home);
	else
		return -1;
	return k > 0 && (size_t)k < n ? 0 : -1;
}

int hs_trust_digest(const char *path, char hex[HS_TRUST_HEX])
{
	struct sha256_ctx ctx;
	uint8_t buf[65536], d[SHA256_DIGEST_SIZE];
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	sha256_init(&ctx);
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		sha256_update(&ctx, (size_t)r, buf);
	}
	close(fd);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return 0;
}

/* The record for `real` in the records' text, or NULL: a line is
 * "<64 hex> <path>". */
static const char *find(const char *text, const char *real)
{
	size_t n = strlen(real);

	for (const char *l = text; *l;) {
		const char *e = strchrnul(l, '\n');

		if ((size_t)(e - l) == HS_TRUST_HEX + n &&
		    l[HS_TRUST_HEX - 1] == ' ' &&
		    memcmp(l + HS_TRUST_HEX, real, n) == 0)
			return l;
		l = *e ? e + 1 : e;
	}
	return NULL;
}

/* The whole records' file, or an empty string when there is none yet;
 * NULL on another error. */
static char *read_records(const char *file)
{
	FILE *f = fopen(file, "re");
	char *text = NULL;
	size_t cap = 0, len = 0, r;

	if (!f)
		return errno == ENOENT ? strdup("") : NULL;
	do {
		char *t = realloc(text, cap += 4096);

		if (!t) {
			free(text);
			fclose(f);
			return NULL;
		}
		text = t;
		r = fread(text + len, 1, cap - len - 1, f);
		len += r;
	} while (r > 0);
	text[len] = '\0';
	fclose(f);
	return text;
}

/* A file against the digest its record holds (NULL: no record). */
static enum hs_trust_state state_of(const char *real, const char *recorded)
{
	char hex[HS_TRUST_HEX];

	if (hs_trust_digest(real, hex) < 0)
		return HS_TRUST_UNREADABLE;
	if (!recorded)
		return HS_TRUST_NEVER;
	return strncmp(recorded, hex, HS_TRUST_HEX - 1) == 0 ? HS_TRUST_OK
							   : HS_TRUST_CHANGED;
}

int hs_trust_each(void (*fn)(const char *path, enum hs_trust_state st,
			     void *arg),
		  void *arg)
{
	char file[PATH_MAX], *text;
	int n = 0;

	if (hs_trust_records(file, sizeof(file)) < 0 ||
	    !(text = read_records(file)))
		return -1;
	for (char *l = text; *l;) {
		char *e = strchrnul(l, '\n'), *path = l + HS_TRUST_HEX;
		bool more = *e;

		*e = '\0';
		if ((size_t)(e - l) > HS_TRUST_HEX && l[HS_TRUST_HEX - 1] == ' ') {
			fn(path, state_of(path, l), arg);
			n++;
		}
		l = more ? e + 1 : e;
	}
	free(text);
	return n;
}

enum hs_trust_state hs_trust_check(const char *path)
{
	char file[PATH_MAX], real[PATH_MAX], *text;
	enum hs_trust_state st;

	if (!realpath(path, real))
		return HS_TRUST_UNREADABLE;
	if (hs_trust_records(file, sizeof(file)) < 0 ||
	    !(text = read_records(file)))
		return state_of(real, NULL);
	st = state_of(real, find(text, real));
	free(text);
	return st;
}

/* `path` made absolute against the working directory and folded. */
static bool absolute(const char *path, char *out, size_t n)
{
	char cwd[PATH_MAX];
	int k;

	if (path[0] == '/')
		k = snprintf(out, n, "%s", path);
	else if (getcwd(cwd, sizeof(cwd)))
		k = snprintf(out, n, "%s/%s", cwd, path);
	else
		return false;
	if (k < 0 || (size_t)k >= n)
		return false;
	hs_path_fold(out);
	return true;
}

/* mkdir -p of the records' directory, private to the user. */
static int make_dirs(char *file)
{
	for (char *s = file + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		int r = mkdir(file, 0700);

		*s = '/';
		if (r < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

int hs_trust_set(const char *path, bool forget, char hex[HS_TRUST_HEX],
		 char *err, size_t errlen)
{
	char file[PATH_MAX], tmp[PATH_MAX + 16], real[PATH_MAX], *text;
	const char *rec;
	FILE *out;
	int fd;
	bool bad;

	if (hs_trust_records(file, sizeof(file)) < 0) {
		snprintf(err, errlen, "no place for the records: neither "
			 "XDG_STATE_HOME nor HOME is an absolute path");
		return -1;
	}
	if (!realpath(path, real)) {
		/* a record of a file gone can still be forgotten: by the
		 * name it was recorded under */
		if (!forget || !absolute(path, real, sizeof(real))) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
	} else if (!forget && hs_trust_digest(real, hex) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (strchr(real, '\n')) {
		snprintf(err, errlen, "%s: a path with a newline cannot be "
			 "recorded", path);
		return -1;
	}
	if (!(text = read_records(file))) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file);
	if (make_dirs(file) < 0 || (fd = mkstemp(tmp)) < 0 ||
	    !(out = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		free(text);
		return -1;
	}
	/* every other record as it was, then this one's (unless forgotten) */
	rec = find(text, real);
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) + 1 : strlen(l);

		if (l != rec)
			fprintf(out, "%.*s%s", (int)n, l, e ? "" : "\n");
		l += n;
	}
	if (!forget)
		fprintf(out, "%s %s\n", hex, real);
	free(text);
	bad = fflush(out) != 0 || fsync(fileno(out)) != 0;
	bad |= fclose(out) != 0;
	if (bad || rename(tmp, file) < 0) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
